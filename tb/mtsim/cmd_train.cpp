// `mtsim train`: one data-parallel training iteration of a DNN workload on a network scenario.
// Every distinct gradient-bucket size is simulated once per algorithm (each in its own process),
// then the serialised overlap model of model/workload/workload.h turns the all-reduce durations
// into an iteration time.

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/sim/results.h"
#include "model/sim/scenario_loader.h"
#include "model/workload/workload.h"
#include "tb/mtsim/cli.h"
#include "tb/mtsim/point_runner.h"

namespace po = boost::program_options;

namespace mt::cli {
namespace {

// The simulated size of a bucket: whole 4-byte elements (fp16 gradients rounded up).
std::uint64_t simulated_bytes(std::uint64_t bytes) {
  return (bytes + 3) / 4 * 4;
}

struct TrainRow {
  std::string algorithm;
  IterationTimeline timeline;
  std::vector<std::uint64_t> allreduce_cycles;  // per bucket
};

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

int train_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim train WORKLOAD.yaml --scenario NETWORK.yaml [options]\n\n"
      "One data-parallel training iteration: the gradient all-reduce of every bucket (a layer, or\n"
      "layers fused up to the workload's bucket_bytes) is issued when backpropagation has "
      "produced\n"
      "it and overlaps the rest of backpropagation. Each distinct bucket size is simulated once\n"
      "per algorithm on the scenario's network; all-reduces are serialised in issue order (not\n"
      "yet simulated concurrently). Cycles are cycles of the scenario's clock (clock_ghz).\n\n"
      "options");
  std::string workload_file, scenario_file, json_out, bucket_text;
  std::vector<std::string> algorithms, overrides;
  int jobs = 1;
  opts.add_options()("help,h", "show this help")(
      "scenario", po::value(&scenario_file),
      "network scenario YAML file (see scenarios/README.md)")(
      "algorithm,a", po::value(&algorithms)->composing(),
      "all-reduce algorithm to compare (repeatable; default: the scenario's "
      "collective.algorithms)")(
      "set,s", po::value(&overrides)->composing(),
      "override a scenario key before validation: key.path=value (repeatable)")(
      "bucket-bytes", po::value(&bucket_text),
      "override the workload's bucket_bytes (e.g. 25MiB; 0 = one all-reduce per layer)")(
      "json", po::value(&json_out), "write the iteration timelines as JSON to this file")(
      "jobs,j", po::value(&jobs), "points simulated in parallel (processes; default 1)")(
      "workload", po::value(&workload_file), "workload YAML file (scenarios/workloads/)");
  if (!parse_command(args, opts, "workload")) return kExitOk;
  if (workload_file.empty()) throw UsageError("missing WORKLOAD.yaml (mtsim train --help)");
  if (scenario_file.empty())
    throw UsageError("missing --scenario NETWORK.yaml (mtsim train --help)");
  if (jobs < 1 || jobs > 256)
    throw UsageError("--jobs " + std::to_string(jobs) + ": expected 1..256");

  WorkloadConfig workload = load_workload_file(workload_file);
  if (!bucket_text.empty()) {
    try {
      workload.bucket_bytes = bucket_text == "0" ? 0 : parse_byte_size(bucket_text);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--bucket-bytes: ") + e.what());
    }
  }
  if (!algorithms.empty()) {
    std::string list;
    for (const auto& a : algorithms) list += (list.empty() ? "" : ",") + a;
    overrides.push_back("collective.algorithms=[" + list + "]");
  }
  const ScenarioConfig scenario = load_scenario_file(scenario_file, overrides);

  const std::vector<GradientBucket> buckets = make_buckets(workload);
  std::set<std::uint64_t> distinct;
  for (const auto& b : buckets) distinct.insert(simulated_bytes(b.bytes));
  const std::vector<std::uint64_t> sizes(distinct.begin(), distinct.end());

  // Build and verify every schedule before simulating anything.
  const std::vector<PreparedAlgorithm> prepared = prepare_for_sizes(scenario, sizes);
  if (!verify_all(prepared)) return kExitCheckFailed;
  const std::vector<Point> points = points_for(prepared, sizes);
  const std::vector<RunResult> results = run_points(scenario, points, jobs, false);

