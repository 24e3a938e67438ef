#include "model/config/network_keys.h"

#include <string>
#include <utility>
#include <vector>

#include "model/params/time_limits.h"

namespace mt {
namespace {

// The topology kinds a key applies to; empty for the keys every kind takes (kind, the links').
std::vector<TopologyKind> kinds_taking(const std::string& key) {
  using K = TopologyKind;
  if (key == "dims") return {K::kRing, K::kTorus, K::kMesh};
  if (key == "k" || key == "levels") return {K::kFatTree};
  if (key == "m" || key == "n") return {K::kBiGraph};
  if (key == "nodes") return {K::kSwitch, K::kCustom};
  if (key == "switches" || key == "edges") return {K::kCustom};
  return {};
}

using T = TopologyConfig;

KeySpec<T> dims_key() {
  KeySpec<T> k;
  k.name = "dims";
  k.type = "list of 1-3 integers 1.." + std::to_string(kMaxEndpoints);
  k.help =
      "ring: `[N]`; torus and mesh: `[X, Y]` or `[X, Y, Z]` (a dimension of 1 adds nothing: "
      "`torus:1x5` is `ring:5`; a torus dimension of 2 has one link each way between its two "
      "planes, since the + and - neighbours coincide, so its nodes have fewer ports)";
  k.read = [](const YamlReader& r, const YAML::Node& v, const std::string& p, T& t) {
    t.dims.clear();
    std::size_t i = 0;
    for (const auto& d : r.list(v, p, true, 3))
      t.dims.push_back(r.integer32(d, p + "[" + std::to_string(i++) + "]", 1, kMaxEndpoints));
  };
  k.show = [](const T& t) {
    std::string out;
    for (const int d : t.dims) out += (out.empty() ? "`[" : ", ") + std::to_string(d);
    return out + "]`";
  };
  return k;
}

KeySpec<T> edges_key() {
  KeySpec<T> k;
  k.name = "edges";
  k.type = "list of `[a, b]`";
  k.help =
      "custom: bidirectional links between vertex ids; routed up*/down* on a BFS spanning "
      "tree rooted at the first switch (or endpoint 0): deadlock-free with one VC class";
  k.read = [](const YamlReader& r, const YAML::Node& v, const std::string& p, T& t) {
    t.custom_edges.clear();
    std::size_t i = 0;
    for (const auto& e : r.list(v, p, false, 1u << 20)) {
      const std::string ep = p + "[" + std::to_string(i++) + "]";
      if (!e.IsSequence() || e.size() != 2) r.fail(e, ep, "expected a pair [a, b] of vertex ids");
      t.custom_edges.push_back({r.integer32(e[0], ep + "[0]", 0, 2 * kMaxEndpoints),
                                r.integer32(e[1], ep + "[1]", 0, 2 * kMaxEndpoints)});
    }
  };
  k.show = [](const T&) { return std::string("empty"); };
  return k;
}

KeySpec<T> nodes_key() {
  KeySpec<T> k = integer_key("nodes", &T::switch_nodes, 1, kMaxEndpoints, "",
                             "switch: endpoints on the one switch; custom: endpoints");
  k.read = [](const YamlReader& r, const YAML::Node& v, const std::string& p, T& t) {
    t.switch_nodes = t.custom_nodes = r.integer32(v, p, 1, kMaxEndpoints);
  };
  return k;
}

// A step order: auto, or a boolean.
KeySpec<NicConfig> step_order_key() {
  KeySpec<NicConfig> k;
  k.name = "step_order";
  k.type = "`auto`, `true`, `false`";
  k.help =
      "hardware issue: `true`: an entry of step s is never issued before the node's entries "
      "of earlier steps; `false`: an entry goes as soon as its counter condition holds "
      "(within the window); `auto`: `true` when each flow (a tree, a ring) sends one chunk "
      "and no directed link carries two messages of one step (MultiTree: step order keeps its "
      "trees apart), `false` otherwise: where several messages of a step share a link "
      "(tree_packing, dbtree) step order only holds them back (tree_packing on the 4x4 mesh "
      "at 1 MiB, 45805 cycles against 47086 with `true`, 14965 against 16246 at 256 KiB), and "
      "a flow of several chunks (rings, halving_doubling, disjoint_rings, tree_packing, "
      "multitree_opt with a `pipeline`) is ordered by its own dependencies (tree_packing's "
      "steps are link-disjoint on the 8x8 and 4x4x4 tori, where `true` cost it 14-21% at "
      "512 KiB-4 MiB, docs/beyond.md); always "
      "`true` under `nic.step_barrier` (which starts steps strictly in order; `false` with "
      "the barrier is refused)";
  k.read = [](const YamlReader& r, const YAML::Node& v, const std::string& p, NicConfig& c) {
    c.step_order = r.text(v, p) == "auto"                   ? StepOrderChoice::kAuto
                   : r.boolean(v, p, "auto, true or false") ? StepOrderChoice::kOn
                                                            : StepOrderChoice::kOff;
  };
  k.show = [](const NicConfig& c) { return "`" + std::string(to_string(c.step_order)) + "`"; };
  return k;
}

}  // namespace

const KeyTable<TopologyConfig>& topology_keys() {
  static const KeyTable<T> table{
      enum_key("kind", &T::kind, "family"),
      dims_key(),
      integer_key("k", &T::fattree_k, 2, 256, "",
                  "fattree: switch radix; k leaf switches with "
                  "k/2 endpoints each, k/2 spines"),
      integer_key("levels", &T::fattree_levels, 2, 2, "",
                  "fattree: levels (only 2-level fat-trees)"),
      integer_key("m", &T::bigraph_m, 1, kMaxEndpoints, "", "bigraph: endpoints per switch"),
      integer_key("n", &T::bigraph_n, 2, kMaxEndpoints, "",
                  "bigraph: switches, two halves of n/2 fully "
                  "connected to each other"),
      nodes_key(),
      integer_key("switches", &T::custom_switches, 0, kMaxEndpoints, "",
                  "custom: switches (vertex ids `nodes`..`nodes+switches-1`)"),
      edges_key(),
      real_key("link_bytes_per_cycle", &T::link_bytes_per_cycle, 0, 1e6, true, "bytes/cycle",
               "bandwidth of every directed link (one buffer per link must cross it within the "
               "horizon)"),
      integer_key("link_latency_cycles", &T::link_latency_cycles, 0, 1000000, "cycles",
                  "wire latency of router-router and switch-switch links"),
      integer_key("nic_link_latency_cycles", &T::nic_link_latency_cycles, 0, 1000000, "cycles",
                  "wire latency of endpoint-switch links on switched topologies"),
  };
  return table;
}

const KeyTable<RouterConfig>& router_keys() {
  using R = RouterConfig;
  static const KeyTable<R> table{
      integer_key("pipeline_cycles", &R::pipeline_cycles, 0, 1000, "cycles",
                  "per-hop routing + allocation + traversal latency"),
      integer_key("vcs", &R::vcs, 1, 16, "",
                  "virtual channels per input port (a torus needs >= "
                  "2 for its dateline, a bigraph >= 2 for its hop "
                  "classes: half of the VCs each)"),
      integer_key("buffer_flits", &R::buffer_flits, 1, 1 << 20, "flits",
                  "input buffer per virtual channel; must hold one whole packet"),
      bool_key("step_priority", &R::step_priority, "arbitrate older schedule steps first"),
      enum_key("step_priority_scope", &R::step_priority_scope,
               "with `step_priority`: `output` = older steps first among every packet requesting "
               "an output; `input` = only among the VCs of one input port, input ports still "
               "take turns (an iSLIP allocator, as the authors' BookSim)"),
      enum_key("tie_break", &R::tie_break,
               "ring and torus: a packet whose destination lies exactly half way around a "
               "dimension (both ways shortest) goes the + way (`plus`) or picks a way per "
               "packet, pseudo-randomly but reproducibly (`random`, as BookSim's dimension-order "
               "torus routing; under message flow control the whole message takes its head's way)"),
      enum_key("turn_reservation", &R::turn_reservation,
               "which packets keep their turn at a free output while their input port is busy "
               "sending another VC's packet (the output then waits for that port): packets of "
               "messages under message flow control (`message`), or every packet (`all`: as a "
               "flit-level switch that interleaves VCs, e.g. BookSim; without it a packet under "
               "packet flow control can wait out of phase with its port for thousands of cycles)"),
  };
  return table;
}

const KeyTable<NicConfig>& nic_keys() {
  using N = NicConfig;
  static const KeyTable<N> table{
      integer_key("ports", &N::ports, 0, 64, "",
                  "NIC ports per node; 0 = one per network link on "
                  "direct topologies, 1 on switched ones"),
      enum_key("scheduler", &N::scheduler,
               "C++ golden scheduler, or the Verilated `nic_sched` RTL (`rtl` needs `nic.issue: "
               "hardware` or `auto`)"),
      enum_key("flow_control", &N::flow_control,
               "`auto`: each point is prepared and simulated with `message` and with `packet` "
               "and the faster run is kept (twice the simulation time; said under the result "
               "table and in the JSON's `nic_choice` with both cycle counts; "
               "model/run/resolve.h); `packet`: every packet carries a 16-byte head flit, is "
               "routed (router pipeline) and credited on its own; `message`: only a message's "
               "first packet carries the head flit that sets up the path and reserves the "
               "receiver's buffer, the body packets stream behind it with no head flit and no "
               "router pipeline"),
      enum_key("issue", &N::issue,
               "`auto`: per point, `hardware` when `nic.scheduler` is `rtl` or the host's "
               "time per message (post and doorbell share) plus its notification latency "
               "exceeds the scheduler's decision (`decision_latency_cycles`), `software` "
               "otherwise (said under the result table and in the JSON's `nic_choice`); "
               "`software`: the host (`host:`) learns of arrivals and posts every operation "
               "once its dependencies have arrived, at its own cost (docs/host.md); "
               "`hardware`: the co-designed NIC scheduler holds the node's packed schedule table "
               "(model/sched/SCHEDULE_TABLE.md) and issues it itself, by arrival counters, in "
               "step order, no host overhead"),
      real_key("reduce_elems_per_cycle", &N::reduce_elems_per_cycle, 0, 1e6, true, "elements/cycle",
               "reduction unit throughput"),
      enum_key("reduction", &N::reduction,
               "`packet`: the reduction unit sums each received packet as soon as its tail has "
               "arrived (cut-through); `message`: it sums a reduce message once all its packets "
               "have arrived (one message at a time, in arrival order), and the message counts "
               "as arrived (its dependents may issue) only then, as an accelerator that reduces "
               "a received chunk in its compute array"),
      enum_key("port_binding", &N::port_binding,
               "direct topologies: `route` = a message leaves by the port of its route's first "
               "link (ports serve fixed directions); `any` = by the lowest-numbered free port, "
               "whatever its direction (one issue queue for all ports)"),
      integer_key("tx_queue_packets", &N::tx_queue_packets, 0, 1 << 20, "packets",
                  "transmit queue per port, packets: a port takes its next message once the DMA "
                  "has handed the previous one's packets to the queue (one per cycle) and its "
                  "packets not yet injected fit in the queue; `0`: no queue, a port is free when "
                  "its last packet has left"),
      integer_key("receive_vcs", &N::receive_vcs, 0, 64, "",
                  "VCs of a NIC receive port (ejection port, or a switch's link to a node); its "
                  "buffer, `router.vcs` x `router.buffer_flits` flits, is split evenly among "
                  "them and each must hold a packet. Under message flow control a message holds "
                  "one until its tail has passed: that many messages share a port packet by "
                  "packet, with `1` they queue whole. `0`: `router.vcs`, as a router input and "
                  "as the reference simulator's ejection channel"),
      bool_key("step_barrier", &N::step_barrier,
               "a node starts operations strictly in step order, and its next step only once "
               "every port is free again (the authors' `--strict-schedule`)"),
      enum_key("receive_port", &N::receive_port,
               "direct topologies: `any` = a packet is ejected to any free port of its receiver; "
               "`per_message` = each message to one receiver port, the receiver's ports taken in "
               "turn by the messages of one step (schedule order)"),
      integer_key("packet_bytes", &N::packet_bytes, 4, 1 << 20, "bytes",
                  "payload bytes per packet (whole 4-byte elements; at most 2^31 - 1 packets per "
                  "size)"),
      integer_key("head_flit_bytes", &N::head_flit_bytes, 0, 4096, "bytes",
                  "header bytes added to every head packet"),
      integer_key("flit_bytes", &N::flit_bytes, 1, 4096, "bytes", "flit size; buffers count flits"),
      moved_key<N>("software_issue_cycles",
                   "the host of software issue is the `host:` section (docs/host.md): "
                   "host.message_cycles is the host's time per message, and host.preset: free "
                   "with it alone is the nearest to the old meaning (the old key delayed a port "
                   "after it freed; a host now posts messages ahead of the ports)"),
      step_order_key(),
      integer_key("decision_latency_cycles", &N::decision_latency_cycles, 2, 1000, "cycles",
                  "hardware issue: cycles between an arrival (or a port becoming free) and the "
                  "grant it enables (v2 registers its grants: at least 2)"),
      integer_key("scheduler_depth", &N::scheduler_depth, 1, 1 << 16, "entries",
                  "hardware issue: the scheduler's table ring buffer, entries (prefetch; tables "
                  "may be longer)"),
      integer_key("scheduler_window", &N::scheduler_window, 1, 64, "entries",
                  "hardware issue: the scheduler's issue window per port, entries"),
      bool_key("scheduler_early_request", &N::scheduler_early_request,
               "hardware issue: a port's DMA raises its request `decision_latency_cycles` "
               "scheduler cycles before its port frees (once its message's last packet is on "
               "the wire) and holds the grant in a descriptor register until the port is free, "
               "so the decision latency is hidden behind the message before (the default); "
               "false: it requests once the port is free. "
               "No effect with `tx_queue_packets` (those ports free when their DMA is done). "
               "docs/beyond.md, Choosing the NIC mode"),
      enum_key("scheduler_any_port_grants", &N::scheduler_any_port_grants,
               "hardware issue under `port_binding: any`: `one` = the scheduler grants one "
               "message per decision from the one issue queue, which the lowest free port "
               "takes; `per_port` = one decision grants up to one message to every requesting "
               "port, the queue's oldest ready entries to the lowest-numbered ports (as a host "
               "starts one on every free port in a cycle; rtl/README.md, shared_window_i). "
               "No effect under `port_binding: route`"),
      enum_key("scheduler_table_order", &N::scheduler_table_order,
               "hardware issue: the order of each node's schedule table, which the scheduler's "
               "per-port windows are refilled in: `step` = by step (then messages that wait for "
               "others of their step after those, then program order); `planned` = the order in "
               "which a free host issues the same schedule, planned by a message-granularity run "
               "of the point before it is simulated (a compile step; its windows then hold the "
               "messages that become ready next, and tree_packing gets the host's short "
               "messages). planned needs step order off (`step_order: auto` is off with it) and "
               "no step barrier; `auto` = both, where hardware issue has no step barrier and "
               "`step_order` is not true, each simulated, the faster kept (step on a tie), "
               "planned only where its tables fit the nic_sched build in every parameter "
               "(rtl/params/cosim.params; the results' `table_misfit` says what a table lacks, "
               "`nic_choice` what both took). At `granularity: message` it changes nothing. "
               "docs/beyond.md, Planned table order"),
      moved_key<N>("scheduler_counters",
                   "`scheduler_table_order: auto` keeps a planned table only where it fits the "
                   "nic_sched build in every parameter (rtl/params/cosim.params, or the file "
                   "given to CMake as -DMT_RTL_PARAMS_FILE; `mtsim --version` prints it), not "
                   "its counters alone"),
      real_key("scheduler_clock_ghz", &N::scheduler_clock_ghz, 0, 1000, false, "GHz",
               "hardware issue: the scheduler's own clock, at most `clock_ghz` (0: `clock_ghz`); "
               "its cycle k starts at network cycle ceil(k x clock_ghz / scheduler_clock_ghz), "
               "so inputs wait for its next edge and `decision_latency_cycles` counts its "
               "cycles; the energy model clocks it at this rate (docs/verdict.md measures a "
               "scheduler at the co-simulated build's synthesized fmax)"),
      integer_key("scheduler_watchdog_ticks", &N::scheduler_watchdog_ticks, 0, 65535, "ticks",
                  "hardware issue: the scheduler's progress watchdog (rtl/README.md, Errors): a "
                  "run stops with a stall error naming the node and an entry after this many "
                  "watchdog ticks in which a port waited for a grant and nothing moved (no "
                  "table write, arrival or accepted grant); 0: off. Set it above the longest "
                  "legitimate wait for an arrival"),
      integer_key("scheduler_watchdog_tick_cycles", &N::scheduler_watchdog_tick_cycles, 1, 1 << 24,
                  "cycles",
                  "hardware issue: scheduler cycles per watchdog tick (the integrator's "
                  "timebase on wdog_tick_i)"),
  };
  return table;
}

void read_topology(const YamlReader& r, const YAML::Node& node, const std::string& path,
                   TopologyConfig& t) {
  if (node.IsScalar()) {  // shorthand: a CLI spec string such as "torus:4x4"
    try {
      const TopologyConfig parsed = parse_topology_spec(node.Scalar());
      t.kind = parsed.kind;
      t.dims = parsed.dims;
      t.fattree_k = parsed.fattree_k;
      t.fattree_levels = parsed.fattree_levels;
      t.bigraph_m = parsed.bigraph_m;
      t.bigraph_n = parsed.bigraph_n;
      t.switch_nodes = parsed.switch_nodes;
    } catch (const TopologyError& e) {
      r.fail(node, path, e.what());
    }
    return;
  }
  std::vector<std::pair<std::string, YAML::Node>> shape_keys;  // keys that only some kinds take
  std::vector<std::string> names;
  for (const auto& k : topology_keys()) names.push_back(k.name);
  r.each_key(node, path, names,
             [&](const std::string& key, const YAML::Node& v, const std::string& p) {
               if (!kinds_taking(key).empty()) shape_keys.emplace_back(key, v);
               for (const auto& k : topology_keys())
                 if (k.name == key) k.read(r, v, p, t);
             });
  // A key of another kind (dims of a fat-tree, k of a torus) would be ignored silently.
  for (const auto& [key, value] : shape_keys) {
    std::string takes;
    bool applies = false;
    for (const TopologyKind k : kinds_taking(key)) {
      applies = applies || k == t.kind;
      takes += std::string(takes.empty() ? "" : ", ") + to_string(k);
    }
    if (!applies) {
      // A --set of the kind alone keeps the file's other shape keys: say how to replace them.
      const bool kind_overridden = !r.location(value, path + ".kind").override_key.empty();
      r.fail(
          value, path + "." + key,
          std::string("does not apply to a ") + to_string(t.kind) + " topology (only to " + takes +
              ")" +
              (kind_overridden ? "; to change the kind from the command line, replace the topology "
                                 "mapping, e.g. --set 'topology={kind: fattree, k: 4, "
                                 "link_latency_cycles: 150}'"
                               : ""));
    }
  }
}

void read_router(const YamlReader& r, const YAML::Node& node, const std::string& path,
                 RouterConfig& c) {
  read_section(r, node, path, router_keys(), c);
}

void read_nic(const YamlReader& r, const YAML::Node& node, const std::string& path, NicConfig& c,
              bool entry_overrides) {
  read_section(r, node, path, nic_keys(), c,
               entry_overrides ? std::vector<std::string>{"ports"} : std::vector<std::string>{});
}

}  // namespace mt
