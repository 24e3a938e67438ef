// `mtsim run --trace`: the Chrome trace-event JSON that Perfetto and chrome://tracing open.
// The format rules checked here are those of the Trace Event Format: "X" (complete) events carry
// pid, tid, ts and dur in microseconds; "M" (metadata) events name processes and threads; slices
// of one thread must nest, so on every track ours never overlap.

#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "model/topology/topology.h"
#include "tests/support/cli_runner.h"

using mt::test::mtsim;
using mt::test::read_json;
using mt::test::scratch;
using mt::test::write_file;

TEST_CASE("run --trace writes one well-nested slice per message on its NIC and links") {
  const std::string yaml = scratch("trace.yaml");
  write_file(yaml,
             "topology: {kind: torus, dims: [4, 4], link_latency_cycles: 10}\n"
             "collective: {algorithms: [ring, multitree], sizes: [16KiB]}\n");
  const std::string trace = scratch("trace.json");
  const std::string results = scratch("trace_results.json");
  const auto r = mtsim("run " + yaml + " --trace " + trace + " --json " + results);
  REQUIRE(r.status == 0);
  const nlohmann::json t = read_json(trace);
  const nlohmann::json runs = read_json(results)["runs"];
  REQUIRE(t.at("displayTimeUnit") == "ns");
  const nlohmann::json& events = t.at("traceEvents");

  std::map<int, std::string> process_names;
  std::map<int, int> nic_slices, link_slices;  // per pid
  std::map<std::pair<int, long>, std::vector<std::pair<double, double>>> tracks;
  for (const auto& e : events) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("pid"));
    if (e["ph"] == "M") {
      if (e["name"] == "process_name") process_names[e["pid"]] = e["args"]["name"];
      continue;
    }
    REQUIRE(e["ph"] == "X");
    const double ts = e.at("ts"), dur = e.at("dur");
    CHECK(ts >= 0);
    CHECK(dur > 0);
    const long tid = e.at("tid");
    tracks[{e["pid"].get<int>(), tid}].push_back({ts, ts + dur});
    (tid < 100000000 ? nic_slices : link_slices)[e["pid"]]++;
  }
  REQUIRE(process_names.size() == 2);
  CHECK(process_names[1] == "ring 16KiB on torus:4x4");
  CHECK(process_names[2] == "multitree 16KiB on torus:4x4");
  for (auto& [track, slices] : tracks) {
    std::sort(slices.begin(), slices.end());
    for (std::size_t i = 1; i < slices.size(); ++i) {
      INFO("pid " << track.first << " tid " << track.second);
      CHECK(slices[i].first >= slices[i - 1].second - 1e-9);
    }
  }
  // One NIC slice per message; every message of these schedules is one hop on the torus, so
  // one link slice per message too. Ring: 16 nodes x 30 steps; MultiTree: 16 trees x 15 edges x 2.
  CHECK(nic_slices[1] == 16 * 30);
  CHECK(link_slices[1] == 16 * 30);
  CHECK(nic_slices[2] == 16 * 15 * 2);
  CHECK(link_slices[2] == 16 * 15 * 2);
  // The last slice ends when the run completes (1 GHz: cycles / 1000 = microseconds).
  double last_end = 0;
  for (const auto& [track, slices] : tracks)
    if (track.first == 1)
      for (const auto& s : slices) last_end = std::max(last_end, s.second);
  CHECK(last_end * 1000 == Approx(runs[0]["completion_cycles"].get<double>()).margin(1));
}
