#include "model/sim/trace.h"

#include <algorithm>
#include <map>
#include <string>

#include "model/collective/byte_size.h"
#include "model/config/scenario_config.h"

namespace mt {
namespace {

// Track ids: NIC u's lanes are kNicBase + u * kLanes + lane, link l's kLinkBase + l * kLanes + lane.
constexpr long kLanes = 1000;
constexpr long kNicBase = 0;
constexpr long kLinkBase = 100000000;

struct Slice {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  int message = 0;
};

// Spreads one resource's slices over the fewest lanes such that slices in a lane do not overlap;
// returns the lane of each slice (same order as `slices`, which must be sorted by begin).
std::vector<int> assign_lanes(const std::vector<Slice>& slices) {
  std::vector<std::uint64_t> lane_end;
  std::vector<int> lanes;
  for (const Slice& s : slices) {
    int lane = 0;
    while (lane < static_cast<int>(lane_end.size()) && lane_end[static_cast<std::size_t>(lane)] > s.begin)
      ++lane;
    if (lane == static_cast<int>(lane_end.size())) lane_end.push_back(0);
    lane_end[static_cast<std::size_t>(lane)] = s.end;
    lanes.push_back(std::min<int>(lane, kLanes - 1));
  }
  return lanes;
}

void add_track_events(nlohmann::json& events, int pid, long base, const std::string& track_name,
                      std::vector<Slice> slices, const TraceRun& run, double us_per_cycle) {
  std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.message < b.message;
  });
  const std::vector<int> lanes = assign_lanes(slices);
  std::map<int, bool> named;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const Slice& s = slices[i];
    const Op& op = run.schedule->ops[static_cast<std::size_t>(s.message)];
    const long tid = base + lanes[i];
    if (!named[lanes[i]]) {
      named[lanes[i]] = true;
      events.push_back({{"ph", "M"}, {"pid", pid}, {"tid", tid}, {"name", "thread_name"},
                        {"args", {{"name", lanes[i] == 0 ? track_name
                                                          : track_name + " (lane " +
                                                                std::to_string(lanes[i]) + ")"}}}});
      events.push_back({{"ph", "M"}, {"pid", pid}, {"tid", tid}, {"name", "thread_sort_index"},
                        {"args", {{"sort_index", tid}}}});
    }
    events.push_back(
        {{"ph", "X"},
         {"pid", pid},
         {"tid", tid},
         {"name", std::string(to_string(op.kind)) + " c" + std::to_string(op.chunk) + " " +
                      std::to_string(op.node) + "->" + std::to_string(op.peer)},
         {"cat", to_string(op.kind)},
         {"ts", static_cast<double>(s.begin) * us_per_cycle},
         {"dur", static_cast<double>(s.end - s.begin) * us_per_cycle},
         {"args",
          {{"message", op.id}, {"chunk", op.chunk}, {"flow", op.flow}, {"step", op.step},
           {"issue_cycle", s.begin}, {"arrival_cycle", s.end}}}});
  }
}

}  // namespace

nlohmann::json chrome_trace(const std::vector<TraceRun>& runs) {
  nlohmann::json events = nlohmann::json::array();
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const TraceRun& run = runs[r];
    const RunResult& result = *run.result;
    const int pid = static_cast<int>(r) + 1;
    const double us_per_cycle = 1e-3 / result.clock_ghz;
    events.push_back({{"ph", "M"}, {"pid", pid}, {"name", "process_name"},
                      {"args", {{"name", result.algorithm + " " + format_byte_size(result.bytes) +
                                             " on " + result.topology}}}});
    events.push_back({{"ph", "M"}, {"pid", pid}, {"name", "process_sort_index"},
                      {"args", {{"sort_index", pid}}}});
    std::vector<std::vector<Slice>> per_nic(static_cast<std::size_t>(run.topology->nodes()));
    std::vector<std::vector<Slice>> per_link(run.topology->links().size());
    const std::size_t known = std::min(result.message_issue_cycles.size(),
                                       result.message_arrival_cycles.size());
    for (std::size_t m = 0; m < known && m < run.schedule->ops.size(); ++m) {
      const Op& op = run.schedule->ops[m];
      const Slice s{result.message_issue_cycles[m], result.message_arrival_cycles[m],
                    static_cast<int>(m)};
      if (s.end < s.begin) continue;  // never arrived (a failed run): nothing to show
      per_nic[static_cast<std::size_t>(op.node)].push_back(s);
      for (const int l : op.path.empty() ? run.topology->route(op.node, op.peer) : op.path)
        per_link[static_cast<std::size_t>(l)].push_back(s);
    }
    for (std::size_t u = 0; u < per_nic.size(); ++u)
      if (!per_nic[u].empty())
        add_track_events(events, pid, kNicBase + static_cast<long>(u) * kLanes,
                         "NIC " + std::to_string(u), per_nic[u], run, us_per_cycle);
    for (std::size_t l = 0; l < per_link.size(); ++l) {
      if (per_link[l].empty()) continue;
      const Link& link = run.topology->link(static_cast<int>(l));
      add_track_events(events, pid, kLinkBase + static_cast<long>(l) * kLanes,
                       "link " + std::to_string(l) + " " + std::to_string(link.src) + "->" +
                           std::to_string(link.dst),
                       per_link[l], run, us_per_cycle);
    }
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

}  // namespace mt
