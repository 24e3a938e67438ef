// End-to-end tests of schedule files in scenarios ({name: file, path: FILE}), `mtsim import
// msccl` and `mtsim schedule --format msccl`: files run next to the built-in algorithms with
// verified data, wrong files exit 1 (verifier) or 2 (topology, malformed), and every algorithm on
// a 4x4 torus round-trips through MSCCL XML to the same simulated cycles.

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "tests/support/cli_runner.h"

namespace {

using mt::test::CliResult;
using mt::test::exists;
using mt::test::mtsim;
using mt::test::read_json;
using mt::test::scratch;
using mt::test::scratch_dir;
using mt::test::write_file;

const std::string kData = std::string(MT_SOURCE_DIR) + "/tests/data/msccl/";

// label -> run of each size, from a results JSON.
std::map<std::string, std::vector<nlohmann::json>> runs_by_label(const std::string& json) {
  std::map<std::string, std::vector<nlohmann::json>> out;
  const nlohmann::json results = read_json(json);
  for (const auto& r : results["runs"]) out[r["algorithm"].get<std::string>()].push_back(r);
  return out;
}

// `mtsim run` of schedule file `path` alone on `topology` at `size` (`extra`: more top-level
// scenario lines); the command's result and, when it succeeded, its first run.
std::pair<CliResult, nlohmann::json> run_file(const std::string& name, const std::string& topology,
                                              const std::string& size, const std::string& path,
                                              const std::string& extra = "") {
  const std::string yaml = scratch(name + ".yaml");
  const std::string json = scratch(name + ".out.json");
  write_file(yaml, "topology: " + topology + "\n" + extra + "collective:\n  sizes: [" + size +
                       "]\n  algorithms:\n    - {name: file, path: " + path + "}\n");
  const CliResult r = mtsim("run " + yaml + " --json " + json);
  return {r, r.status == 0 ? read_json(json)["runs"][0] : nlohmann::json()};
}

}  // namespace