  int status = kExitOk;
  // label -> bytes -> completion cycles
  std::map<std::string, std::map<std::uint64_t, std::uint64_t>> cycles;
  for (const auto& r : results) {
    if (!r.error.empty() || (!r.data_verified && r.data_mode != "off")) {
      std::cerr << "mtsim: " << r.algorithm << " at " << format_byte_size(r.bytes)
                << ": simulation failed: " << (r.error.empty() ? "data mismatch" : r.error) << "\n";
      status = kExitCheckFailed;
      continue;
    }
    cycles[r.algorithm][r.bytes] = r.completion_cycles;
  }
  if (status != kExitOk) return status;

  std::vector<TrainRow> rows;
  for (const auto& run : scenario.collective.algorithms) {
    TrainRow row;
    row.algorithm = run.label;
    for (const auto& b : buckets)
      row.allreduce_cycles.push_back(cycles[run.label][simulated_bytes(b.bytes)]);
    row.timeline = overlap_iteration(workload, buckets, row.allreduce_cycles);
    rows.push_back(row);
  }
  const TrainRow* ring = nullptr;
  for (const auto& row : rows)
    if (row.algorithm == "ring") ring = &row;

  const double cycles_per_us = scenario.clock_ghz * 1000.0;
  std::uint64_t total_bytes = 0;
  for (const auto& b : buckets) total_bytes += b.bytes;
  std::cout << "workload " << workload.name << ": " << workload.layers.size() << " layers, "
            << buckets.size() << " all-reduce buckets, " << total_bytes << " gradient bytes; "
            << "network " << scenario.name << " (" << prepared.front().topology->name() << ", "
            << scenario.clock_ghz << " GHz)\n";
  std::ostringstream table;
  char line[256];
  std::snprintf(line, sizeof line, "%-16s %14s %12s %14s %14s %8s %9s\n", "algorithm",
                "iter_cycles", "iter_us", "compute_cycles", "exposed_cycles", "exposed%",
                "vs_ring%");
  table << line;
  for (const auto& row : rows) {
    const auto& t = row.timeline;
    const std::string vs_ring =
        ring == nullptr ? "-"
                        : fixed(100.0 *
                                    (static_cast<double>(ring->timeline.iteration_cycles) -
                                     static_cast<double>(t.iteration_cycles)) /
                                    static_cast<double>(ring->timeline.iteration_cycles),
                                1);
    std::snprintf(line, sizeof line, "%-16s %14llu %12s %14llu %14llu %8s %9s\n",
                  row.algorithm.c_str(), static_cast<unsigned long long>(t.iteration_cycles),
                  fixed(static_cast<double>(t.iteration_cycles) / cycles_per_us, 2).c_str(),
                  static_cast<unsigned long long>(t.compute_cycles),
                  static_cast<unsigned long long>(t.exposed_comm_cycles),
                  fixed(100.0 * static_cast<double>(t.exposed_comm_cycles) /
                            static_cast<double>(t.iteration_cycles),
                        1)
                      .c_str(),
                  vs_ring.c_str());
    table << line;
  }
  std::cout << table.str();
  std::cout << "vs_ring%: reduction in iteration time vs ring (positive = faster). All-reduces "
               "are serialised in issue order, not simulated concurrently.\n";

  if (!json_out.empty()) {
    nlohmann::json out;
    out["workload"] = workload.name;
    out["scenario"] = scenario.name;
    out["clock_ghz"] = scenario.clock_ghz;
    out["model"] = "serialised all-reduces in issue order";
    for (const auto& row : rows) {
      nlohmann::json j;
      const auto& t = row.timeline;
      j["algorithm"] = row.algorithm;
      j["iteration_cycles"] = t.iteration_cycles;
      j["forward_cycles"] = t.forward_cycles;
      j["backprop_cycles"] = t.backprop_cycles;
      j["optimizer_cycles"] = t.optimizer_cycles;
      j["compute_cycles"] = t.compute_cycles;
      j["exposed_comm_cycles"] = t.exposed_comm_cycles;
      for (std::size_t i = 0; i < buckets.size(); ++i) {
        const auto& b = buckets[i];
        j["buckets"].push_back({{"first_layer", workload.layers[b.first_layer].name},
                                {"last_layer", workload.layers[b.last_layer].name},
                                {"bytes", b.bytes},
                                {"simulated_bytes", simulated_bytes(b.bytes)},
                                {"ready_cycle", b.ready_cycle},
                                {"allreduce_cycles", row.allreduce_cycles[i]},
                                {"start_cycle", t.allreduce_start_cycle[i]},
                                {"end_cycle", t.allreduce_end_cycle[i]}});
      }
      out["runs"].push_back(j);
    }
    write_text_atomically(json_out, out.dump(2) + "\n");
  }
  return status;
}

}  // namespace mt::cli
