// The scenario loader: every key of the schema, and malformed or hostile input rejected with
// "file:line:col: key.path: what is wrong".

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/collective/byte_size.h"
#include "model/config/scenario_loader.h"

using mt::load_scenario_text;
using mt::ScenarioError;

namespace {

const char* const kValid = R"(name: demo
clock_ghz: 1.5
topology:
  kind: torus
  dims: [4, 4]
  link_bytes_per_cycle: 32
  link_latency_cycles: 10
router:
  pipeline_cycles: 3
  vcs: 2
  buffer_flits: 64
nic:
  ports: 2
  flow_control: message
  packet_bytes: 512
collective:
  algorithms: [ring, {name: multitree, label: mt}]
  sizes: [32KiB, 1MiB, 4096, 2 MB]
  dtype: int32
)";

// Loads `text` and returns the error's location (all fields unset if it loaded).
mt::ErrorLocation location_of(const std::string& text,
                              const std::vector<std::string>& overrides = {}) {
  try {
    load_scenario_text(text, "bad.yaml", overrides);
  } catch (const ScenarioError& e) {
    return e.location();
  }
  return {};
}

// Loads `text` and returns the error message, or "" if it loaded.
std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    load_scenario_text(text, "bad.yaml", overrides);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

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

TEST_CASE("unknown keys are named with file, line, column and the allowed keys") {
  const std::string text =
      "topology: torus:4x4\nnic:\n  portz: 4\ncollective: {algorithms: [ring]}\n";
  CHECK(error_of(text) ==
        "bad.yaml:3:3: nic.portz: unknown key; expected one of: ports, scheduler, flow_control, "
        "issue, reduce_elems_per_cycle, reduction, port_binding, tx_queue_packets, receive_vcs, "
        "step_barrier, "
        "receive_port, packet_bytes, head_flit_bytes, flit_bytes, "
        "step_order, decision_latency_cycles, scheduler_depth, "
        "scheduler_window, scheduler_early_request, scheduler_clock_ghz, scheduler_watchdog_ticks, "
        "scheduler_watchdog_tick_cycles");
  // A key that was replaced says what replaced it.
  CHECK_THAT(error_of("topology: torus:4x4\nnic: {software_issue_cycles: 5}\n"
                      "collective: {algorithms: [ring]}\n"),
             Catch::StartsWith("bad.yaml:2:7: nic.software_issue_cycles: this key was replaced: "
                               "the host of software issue is the `host:` section"));
  CHECK_THAT(error_of("topologee: ring:4\n"),
             Catch::StartsWith("bad.yaml:1:1: topologee: unknown key"));
  // The same place as fields of the error, not to be parsed out of the text.
  const mt::ErrorLocation at = location_of(text);
  CHECK(at.file == "bad.yaml");
  CHECK(at.line == 3);
  CHECK(at.column == 3);
  CHECK(at.key_path == "nic.portz");
  CHECK(at.override_key.empty());
  CHECK(at.where() == "bad.yaml:3:3");
  const mt::ErrorLocation syntax = location_of("nic: {ports: [1\n");
  CHECK(syntax.file == "bad.yaml");
  CHECK(syntax.line == 2);
  CHECK(syntax.key_path.empty());
}

