// Issue 19 at the CLI boundary: no library text reaches the user, outputs are checked before
// simulating, runs have wall-clock limits, children die with their parent, and a scenario gives
// the same JSON with any -j.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli_runner.h"

namespace {

using mt::test::CliResult;
using mt::test::exists;
using mt::test::mtsim;
using mt::test::read_file;
using mt::test::read_json;
using mt::test::scratch;
using mt::test::scratch_dir;
using mt::test::write_file;

const char* const kTiny =
    "topology: ring:2\n"
    "collective: {algorithms: [ring], sizes: [1KiB]}\n";

// Seconds of simulation per point on any machine: ring:8 at 64MiB and 32MiB (timing-only).
const char* const kSlow =
    "topology: ring:8\n"
    "collective: {algorithms: [ring], sizes: [64MiB, 32MiB]}\n";

// Pids whose parent is `parent` (from /proc).
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> out;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so parse after the last ')'.
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

// True while `pid` exists and is not a zombie.
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  return line.substr(line.rfind(')') + 2, 1) != "Z";
}

// Starts `mtsim args...` with stdout/stderr to /dev/null; returns its pid.
pid_t spawn_mtsim(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {MT_MTSIM_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    if (std::freopen("/dev/null", "w", stdout) == nullptr) ::_exit(126);
    if (std::freopen("/dev/null", "w", stderr) == nullptr) ::_exit(126);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  return pid;
}

// Kills `mtsim run` with `sig` once its two point processes run; checks none survives it.
void check_children_die_with(int sig) {
  const std::string yaml = scratch("slow.yaml");
  write_file(yaml, kSlow);
  const pid_t pid = spawn_mtsim({"run", yaml, "-j", "2"});
  std::vector<pid_t> kids;
  for (int i = 0; i < 200 && kids.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    kids = children_of(pid);
  }
  REQUIRE(kids.size() == 2);
  ::kill(pid, sig);
  ::waitpid(pid, nullptr, 0);
  bool any_alive = true;
  for (int i = 0; i < 100 && any_alive; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    any_alive = false;
    for (const pid_t k : kids) any_alive = any_alive || alive(k);
  }
  for (const pid_t k : kids)
    if (alive(k)) ::kill(k, SIGKILL);  // leave nothing running even when the check fails
  CHECK_FALSE(any_alive);
}

// A results JSON without its wall-clock times.
nlohmann::json without_wall_times(nlohmann::json doc) {
  for (auto& run : doc.at("runs")) run.erase("wall_seconds");
  return doc;
}

}  // namespace

TEST_CASE("unreadable and malformed schedule files are named without library text") {
  const std::string dir = scratch_dir("a_folder");
  const CliResult folder = mtsim("verify " + dir);
  CHECK(folder.status == 2);
  CHECK(folder.output ==
        "mtsim verify: " + dir + ": cannot read the schedule file: Is a directory\n");

  const std::string big = scratch("big.json");
  write_file(big, "{\"format\": 1e400}");
  const CliResult overflow = mtsim("verify " + big);
  CHECK(overflow.status == 2);
  CHECK(overflow.output == "mtsim verify: schedule file \"" + big +
                               "\": invalid JSON: number overflow parsing '1e400'\n");

  // A schedule whose "topology" field is not a topology: the file is named.
  const std::string bad_topo = scratch("bad_topo.json");
  const CliResult built = mtsim("schedule -t ring:4 -a ring -f json");
  REQUIRE(built.status == 0);
  nlohmann::json schedule = nlohmann::json::parse(built.output);
  schedule["topology"] = "ring:1x";
  write_file(bad_topo, schedule.dump());
  const CliResult topo = mtsim("verify " + bad_topo);
  CHECK(topo.status == 2);
  CHECK_THAT(topo.output, Catch::StartsWith("mtsim verify: schedule file \"" + bad_topo +
                                            "\": topology: \"ring:1x\": "));
}

TEST_CASE("size options and values never print stod") {
  const CliResult option = mtsim("schedule -t ring:4 -a ring --bytes .");
  CHECK(option.status == 2);
  CHECK(option.output ==
        "mtsim schedule: --bytes: \".\" is not a size: expected a positive number of bytes with an "
        "optional unit B, KiB, MiB, GiB, TiB, KB, MB, GB, TB\n");
  const std::string yaml = scratch("tiny.yaml");
  write_file(yaml, kTiny);
  const CliResult value =
      mtsim("run " + yaml + " --set 'collective.sizes=[" + std::string(310, '9') + "]'");
  CHECK(value.status == 2);
  CHECK_THAT(value.output, Catch::EndsWith("\" is too large\n"));
  CHECK_THAT(value.output, !Catch::Contains("stod"));
}

