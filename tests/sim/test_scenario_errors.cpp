// The scenario loader's refusals: unknown keys, wrong types, impossible values, missing
// sections, hostile input and bad overrides, each named "file:line:col: key.path: what is
// wrong" (the valid schema: test_scenario_loader.cpp).

#include <catch2/catch.hpp>
#include <string>

#include "model/collective/byte_size.h"
#include "model/config/scenario_loader.h"
#include "tests/support/scenario_text.h"

using mt::load_scenario_text;
using mt::ScenarioError;
using mt::test::error_of;
using mt::test::kValid;
using mt::test::location_of;

TEST_CASE("unknown keys are named with file, line, column and the allowed keys") {
  const std::string text =
      "topology: torus:4x4\nnic:\n  portz: 4\ncollective: {algorithms: [ring]}\n";
  CHECK(error_of(text) ==
        "bad.yaml:3:3: nic.portz: unknown key; expected one of: ports, scheduler, flow_control, "
        "issue, reduce_elems_per_cycle, reduction, port_binding, tx_queue_packets, receive_vcs, "
        "step_barrier, "
        "receive_port, packet_bytes, head_flit_bytes, flit_bytes, "
        "step_order, decision_latency_cycles, scheduler_depth, "
        "scheduler_window, scheduler_early_request, scheduler_any_port_grants, "
        "scheduler_table_order, "
        "scheduler_clock_ghz, scheduler_watchdog_ticks, "
        "scheduler_watchdog_tick_cycles");
  // A key that was replaced says what replaced it.
  CHECK_THAT(error_of("topology: torus:4x4\nnic: {software_issue_cycles: 5}\n"
                      "collective: {algorithms: [ring]}\n"),
             Catch::StartsWith("bad.yaml:2:7: nic.software_issue_cycles: this key was replaced: "
                               "the host of software issue is the `host:` section"));
  CHECK_THAT(error_of("topology: torus:4x4\nnic: {scheduler_counters: 100}\n"
                      "collective: {algorithms: [ring]}\n"),
             Catch::StartsWith("bad.yaml:2:7: nic.scheduler_counters: this key was replaced: "
                               "`scheduler_table_order: auto` keeps a planned table only where "
                               "it fits the nic_sched build in every parameter"));
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
        "scheduler_early_request, scheduler_any_port_grants, scheduler_table_order, "
        "scheduler_clock_ghz, scheduler_watchdog_ticks, "
        "scheduler_watchdog_tick_cycles)");
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
        "bad.yaml:1:32: topology.dims[0]: \"0\" is out of range: must be between 1 and 16384");
  CHECK(error_of("topology: {kind: switch, nodes: -3}\n" + algos) ==
        "bad.yaml:1:33: topology.nodes: \"-3\" is out of range: must be between 1 and 16384");
  CHECK(error_of("topology: {kind: torus, dims: [4096, 4096]}\n" + algos) ==
        "bad.yaml:1:11: topology: topology has 16777216 endpoints; at most 16384 are supported");
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
  // A planned table is not sorted by step.
  CHECK(error_of("topology: torus:4x4\nnic: {scheduler_table_order: planned, step_order: true}\n" +
                 algos) ==
        "bad.yaml:2:30: nic.scheduler_table_order: planned orders a table by when a free host "
        "issues its messages, not by step: it contradicts nic.step_order true (use step)");
  CHECK(
      error_of("topology: torus:4x4\nnic: {scheduler_table_order: planned, step_barrier: true}\n" +
               algos) ==
      "bad.yaml:2:30: nic.scheduler_table_order: planned orders a table by when a free host "
      "issues its messages, not by step: it contradicts nic.step_barrier true (use step)");
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
        "scheduler_depth, scheduler_window, scheduler_early_request, scheduler_any_port_grants, "
        "scheduler_table_order, scheduler_clock_ghz, "
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
