#pragma once
// `auto`: picks the all-reduce schedule for a topology and a size from an analytical model among
// latency-bound trees and pipelined bandwidth-optimal rings/trees, ranked by the cost model's
// estimate (cost_model.h): the event-driven dataflow one. The per-step estimate_cost() adds every
// step's latency and cannot see pipelining or the simulator's issue-on-arrival; ranked by it, the
// choice was up to 2.9x slower than the best candidate in the calibration runs (fattree k=8 at
// 4 KiB).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/cost_model.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// All-reduce size `auto` chooses for when neither a bytes parameter nor the build context gives
/// one, bytes.
constexpr std::uint64_t kAutoDefaultBytes = 16u << 20;

/// One candidate of `auto`: a registered algorithm with its typed parameters.
struct AutoCandidate {
  AlgorithmConfig config;  ///< the algorithm and its parameters, e.g. DisjointRingsParams{2}
  std::string algorithm;   ///< its registered CLI name, e.g. "disjoint_rings"
  /// The parameters its label names, as text, e.g. {pipeline: 2} (also where that is the
  /// default: candidates keep the names results have always given them).
  AlgorithmParams params;
  std::string label() const;  ///< "name" or "name(k=v,...)"
};

/// What `auto` chose for one topology and size.
struct AutoChoice {
  AutoCandidate chosen;  ///< the winning candidate
  Schedule schedule;     ///< the winner's schedule, as built for its estimate
  /// Its rank at the size, cycles: the estimate, or the message model's completion with
  /// AutoRank::kMessage.
  double estimate_cycles = 0;
  std::vector<std::pair<std::string, double>> ranking;  ///< every candidate label -> its rank
  /// One line: "auto: <label> for <bytes> B on <topology> (estimate ...)" or "(message model
  /// ...)".
  std::string note;
};

/// Candidates `auto` considers on `topology` (only those that support it) for a run in
/// `context` (its NIC mode: with hardware issue the deeply pipelined trees are left out).
std::vector<AutoCandidate> auto_candidates(const Topology& topology,
                                           const BuildContext& context = {});

/// Builds every candidate at `bytes` (with the context's NIC modes, BuildContext) and returns the
/// one with the smallest estimate (ScheduleEstimate::cycles(), cost_model.h) under the context's
/// cost parameters, or with `rank` kMessage the smallest completion that
/// context.simulate_messages gives (AlgorithmError when the context has none: outside a run).
AutoChoice choose_algorithm(const Topology& topology, std::uint64_t bytes,
                            const BuildContext& context = {}, AutoRank rank = AutoRank::kEstimate);

/// `auto`: choose_algorithm() at param bytes=<size> (else the context's size, else
/// kAutoDefaultBytes), ranked as param rank says, and names the winner in
/// Schedule::algorithm as "auto:<label>".
Schedule build_auto(const Topology& topology, const AutoParams& params,
                    const BuildContext& context);

}  // namespace mt
