#include "model/collective/schedule_file.h"

#include <cctype>
#include <string>

#include "model/collective/msccl_xml.h"
#include "model/collective/schedule_io.h"

namespace mt {

Schedule load_any_schedule_file(const std::string& path) {
  std::string extension = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool xml = extension == ".xml";
  return xml ? load_msccl_file(path) : load_schedule_file(path);
}

std::string topology_mismatch(const Schedule& schedule, const Topology& topology) {
  if (schedule.nodes != topology.nodes())
    return "the schedule has " + std::to_string(schedule.nodes) + " nodes but the topology " +
           topology.name() + " has " + std::to_string(topology.nodes());
  for (const Op& op : schedule.ops) {
    const std::string msg = "message " + std::to_string(op.id) + " (node " +
                            std::to_string(op.node) + " to " + std::to_string(op.peer) + ")";
    if (op.port < -1 || op.port >= topology.ports_per_node())
      return msg + " uses NIC port " + std::to_string(op.port) + " but nodes of " +
             topology.name() + " have ports 0.." + std::to_string(topology.ports_per_node() - 1) +
             " (-1: any)";
    // A sender or receiver out of range is the verifier's to name (exit 1); its path is not
    // checked here.
    if (op.node < 0 || op.node >= schedule.nodes || op.peer < 0 || op.peer >= schedule.nodes)
      continue;
    int at = op.node;
    for (const int l : op.path) {
      if (l < 0 || l >= topology.directed_links())
        return msg + " takes link " + std::to_string(l) + ", which " + topology.name() +
               " does not have (" + std::to_string(topology.directed_links()) + " directed links)";
      const Link& link = topology.link(l);
      if (link.src != at)
        return msg + " takes link " + std::to_string(l) + " (" + std::to_string(link.src) + "->" +
               std::to_string(link.dst) + ") from vertex " + std::to_string(at) +
               ": the path is not connected on " + topology.name();
      at = link.dst;
    }
    if (!op.path.empty() && at != op.peer)
      return msg + ": its path ends at vertex " + std::to_string(at) + " on " + topology.name();
  }
  return "";
}

Schedule scaled_to(const Schedule& schedule, std::uint64_t elements) {
  if (schedule.chunk_offsets.empty()) return schedule;
  const std::string bad = check_chunk_offsets(schedule);
  if (!bad.empty()) throw ScheduleError("schedule " + bad);
  Schedule scaled = schedule;
  const std::uint64_t total = schedule.chunk_offsets.back();
  for (auto& o : scaled.chunk_offsets)
    o = total == 0
            ? 0
            : static_cast<std::uint64_t>((static_cast<unsigned __int128>(o) * elements) / total);
  return scaled;
}

}  // namespace mt
