// End-to-end tests of the mtsim CLI contract: exit statuses, messages, JSON/CSV results.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/sched/scheduler_build.h"
#include "tests/support/cli_runner.h"

namespace {

using mt::test::CliResult;
using mt::test::exists;
using mt::test::kSource;
using mt::test::mtsim;
using mt::test::read_json;
using mt::test::scratch;
using mt::test::write_file;

// `mtsim run -j 2` of a scenario file `name`.yaml holding `yaml`: its results JSON, which must
// hold `runs` runs (returned by value: a range-for over read_json(...).at(...) would iterate a
// destroyed temporary).
nlohmann::json run_results(const std::string& name, const std::string& yaml, std::size_t runs) {
  const std::string scenario = scratch(name + ".yaml"), results_path = scratch(name + ".json");
  write_file(scenario, yaml);
  const CliResult run = mtsim("run " + scenario + " -j 2 --json " + results_path);
  INFO(run.output);
  REQUIRE(run.status == 0);
  nlohmann::json results = read_json(results_path);
  REQUIRE(results.at("runs").size() == runs);
  return results;
}

}  // namespace

TEST_CASE("mtsim --help lists the commands and an unknown command is bad input") {
  const CliResult help = mtsim("--help");
  CHECK(help.status == 0);
  CHECK_THAT(help.output, Catch::Contains("run SCENARIO.yaml") && Catch::Contains("schedule") &&
                              Catch::Contains("verify SCHEDULE.json"));
  for (const char* command : {"run", "schedule", "verify"}) {
    const CliResult sub = mtsim(std::string(command) + " --help");
    CHECK(sub.status == 0);
    CHECK_THAT(sub.output, Catch::Contains(std::string("mtsim ") + command));
  }
  // `schedule --help` names every algorithm before its description.
  const CliResult schedule_help = mtsim("schedule --help");
  CHECK_THAT(schedule_help.output, Catch::Contains("\n  ring: unidirectional ring") &&
                                       Catch::Contains("\n  tree_packing: pipelined") &&
                                       Catch::Contains("\n  auto: picks"));
  const CliResult bad = mtsim("frobnicate");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("unknown command \"frobnicate\""));
  CHECK(mtsim("run --no-such-flag x.yaml").status == 2);
}

TEST_CASE("mtsim --version names the source commit, the SystemC kernel and the RTL build") {
  const CliResult version = mtsim("--version");
  CHECK(version.status == 0);
  // A git checkout gives its commit (12 hex digits, -dirty when edited); a tarball says so.
  CHECK_THAT(version.output,
             Catch::Matches("mtsim (git [0-9a-f]{12}(-dirty)?, committed [0-9-]{10}|unknown \\(not "
                            "a git checkout\\)) \\((Release|Debug|RelWithDebInfo|MinSizeRel|) "
                            "build\\)\nSystemC 2\\.3\\.[0-9]+.* with TLM-2\\.0\nnic_sched build "
                            "\\(what hardware-issue tables must fit\\): [^ ]+\\.params \\(the "
                            "signed-off set: rtl/params/cosim\\.params\\) with Nodes [0-9]+, Ports "
                            "[0-9]+, Depth [0-9]+.*\nRTL co-simulation \\(nic\\.scheduler: rtl\\): "
                            "(this build, Verilated|not in this build.*)\n"));
}