TEST_CASE("a scenario runs JSON and MSCCL schedule files next to built-in algorithms") {
  const std::string dir = scratch_dir("files");
  scratch_dir("files/sched");
  // A JSON file written by mtsim itself, one with unequal chunks, and hand-written MSCCL XML.
  REQUIRE(mt::test::run_shell(std::string(MT_MTSIM_BIN) +
                              " schedule -t ring:4 -a ring --format json > " + dir +
                              "/sched/ring_file.json")
              .status == 0);
  nlohmann::json uneven = read_json(dir + "/sched/ring_file.json");
  uneven["chunk_offsets"] = {0, 1, 2, 3, 10};  // fractions 1/10, 1/10, 1/10, 7/10 of the buffer
  write_file(dir + "/sched/uneven.json", uneven.dump());
  write_file(dir + "/s.yaml",
             "topology: ring:4\n"
             "collective:\n"
             "  sizes: [4KiB, 64KiB]\n"
             "  algorithms:\n"
             "    - ring\n"
             "    - {name: file, path: sched/ring_file.json}\n"
             "    - {name: file, path: sched/uneven.json}\n"
             "    - {name: file, path: " +
                 kData +
                 "ring4.xml}\n"
                 "    - {name: file, path: " +
                 kData + "tree4.xml, label: msccl-tree}\n");
  const std::string json = dir + "/out.json";
  const CliResult r = mtsim("run " + dir + "/s.yaml --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto runs = runs_by_label(json);
  REQUIRE(runs.size() == 5);
  for (const char* label : {"ring", "ring_file", "uneven", "ring4", "msccl-tree"}) {
    REQUIRE(runs[label].size() == 2);
    for (const auto& run : runs[label]) {
      CHECK(run["data_verified"] == true);
      CHECK(run["error"] == "");
    }
  }
  // The same ring from a file simulates to the built-in ring's cycles at every size.
  for (int i = 0; i < 2; ++i)
    CHECK(runs["ring_file"][i]["completion_cycles"] == runs["ring"][i]["completion_cycles"]);
  CHECK(runs["ring4"][0]["schedule"] == "ring_allreduce_4");
  CHECK(runs["uneven"][1]["bytes"] == 64 * 1024);
}

TEST_CASE("MSCCL ring and tree files on 8 ranks simulate with verified data") {
  const std::string yaml = scratch("eight.yaml");
  const std::string json = scratch("eight.json");
  write_file(yaml,
             "topology: ring:8\ncollective:\n  sizes: [16KiB]\n  algorithms:\n"
             "    - {name: file, path: " +
                 kData +
                 "ring8.xml}\n"
                 "    - {name: file, path: " +
                 kData + "tree8.xml}\n");
  const CliResult r = mtsim("run " + yaml + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto runs = runs_by_label(json);
  for (const char* label : {"ring8", "tree8"}) {
    REQUIRE(runs[label].size() == 1);
    CHECK(runs[label][0]["data_verified"] == true);
    CHECK(runs[label][0]["messages"] == (std::string(label) == "ring8" ? 8 * 14 : 4 * 7));
  }
}

TEST_CASE("schedule files that do not fit exit 2, wrong ones exit 1, each naming the file") {
  const std::string yaml = scratch("fit.yaml");
  write_file(yaml, "topology: ring:4\ncollective:\n  algorithms:\n    - {name: file, path: " +
                       kData + "ring8.xml}\n");
  CliResult r = mtsim("run " + yaml);
  CHECK(r.status == 2);
  CHECK_THAT(r.output,
             Catch::Contains(yaml + ":4:7: collective.algorithms: ring8: schedule file \"" + kData +
                             "ring8.xml\" does not fit the scenario's topology: the "
                             "schedule has 8 nodes but the topology ring:4 has 4"));
  // A message dropped from a correct schedule: the verifier's message, exit 1.
  const std::string broken = scratch("broken.json");
  REQUIRE(mt::test::run_shell(std::string(MT_MTSIM_BIN) +
                              " schedule -t ring:4 -a ring --format json > " + broken)
              .status == 0);
  nlohmann::json j = read_json(broken);
  j["ops"].erase(j["ops"].end() - 1);
  j.erase("analysis");
  write_file(broken, j.dump());
  write_file(yaml, "topology: ring:4\ncollective:\n  algorithms:\n    - {name: file, path: " +
                       broken + "}\n");
  r = mtsim("run " + yaml);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("mtsim: " + yaml +
                                       ":4:7: collective.algorithms[0]: broken "
                                       "on ring:4 (schedule file \"" +
                                       broken +
                                       "\"): schedule verification failed: node 0 chunk 2 ends "
                                       "without the contribution of node 1"));
  // Malformed XML inside a scenario: exit 2 with file, line and element.
  write_file(yaml, "topology: ring:4\ncollective:\n  algorithms:\n    - {name: file, path: " +
                       kData + "bad_step_type.xml}\n");
  r = mtsim("run " + yaml);
  CHECK(r.status == 2);
  CHECK_THAT(r.output,
             Catch::Contains(
                 "bad_step_type.xml:9: <step s=\"2\"> of gpu 0 tb 0: unknown step type \"rx\""));
  // Entries: a file entry needs a path; only file entries take one.
  write_file(yaml, "topology: ring:4\ncollective:\n  algorithms: [{name: file}]\n");
  r = mtsim("run " + yaml);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains(":3:16: collective.algorithms[0]: missing key \"path\""));
  write_file(yaml, "topology: ring:4\ncollective:\n  algorithms: [{name: ring, path: x.json}]\n");
  r = mtsim("run " + yaml);
  CHECK(r.status == 2);
  CHECK_THAT(
      r.output,
      Catch::Contains("collective.algorithms[0].path: only a {name: file} entry takes a path"));
  // A missing schedule file is refused when the scenario is read, before any point runs: a
  // sweep's --list (which validates every point) names it too.
  write_file(yaml,
             "topology: ring:4\ncollective:\n  algorithms: [{name: file, path: gone.json}]\n");
  r = mtsim("run " + yaml);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains(":3:35: collective.algorithms[0].path: " +
                                       scratch("gone.json") + ": no such schedule file"));
  const std::string sweep = scratch("gone_sweep.yaml");
  write_file(sweep, "name: gone\nscenario: " + yaml +
                        "\naxes:\n  - key: collective.algorithms\n    values: [[{name: file, "
                        "path: gone.json}], [ring]]\n");
  r = mtsim("sweep " + sweep + " --list");
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("point 0") && Catch::Contains("no such schedule file"));
}