TEST_CASE("an output path that is a folder stops the run before simulating") {
  const std::string yaml = scratch("tiny.yaml");
  write_file(yaml, kTiny);
  const std::string dir = scratch_dir("out_folder");
  const CliResult r = mtsim("run " + yaml + " --json " + dir);
  CHECK(r.status == 2);
  CHECK(r.output == "mtsim run: " + dir + ": cannot write the results JSON: Is a directory\n");
  const CliResult csv = mtsim("run " + yaml + " --csv " + dir + "/no/such/folder.csv");
  CHECK(csv.status == 2);
  CHECK(csv.output == "mtsim run: " + dir +
                          "/no/such/folder.csv: cannot write the results CSV (folder " + dir +
                          "/no/such): No such file or directory\n");
}

TEST_CASE("an empty path is refused instead of read as no file") {
  const std::string yaml = scratch("tiny.yaml");
  write_file(yaml, kTiny);
  const CliResult option = mtsim("run " + yaml + " --json ''");
  CHECK(option.status == 2);
  CHECK(option.output == "mtsim run: --json: empty value\n");
  const CliResult positional = mtsim("run ''");
  CHECK(positional.status == 2);
  CHECK(positional.output == "mtsim run: empty scenario argument\n");
  const CliResult key = mtsim("run " + yaml + " --set 'output={csv: \"\"}'");
  CHECK(key.status == 2);
  CHECK(key.output ==
        "mtsim: --set output={csv: \"\"}: output.csv: empty path (leave the key out to write no "
        "file)\n");
}

TEST_CASE("MT_MAX_MESSAGES must be a positive integer and is named when it refuses") {
  const std::string yaml = scratch("tiny.yaml");
  write_file(yaml, kTiny);
  const std::string run = std::string(MT_MTSIM_BIN) + " run " + yaml;
  const CliResult bad = mt::test::run_shell("MT_MAX_MESSAGES=abc " + run);
  CHECK(bad.status == 2);
  CHECK(bad.output ==
        "mtsim run: MT_MAX_MESSAGES=abc: expected a positive integer (the most messages a "
        "schedule may hold)\n");
  // ring:2 has 2 chunks: 2 nodes x 2 chunks = 4 node-chunk states, more than 3.
  const CliResult small = mt::test::run_shell("MT_MAX_MESSAGES=3 " + run);
  CHECK(small.status == 2);
  CHECK_THAT(small.output, Catch::Contains("are 4 node-chunk states, more than this machine can "
                                           "simulate (at most 3, MT_MAX_MESSAGES): fewer chunks"));
}

TEST_CASE("outputs that would lose each other or the error stop the run before simulating") {
  const std::string yaml = scratch("tiny.yaml");
  write_file(yaml, kTiny);
  const std::string json = scratch("same.json");
  const CliResult same = mtsim("run " + yaml + " --json " + json + " --csv " + json);
  CHECK(same.status == 2);
  CHECK(same.output == "mtsim run: --json and --csv name the same file " + json + "\n");
  CHECK_FALSE(exists(json));
  // An error report that cannot be written is said first, not after the error it would hold.
  const std::string dir = scratch_dir("error_folder");
  const CliResult report = mtsim("run " + yaml + " --error-json " + dir);
  CHECK(report.status == 2);
  CHECK(report.output ==
        "mtsim run: " + dir + ": cannot write the error report (--error-json): Is a directory\n");
}

TEST_CASE("a scenario file name that is not UTF-8 still gives valid JSON") {
  const std::string yaml = scratch("bad\xff.yaml");
  write_file(yaml, kTiny);
  const std::string json = scratch("names.json");
  const CliResult r = mtsim("run '" + yaml + "' --json " + json);
  CHECK(r.status == 0);
  REQUIRE(exists(json));
  CHECK(read_json(json)["runs"][0]["scenario"] == "bad\xef\xbf\xbd");  // U+FFFD
}