TEST_CASE("mtsim run rejects a bad scenario with file:line:col and writes nothing") {
  const std::string yaml = scratch("bad.yaml");
  const std::string json = scratch("bad.json");
  write_file(yaml, "topology: torus:4x4\ncollective:\n  algorithms: [ring]\n  sizes: [0]\n");
  const CliResult r = mtsim("run " + yaml + " --json " + json);
  CHECK(r.status == 2);
  CHECK_THAT(r.output,
             Catch::Contains(yaml + ":4:11: collective.sizes[0]: \"0\" is not a positive size"));
  CHECK_FALSE(exists(json));
  const CliResult unknown_algo =
      mtsim("run " + kSource + "/scenarios/default.yaml --set collective.algorithms=[ring,warp]");
  CHECK(unknown_algo.status == 2);
  CHECK_THAT(unknown_algo.output,
             Catch::Contains("--set collective.algorithms=[ring,warp]: collective.algorithms[1]: "
                             "\"warp\" is not one of"));
  const CliResult missing = mtsim("run " + scratch("missing.yaml"));
  CHECK(missing.status == 2);
  CHECK_THAT(missing.output, Catch::Contains("cannot open the scenario file"));
  // A schedule too large to simulate here stops at once, naming the entry (not "out of memory").
  const std::string huge = scratch("huge.yaml");
  write_file(huge,
             "topology: torus:4x4\ncollective:\n  algorithms:\n"
             "    - {name: disjoint_rings, params: {pipeline: 1000000}}\n  sizes: [64KiB]\n");
  const CliResult too_large = mtsim("run " + huge);
  CHECK(too_large.status == 2);
  CHECK_THAT(too_large.output,
             Catch::Contains(huge + ":4:7: collective.algorithms: disjoint_rings: 64000000 "
                                    "chunks on 16 nodes are 1024000000 node-chunk states"));
}

TEST_CASE("mtsim run --error-json hands the error line, exit status and location to its caller") {
  const std::string yaml = scratch("located.yaml");
  const std::string json = scratch("located.json");
  const std::string error = scratch("located.error.json");
  write_file(yaml, "topology: torus:4x4\ncollective:\n  algorithms: [ring]\n  sizes: [0]\n");
  const CliResult r = mtsim("run " + yaml + " --json " + json + " --error-json " + error);
  CHECK(r.status == 2);
  REQUIRE(exists(error));
  const nlohmann::json report = read_json(error);
  const std::string line =
      "mtsim: " + yaml + ":4:11: collective.sizes[0]: \"0\" is not a positive size";
  CHECK(report.at("error") == line);
  CHECK(r.output == line + "\n");  // the line the user saw, nothing else
  CHECK(report.at("exit_status") == 2);
  CHECK(report.at("location") ==
        nlohmann::json(
            {{"file", yaml}, {"line", 4}, {"column", 11}, {"key_path", "collective.sizes[0]"}}));
  CHECK_FALSE(exists(json));
  // An override's error names the override, not a file place.
  const CliResult set = mtsim("run " + kSource + "/scenarios/default.yaml --error-json " + error +
                              " --set collective.algorithms=[ring,warp]");
  CHECK(set.status == 2);
  const nlohmann::json located = read_json(error).at("location");
  CHECK(located.at("override_key") == "collective.algorithms");
  CHECK(located.at("override_text") == "collective.algorithms=[ring,warp]");
  CHECK(located.at("key_path") == "collective.algorithms[1]");
  // A run that passes writes no report.
  const std::string passed = scratch("passed.error.json");
  const CliResult ok = mtsim("run " + kSource + "/scenarios/default.yaml --set topology=ring:4 " +
                             "--set collective.algorithms=[ring] --set collective.sizes=[4KiB] " +
                             "--error-json " + passed);
  CHECK(ok.status == 0);
  CHECK_FALSE(exists(passed));
}

TEST_CASE("mtsim schedule validates its options") {
  const CliResult no_topology = mtsim("schedule --algorithm ring");
  CHECK(no_topology.status == 2);
  CHECK_THAT(no_topology.output, Catch::Contains("--topology is required"));
  const CliResult bad_algo = mtsim("schedule --topology torus:4x4 --algorithm warp");
  CHECK(bad_algo.status == 2);
  CHECK_THAT(bad_algo.output, Catch::Contains("warp") && Catch::Contains("multitree"));
  const CliResult bad_spec = mtsim("schedule --topology torus:4xq --algorithm ring");
  CHECK(bad_spec.status == 2);
  CHECK_THAT(bad_spec.output, Catch::Contains("torus:4xq"));
  const CliResult bad_format = mtsim("schedule --topology ring:4 --algorithm ring --format yaml");
  CHECK(bad_format.status == 2);
  CHECK_THAT(bad_format.output,
             Catch::Contains("--format yaml: expected text, json, dot, msccl, table or memh"));
}