TEST_CASE("mtsim import msccl writes a schedule mtsim verify accepts and bad XML exits 2") {
  const std::string out = scratch("tree8.json");
  CliResult r = mtsim("import msccl " + kData + "tree8.xml -o " + out);
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("tree_allreduce_8, 8 ranks, 2 chunks, 28 messages"));
  r = mtsim("verify " + out);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("on ring:8, 8 nodes, 28 messages"));
  const std::string bad = scratch("bad.json");
  r = mtsim("import msccl " + kData + "bad_dangling_dep.xml -o " + bad);
  CHECK(r.status == 2);
  CHECK_THAT(r.output,
             Catch::Contains(
                 "bad_dangling_dep.xml:19: <step s=\"1\"> of gpu 1 tb 0: dangling dependency"));
  CHECK_FALSE(exists(bad));
  CHECK(mtsim("import json " + kData + "ring4.xml -o " + bad).status == 2);
  r = mtsim("import msccl " + kData + "ring8.xml -t ring:4 -o " + bad);
  CHECK(r.status == 2);
  CHECK_THAT(r.output,
             Catch::Contains("ring8.xml: the schedule has 8 nodes but the topology ring:4 has 4"));
  CHECK_FALSE(exists(bad));
  // verify says the same, with the same exit status; an XML file without mtsim_topology is
  // verified on a ring of its ranks, as import takes it; the extension's case does not matter.
  r = mtsim("verify " + kData + "ring8.xml -t ring:4");
  CHECK(r.status == 2);
  CHECK(r.output == "mtsim verify: " + kData +
                        "ring8.xml: the schedule has 8 nodes but the topology ring:4 has 4\n");
  const std::string upper = scratch("RING4.XML");
  REQUIRE(mt::test::run_shell("cp " + kData + "ring4.xml " + upper).status == 0);
  r = mtsim("verify " + upper);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("on ring:4, 4 nodes, 24 messages"));
  // A NIC port the topology's nodes do not have, above or below its range: does not fit.
  nlohmann::json ported = read_json(out);
  ported["ops"][0]["port"] = -5;
  const std::string port_file = scratch("ported.json");
  write_file(port_file, ported.dump());
  r = mtsim("verify " + port_file);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("message 0 (node ") &&
                           Catch::Contains(" uses NIC port -5 but nodes of ring:8 have ports 0..1 "
                                           "(-1: any)"));
  // A JSON schedule handed to import: said to be not XML.
  r = mtsim("import msccl " + out + " -o " + bad);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains(out + ":1: not XML: expected the root element, found '{'"));
  // Internal positional options are not offered as options.
  r = mtsim("import --help");
  CHECK(r.status == 0);
  CHECK_THAT(r.output, !Catch::Contains("--format") && !Catch::Contains("--file"));
}