TEST_CASE("wrong types are rejected with the key path") {
  const std::string base = "topology: torus:4x4\ncollective: {algorithms: [ring]}\n";
  CHECK(error_of(base + "clock_ghz: fast\n") ==
        "bad.yaml:3:12: clock_ghz: expected a number, got \"fast\"");
  CHECK(error_of(base + "router: {vcs: [1, 2]}\n") ==
        "bad.yaml:3:15: router.vcs: expected an integer, got a list");
  CHECK(error_of(base + "router: {step_priority: maybe}\n") ==
        "bad.yaml:3:25: router.step_priority: expected true or false, got \"maybe\"");
  CHECK(error_of(base + "nic: 4\n") ==
        "bad.yaml:3:6: nic: expected a mapping of keys (ports, scheduler, flow_control, issue, "
        "reduce_elems_per_cycle, reduction, port_binding, tx_queue_packets, receive_vcs, "
        "step_barrier, "
        "receive_port, packet_bytes, head_flit_bytes, flit_bytes, "
        "step_order, decision_latency_cycles, scheduler_depth, scheduler_window, "
        "scheduler_early_request, "
        "scheduler_clock_ghz, scheduler_watchdog_ticks, scheduler_watchdog_tick_cycles)");
  CHECK(error_of(base + "nic: {scheduler: verilog}\n") ==
        "bad.yaml:3:18: nic.scheduler: \"verilog\" is not one of: tlm, rtl");
  CHECK(error_of("topology: {kind: torus, dims: [4, 4.5]}\ncollective: {algorithms: [ring]}\n") ==
        "bad.yaml:1:35: topology.dims[1]: expected an integer, got \"4.5\"");
}

TEST_CASE("a topology key of another kind is refused, not ignored") {
  const std::string algos = "collective: {algorithms: [ring]}\n";
  CHECK(error_of("topology: {kind: torus, dims: [4, 4], k: 8}\n" + algos) ==
        "bad.yaml:1:42: topology.k: does not apply to a torus topology (only to fattree)");
  CHECK(error_of("topology: {kind: fattree, dims: [4, 4]}\n" + algos) ==
        "bad.yaml:1:33: topology.dims: does not apply to a fattree topology (only to ring, torus, "
        "mesh)");
  CHECK(error_of("topology: {kind: bigraph, m: 2, n: 4, nodes: 8}\n" + algos) ==
        "bad.yaml:1:46: topology.nodes: does not apply to a bigraph topology (only to switch, "
        "custom)");
  // A --set of the kind alone keeps the file's shape keys: the message says how to replace them.
  CHECK_THAT(error_of("topology: {kind: torus, dims: [4, 4]}\n" + algos, {"topology.kind=fattree"}),
             Catch::EndsWith("topology.dims: does not apply to a fattree topology (only to ring, "
                             "torus, mesh); to change the kind from the command line, replace the "
                             "topology mapping, e.g. --set 'topology={kind: fattree, k: 4, "
                             "link_latency_cycles: 150}'"));
}

TEST_CASE("a size listed twice is refused") {
  CHECK(error_of("topology: torus:4x4\ncollective: {algorithms: [ring], sizes: [4KiB, 1MiB, "
                 "4096]}\n") ==
        "bad.yaml:2:54: collective.sizes[2]: the same size as collective.sizes[0]; list each size "
        "once (every point would run twice)");
}