TEST_CASE("mtsim schedule's text summary is budgeted as a schedule built and checked") {
  // 16 nodes x 4 rings x 16 positions x 10^6 sub-chunks: refused before anything is allocated,
  // under the budget of what the format holds.
  const std::string huge =
      "schedule --topology torus:4x4 --algorithm disjoint_rings "
      "--param pipeline=1000000";
  const CliResult text = mtsim(huge);
  CHECK(text.status == 2);
  CHECK_THAT(text.output,
             Catch::Contains("are 1024000000 node-chunk states, more than this machine can build "
                             "and check (at most ") &&
                 Catch::Contains(", one per 512 B of its ") &&
                 Catch::Contains("a message costs about 190 B in all when it is built, verified "
                                 "and summarised)"));
  const CliResult json = mtsim(huge + " --format json");
  CHECK(json.status == 2);
  CHECK_THAT(json.output, Catch::Contains("more than this machine can simulate (at most ") &&
                              Catch::Contains(", one per 2048 B of its "));
}

TEST_CASE("mtsim schedule prints a verified ring schedule as text, JSON and DOT") {
  const CliResult text = mtsim("schedule --topology ring:8 --algorithm ring");
  CHECK(text.status == 0);
  // Ring all-reduce on N nodes: N-1 reduce-scatter steps then N-1 all-gather steps.
  CHECK_THAT(text.output,
             Catch::Contains("steps:              14 (reduce-scatter 7, all-gather 7)"));
  CHECK_THAT(text.output, Catch::Contains("verified:           yes"));
  // 2(N-1) steps of N messages; each waits for the one its sender received a step before, but
  // the N of the first step: 112 - 8 = 104 dependencies.
  CHECK_THAT(text.output, Catch::Contains("1 flow, 112 messages (104 dependencies in all)\n"));
  // N = 8 messages in each of the 14 steps: one range.
  CHECK_THAT(text.output,
             Catch::Contains("messages per step (step or first-last: count): 0-13:8\n"));

  const std::string json_path = scratch("ring8.json");
  REQUIRE(std::system((std::string(MT_MTSIM_BIN) +
                       " schedule --topology ring:8 --algorithm ring "
                       "--format json > " +
                       json_path)
                          .c_str()) == 0);
  const nlohmann::json j = read_json(json_path);
  CHECK(j.at("nodes") == 8);
  CHECK(j.at("analysis").at("verified") == true);
  CHECK(j.at("analysis").at("all_gather_steps") == 7);
  // Every node sends one message per step: 8 nodes x 14 steps.
  CHECK(j.at("ops").size() == 8 * 14);
  const CliResult verified = mtsim("verify " + json_path);
  CHECK(verified.status == 0);
  CHECK_THAT(verified.output,
             Catch::Contains("OK: every node ends with every chunk reduced from all 8"));

  const CliResult dot = mtsim("schedule --topology ring:8 --algorithm ring --format dot");
  CHECK(dot.status == 0);
  CHECK_THAT(dot.output, Catch::StartsWith("digraph"));
}

TEST_CASE("mtsim verify rejects corrupted schedules with exit 1 and bad JSON with exit 2") {
  const std::string good = scratch("good.json");
  REQUIRE(std::system((std::string(MT_MTSIM_BIN) +
                       " schedule --topology torus:4x4 "
                       "--algorithm multitree --format json > " +
                       good)
                          .c_str()) == 0);
  const nlohmann::json schedule = read_json(good);

  SECTION("a dropped message leaves contributions missing") {
    nlohmann::json bad = schedule;
    bad["ops"].erase(bad["ops"].begin());
    for (std::size_t i = 0; i < bad["ops"].size(); ++i) {
      bad["ops"][i]["id"] = i;
      nlohmann::json deps = nlohmann::json::array();
      for (int d : bad["ops"][i]["deps"])
        if (d != 0) deps.push_back(d - 1);
      bad["ops"][i]["deps"] = deps;
    }
    const std::string path = scratch("dropped.json");
    write_file(path, bad.dump());
    const CliResult r = mtsim("verify " + path);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("FAILED: "));
  }
  SECTION("a chunk index out of range is named") {
    nlohmann::json bad = schedule;
    bad["ops"][3]["chunk"] = 999;
    const std::string path = scratch("chunk.json");
    write_file(path, bad.dump());
    const CliResult r = mtsim("verify " + path);
    CHECK(r.status == 1);
    CHECK_THAT(r.output, Catch::Contains("999"));
  }
  SECTION("not JSON at all") {
    const std::string path = scratch("garbage.json");
    write_file(path, "{\"ops\": [1, 2,,]}");
    const CliResult r = mtsim("verify " + path);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(path));
  }
  SECTION("a field of the wrong type") {
    nlohmann::json bad = schedule;
    bad["ops"][5]["peer"] = "north";
    const std::string path = scratch("type.json");
    write_file(path, bad.dump());
    const CliResult r = mtsim("verify " + path);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("ops[5].peer"));
  }
}