TEST_CASE("huge values keep the result table's columns apart") {
  const std::string yaml = scratch("tiny.yaml");
  write_file(yaml, kTiny);
  // 1e-12 B/cycle: 68 flits of 16 bytes take 1.088e15 cycles each.
  const CliResult r = mtsim("run " + yaml + " --set topology.link_bytes_per_cycle=1e-12");
  REQUIRE(r.status == 0);
  const auto row_at = r.output.find("\n1KiB ");
  REQUIRE(row_at != std::string::npos);
  std::istringstream row(r.output.substr(row_at + 1, r.output.find('\n', row_at + 1) - row_at));
  std::vector<std::string> cells;
  for (std::string cell; row >> cell;) cells.push_back(cell);
  REQUIRE(cells.size() == 11);            // size .. bound_cyc, lat_cyc, eff, speedup, data
  CHECK(cells[4] == "1088000000000306");  // 2 packets' serialisation + wire and NIC latency
  CHECK(cells[5] == "1088000000000.306");
  CHECK(cells[6] == "1024000000000000");
}

TEST_CASE("mtsim run --time-limit stops a point at its wall-clock limit") {
  const std::string yaml = scratch("slow.yaml");
  write_file(yaml, kSlow);
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = mtsim("run " + yaml + " -j 2 --time-limit 0.5");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("64MiB    ring                   2     14  FAILED: stopped "
                                       "at the wall-clock limit of 0.5 s (--time-limit)"));
  CHECK_THAT(r.output, Catch::Contains("32MiB    ring                   2     14  FAILED: stopped "
                                       "at the wall-clock limit of 0.5 s (--time-limit)"));
  CHECK(seconds < 30);
  CHECK(mtsim("run " + yaml + " --time-limit -1").output ==
        "mtsim run: --time-limit: expected 0 (none) to 10000000 seconds\n");
}

TEST_CASE("killing mtsim run leaves no point process running") {
  check_children_die_with(SIGKILL);
}

TEST_CASE("SIGTERM to mtsim run stops its point processes") {
  check_children_die_with(SIGTERM);
}

TEST_CASE("mtsim sweep --timeout kills a point at its limit and goes on") {
  const std::string yaml = scratch("slow.yaml");
  write_file(yaml, kSlow);
  const std::string sweep = scratch("timeout_sweep.yaml");
  write_file(sweep, "name: t\nscenario: " + yaml +
                        "\naxes:\n  - key: collective.sizes\n    values: [[1KiB], [64MiB]]\n");
  const std::string out = scratch_dir("timeout_out");
  const CliResult r = mtsim("sweep " + sweep + " --out " + out + " --timeout 1");
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("1 passed, 1 failed"));
  CHECK_THAT(r.output, Catch::Contains("FAILED point 1 (collective.sizes=[64MiB]), exit 124: timed "
                                       "out: still running after 1 s (--timeout); killed"));
}

TEST_CASE("the same scenario gives bit-identical JSON with -j 1 and -j 2 (minus wall times)") {
  const std::string yaml = scratch("det.yaml");
  write_file(yaml,
             "topology: torus:2x4\n"
             "collective:\n"
             "  algorithms: [ring, multitree, dbtree, {name: auto, label: picked}]\n"
             "  sizes: [4KiB, 64KiB]\n");
  const std::string a = scratch("det1.json"), b = scratch("det2.json"), c = scratch("det3.json");
  REQUIRE(mtsim("run " + yaml + " -j 1 --json " + a).status == 0);
  REQUIRE(mtsim("run " + yaml + " -j 2 --json " + b).status == 0);
  REQUIRE(mtsim("run " + yaml + " -j 2 --json " + c).status == 0);
  const nlohmann::json ja = without_wall_times(read_json(a));
  REQUIRE(ja.at("runs").size() == 8);
  CHECK(ja.dump() == without_wall_times(read_json(b)).dump());
  CHECK(ja.dump() == without_wall_times(read_json(c)).dump());
}

TEST_CASE("mtsim run shows progress on a terminal only") {
  const std::string yaml = scratch("two_points.yaml");
  write_file(yaml, "topology: ring:2\ncollective: {algorithms: [ring], sizes: [1KiB, 2KiB]}\n");
  // script(1) gives mtsim a terminal; its transcript keeps the redrawn progress line.
  const CliResult tty = mt::test::run_shell("script -qec \"" + std::string(MT_MTSIM_BIN) + " run " +
                                            yaml + "\" /dev/null");
  CHECK(tty.status == 0);
  // With -j 1: the second point starts as the first ends.
  CHECK_THAT(tty.output, Catch::Contains("mtsim: 0/2 points done, 1 running") &&
                             Catch::Contains("mtsim: 1/2 points done, 1 running") &&
                             Catch::Contains("mtsim: 2/2 points done, 0 running"));
  const CliResult pipe = mtsim("run " + yaml);
  CHECK(pipe.status == 0);
  CHECK_THAT(pipe.output, !Catch::Contains("points done"));
}

