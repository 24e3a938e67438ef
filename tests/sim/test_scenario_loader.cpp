// The scenario loader: every key of the schema, and malformed or hostile input rejected with
// "file:line:col: key.path: what is wrong".

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/collective/byte_size.h"
#include "model/config/scenario_loader.h"
#include "tests/support/scenario_text.h"

using mt::load_scenario_text;
using mt::ScenarioError;

using mt::test::error_of;
using mt::test::kValid;
using mt::test::location_of;

TEST_CASE("a valid scenario fills every config struct") {
  const mt::ScenarioConfig s = load_scenario_text(kValid, "demo.yaml");
  CHECK(s.name == "demo");
  CHECK(s.clock_ghz == 1.5);
  CHECK(s.topology.kind == mt::TopologyKind::kTorus);
  CHECK(s.topology.dims == std::vector<int>{4, 4});
  CHECK(s.topology.link_bytes_per_cycle == 32);
  CHECK(s.topology.link_latency_cycles == 10);
  CHECK(s.topology.ports_per_node == 2);
  CHECK(s.router.pipeline_cycles == 3);
  CHECK(s.router.vcs == 2);
  CHECK(s.router.buffer_flits == 64);
  CHECK(s.nic.flow_control == mt::FlowControlChoice::kMessage);
  CHECK(s.nic.packet_bytes == 512);
  REQUIRE(s.collective.algorithms.size() == 2);
  CHECK(s.collective.algorithms[0].name == "ring");
  CHECK(s.collective.algorithms[0].label == "ring");
  CHECK(s.collective.algorithms[1].name == "multitree");
  CHECK(s.collective.algorithms[1].label == "mt");
  CHECK(s.collective.algorithms[1].location.where() == "demo.yaml:17:22");
  CHECK(s.collective.algorithms[1].location.line == 17);
  CHECK(s.collective.algorithms[1].location.column == 22);
  CHECK(s.collective.algorithms[1].location.key_path == "collective.algorithms[1]");
  CHECK(s.collective.sizes_bytes == std::vector<std::uint64_t>{32768, 1048576, 4096, 2000000});
  CHECK(s.collective.dtype == mt::Dtype::kInt32);
}

TEST_CASE("the scenario name defaults to the file stem") {
  const std::string text = "topology: ring:8\ncollective: {algorithms: [ring]}\n";
  CHECK(load_scenario_text(text, "dir/my_run.yaml").name == "my_run");
  CHECK(load_scenario_text(text, "dir/my_run.yaml").topology.dims == std::vector<int>{8});
}

TEST_CASE("byte sizes parse with binary and decimal units") {
  CHECK(mt::parse_byte_size("4096") == 4096);
  CHECK(mt::parse_byte_size("64KiB") == 65536);
  CHECK(mt::parse_byte_size("1.5 KiB") == 1536);
  CHECK(mt::parse_byte_size("3MB") == 3000000);
  CHECK(mt::parse_byte_size("1GiB") == 1073741824);
  CHECK_THROWS_WITH(mt::parse_byte_size("-4"), Catch::Contains("is not a size"));
  CHECK_THROWS_WITH(mt::parse_byte_size("4 parsecs"), Catch::Contains("unknown unit \"parsecs\""));
  CHECK_THROWS_WITH(mt::parse_byte_size("0.5"), Catch::Contains("not a positive size"));
  CHECK_THROWS_WITH(mt::parse_byte_size("1.3KiB"), Catch::Contains("not a whole number of bytes"));
  CHECK(mt::format_byte_size(65536) == "64KiB");
  CHECK(mt::format_byte_size(1536) == "1536B");
  CHECK(mt::format_byte_size(64ull << 20) == "64MiB");
}

TEST_CASE("every shipped scenario loads") {
  // Every scenario file shipped (sweep files under scenarios/sweeps and training workloads under
  // scenarios/workloads have their own formats).
  int loaded = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(MT_SOURCE_DIR) + "/scenarios")) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".yaml" || path.find("/sweeps/") != std::string::npos ||
        path.find("/workloads/") != std::string::npos)
      continue;
    INFO(path);
    CHECK_NOTHROW(mt::load_scenario_file(path));
    ++loaded;
  }
  CHECK(loaded >= 22);  // default + 3 paper + 7 ideal + 7 beyond + 4 scale
  CHECK_THROWS_WITH(
      mt::load_scenario_file("/nonexistent/x.yaml"),
      "/nonexistent/x.yaml: cannot open the scenario file: No such file or directory");
}