TEST_CASE("impossible values are rejected") {
  const std::string algos = "collective: {algorithms: [ring]}\n";
  CHECK(error_of("topology: {kind: torus, dims: [0, 4]}\n" + algos) ==
        "bad.yaml:1:32: topology.dims[0]: \"0\" is out of range: must be between 1 and 4096");
  CHECK(error_of("topology: {kind: switch, nodes: -3}\n" + algos) ==
        "bad.yaml:1:33: topology.nodes: \"-3\" is out of range: must be between 1 and 4096");
  CHECK(error_of("topology: {kind: torus, dims: [4096, 4096]}\n" + algos) ==
        "bad.yaml:1:11: topology: topology has 16777216 endpoints; at most 4096 are supported");
  CHECK(
      error_of("topology: torus:4x4\ncollective: {algorithms: [ring], sizes: [-1MiB]}\n") ==
      "bad.yaml:2:42: collective.sizes[0]: \"-1MiB\" is not a size: expected a positive number of "
      "bytes with an optional unit B, KiB, MiB, GiB, TiB, KB, MB, GB, TB");
  CHECK(error_of("topology: torus:4x4\ncollective: {algorithms: [ring], sizes: [6]}\n") ==
        "bad.yaml:2:42: collective.sizes[0]: 6 bytes is not a whole number of 4-byte elements");
  CHECK(error_of("topology: torus:4x4\ncollective: {algorithms: [ring], sizes: [2TiB]}\n") ==
        "bad.yaml:2:42: collective.sizes[0]: \"2TiB\" is larger than the 1TiB limit");
  CHECK_THAT(error_of("topology: torus:4x4\ncollective: {algorithms: [quantum]}\n"),
             Catch::StartsWith(
                 "bad.yaml:2:27: collective.algorithms[0]: \"quantum\" is not one of: ring"));
  CHECK(error_of("topology: torus:4x4\nrouter: {vcs: 1}\n" + algos) ==
        "bad.yaml:1:1: router.vcs: a torus needs at least 2 virtual channels (dateline deadlock "
        "avoidance)");
  CHECK(error_of("topology: ring:4\nrouter: {vcs: 1}\n" + algos) ==
        "bad.yaml:1:1: router.vcs: a ring of 3 or more nodes needs at least 2 virtual channels "
        "(dateline deadlock avoidance on its wraparound link)");
  CHECK(error_of("topology: ring:2\nrouter: {vcs: 1}\n" + algos).empty());  // no wraparound
  // Refused while loading, not when the run starts: the barrier without step order, any port
  // on a switched network.
  CHECK(error_of("topology: torus:4x4\nnic: {step_barrier: true, step_order: false}\n" + algos) ==
        "bad.yaml:2:39: nic.step_order: false contradicts nic.step_barrier true, which starts "
        "steps strictly in order (use auto or true)");
  CHECK(error_of("topology: {kind: custom, nodes: 2, switches: 2, edges: [[0, 2], [0, 3], [1, 2], "
                 "[1, 3]]}\n" +
                 algos) ==
        "bad.yaml:1:11: topology: endpoint 0 has 2 network links but 1 NIC port(s); on a "
        "topology with switches each NIC port drives one link, so every endpoint needs one link "
        "per port (2 ports would match)");
  // An entry's own keys are named: its head too long for the routers' buffers, its ports.
  CHECK(error_of("topology: torus:4x4\nrouter: {buffer_flits: 40}\ncollective:\n  algorithms:\n"
                 "    - {name: ring, nic: {head_flit_bytes: 1024}}\n") ==
        "bad.yaml:5:7: nic.head_flit_bytes: 1024: router.buffer_flits 40 flits cannot hold one "
        "packet of "
        "80 flits (nic.packet_bytes + nic.head_flit_bytes)");
  CHECK(error_of("topology: torus:4x4\ncollective:\n  algorithms: [{name: ring, ports: 5}]\n") ==
        "bad.yaml:3:16: collective.algorithms[0].ports: ports per node is 5 but torus:4x4 "
        "endpoints have at most 4 network "
        "link(s); use 1..4 (or 0 for the default)");
  CHECK(error_of("topology: torus:4x4\nnic: {step_order: maybe}\n" + algos) ==
        "bad.yaml:2:19: nic.step_order: expected auto, true or false, got \"maybe\"");
  CHECK(error_of("topology: fattree:k=4,levels=2\nnic: {port_binding: any}\n" + algos) ==
        "bad.yaml:2:21: nic.port_binding: any needs a direct topology: on fattree:k=4,levels=2 "
        "each NIC port is its own link to a switch (use route)");
  CHECK(
      error_of("topology: bigraph:m=2,n=4\nrouter: {vcs: 1}\n" + algos) ==
      "bad.yaml:1:1: router.vcs: a bigraph needs at least 2 virtual channels (hop classes: routes "
      "turn between the switch halves)");
  CHECK(error_of("topology: torus:4x4\nrouter: {buffer_flits: 8}\n" + algos) ==
        "bad.yaml:2:24: router.buffer_flits: 8 flits cannot hold one packet of 17 flits "
        "(nic.packet_bytes + nic.head_flit_bytes)");
  // The packet key that makes it too long, where the file or a --set gives it and the buffer is
  // the default: the --set's first (a sweep's value), then the file's own line.
  CHECK(error_of("topology: torus:4x4\nnic: {packet_bytes: 8192}\n" + algos) ==
        "bad.yaml:2:21: nic.packet_bytes: 8192: router.buffer_flits 318 flits cannot hold one "
        "packet of 513 flits (nic.packet_bytes + nic.head_flit_bytes)");
  CHECK(error_of("topology: torus:4x4\nrouter: {vcs: 4}\n" + algos, {"nic.packet_bytes=8192"}) ==
        "--set nic.packet_bytes=8192: nic.packet_bytes: 8192: router.buffer_flits 318 flits "
        "cannot hold one packet of 513 flits (nic.packet_bytes + nic.head_flit_bytes)");
  CHECK(error_of("topology: torus:4x4\nrouter: {buffer_flits: 20}\nnic: {receive_vcs: 8}\n" +
                 algos) ==
        "bad.yaml:3:20: nic.receive_vcs: 8 VCs of a receive port's 80 flits (router.vcs x "
        "router.buffer_flits) cannot each hold one packet of 17 flits");
  CHECK_THAT(error_of("topology: torus:4x4\nnic: {ports: 9}\n" + algos),
             Catch::StartsWith("bad.yaml:1:11: topology: ") && Catch::Contains("ports"));
  CHECK(error_of("topology: torus:4x4\ncollective: {algorithms: [ring, ring]}\n") ==
        "bad.yaml:2:26: collective.algorithms: two entries are labelled \"ring\"; give each a "
        "distinct label");
}