TEST_CASE("mtsim run writes the JSON and CSV of the contract and is deterministic") {
  const std::string yaml = scratch("small.yaml");
  write_file(yaml,
             "topology: {kind: torus, dims: [2, 4], link_latency_cycles: 20}\n"
             "collective: {algorithms: [ring, multitree], sizes: [4KiB, 64KiB]}\n");
  const std::string json1 = scratch("small1.json"), json2 = scratch("small2.json");
  const std::string csv = scratch("small.csv");
  const CliResult first = mtsim("run " + yaml + " --json " + json1 + " --csv " + csv + " -j 2");
  REQUIRE(first.status == 0);
  CHECK_THAT(first.output, Catch::Contains("torus:2x4, 8 nodes"));
  const CliResult second = mtsim("run " + yaml + " --json " + json2);
  REQUIRE(second.status == 0);

  const nlohmann::json a = read_json(json1), b = read_json(json2);
  REQUIRE(a.at("runs").size() == 4);  // 2 sizes x 2 algorithms, sizes outermost
  for (std::size_t i = 0; i < 4; ++i) {
    const nlohmann::json& run = a["runs"][i];
    INFO("run " << i);
    for (const char* key : {"scenario", "topology", "algorithm", "nodes", "bytes",
                            "completion_cycles", "clock_ghz", "completion_ns", "bound_cycles",
                            "latency_bound_cycles", "efficiency", "data_verified", "energy"})
      CHECK(run.contains(key));
    CHECK(run["energy"]["total_pj"].get<double>() > 0);
    CHECK(run["algorithm"] == (i % 2 == 0 ? "ring" : "multitree"));
    CHECK(run["bytes"] == (i < 2 ? 4096 : 65536));
    CHECK(run["nodes"] == 8);
    CHECK(run["data_verified"] == true);
    const double cycles = run["completion_cycles"].get<double>();
    CHECK(run["completion_ns"].get<double>() == Approx(cycles / run["clock_ghz"].get<double>()));
    // Latency bound: 3 hops (1 over the 2-wide dimension, 2 over the 4-wide one) of 20 wire
    // cycles, 4 router pipelines of 1 cycle, one 2-flit packet (16-byte head + an element).
    CHECK(run["latency_bound_cycles"].get<double>() == Approx(3 * 20 + 4 + 2));
    CHECK(run["efficiency"].get<double>() ==
          Approx(std::max(run["bound_cycles"].get<double>(),
                          run["latency_bound_cycles"].get<double>()) /
                 cycles));
    // The same scenario gives the same cycle count in another process.
    CHECK(b["runs"][i]["completion_cycles"] == run["completion_cycles"]);
  }
  // Bandwidth bound on a 2x4 torus: the 2-wide dimension is one link, so a node has 3 links and
  // 3 ports of 16 B/cycle: 2(N-1)/N x S / 48.
  CHECK(a["runs"][2]["ports"] == 3);
  CHECK(a["runs"][2]["bound_cycles"].get<double>() == Approx(2.0 * 7 / 8 * 65536 / 48));

  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  CHECK_THAT(header,
             Catch::StartsWith("scenario,topology,algorithm,schedule,nic_issue,nic_flow_"
                               "control,nic_scheduler,nodes,ports,bytes,completion_cycles"));
  // The energy of each run after the timing (model/sim/energy_results.h).
  CHECK_THAT(header, Catch::Contains(",error,internal_error,wall_seconds,energy_preset,"
                                     "energy_total_uj,energy_pj_per_byte,energy_static_uj,"));
  CHECK_THAT(header, Catch::EndsWith(",energy_scheduler_leakage_uj"));
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    // The NIC modes that ran (the default NIC: host issue, packet flow control).
    CHECK_THAT(line, Catch::Contains(",software,packet,host,8,"));
  }
  CHECK(rows == 4);
}