TEST_CASE("closed sets are parsed once into enums and a bad name lists the allowed ones") {
  const std::string base = "topology: torus:4x4\ncollective: {algorithms: [ring]}\n";
  const mt::ScenarioConfig s = load_scenario_text(
      base +
          "nic: {scheduler: rtl, issue: hardware, flow_control: message, reduction: message, "
          "port_binding: any}\n",
      "ok.yaml");
  CHECK(s.nic.scheduler == mt::SchedulerImpl::kRtl);
  CHECK(s.nic.issue == mt::IssueChoice::kHardware);
  CHECK(s.nic.flow_control == mt::FlowControlChoice::kMessage);
  CHECK(s.nic.reduction == mt::ReduceGranularity::kMessage);
  CHECK(s.nic.port_binding == mt::PortBinding::kAny);
  // Printing gives back the names the file used.
  CHECK(std::string(mt::to_string(s.nic.flow_control)) == "message");
  CHECK(std::string(mt::to_string(s.topology.kind)) == "torus");
  CHECK(error_of("topology: {kind: dragonfly, dims: [4, 4]}\ncollective: {algorithms: [ring]}\n") ==
        "bad.yaml:1:18: topology.kind: \"dragonfly\" is not one of: ring, torus, mesh, fattree, "
        "bigraph, switch, custom");
  CHECK(error_of("topology: torus:4x4\ncollective: {algorithms: [ring], dtype: fp16}\n") ==
        "bad.yaml:2:41: collective.dtype: \"fp16\" is not one of: fp32, int32");
  CHECK(error_of(base + "nic: {flow_control: credit}\n") ==
        "bad.yaml:3:21: nic.flow_control: \"credit\" is not one of: packet, message, auto");
  CHECK(error_of(base + "nic: {issue: firmware}\n") ==
        "bad.yaml:3:14: nic.issue: \"firmware\" is not one of: software, hardware, auto");
}

TEST_CASE("an algorithm entry may name a schedule as results print it: name(key=value,...)") {
  const mt::ScenarioConfig c = load_scenario_text(
      "topology: torus:4x4\ncollective:\n  algorithms: [ring, multitree_opt(pipeline=4), "
      "\"multitree_opt(pipeline=16,roots=exchange)\"]\n  sizes: [4KiB]\n",
      "labels.yaml");
  REQUIRE(c.collective.algorithms.size() == 3);
  const mt::AlgorithmRun& p4 = c.collective.algorithms[1];
  CHECK(p4.name == "multitree_opt");
  CHECK(p4.label == "multitree_opt(pipeline=4)");
  CHECK(p4.params == mt::AlgorithmParams{{"pipeline", "4"}});
  const mt::AlgorithmRun& ex = c.collective.algorithms[2];
  CHECK(ex.params == mt::AlgorithmParams{{"pipeline", "16"}, {"roots", "exchange"}});
  CHECK(ex.label == "multitree_opt(pipeline=16,roots=exchange)");
  // The parameters are checked against the schema as in a params: mapping.
  CHECK(error_of("topology: torus:4x4\ncollective: {algorithms: [\"dbtree(pipe=3)\"]}\n") ==
        "bad.yaml:2:27: collective.algorithms[0]: dbtree: unknown parameter 'pipe' (known: "
        "pipeline, steps, phases)");
  // Unquoted in a flow list, a comma splits the label: the message says how to write it.
  CHECK_THAT(error_of("topology: torus:4x4\ncollective: {algorithms: [multitree_opt(pipeline=4,"
                      "roots=exchange)]}\n"),
             Catch::StartsWith("bad.yaml:2:27: collective.algorithms[0]: \"multitree_opt(pipeline=4"
                               "\" is not an algorithm name or name(key=value,...) with one of: "
                               "ring, ") &&
                 Catch::EndsWith("(inside [...] a name with several parameters must be quoted, "
                                 "or written {name: NAME, params: {key: value, ...}})"));
  CHECK_THAT(error_of("topology: torus:4x4\ncollective: {algorithms: [\"bogus(x=1)\"]}\n"),
             Catch::Contains("\"bogus(x=1)\" is not an algorithm name"));
  // A file entry needs its path: file(...) is not a shorthand for it.
  CHECK_THAT(error_of("topology: torus:4x4\ncollective: {algorithms: [\"file(path=x.json)\"]}\n"),
             Catch::Contains("is not an algorithm name"));
}

