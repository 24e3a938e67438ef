#include "model/collective/auto_select.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include "model/core/power_of_two.h"

namespace mt {

std::string AutoCandidate::label() const {
  return schedule_label(algorithm, params);
}

namespace {

// Candidate `config`, its label naming its parameters `named` (as parameter_texts() writes them).
AutoCandidate candidate(AlgorithmConfig config, std::initializer_list<const char*> named = {}) {
  AutoCandidate c;
  c.algorithm = algorithm_name(config);
  const AlgorithmParams texts = parameter_texts(config);
  for (const char* key : named) c.params[key] = texts.at(key);
  c.config = std::move(config);
  return c;
}

// multitree_opt with `pipeline` sub-chunks per tree, named by its pipeline and `named`.
AutoCandidate multitree_opt(int pipeline, MultiTreeOptTrees trees = MultiTreeOptTrees::kOpt,
                            MultiTreeOptRoots roots = MultiTreeOptRoots::kSingle,
                            std::initializer_list<const char*> named = {"pipeline"}) {
  return candidate(MultiTreeOptParams{pipeline, trees, roots}, named);
}

}  // namespace

std::vector<AutoCandidate> auto_candidates(const Topology& topology, const BuildContext& context) {
  const int n = topology.nodes();
  std::vector<AutoCandidate> c;
  // ring and ring_bi are left out: disjoint_rings covers them (one or two rings per Hamiltonian
  // cycle, pipelined) and was never slower in the calibration runs.
  const auto& dims = topology.dims();
  if ((topology.kind() == TopologyKind::kTorus || topology.kind() == TopologyKind::kMesh) &&
      dims.size() == 2) {
    c.push_back(candidate(Ring2dParams{}));
  }
  c.push_back(candidate(DbtreeParams{}));
  if (is_power_of_two(n)) c.push_back(candidate(HalvingDoublingParams{}));
  c.push_back(candidate(MultiTreeParams{}));
  // Pipelined trees only on direct topologies. On switch topologies the simulator finds both the
  // switch-aware trees of multitree_opt and the pipelined published stars slower than the plain
  // published stars or the rings (their sub-chunks of different trees queue behind each other at
  // the switches: fat-tree k=8 at 1 MiB, 0.63 and 0.80 of the bound against 0.93), and the
  // estimate, which does not model switch contention, ranks them first. (On BiGraph, since its
  // routes use two VC classes, multitree_opt reaches 0.94 at 16 MiB, no better than the rings.)
  if (topology.is_direct()) {
    for (const int p : {1, 4}) c.push_back(multitree_opt(p));
    // 8 and 16 sub-chunks per tree win at small sizes (4x4 torus, 32 KiB: 1458 cycles with 16
    // against 1669 with 4), where the estimate ranks them first too. The hardware scheduler's
    // issue window stalls on that many messages per port (4231 cycles with a window of 4), so
    // auto offers them only to host-issued NICs, as tree_packing keeps its long messages there.
    if (!context.hardware_issue) {
      for (const int p : {8, 16}) c.push_back(multitree_opt(p));
    }
    // Root exchanges (receive staging) shorten the trees' longest round trip where latency
    // rules, on 2D tori (32 KiB: 4x4 1432 against 1458 cycles with 16 sub-chunks per tree, 8x8
    // 3051 against 3358 with 4; 4x4 at 16 KiB 1269 against 1347). The estimate ranks them first
    // where they lose: on the 8x8 mesh (32 and 64 KiB: 5317 and 6081 against the published
    // trees' 4949 and 5515) and the 4x4x4 torus (16 KiB: 2393 against 1933), so only 2D tori get
    // them.
    if (topology.kind() == TopologyKind::kTorus && dims.size() == 2) {
      const MultiTreeOptRoots exchange = MultiTreeOptRoots::kExchange;
      c.push_back(multitree_opt(4, MultiTreeOptTrees::kOpt, exchange, {"pipeline", "roots"}));
      if (!context.hardware_issue)
        c.push_back(multitree_opt(16, MultiTreeOptTrees::kOpt, exchange, {"pipeline", "roots"}));
    }
    c.push_back(multitree_opt(4, MultiTreeOptTrees::kPublished, MultiTreeOptRoots::kSingle,
                              {"pipeline", "trees"}));
    c.push_back(candidate(TreePackingParams{}));  // pipeline sized by choose_algorithm's bytes
  }
  for (const int p : {1, 2, 4}) {
    DisjointRingsParams rings;
    rings.pipeline = p;
    c.push_back(candidate(rings, {"pipeline"}));
  }
  // Swing: rings and tori (its builder refuses dimensions that are not powers of two).
  // The latency-optimal variant (whole-share exchanges, log2 N steps, received data staged)
  // wins at a few KiB (4x4 torus, 4 KiB: 894 cycles against 1278).
  if (topology.kind() == TopologyKind::kTorus || topology.kind() == TopologyKind::kRing) {
    c.push_back(candidate(SwingParams{}));
    c.push_back(candidate(SwingParams{SwingVariant::kLatency, std::nullopt}, {"variant"}));
  }
  return c;
}

AutoChoice choose_algorithm(const Topology& topology, std::uint64_t bytes,
                            const BuildContext& context, AutoRank rank) {
  const bool simulate = rank == AutoRank::kMessage;
  if (simulate && !context.simulate_messages)
    throw AlgorithmError(
        "auto: rank=message simulates every candidate on a run's network and NIC: use it in a "
        "scenario (mtsim run, sweep), not where no run is configured");
  AutoChoice choice;
  bool first = true;
  for (AutoCandidate c : auto_candidates(topology, context)) {
    if (depends_on_size(c.config)) {  // named with its size, e.g. "tree_packing(bytes=64KiB)"
      c.config = with_size(c.config, bytes);
      c.params["bytes"] = parameter_texts(c.config).at("bytes");
    }
    Schedule s;
    try {
      s = build_schedule(c.config, topology, context);
    } catch (const AlgorithmError&) {
      continue;  // does not support this topology
    } catch (const ScheduleTooLarge&) {
      continue;  // more messages than this machine can simulate
    }
    const double est = simulate ? context.simulate_messages(s, bytes)
                                : estimate_schedule(s, topology, bytes, context.cost).cycles();
    choice.ranking.emplace_back(c.label(), est);
    if (first || est < choice.estimate_cycles) {
      choice.chosen = c;
      choice.schedule = std::move(s);
      choice.estimate_cycles = est;
      first = false;
    }
  }
  if (first) throw AlgorithmError("auto: no candidate supports topology " + topology.name());
  std::ostringstream note;
  note << "auto: " << choice.chosen.label() << " for " << bytes << " B on " << topology.name()
       << (simulate ? " (message model " : " (estimate ")
       << static_cast<long long>(choice.estimate_cycles) << " cycles)";
  choice.note = note.str();
  return choice;
}

Schedule build_auto(const Topology& topology, const AutoParams& params,
                    const BuildContext& context) {
  require_min_nodes("auto", topology);
  const std::uint64_t bytes =
      params.bytes.value_or(context.bytes > 0 ? context.bytes : kAutoDefaultBytes);
  AutoChoice choice = choose_algorithm(topology, bytes, context, params.rank);
  Schedule s = std::move(choice.schedule);
  s.algorithm = "auto:" + choice.chosen.label();
  return s;
}

}  // namespace mt
