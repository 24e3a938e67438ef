#pragma once
// MSCCL algorithm XML (as msccl-tools' ir_to_xml writes it and the MSCCL runtime reads it) to and
// from mtsim schedules, for all-reduce. See model/collective/SCHEDULE_FORMAT.md ("MSCCL XML").

#include <string>
#include <vector>

#include "model/collective/schedule.h"

namespace mt {

/// The schedule of an MSCCL all-reduce given as XML text; `file` names it in errors, which read
/// "FILE:LINE: <step s=\"3\"> of gpu 1 tb 0: unknown step type \"rx\" (...)". Rank r becomes node
/// r. Receives apply on arrival; each send depends on every receive its thread block order and
/// depid/deps put before it (minus those the schedule's own data flow already implies). Throws
/// ScheduleError for anything it cannot represent (scratch buffers, local reductions, a chunk
/// moving to another offset) or that is malformed (unknown step type, dangling dependency, a
/// rank that never receives a chunk, sends and receives of a connection that do not pair up).
Schedule schedule_from_msccl(const std::string& text, const std::string& file);

/// Messages the MSCCL reader and writer visit at most per ancestry question (mark_ancestors()):
/// a dependency implied by the data flow is dropped, or a send chained, only when found within it.
constexpr int kMscclSearchBudget = 4096;

/// Reads an MSCCL XML file (ScheduleError naming the file when unreadable or malformed).
Schedule load_msccl_file(const std::string& path);

/// Shape of an exported MSCCL program, to compare with the MSCCL runtime's limits.
struct MscclExportStats {
  int dropped = 0;              ///< messages whose NIC port or explicit path was dropped
  int channels = 0;             ///< nchannels
  int max_tbs_per_gpu = 0;      ///< thread blocks of the widest GPU
  int max_tbs_per_channel = 0;  ///< thread blocks of one GPU on one channel, at most
  int max_steps_per_tb = 0;     ///< steps (nops included) of the longest thread block
};

/// The runtime limits an exported program may exceed, as one readable line each (empty when
/// none): channels above 32 (MAXCHANNELS), thread blocks per GPU above 216 (108 x 2) or per
/// channel above 32, steps per thread block above 256 (the MSCCL executor's constants).
std::vector<std::string> msccl_limit_notes(const MscclExportStats& stats);

/// The schedule as an in-place MSCCL all-reduce (coll="allreduce", proto="Simple", one chunk per
/// schedule chunk). Every node gets send-only thread blocks per peer (a chain of sends whose
/// thread-block order adds no wait the schedule does not already imply) and a matching
/// receive-only thread block per (peer, channel); a send's dependencies are its depid/deps plus
/// nop steps. Steps carry mtsim_id/mtsim_step/mtsim_flow attributes (ignored by the MSCCL
/// runtime) so an import restores the message order exactly. Ports and explicit paths have no
/// MSCCL form and are dropped. `stats` (when not null) receives the program's shape.
/// Throws ScheduleError for unequal chunks (chunk_offsets).
std::string schedule_to_msccl(const Schedule& schedule, MscclExportStats* stats = nullptr);

}  // namespace mt