TEST_CASE("nic.step_order auto issues MultiTree in step order and the tree packing without") {
  // Hardware issue, 4x4 mesh, 256 KiB: auto must equal `true` on MultiTree (no link carries two
  // messages of a step) and `false` on tree_packing (it does), and step order must matter for
  // tree_packing (else the test could not tell the two apart).
  const std::string scenario = mt::test::scratch("step_order.yaml");
  const std::string json_path = mt::test::scratch("step_order.json");
  std::string algorithms;
  for (const char* name : {"multitree", "tree_packing"}) {
    for (const char* order : {"auto", "true", "false"}) {
      algorithms += std::string("    - {name: ") + name + ", label: " + name + "-" + order +
                    ", nic: {step_order: " + order + "}}\n";
    }
  }
  mt::test::write_file(scenario,
                       "topology: {kind: mesh, dims: [4, 4]}\n"
                       "nic: {ports: 4, issue: hardware, flow_control: message, "
                       "scheduler_table_order: step}\n"
                       "collective:\n  sizes: [256KiB]\n  algorithms:\n" +
                           algorithms);
  const mt::test::CliResult r = mt::test::mtsim("run " + scenario + " -j 2 --json " + json_path);
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::map<std::string, long long> cycles;
  const nlohmann::json results = read_json(json_path);
  for (const auto& run : results["runs"])
    cycles[run["algorithm"].get<std::string>()] = run["completion_cycles"].get<long long>();
  REQUIRE(cycles.size() == 6);
  CHECK(cycles["multitree-auto"] == cycles["multitree-true"]);
  CHECK(cycles["tree_packing-auto"] == cycles["tree_packing-false"]);
  CHECK(cycles["tree_packing-true"] != cycles["tree_packing-false"]);
}

TEST_CASE("a planned table order lets hardware issue match a free host where step order loses") {
  // tree_packing on the 4x4 mesh at 256 KiB (docs/beyond.md, Planned table order): hardware issue
  // from step-ordered tables takes 14965 cycles against the free host's 12041; from tables in
  // the order a free host issues the schedule (with the host's short messages) 12022. The step
  // column must stay far from the host's, or the test could not tell the orders apart.
  const std::string json_path = scratch("planned_order.json");
  const CliResult r =
      mtsim("run " + kSource + "/scenarios/beyond/mesh4x4.yaml -j 2 --json " + json_path +
            " --set collective.sizes=[256KiB] --set host.preset=free --set 'collective.algorithms=["
            "{name: tree_packing, label: host, nic: {issue: software, flow_control: message}}, "
            "{name: tree_packing, label: step, nic: {issue: hardware, flow_control: message, "
            "scheduler_table_order: step}}, "
            "{name: tree_packing, label: planned, nic: {issue: hardware, flow_control: message, "
            "scheduler_table_order: planned}}, "
            "{name: tree_packing, label: auto, nic: {issue: hardware, flow_control: message, "
            "scheduler_table_order: auto}}]'");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("(nic.scheduler_table_order planned) in: planned, auto\n") !=
        std::string::npos);
  std::map<std::string, double> cycles;
  std::map<std::string, std::string> chosen;
  std::map<std::string, std::string> misfit;
  const nlohmann::json results = read_json(json_path);
  for (const auto& run : results["runs"]) {
    const std::string label = run["algorithm"].get<std::string>();
    cycles[label] = run["completion_cycles"].get<double>();
    chosen[label] = run["nic_choice"].get<std::string>();
    CHECK(run["data_verified"].get<bool>());
    if (label != "host") {
      CHECK(run["scheduler_table_order"].get<std::string>() ==
            (label == "planned" || label == "auto" ? "planned" : "step"));
      misfit[label] = run["table_misfit"].get<std::string>();
    }
  }
  REQUIRE(cycles.size() == 4);
  CHECK(cycles["step"] > 1.1 * cycles["host"]);
  CHECK(cycles["planned"] <= 1.01 * cycles["host"]);
  // auto runs both and keeps the faster, planned here (its tables fit the nic_sched build), and
  // says what both took.
  CHECK(misfit["planned"].empty());
  CHECK(misfit["auto"].empty());
  CHECK(cycles["auto"] == cycles["planned"]);
  CHECK(chosen["auto"] ==
        "planned table order (tried both: " +
            std::to_string(static_cast<long long>(cycles["planned"])) + " cycles against " +
            std::to_string(static_cast<long long>(cycles["step"])) + " with step)");
}