TEST_CASE("missing sections, empty and non-YAML files are rejected") {
  CHECK(
      error_of("") ==
      "bad.yaml: the scenario is empty; expected a mapping with at least topology and collective");
  CHECK(
      error_of("# only a comment\n") ==
      "bad.yaml: the scenario is empty; expected a mapping with at least topology and collective");
  CHECK(error_of("collective: {algorithms: [ring]}\n") ==
        "bad.yaml:1:1: topology: missing: every scenario needs a topology");
  CHECK(error_of("topology: ring:4\n") ==
        "bad.yaml:1:1: collective.algorithms: missing: list at least one algorithm");
  CHECK(error_of("topology: ring:4\ncollective:\n  sizes: [4KiB]\n") ==
        "bad.yaml:3:3: collective.algorithms: missing: list at least one algorithm");
  CHECK_THAT(error_of("- just\n- a list\n"),
             Catch::StartsWith("bad.yaml:1:1: expected a mapping of keys (name, description"));
  CHECK_THAT(error_of("topology: {kind: torus\n"),
             Catch::StartsWith("bad.yaml:2:1: YAML syntax error: "));
}

TEST_CASE("hostile input: non-UTF-8, deep nesting, duplicate keys, huge values") {
  CHECK(error_of("name: caf\xe9\n") == "bad.yaml:1:10: the file is not valid UTF-8 (byte 9)");
  CHECK(error_of("name: a\nname: b\ntopology: ring:4\n") == "bad.yaml:2:1: name: key given twice");
  std::string deep = "topology: ring:4\nrouter: ";
  for (int i = 0; i < 5000; ++i) deep += "[";
  CHECK_THAT(error_of(deep), Catch::StartsWith("bad.yaml:"));
  std::string deep_map = "nic:\n  ports: {a: {b: {c: {d: {e: 1}}}}}\n";
  CHECK(error_of(deep_map) == "bad.yaml:2:10: nic.ports: expected an integer, got a mapping");
  CHECK(error_of("topology: torus:4x4\nwatchdog_cycles: 99999999999999999999999\n") ==
        "bad.yaml:2:18: watchdog_cycles: expected an integer, got \"99999999999999999999999\"");
}