TEST_CASE("output paths are taken from the scenario file's folder, as every path it names") {
  // An absolute output path (here one under the source tree; nothing is written) stays as given.
  const std::string absolute = std::string(MT_SOURCE_DIR) + "/out/r.csv";
  const mt::ScenarioConfig c = load_scenario_text(
      "topology: ring:4\ncollective: {algorithms: [ring]}\noutput: {json: r.json, csv: \"" +
          absolute + "\"}\n",
      "runs/s.yaml");
  CHECK(c.output.json == "runs/r.json");
  CHECK(c.output.csv == absolute);
}

TEST_CASE("a file of another kind is named as such, with the command that takes it") {
  CHECK(error_of("name: s\nscenario: default.yaml\naxes: []\n") ==
        "bad.yaml:2:1: scenario: this looks like a sweep file (it has scenario:), not a scenario: "
        "use mtsim sweep FILE");
  CHECK(error_of("name: mlp\nlayers: []\n") ==
        "bad.yaml:2:1: layers: this looks like a workload (it has layers:), not a scenario: use "
        "mtsim train FILE --scenario NETWORK.yaml");
  CHECK(error_of("{\"format\": \"mtsim-schedule\", \"nodes\": 4, \"ops\": []}") ==
        "bad.yaml:1:42: ops: this looks like a schedule file (it has ops:), not a scenario: use "
        "mtsim verify FILE, or {name: file, path: FILE} in a scenario's algorithms");
  // A key of no other kind stays an unknown key.
  CHECK_THAT(error_of("topology: ring:4\ncollective: {algorithms: [ring]}\nbogus: 1\n"),
             Catch::Contains("bogus: unknown key; expected one of"));
}

TEST_CASE("a bad custom edge is named at its own line") {
  CHECK(error_of("topology:\n  kind: custom\n  nodes: 4\n  edges:\n    - [0, 1]\n    - [1, 2]\n"
                 "    - [2, 9]\ncollective: {algorithms: [ring]}\n") ==
        "bad.yaml:7:7: topology.edges[2]: custom edge 2 (2-9): vertex 9 is out of range; vertices "
        "are 0..3 (endpoints 0..3, then switches)");
}

TEST_CASE("the energy section: a link-type preset and any figure overridden") {
  const std::string head = "topology: ring:4\ncollective: {algorithms: [ring]}\n";
  // Default: board-level links.
  const mt::ScenarioConfig plain = load_scenario_text(head, "s.yaml");
  CHECK(mt::energy_params(plain.energy).link_pj_per_bit == 5.5);
  CHECK(mt::energy_params(plain.energy).link_idle_fraction == 1.0);
  const mt::ScenarioConfig c = load_scenario_text(
      head + "energy: {preset: on_package, memory_pj_per_bit: 2, router_leakage_mw: 6.4}\n",
      "s.yaml");
  const mt::EnergyParams p = mt::energy_params(c.energy);
  CHECK(p.preset == mt::EnergyPreset::kOnPackage);
  CHECK(p.link_pj_per_bit == 0.56);
  CHECK(p.link_idle_fraction == 0.15);
  CHECK(p.memory_pj_per_bit == 2.0);
  CHECK(p.router_leakage_mw == 6.4);
  CHECK(p.router_buffer_write_pj == 1.26);
  // A --set override goes over the file's section.
  const mt::ScenarioConfig o = load_scenario_text(head + "energy: {preset: on_package}\n", "s.yaml",
                                                  {"energy.link_pj_per_bit=0.25"});
  CHECK(mt::energy_params(o.energy).link_pj_per_bit == 0.25);
  CHECK(mt::energy_params(o.energy).link_idle_fraction == 0.15);
  // Bad values and keys are named at their place.
  CHECK(error_of(head + "energy:\n  link_idle_fraction: 2\n") ==
        "bad.yaml:4:23: energy.link_idle_fraction: \"2\" is out of range: must be >= 0 and <= 1");
  CHECK(error_of(head + "energy: {preset: optical}\n") ==
        "bad.yaml:3:18: energy.preset: \"optical\" is not one of: on_package, board");
  CHECK_THAT(error_of(head + "energy: {link_pj: 1}\n"),
             Catch::StartsWith("bad.yaml:3:10: energy.link_pj: unknown key; expected one of: "
                               "preset, link_pj_per_bit, link_idle_fraction"));
}