TEST_CASE("the error JSON places a schedule file's error in that file") {
  const std::string yaml = scratch("placed.yaml");
  const std::string file = scratch("placed.json");
  const std::string report = scratch("placed_error.json");
  REQUIRE(mt::test::run_shell(std::string(MT_MTSIM_BIN) +
                              " schedule -t ring:4 -a ring --format json > " + file)
              .status == 0);
  nlohmann::json j = read_json(file);
  j["ops"][5]["chunk"] = "two";
  write_file(file, j.dump());
  write_file(yaml, "topology: ring:4\ncollective:\n  algorithms:\n    - {name: file, path: " +
                       file + "}\n");
  CliResult r = mtsim("run " + yaml + " --error-json " + report);
  CHECK(r.status == 2);
  nlohmann::json error = read_json(report);
  CHECK(error["location"] == nlohmann::json{{"file", file}, {"key_path", "ops[5].chunk"}});
  // Invalid JSON: its line and column.
  write_file(file, "{\n  \"format\": ,\n}\n");
  r = mtsim("run " + yaml + " --error-json " + report);
  CHECK(r.status == 2);
  error = read_json(report);
  CHECK(error["location"] == nlohmann::json{{"file", file}, {"line", 2}, {"column", 13}});
  // A schedule that fails verification: the scenario entry that names it.
  REQUIRE(mt::test::run_shell(std::string(MT_MTSIM_BIN) +
                              " schedule -t ring:4 -a ring --format json > " + file)
              .status == 0);
  j = read_json(file);
  j["ops"].erase(j["ops"].end() - 1);
  write_file(file, j.dump());
  r = mtsim("run " + yaml + " --error-json " + report);
  CHECK(r.status == 1);
  error = read_json(report);
  CHECK(error["location"]["file"] == yaml);
  CHECK(error["location"]["line"] == 4);
  CHECK(error["location"]["key_path"] == "collective.algorithms[0]");
}

TEST_CASE("every algorithm on a 4x4 torus round-trips through MSCCL XML to the same cycles") {
  const std::string dir = scratch_dir("roundtrip");
  const CliResult help = mtsim("schedule --help");
  std::vector<std::string> names;
  for (std::size_t at = help.output.find("\nalgorithms:\n"); at != std::string::npos;) {
    at = help.output.find("\n  ", at + 1);
    if (at == std::string::npos) break;
    const std::size_t colon = help.output.find(':', at);
    names.push_back(help.output.substr(at + 3, colon - at - 3));
  }
  REQUIRE(names.size() >= 10);
  std::string yaml = "topology: torus:4x4\ncollective:\n  sizes: [64KiB]\n  algorithms:\n";
  for (const auto& name : names) {
    const std::string xml = dir + "/" + name + ".xml";
    // The XML on stdout, notes (runtime limits the file exceeds) on stderr.
    const std::string notes = dir + "/" + name + ".notes";
    REQUIRE(mt::test::run_shell("{ " + std::string(MT_MTSIM_BIN) + " schedule -t torus:4x4 -a " +
                                name + " --bytes 64KiB --format msccl > " + xml + " 2> " + notes +
                                "; }")
                .status == 0);
    // Only disjoint_rings exceeds a runtime limit here: 256 thread blocks per GPU (measured).
    CHECK(mt::test::read_file(notes) ==
          (name == "disjoint_rings"
               ? "mtsim schedule: note: 256 thread blocks on one GPU (the "
                 "MSCCL runtime allows 216): valid XML, too wide to run as is\n"
               : ""));
    REQUIRE(mtsim("verify " + xml + " -t torus:4x4").status == 0);
    yaml += "    - " + name + "\n    - {name: file, path: " + name + ".xml, label: " + name +
            "-msccl}\n";
  }
  write_file(dir + "/rt.yaml", yaml);
  const CliResult r = mtsim("run " + dir + "/rt.yaml -j 2 --json " + dir + "/rt.json");
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto runs = runs_by_label(dir + "/rt.json");
  for (const auto& name : names) {
    INFO(name);
    REQUIRE(runs[name].size() == 1);
    REQUIRE(runs[name + "-msccl"].size() == 1);
    CHECK(runs[name + "-msccl"][0]["data_verified"] == true);
    CHECK(runs[name + "-msccl"][0]["completion_cycles"] == runs[name][0]["completion_cycles"]);
    CHECK(runs[name + "-msccl"][0]["messages"] == runs[name][0]["messages"]);
  }
}