TEST_CASE("overrides from --set apply before validation and name themselves in errors") {
  const mt::ScenarioConfig s = load_scenario_text(
      kValid, "demo.yaml", {"nic.ports=4", "collective.sizes=[1MiB]", "router.step_priority=true"});
  CHECK(s.topology.ports_per_node == 4);
  CHECK(s.collective.sizes_bytes == std::vector<std::uint64_t>{1048576});
  CHECK(s.router.step_priority);
  CHECK(error_of(kValid, {"nic.ports=many"}) ==
        "--set nic.ports=many: nic.ports: expected an integer, got \"many\"");
  CHECK(error_of(kValid, {"nic.portz=4"}) ==
        "--set nic.portz=4: nic.portz: unknown key; expected one "
        "of: ports, scheduler, flow_control, issue, reduce_elems_per_cycle, reduction, "
        "port_binding, tx_queue_packets, receive_vcs, step_barrier, receive_port, packet_bytes, "
        "head_flit_bytes, flit_bytes, step_order, decision_latency_cycles, "
        "scheduler_depth, scheduler_window, scheduler_early_request, scheduler_clock_ghz, "
        "scheduler_watchdog_ticks, "
        "scheduler_watchdog_tick_cycles");
  CHECK(error_of(kValid, {"nic.ports"}) == "--set nic.ports: expected key.path=value");
  CHECK(error_of(kValid, {"name.x=1"}) == "--set name.x=1: \"name\" is not a mapping");
  // The override is a field of the error: its key and text, and no file position.
  const mt::ErrorLocation bad_value = location_of(kValid, {"nic.ports=many"});
  CHECK(bad_value.override_key == "nic.ports");
  CHECK(bad_value.override_text == "nic.ports=many");
  CHECK(bad_value.key_path == "nic.ports");
  CHECK(bad_value.line == -1);
  CHECK(location_of(kValid, {"name.x=1"}).override_key == "name.x");
  // A key inside an overridden mapping names the override that set the mapping.
  const mt::ErrorLocation inside = location_of(kValid, {"router={vcs: 0}"});
  CHECK(inside.override_key == "router");
  CHECK(inside.key_path == "router.vcs");
  CHECK(inside.where() == "--set router={vcs: 0}");
  // An override that also created its mapping (the file has no nic:) names the key it set.
  const mt::ErrorLocation created =
      location_of("topology: ring:4\ncollective: {algorithms: [ring]}\n", {"nic.ports=many"});
  CHECK(created.override_key == "nic.ports");
  // Of two overrides of one key, the one whose value is read is named, in either order.
  CHECK(location_of(kValid, {"nic.ports=2", "nic={ports: many}"}).override_text ==
        "nic={ports: many}");
  CHECK(location_of(kValid, {"nic={ports: 2}", "nic.ports=many"}).override_text ==
        "nic.ports=many");
  // A spec-string topology can still be changed key by key.
  const mt::ScenarioConfig t =
      load_scenario_text("topology: torus:4x4\ncollective: {algorithms: [ring]}\n", "t.yaml",
                         {"topology.link_latency_cycles=7"});
  CHECK(t.topology.link_latency_cycles == 7);
  CHECK(t.topology.dims == std::vector<int>{4, 4});
  // A bad spec string stays the file's error when an override would expand it.
  CHECK(error_of("topology: torus:4x4x\ncollective: {algorithms: [ring]}\n",
                 {"topology.link_latency_cycles=7"}) ==
        "bad.yaml:1:11: topology: topology spec \"torus:4x4x\": dimension \"\" is not a positive "
        "integer");
  // Replacing the whole topology replaces the bad string too.
  CHECK(error_of("topology: torus:4x4x\ncollective: {algorithms: [ring]}\n",
                 {"topology=ring:8", "topology.link_latency_cycles=7"})
            .empty());
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
