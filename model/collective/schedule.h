#pragma once
// The all-reduce schedule: pure data that every algorithm produces, the verifier replays, the
// simulator's NICs execute and the RTL scheduler's table is packed from. See
// model/collective/SCHEDULE_FORMAT.md for the JSON form and the execution semantics.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/collective/op_kind.h"
#include "model/core/error.h"
#include "model/core/small_int_list.h"

namespace mt {

/// Thrown when a schedule file or object is malformed (not when it is well-formed but wrong: that
/// is a VerifyReport).
class ScheduleError : public Error {
 public:
  using Error::Error;
};

/// Thrown by Schedule::add when a schedule grows past its message_limit.
class ScheduleTooLarge : public ScheduleError {
 public:
  using ScheduleError::ScheduleError;
};

/// Which buffer of a node an operation reads or writes. Every schedule built here uses kData
/// only; imported MSCCL programs may stage chunks in a scratch buffer (SCHEDULE_FORMAT.md).
enum class Buffer : std::uint8_t {
  kData,     ///< the all-reduce buffer (MSCCL's input and output, run in place)
  kScratch,  ///< the node's scratch buffer of Schedule::scratch_chunks slots
};

/// One message: node `node` sends chunk `chunk` to endpoint `peer` once every message in `deps`
/// has arrived at `node`. The data carried is the sender's buffer for that chunk at issue time.
/// With buffers: it reads slot `chunk` of `src_buf` and writes slot dst_slot() of `dst_buf` at the
/// peer. A local step (peer == node, is_local()) copies or reduces between two slots of the node
/// itself and counts as arrived at the node when done.
struct Op {
  int id = 0;     ///< global message id, equal to its index in Schedule::ops
  int node = 0;   ///< sending endpoint
  int peer = 0;   ///< receiving endpoint
  int chunk = 0;  ///< chunk index, 0..num_chunks-1
  int flow = 0;   ///< tree / ring / flow id the message belongs to (0..num_flows-1)
  int step = 0;   ///< time step of the schedule this message belongs to (0-based)
  int port = -1;  ///< sender NIC port to use, -1 = any (the NIC picks by route)
  OpKind kind = OpKind::kReduce;
  Buffer src_buf = Buffer::kData;  ///< buffer the sender reads slot `chunk` of
  Buffer dst_buf = Buffer::kData;  ///< buffer the receiver writes slot dst_slot() of
  SmallIntList deps;  ///< ids of messages that must have arrived at `node` before issue
  /// Explicit path as directed link ids (source routing, e.g. MultiTree on switch topologies);
  /// empty = the topology's routing function.
  std::vector<int> path;
  /// Earliest issue time, cycles of the scenario clock from the start of the run: the message is
  /// not issued before it even when its deps have arrived (0 = no constraint). Used to release a
  /// bucket's all-reduce when backprop has produced it (schedule_merge.h).
  std::uint64_t release_cycle = 0;
  /// Receive staging: id of a message that `peer` itself sends with the same chunk; the peer
  /// holds this message's data in a staging buffer and reduces (or copies) it into its buffer
  /// only once that message has been issued, so the data the peer sends cannot already hold
  /// this message's (an exchange: both sides send and receive the same chunk in one step).
  /// -1 = applied as soon as it has arrived.
  int apply_after = -1;
  /// Slot of dst_buf the receiver writes; -1 = `chunk` (the chunk keeps its offset).
  int dst_chunk = -1;