TEST_CASE(
    "random valid scenarios simulate correctly within the efficiency ceiling or fail cleanly") {
  // A fixed seed: the same 16 scenarios every run, drawn from every topology family, several
  // algorithms, both flow controls and issue modes, packet sizes and ports.
  std::uint64_t state = 0x5eed19;
  const auto pick = [&state](std::size_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>((state >> 33) % n);
  };
  const std::vector<std::string> topologies = {
      "ring:4",
      "torus:2x4",
      "mesh:3x3",
      "\"fattree:k=4,levels=2\"",
      "\"switch:nodes=6\"",
      "\"bigraph:m=2,n=4\"",
      "{kind: custom, nodes: 4, switches: 2, edges: [[0, 4], [1, 4], [2, 5], [3, 5], [4, 5]]}"};
  const std::vector<std::string> algorithms = {"ring", "multitree", "dbtree", "auto", "ring_bi"};
  const std::vector<std::string> sizes = {"4KiB", "12KiB", "64KiB"};
  const std::vector<int> packets = {64, 128, 256};
  for (int i = 0; i < 16; ++i) {
    const int packet = packets[pick(packets.size())];
    const std::string flow = pick(2) == 0 ? "packet" : "message";
    std::ostringstream yaml;
    yaml << "topology: " << topologies[pick(topologies.size())] << "\n"
         << "nic: {packet_bytes: " << packet << ", flow_control: " << flow
         << ", issue: " << (pick(2) == 0 ? "software" : "hardware") << "}\n"
         << "collective: {algorithms: [" << algorithms[pick(algorithms.size())] << "], sizes: ["
         << sizes[pick(sizes.size())] << "]}\n";
    INFO("scenario " << i << ":\n" << yaml.str());
    const std::string file = scratch("random.yaml"), json = scratch("random.json");
    write_file(file, yaml.str());
    const CliResult r = mtsim("run " + file + " --json " + json);
    // A valid scenario runs with its data checked (exit 0), or is refused as a combination the
    // model does not build (exit 2, a message naming it); a failed check (1) or a bug (3) is not
    // clean.
    CHECK((r.status == 0 || r.status == 2));
    if (r.status != 0) {
      CHECK_THAT(r.output, Catch::StartsWith("mtsim"));
      continue;
    }
    const nlohmann::json results = read_json(json);
    REQUIRE(results.at("runs").size() == 1);  // one algorithm, one size
    for (const auto& run : results.at("runs")) {
      CHECK(run.at("data_verified") == true);
      const double efficiency = run.at("efficiency").get<double>();
      CHECK(efficiency > 0);
      // Every packet carries a 16-byte head in packet mode: at most P / (P + 16) of the bound.
      const double ceiling = flow == "packet" ? packet / (packet + 16.0) : 1.0;
      CHECK(efficiency <= ceiling + 1e-9);
    }
  }
}

TEST_CASE(
    "mtsim train refuses launch costs past 2^50 cycles and buckets past 31-bit packet counts") {
  const std::string yaml = scratch("tiny.yaml");
  write_file(yaml, kTiny);
  const std::string vgg = std::string(MT_SOURCE_DIR) + "/scenarios/workloads/vgg16.yaml";
  // 16 layers x 2^50 launch cycles: the release times would pass SystemC's 64-bit time.
  const CliResult launch =
      mtsim("train " + vgg + " --scenario " + yaml + " --launch-cycles 1125899906842624");
  CHECK(launch.status == 2);
  CHECK_THAT(launch.output,
             Catch::Contains("one launch (1125899906842624 cycles, --launch-cycles) per layer and "
                             "the optimizer step add up to 18014398539190459 cycles; at most "
                             "1125899906842624 fit one iteration"));
  // 2^38 fp32 parameters: one 1TiB bucket, 2^32 packets of 256 bytes.
  const std::string huge = scratch("huge.yaml");
  write_file(huge, "name: huge\nlayers:\n  - {name: a, params: 274877906944}\n");
  const CliResult bucket = mtsim("train " + huge + " --scenario " + yaml);
  CHECK(bucket.status == 2);
  CHECK_THAT(bucket.output,
             Catch::Contains(": its largest all-reduce bucket (1TiB) does not fit the model on ") &&
                 Catch::Contains("1TiB is 4294967296 packets of nic.packet_bytes 256"));
  CHECK_THAT(bucket.output, !Catch::Contains("--set"));  // nothing the user did not type
}