TEST_CASE("mtsim schedule --table-order planned dumps the planned tables a run holds") {
  // nic.scheduler_table_order planned on the 4x4 mesh at 128 KiB with the topology's defaults:
  // the dump plans the same free-host run, so its counters, table size and entries are the
  // run's; tree_packing's planned tables (the host's short messages) are not its step ones.
  const nlohmann::json results =
      run_results("planned_tables",
                  "topology: {kind: mesh, dims: [4, 4]}\n"
                  "nic: {issue: hardware, flow_control: message, scheduler_table_order: "
                  "planned}\ncollective:\n  sizes: [128KiB]\n  algorithms: [multitree, "
                  "tree_packing]\n",
                  2);
  for (const auto& result : results.at("runs")) {
    const std::string algorithm = result.at("algorithm");
    INFO(algorithm);
    REQUIRE(result.at("scheduler_table_order") == "planned");
    const std::string dump = " schedule -t mesh:4x4 -a " + algorithm + " --bytes 128KiB";
    const CliResult planned = mtsim(dump + " --format table --table-order planned");
    REQUIRE(planned.status == 0);
    const nlohmann::json tables = nlohmann::json::parse(planned.output);
    CHECK(tables.at("counters") == result.at("table_counters"));
    CHECK(tables.at("depth") == result.at("table_entries"));
    std::size_t entries = 0;
    for (const auto& node : tables.at("nodes")) entries += node.at("entries").size();
    CHECK(entries == result.at("messages").get<std::size_t>());
    const nlohmann::json step = nlohmann::json::parse(mtsim(dump + " --format table").output);
    // Each node's table order, as schedule message ids.
    const auto orders = [](const nlohmann::json& t) {
      std::vector<std::vector<int>> ids;
      for (const auto& node : t.at("nodes")) {
        ids.emplace_back();
        for (const auto& e : node.at("entries")) ids.back().push_back(e.at("message").get<int>());
      }
      return ids;
    };
    if (algorithm == "tree_packing") {  // another schedule: the host's short messages
      std::size_t step_entries = 0;
      for (const auto& node : step.at("nodes")) step_entries += node.at("entries").size();
      CHECK(step_entries < entries);
    } else {  // the same messages per node, in another order
      std::vector<std::vector<int>> planned_ids = orders(tables), step_ids = orders(step);
      CHECK(planned_ids != step_ids);
      for (auto& ids : planned_ids) std::sort(ids.begin(), ids.end());
      for (auto& ids : step_ids) std::sort(ids.begin(), ids.end());
      CHECK(planned_ids == step_ids);
    }
  }
  const CliResult text = mtsim("schedule -t mesh:4x4 -a multitree --table-order planned");
  CHECK(text.status == 2);
  CHECK_THAT(text.output,
             Catch::Contains("--table-order planned goes with --format table or memh"));
  const CliResult bad = mtsim("schedule -t mesh:4x4 -a multitree --format table --table-order x");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("--table-order x: expected step or planned"));
}

