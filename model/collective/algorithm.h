#pragma once
// Building an all-reduce schedule: an algorithm's typed parameters (algorithm_config.h) dispatched
// to its builder, and the string entry point that reads them first. Also the small helpers every
// builder shares (dependency tracking).

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/collective/algorithm_config.h"
#include "model/collective/algorithm_params.h"
#include "model/collective/schedule.h"
#include "model/core/error.h"
#include "model/topology/topology.h"

namespace mt {

/// Thrown for an unknown algorithm, an unknown/invalid parameter, or a topology the algorithm
/// does not support (message names which and why).
class AlgorithmError : public Error {
 public:
  using Error::Error;
};

/// Builds the schedule of the algorithm `config` holds on `topology`: build_ring(),
/// build_dbtree(), ... each with its own struct. Throws AlgorithmError when the algorithm does not
/// support the topology.
Schedule build_schedule(const AlgorithmConfig& config, const Topology& topology,
                        const BuildContext& context = {});

/// Builds the schedule of algorithm `name` ("ring", "ring_bi", "ring2d", "dbtree",
/// "halving_doubling", "multitree", ...) on `topology`, its `params` read by algorithm_config()
/// first. Throws AlgorithmError.
Schedule build_schedule(const std::string& name, const Topology& topology,
                        const AlgorithmParams& params = {}, const BuildContext& context = {});

/// How results name a schedule of `name` built with `params`: "name", or "name(k=v,...)" with the
/// given parameters in key order, e.g. "multitree_opt(pipeline=4)": a run's `schedule` result
/// field and auto's candidates are named so.
std::string schedule_label(const std::string& name, const AlgorithmParams& params);

/// The inverse of schedule_label() for a label with parameters: "name(k=v,...)" gives `name` and
/// its `params` (values as written, unchecked). False when `text` is not of that form (no
/// parentheses, an empty name, a key without `=`, a key twice, an empty key or value).
bool parse_schedule_label(const std::string& text, std::string& name, AlgorithmParams& params);

/// Throws AlgorithmError unless the topology has at least two endpoints.
void require_min_nodes(const std::string& algorithm, const Topology& topology, int min_nodes = 2);

/// Derives dependencies for chunk-pipelined algorithms (ring, halving-doubling, 2D ring): every
/// send of chunk c by node u depends on the messages that delivered chunk c to u so far: every
/// reduce arrival since the last broadcast arrival, and that broadcast arrival (which is itself
/// ordered after the earlier ones). Arrivals recorded during a step become visible only after
/// commit(), so a node never depends on a message of the step it is sending in.
class ArrivalTracker {
 public:
  /// Tracker for `nodes` endpoints and `chunks` chunks (a schedule new_schedule() admitted), with
  /// no arrival yet.
  ArrivalTracker(int nodes, int chunks);
  /// Dependencies of a send of `chunk` by `node` (committed arrivals only).
  std::vector<int> deps(int node, int chunk) const;
  /// Records that message `id` of `kind` delivers `chunk` to `node` (visible after commit()).
  void record(int node, int chunk, int id, OpKind kind);
  /// Makes the arrivals recorded since the last commit visible.
  void commit();
  /// Adds `op` to `schedule` with deps from this tracker, records its arrival; returns its id.
  int send(Schedule& schedule, Op op);

 private:
  struct Pending {
    size_t slot;
    int id;
    OpKind kind;
  };
  int chunks_;
  std::vector<std::vector<int>> arrivals_;  // node * chunks + chunk -> message ids
  std::vector<Pending> pending_;
};

/// An empty schedule of `algorithm` for `topology` (its name and node count) with `chunks`
/// chunks: what every builder starts from, before it allocates anything per chunk. Builders
/// pass the count as a 64-bit product of its factors (nodes x pipeline ...). Throws
/// ScheduleTooLarge when nodes x chunks passes default_message_limit() (every node holds state
/// for every chunk in a run: more than this machine could simulate).
Schedule new_schedule(const std::string& algorithm, const Topology& topology, std::int64_t chunks);

/// Root exchange on tree schedules (receive staging): for every chunk reduced up one tree to a
/// root r and broadcast back, when one child c of r has the strictly tallest subtree, r's
/// broadcast to c becomes a reduce of r's other contributions, sent as soon as those have
/// arrived and exchanged with c's reduce (each staged behind the other, Op::apply_after): both
/// then hold the sum, and the longest round trip, 2(h + 1) hops through c's subtree of height h,
/// becomes h + h' + 2 (h' the next tallest subtree's height). Chunks that are not a tree (a node
/// sending two reduces of it, or no unique root) are left as they are. Returns how many chunks
/// were changed. Steps left without messages (a broadcast step that became exchanges) are removed:
/// the others keep their order, renumbered densely, and num_steps counts them.
int exchange_at_roots(Schedule& schedule);

/// Order of a node's messages inside one step, after sort_by_step.
enum class StepListing {
  kAsBuilt,     ///< as the builder added them
  kFlowsInTurn  ///< its flows take turns: the first message of each flow, then the second, ...
};

/// Returns `schedule` with its ops stably reordered by step (ids and deps renumbered), so that a
/// node's program lists its messages in step order. kFlowsInTurn matters to a NIC that issues a
/// step's messages in list order on its first free port (nic.port_binding any) and hands out
/// receive ports in that order (nic.receive_port per_message): flows that leave in different
/// directions then start together instead of one direction queueing behind the other.
Schedule sort_by_step(const Schedule& schedule, StepListing within_step = StepListing::kAsBuilt);

}  // namespace mt