  /// Slot of dst_buf this message writes.
  int dst_slot() const { return dst_chunk < 0 ? chunk : dst_chunk; }
  /// A local step: the node copies (kBroadcast) or reduces (kReduce) one of its slots into
  /// another; no network message.
  bool is_local() const { return peer == node; }
  /// The data chunk whose size this message carries: slots are chunk-sized, a scratch slot as
  /// chunk 0 (a schedule with buffers runs with equal chunks).
  int size_chunk() const {
    return src_buf == Buffer::kData ? chunk : dst_buf == Buffer::kData ? dst_slot() : 0;
  }
  /// Reads or writes anything but the same data slot at both ends.
  bool uses_buffers() const {
    return src_buf != Buffer::kData || dst_buf != Buffer::kData || dst_slot() != chunk;
  }
};

/// "chunk 3" (data buffer) or "scratch slot 3": a slot as errors name it.
std::string slot_text(Buffer buffer, int slot);

/// The memory budgeted for one message by what will be done with the schedule (run on one of
/// the models, or only built and checked), and what a message was measured to cost there (the
/// refusal quotes it).
struct MessageBudget {
  std::size_t bytes = 0;  ///< physical memory per message the limit allows, bytes
  const char* measured = "";
  /// What the machine could not do with more: "more than this machine can <purpose>".
  const char* purpose = "simulate";
};
/// The packet-level model: a message costs about 0.6-0.7 KiB in all (the schedule, its packed
/// tables, the NICs' programs; measured at 1024 nodes), budgeted 2 KiB.
inline constexpr MessageBudget kPacketModelBudget{
    2048, "a message costs about 0.7 KiB in all on the packet-level model"};
/// The message-granularity model (model/flow): about 240 B a message in all (7.5 GiB peak for
/// MultiTree's 33.5 M messages at 4096 nodes, docs/granularity.md "Memory"), budgeted 512 B.
inline constexpr MessageBudget kMessageModelBudget{
    512, "a message costs about 240 B in all on the message-granularity model"};
/// A schedule only built, verified and summarised (`mtsim schedule`'s text format: no simulation,
/// no packed tables, no per-message output): about 190 B a message (6.25 GB peak for MultiTree's
/// 33.5 M messages at 4096 nodes, `mtsim schedule -t torus:16x16x16 -a multitree`, 2026-12-05),
/// budgeted 512 B.
inline constexpr MessageBudget kScheduleSummaryBudget{
    512, "a message costs about 190 B in all when it is built, verified and summarised",
    "build and check"};

/// Chooses the budget default_message_limit() divides this machine's memory by (process-wide;
/// kPacketModelBudget until set). The run layer sets it from the scenario's `granularity` before
/// it builds a schedule.
void set_message_budget(const MessageBudget& budget);

/// Messages the process already holds in other schedules (the run layer's, which keeps every
/// schedule of a scenario until its points have run; 0 until set): default_message_limit()
/// leaves room for the rest only.
void set_messages_held(std::size_t messages);

/// The most messages a schedule may hold on this machine: its physical memory divided by the
/// budget per message (set_message_budget()), less the messages held elsewhere
/// (set_messages_held()), so a schedule too large to simulate (a huge `pipeline`, an N-chunk
/// schedule on thousands of nodes) stops while it is built, naming the cause, instead of
/// exhausting the machine's memory. The environment variable MT_MAX_MESSAGES (a positive
/// integer) replaces the guess (per schedule, whatever is held).
std::size_t default_message_limit();

/// Memory budgeted for one dependency (an id in some message's Op::deps) of a schedule that is
/// built and checked: about 14-17 B measured where dependencies dominate (MultiTree on 2-level
/// fat-trees, whose trees' roots wait for every reduce: 16.4 M dependencies in 276 MB at 288
/// endpoints, 783 M in 11.2 GB at 1058), budgeted 32 B. Schedules of a few dependencies a
/// message stay far below the limit.
inline constexpr std::size_t kDependencyBudgetBytes = 32;

/// The most dependencies (all messages' Op::deps together) a schedule may hold on this machine:
/// its physical memory over kDependencyBudgetBytes.
std::size_t default_dependency_limit();

/// Throws ScheduleTooLarge for `what` (e.g. "the schedule passes N messages") with the limit it
/// passed and what to do about it; the one wording of that refusal.
[[noreturn]] void refuse_too_large(const std::string& what, std::size_t limit);

/// A complete all-reduce schedule for `nodes` endpoints. The data buffer of every node is split
/// into `num_chunks` chunks: equal ones (chunk c holds elements [c*E/num_chunks,
/// (c+1)*E/num_chunks)) unless `chunk_offsets` gives the boundaries (see chunk_bounds()).
struct Schedule {
  std::string algorithm;  ///< CLI name of the algorithm that built it, e.g. "multitree"
  std::string topology;   ///< topology spec it was built for, e.g. "torus:4x4"
  int nodes = 0;
  int num_chunks = 0;
  int num_flows = 0;
  int num_steps = 0;  ///< 1 + largest Op::step
  /// Slots of every node's scratch buffer (each the size of a chunk); 0 = none.
  int scratch_chunks = 0;
  std::vector<Op> ops;  ///< all messages; a node's messages in list order form its program
  /// Optional explicit chunk boundaries, elements: num_chunks + 1 values, first 0,
  /// non-decreasing, last = the buffer's elements (chunk c = [offsets[c], offsets[c+1])). Empty =
  /// the equal split of whatever buffer the schedule is run with.
  std::vector<std::uint64_t> chunk_offsets;
  /// Where each message was written, for the verifier's errors: "ring.xml:14: <step s=\"2\"> of
  /// gpu 1 tb 0" for an imported MSCCL step. Empty for schedules built here or read from JSON
  /// (their message ids are the file's own).
  std::vector<std::string> op_sources;
  /// The most messages add() accepts (default_message_limit()).
  std::size_t message_limit = default_message_limit();
  /// The most dependencies add() accepts in all (default_dependency_limit()), and how many the
  /// ops added so far list.
  std::size_t dependency_limit = default_dependency_limit();
  std::size_t dependencies = 0;