TEST_CASE("mtsim schedule --format table and memh dump the tables a hardware-issue run holds") {
  // The tables of the run (its counters and table size) and of the dump must be the same: for
  // MultiTree, for tree_packing, whose build under hardware issue reuses counters, and for auto,
  // whose choice depends on message flow control's cost (on the 4x4 mesh at 128 KiB). Step
  // tables, the dump's default (the planned ones: the test above).
  for (const auto& [spec, yaml_topology, size] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"torus:4x4", "{kind: torus, dims: [4, 4]}", "256KiB"},
           {"mesh:4x4", "{kind: mesh, dims: [4, 4]}", "128KiB"}}) {
    const nlohmann::json results = run_results(
        "tables",
        "topology: " + yaml_topology +
            "\nnic: {issue: hardware, flow_control: message, scheduler_table_order: step}\n"
            "collective:\n  sizes: [" +
            size + "]\n  algorithms: [multitree, tree_packing, auto]\n",
        3);
    for (const auto& result : results.at("runs")) {
      const std::string algorithm = result.at("algorithm");
      INFO(spec << " " << algorithm);
      const std::string dump_path = scratch(algorithm + "_tables.json");
      REQUIRE(std::system((std::string(MT_MTSIM_BIN) + " schedule -t " + spec + " -a " + algorithm +
                           " --bytes " + size + " --format table > " + dump_path)
                              .c_str()) == 0);
      const nlohmann::json dump = read_json(dump_path);
      CHECK(dump.at("counters") == result.at("table_counters"));
      CHECK(dump.at("depth") == result.at("table_entries"));
      REQUIRE(dump.at("nodes").size() == 16);
      // Every message is one entry of its sender's table.
      std::size_t entries = 0;
      for (const auto& node : dump.at("nodes")) entries += node.at("entries").size();
      CHECK(entries == result.at("messages").get<std::size_t>());
      // An entry's hex is its fields packed from bit 0 in the documented order and widths.
      const nlohmann::json& f = dump.at("format");
      const nlohmann::json& e = dump.at("nodes").at(0).at("entries").at(0);
      unsigned long long packed = 0;
      int bit = 0;
      for (const auto& [field, width] :
           std::vector<std::pair<std::string, std::string>>{{"kind", "kind_bits"},
                                                            {"port", "port_bits"},
                                                            {"peer", "peer_bits"},
                                                            {"chunk", "chunk_bits"},
                                                            {"flow", "flow_bits"},
                                                            {"step", "step_bits"},
                                                            {"wait_counter", "counter_bits"},
                                                            {"wait_count", "count_bits"},
                                                            {"dst_counter", "counter_bits"}}) {
        const unsigned long long value =
            field == "kind" ? (e.at("kind") == "broadcast" ? 1 : 0) : e.at(field).get<int>();
        packed |= value << bit;
        bit += f.at(width).get<int>();
      }
      REQUIRE(bit == f.at("entry_bits").get<int>());
      REQUIRE(bit <= 64);
      CHECK(std::stoull(e.at("hex").get<std::string>(), nullptr, 16) == packed);
    }
  }
  // memh: node 3's entries, one hex number per line after the comment header, as in the JSON.
  const CliResult memh = mtsim("schedule -t torus:4x4 -a multitree --format memh --node 3");
  REQUIRE(memh.status == 0);
  const CliResult node3 = mtsim("schedule -t torus:4x4 -a multitree --format table --node 3");
  const nlohmann::json one = nlohmann::json::parse(node3.output);
  std::string expected;
  for (const auto& e : one.at("nodes").at(0).at("entries"))
    expected += e.at("hex").get<std::string>() + "\n";
  CHECK_THAT(memh.output, Catch::StartsWith("// node 3: "));
  CHECK_THAT(memh.output, Catch::EndsWith(expected));
  const CliResult no_node = mtsim("schedule -t torus:4x4 -a multitree --format memh");
  CHECK(no_node.status == 2);
  CHECK_THAT(no_node.output, Catch::Contains("give --node N"));
  // For an RTL build's parameters: its widths (chunk 12 bits for 4096 chunks), or exit 2 when
  // the build is smaller than the table.
  const CliResult built =
      mtsim("schedule -t torus:4x4 -a multitree --format memh --node 3 --rtl-param Chunks=4096");
  CHECK(built.status == 0);
  CHECK_THAT(built.output, Catch::Contains(", chunk 12, "));
  const CliResult small =
      mtsim("schedule -t torus:4x4 -a multitree --format memh --node 3 --rtl-param Chunks=8");
  CHECK(small.status == 2);
  CHECK_THAT(small.output, Catch::Contains("RTL parameter Chunks = 8, but this schedule's table "
                                           "needs 16"));
  CHECK(mtsim("schedule -t torus:4x4 -a multitree --rtl-param Chunks=64").status == 2);
  // --rtl-build: the seven table parameters of the nic_sched build mtsim was configured with.
  const std::string memh3 = "schedule -t torus:4x4 -a multitree --format memh --node 3";
  std::string seven;
  for (const auto& [name, value] : mt::scheduler_build().table_capacity())
    seven += " --rtl-param " + name + "=" + std::to_string(value);
  const CliResult build = mtsim(memh3 + " --rtl-build");
  REQUIRE(build.status == 0);
  CHECK(build.output == mtsim(memh3 + seven).output);
  const CliResult both = mtsim(memh3 + " --rtl-build --rtl-param Chunks=4096");
  CHECK(both.status == 2);
  CHECK_THAT(both.output, Catch::Contains("--rtl-build and --rtl-param: give one"));
}