TEST_CASE("a program relaying chunks through scratch buffers simulates with verified data") {
  const std::string yaml = scratch("relay.yaml");
  const std::string json = scratch("relay.json");
  write_file(yaml,
             "topology: ring:4\ncollective:\n  sizes: [16KiB]\n  algorithms:\n"
             "    - {name: file, path: " +
                 kData + "relay4.xml}\n    - {name: file, path: " + kData + "ring4.xml}\n");
  const CliResult r = mtsim("run " + yaml + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto runs = runs_by_label(json);
  REQUIRE(runs["relay4"].size() == 1);
  CHECK(runs["relay4"][0]["data_verified"] == true);
  CHECK(runs["relay4"][0]["messages"] == 32);
}

TEST_CASE("programs with local steps simulate with verified data under software issue only") {
  const std::string yaml = scratch("allpairs.yaml");
  const std::string json = scratch("allpairs.json");
  write_file(yaml,
             "topology: switch:16\ncollective:\n  sizes: [64KiB]\n  algorithms:\n"
             "    - {name: file, path: " +
                 kData + "allpairs16.xml}\n");
  const CliResult run = mtsim("run " + yaml + " --json " + json);
  INFO(run.output);
  REQUIRE(run.status == 0);
  auto runs = runs_by_label(json);
  REQUIRE(runs["allpairs16"].size() == 1);
  CHECK(runs["allpairs16"][0]["data_verified"] == true);
  CHECK(runs["allpairs16"][0]["messages"] == 2 * 240 * 16 + 16 * 16 * 15);
  // The co-designed scheduler's table has no entry for a local step: refused, saying why.
  const CliResult hardware = mtsim("run " + yaml + " --set nic.issue=hardware");
  CHECK(hardware.status != 0);
  CHECK_THAT(hardware.output,
             Catch::Contains("is a local step of node 0 (reduce scratch slot 0 into chunk 0): "
                             "nic.issue hardware cannot run it"));
}

TEST_CASE("a local step takes its elements over the reduction unit's rate") {
  // local2.xml: rank 1's local reduction is the only work of any reduction unit, on the
  // critical path: halving the unit's rate adds 4096 / 16 - 4096 / 32 = 128 cycles at 16 KiB.
  const std::string yaml = scratch("local2.yaml");
  write_file(yaml,
             "topology: switch:2\ncollective:\n  sizes: [16KiB]\n  algorithms:\n"
             "    - {name: file, path: " +
                 kData + "local2.xml}\n");
  std::map<int, std::int64_t> cycles;
  for (const int rate : {32, 16}) {
    const std::string json = scratch("local2_" + std::to_string(rate) + ".json");
    const CliResult r = mtsim("run " + yaml + " --json " + json +
                              " --set nic.reduce_elems_per_cycle=" + std::to_string(rate));
    INFO(r.output);
    REQUIRE(r.status == 0);
    const nlohmann::json run = read_json(json)["runs"][0];
    CHECK(run["data_verified"] == true);
    cycles[rate] = run["completion_cycles"].get<std::int64_t>();
  }
  CHECK(cycles[16] - cycles[32] == 128);
}

TEST_CASE("a local step that overwrites a slot its node has yet to send waits for that send") {
  // Two nodes exchange chunk 0 through scratch and each adds the copy into chunk 0 (a local
  // step staged behind its node's own send, Op::apply_after). Node 0's send is released at
  // cycle 3000, long after node 1's copy has arrived (cycle 1389), so node 0's sum starts when
  // its send issues: node 0 finishes at 3000 + 4096 elements / 32 per cycle = 3128. Both the
  // packet and the message model.
  const std::string schedule = scratch("staged_local.json");
  const auto op = [](int id, int node, int peer, const char* kind) {
    return nlohmann::json{
        {"id", id},  {"node", node}, {"peer", peer}, {"chunk", 0},
        {"flow", 0}, {"step", 0},    {"kind", kind}, {"deps", nlohmann::json::array()}};
  };
  nlohmann::json file = {{"format", "mtsim-schedule"},
                         {"version", 1},
                         {"algorithm", "staged"},
                         {"topology", "switch:2"},
                         {"nodes", 2},
                         {"num_chunks", 1},
                         {"num_flows", 1},
                         {"num_steps", 1},
                         {"scratch_chunks", 1}};
  for (int node = 0; node < 2; ++node) {
    nlohmann::json send = op(node, node, 1 - node, "broadcast");
    send["dst_buf"] = "scratch";
    if (node == 0) send["release_cycle"] = 3000;
    file["ops"].push_back(send);
  }
  for (int node = 0; node < 2; ++node) {
    nlohmann::json sum = op(2 + node, node, node, "reduce");
    sum["src_buf"] = "scratch";
    sum["deps"] = {1 - node};
    sum["apply_after"] = node;
    file["ops"].push_back(sum);
  }
  write_file(schedule, file.dump());
  for (const std::string granularity : {"packet", "message"}) {
    INFO(granularity);
    const auto [r, run] = run_file("staged_local_" + granularity, "switch:2", "16KiB", schedule,
                                   "granularity: " + granularity + "\n");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(run["data_verified"] == true);
    CHECK(run["node_finish_cycles"][0] == 3128);
  }
  // The same exchange without the staging is a race the verifier names.
  for (int m = 2; m < 4; ++m) file["ops"][m].erase("apply_after");
  write_file(schedule, file.dump());
  const CliResult race = run_file("staged_local_race", "switch:2", "16KiB", schedule).first;
  CHECK(race.status != 0);
  CHECK_THAT(race.output, Catch::Contains("node 0 chunk 0: arrival of message 2 and issue of "
                                          "message 0 are unordered"));
}

TEST_CASE("the two-level program simulates with verified data") {
  const auto [r, run] = run_file("hier", "switch:8", "64KiB", kData + "hierarchical8.xml");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(run["data_verified"] == true);
  CHECK(run["messages"] == 8 * 7 + 8 * 4);
}

TEST_CASE("programs with buffers and local steps round-trip through MSCCL XML to the same cycles") {
  const std::string dir = scratch_dir("buffers_rt");
  const std::string programs[4][2] = {{"allpairs16", "switch:16"},
                                      {"hierarchical8", "switch:8"},
                                      {"relay4", "ring:4"},
                                      {"relay4x2", "ring:4"}};
  for (const auto& [name, topology] : programs) {
    INFO(name);
    const std::string back = dir + "/" + name + "_rt.xml";
    const CliResult exported = mtsim("import msccl " + kData + name + ".xml -o " + back);
    INFO(exported.output);
    REQUIRE(exported.status == 0);
    CHECK_THAT(exported.output, !Catch::Contains("too wide"));  // within the executor's limits
    const std::string yaml = dir + "/" + name + ".yaml";
    const std::string json = dir + "/" + name + ".json";
    write_file(yaml, "topology: " + topology +
                         "\ncollective:\n  sizes: [64KiB]\n  algorithms:\n"
                         "    - {name: file, path: " +
                         kData + name + ".xml}\n    - {name: file, path: " + back + "}\n");
    const CliResult r = mtsim("run " + yaml + " --json " + json);
    INFO(r.output);
    REQUIRE(r.status == 0);
    auto runs = runs_by_label(json);
    REQUIRE(runs[name].size() == 1);
    REQUIRE(runs[name + "_rt"].size() == 1);
    CHECK(runs[name + "_rt"][0]["data_verified"] == true);
    CHECK(runs[name + "_rt"][0]["completion_cycles"] == runs[name][0]["completion_cycles"]);
  }
}
