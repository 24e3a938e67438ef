#pragma once
// Schedule serialisation: the JSON file format (see model/collective/SCHEDULE_FORMAT.md) and a
// Graphviz DOT rendering of a schedule's trees and flows.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Format tag written to and required in every schedule file ("format" key).
inline constexpr const char* kScheduleFormat = "mtsim-schedule";
/// Version of the schedule file format ("version" key).
inline constexpr int kScheduleFormatVersion = 1;

/// "reduce" -> kReduce, "broadcast" -> kBroadcast; throws ScheduleError for anything else.
OpKind parse_op_kind(const std::string& text);

/// The JSON form of `schedule` (empty paths and port -1 are omitted).
nlohmann::json to_json(const Schedule& schedule);

/// Parses the JSON form. Throws ScheduleError naming the JSON path of the bad field, e.g.
/// "ops[12].chunk: expected integer". Checks form only (types, keys, ids equal to the index,
/// num_steps/num_flows covering every op); whether the schedule is correct is verify()'s job.
Schedule schedule_from_json(const nlohmann::json& json);

/// Reads a schedule file. Throws ScheduleError for an unreadable file, invalid JSON (with line and
/// column) or a malformed schedule (with the JSON path), each prefixed with the file name.
Schedule load_schedule_file(const std::string& path);

/// Same as load_schedule_file for the file's text; `path` names it in messages.
Schedule load_schedule_text(const std::string& text, const std::string& path);

/// The largest schedule file (JSON or MSCCL XML) mtsim reads, bytes: a schedule of a million
/// messages is about 100 MiB of JSON; a larger file is refused before parsing (nlohmann's tree
/// takes about ten times the text).
constexpr std::uint64_t kMaxScheduleFileBytes = std::uint64_t{256} << 20;

/// The JSON form of a schedule file (2-space indented), as save_schedule_file writes it.
std::string schedule_file_text(const Schedule& schedule);
/// Writes the JSON form to `path` (write_text_atomically). Throws ScheduleError when it cannot.
void save_schedule_file(const Schedule& schedule, const std::string& path);

/// Graphviz digraph of the schedule: one vertex per endpoint (pinned at its coordinates on 2D/3D
/// direct topologies, for `neato -n` or `fdp`), one edge per message labelled "s<step> c<chunk>",
/// coloured by flow; broadcasts are dashed.
std::string to_dot(const Schedule& schedule, const Topology& topology);

}  // namespace mt