TEST_CASE("a scenario given to sweep or train is named as a scenario, with the command for it") {
  const std::string scenario = kSource + "/scenarios/default.yaml";
  const CliResult sweep = mtsim("sweep " + scenario + " --list");
  CHECK(sweep.status == 2);
  CHECK_THAT(sweep.output, Catch::Contains("scenarios/default.yaml:") &&
                               Catch::Contains(": this looks like a scenario (it has ") &&
                               Catch::Contains("), not a sweep file: use mtsim run FILE"));
  const CliResult train = mtsim("train " + scenario + " --scenario " + scenario);
  CHECK(train.status == 2);
  CHECK_THAT(train.output, Catch::Contains("), not a workload: use mtsim run FILE"));
}

TEST_CASE("mtsim schedule --bytes takes the sizes a scenario's collective.sizes takes") {
  const CliResult odd = mtsim("schedule -t torus:4x4 -a ring --bytes 6");
  CHECK(odd.status == 2);
  CHECK_THAT(odd.output,
             Catch::Contains("--bytes: 6 bytes is not a whole number of 4-byte elements"));
  const CliResult huge = mtsim("schedule -t torus:4x4 -a ring --bytes 2TiB");
  CHECK(huge.status == 2);
  CHECK_THAT(huge.output, Catch::Contains("--bytes: \"2TiB\" is larger than the 1TiB limit"));
  CHECK(mtsim("schedule -t torus:4x4 -a ring --bytes 1TiB").status == 0);
}

TEST_CASE("auto rank=message picks a candidate no slower in the message model than the others") {
  // The 4x4 torus at 64 KiB, every run timed by the message model: auto ranked by that model
  // must finish no later than each of the candidates it chooses from that are listed here.
  const std::string yaml = scratch("auto_rank.yaml");
  const std::string json = scratch("auto_rank.json");
  write_file(yaml,
             "topology: torus:4x4\ngranularity: message\ncollective:\n  sizes: [64KiB]\n"
             "  algorithms:\n    - {name: auto, params: {rank: message}}\n    - multitree\n"
             "    - ring2d\n    - dbtree\n    - halving_doubling\n"
             "    - {name: disjoint_rings, params: {pipeline: 2}}\n"
             "    - {name: multitree_opt, params: {pipeline: 4}}\n"
             "    - {name: swing, params: {variant: latency}}\n");
  const CliResult r = mtsim("run " + yaml + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const nlohmann::json runs = read_json(json)["runs"];
  REQUIRE(runs.size() == 8);
  const auto cycles = runs[0]["completion_cycles"].get<std::int64_t>();
  CHECK(runs[0]["data_verified"] == true);
  for (std::size_t i = 1; i < runs.size(); ++i) {
    INFO(runs[i]["algorithm"]);
    CHECK(cycles <= runs[i]["completion_cycles"].get<std::int64_t>());
  }
}