  /// Appends an op, assigning its id, and keeps num_steps/num_flows up to date. Returns the id.
  /// Throws ScheduleTooLarge when the schedule would pass message_limit: "the schedule passes
  /// 25165824 messages, ...", or dependency_limit: "its messages wait for more than ...".
  int add(Op op);
  /// Makes room for `messages` messages at once, so a builder that knows its count adds them
  /// without growing copies; none past message_limit (add() refuses those).
  void reserve(std::size_t messages);
  /// Ids of the ops sent by `node`, in program order.
  std::vector<int> ops_of(int node) const;
  /// Some op uses a scratch slot, moves a chunk to another offset or is a local step.
  bool uses_buffers() const;
  /// Some op is a local step (Op::is_local).
  bool has_local_steps() const;
};

/// Equal split: first and one-past-last element of chunk c when the buffer holds `elements`
/// elements. Callers that run a schedule use chunk_bounds(), which honours chunk_offsets.
std::uint64_t chunk_begin(int chunk, int num_chunks, std::uint64_t elements);
std::uint64_t chunk_end(int chunk, int num_chunks, std::uint64_t elements);

/// The one place chunk boundaries come from: num_chunks + 1 element offsets for a buffer of
/// `elements` elements: schedule.chunk_offsets when given, else the equal split. Throws
/// ScheduleError when chunk_offsets is malformed (check_chunk_offsets) or does not end at
/// `elements`: "schedule chunk_offsets cover 6 elements but the buffer holds 8 elements".
std::vector<std::uint64_t> chunk_bounds(const Schedule& schedule, std::uint64_t elements);

/// Bytes of every chunk for the analytical estimates (cost model, auto's dataflow estimate) of
/// a `bytes`-byte buffer: chunk_offsets x 4-byte elements when given (checked as chunk_bounds
/// does for bytes / 4 elements), else the equal byte split floor((c+1)*bytes/n) - floor(c*bytes/n).
std::vector<std::uint64_t> chunk_byte_sizes(const Schedule& schedule, std::uint64_t bytes);

/// Form of chunk_offsets alone (any buffer size): empty when it is empty or well formed, else
/// what is wrong ("chunk_offsets has 3 values; num_chunks 4 needs 5").
std::string check_chunk_offsets(const Schedule& schedule);

const char* to_string(OpKind kind);

/// Issue-order predecessors from receive staging, per op: message x that depends on a message d
/// with d.apply_after = k is issued only after k has been (k's issue precedes d's application,
/// which precedes x's issue); k's own arrival (at another node) is not implied. Empty when no op
/// of the schedule has apply_after (ids must be valid: see check_ops()).
std::vector<std::vector<int>> staged_issue_predecessors(const Schedule& schedule);

}  // namespace mt
