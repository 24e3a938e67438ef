#pragma once
// Schedule files as algorithm entries of a scenario ({name: file, path: FILE}): reading a file in
// either format (mtsim JSON or MSCCL XML) and checking it against the scenario's topology.

#include <cstdint>
#include <string>

#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Reads a schedule file by its extension: ".xml" is MSCCL algorithm XML (msccl_xml.h), anything
/// else the mtsim JSON form (schedule_io.h). Throws ScheduleError naming the file.
Schedule load_any_schedule_file(const std::string& path);

/// Empty when `schedule` fits `topology`, else what does not: node count, a port beyond the
/// topology's NIC ports, an explicit path through a link that does not exist or does not lead
/// from the sender to the receiver, as a clause of its own ("the schedule has 8 nodes but the
/// topology torus:4x4 has 16", "message 3 (node 0 to 1) uses NIC port 1 but ...").
std::string topology_mismatch(const Schedule& schedule, const Topology& topology);

/// `schedule` for a buffer of `elements` elements: unequal chunks (chunk_offsets) are fractions
/// of the file's buffer, scaled here to this one (offsets[c] * elements / offsets.back(), floored);
/// equal chunks need nothing. Throws ScheduleError when chunk_offsets is malformed.
Schedule scaled_to(const Schedule& schedule, std::uint64_t elements);

}  // namespace mt
