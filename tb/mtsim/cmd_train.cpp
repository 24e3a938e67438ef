// `mtsim train`: one data-parallel training iteration of a DNN workload on a network scenario.
// By default every gradient bucket's all-reduce is released when backprop has produced it into
// ONE simulation per algorithm, where they share the network (concurrent model); --serialised
// simulates each distinct bucket size stand-alone and queues them in issue order instead.
// The models: model/workload/workload.h; the runs: model/run/train_run.h.

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/byte_size.h"
#include "model/config/scenario_loader.h"
#include "model/config/workload_loader.h"
#include "model/core/json_text.h"
#include "model/core/output_files.h"
#include "model/params/time_limits.h"
#include "model/run/train_report.h"
#include "model/run/train_run.h"
#include "model/sim/results.h"
#include "model/topology/topology.h"
#include "model/workload/workload.h"
#include "tb/mtsim/backends.h"
#include "tb/mtsim/cli.h"
#include "tb/mtsim/huge_pages.h"
#include "tb/mtsim/point_pool.h"

namespace po = boost::program_options;

namespace mt::cli {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void print_table(const std::vector<TrainRow>& rows, double clock_ghz) {
  const TrainRow* ring = nullptr;
  for (const auto& row : rows)
    if (row.runs.algorithm == "ring") ring = &row;
  const double cycles_per_us = clock_ghz * 1000.0;
  // Cells first, then each column as wide as its widest cell (iterations reach 2^50 cycles), at
  // least its usual width.
  const std::pair<const char*, std::size_t> columns[] = {
      {"algorithm", 16},      {"iter_cycles", 14}, {"iter_us", 12}, {"compute_cycles", 14},
      {"exposed_cycles", 14}, {"exposed%", 8},     {"vs_ring%", 9}, {"data", 8}};
  std::vector<std::vector<std::string>> table(1);
  std::vector<std::size_t> width;
  for (const auto& [name, usual] : columns) {
    table[0].push_back(name);
    width.push_back(usual);
  }
  for (const auto& row : rows) {
    const auto& t = row.timeline;
    const auto iteration = static_cast<double>(t.iteration_cycles);
    const auto ring_cycles =
        ring == nullptr ? 0.0 : static_cast<double>(ring->timeline.iteration_cycles);
    table.push_back(
        {row.runs.algorithm, std::to_string(t.iteration_cycles),
         fixed(iteration / cycles_per_us, 2), std::to_string(t.compute_cycles),
         std::to_string(t.exposed_comm_cycles),
         fixed(100.0 * static_cast<double>(t.exposed_comm_cycles) / iteration, 1),
         ring == nullptr ? "-" : fixed(100.0 * (ring_cycles - iteration) / ring_cycles, 1),
         to_string(row.runs.data_mode)});
  }
  for (const auto& cells : table)
    for (std::size_t c = 0; c < cells.size(); ++c) width[c] = std::max(width[c], cells[c].size());
  for (const auto& cells : table) {
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      if (c > 0) line += ' ';
      line += c == 0 ? cells[c] + pad : pad + cells[c];  // the name left, figures right
    }
    std::cout << line << "\n";
  }
}

/// For algorithms that build a different schedule per bucket size (auto): which, how often.
void print_bucket_schedules(const std::vector<TrainRow>& rows) {
  for (const auto& row : rows) {
    std::map<std::string, int> count;
    for (const auto& s : row.runs.bucket_schedules) ++count[s];
    if (count.size() < 2 && (count.empty() || count.begin()->first == row.runs.algorithm)) continue;
    std::cout << row.runs.algorithm << " ran:";
    const char* sep = " ";
    for (const auto& [schedule, n] : count) {
      std::cout << sep << schedule << " for " << n << (n == 1 ? " bucket" : " buckets");
      sep = ", ";
    }
    std::cout << "\n";
  }
}

void report_failures(const TrainRuns& runs) {
  if (runs.verify_failure) std::cerr << "mtsim: " << runs.verify_failure->message() << "\n";
  for (const RunResult& r : runs.failures)
    std::cerr << "mtsim: " << r.algorithm << " at " << format_byte_size(r.bytes)
              << ": simulation failed: " << (r.error.empty() ? "data mismatch" : r.error) << "\n";
}

// The iteration, once train_command has read its options: load the scenario with `overrides`
// (`options`: those standing for an option), simulate every bucket, print the table, write the
// JSON.
int train(WorkloadConfig& workload, const std::string& workload_file,
          const std::string& scenario_file, const std::vector<std::string>& overrides,
          const OverrideOptions& options, const std::string& json_out, int jobs, bool serialised,
          bool launch_option) {
  const ScenarioConfig scenario = load_scenario_file(scenario_file, overrides, options);
  pages_for(scenario.granularity);
  // The JSON may not replace an input: the workload, the scenario or a schedule file.
  OutputRules rules;
  rules.inputs = {workload_file, scenario_file};
  for (const AlgorithmRun& run : scenario.collective.algorithms)
    if (!run.schedule_file.empty()) rules.inputs.push_back(run.schedule_file);
  OutputFiles out(rules);
  if (!json_out.empty()) out.add(json_out, "training JSON", "--json");
  // The loader bounds the file's own values; an option may have changed them, and the release
  // times must stay inside the scenario clock's simulated-time horizon.
  const std::uint64_t cycles = compute_and_launch_cycles(workload);
  const std::uint64_t horizon =
      std::min<std::uint64_t>(max_sim_cycles(scenario.clock_ghz) / 2, std::uint64_t{1} << 50);
  if (cycles > horizon)
    throw UsageError(workload_file + ": forward + backprop cycles of every layer, one launch (" +
                     std::to_string(workload.launch_cycles) +
                     (launch_option ? " cycles, --launch-cycles)" : " cycles)") +
                     " per layer and the optimizer step add up to " + std::to_string(cycles) +
                     " cycles; at most " + std::to_string(horizon) +
                     " fit one iteration (2^50, and half the simulated-time horizon at " +
                     std::to_string(scenario.clock_ghz) + " GHz)");
  const std::vector<GradientBucket> buckets = make_buckets(workload);
  // The largest bucket must be a size the model represents (packet count, simulated time): the
  // loader's rules, applied to it as if it were the scenario's size (they grow with the size).
  std::uint64_t largest = 0;
  for (const auto& b : buckets) largest = std::max(largest, simulated_bytes(b.bytes));
  if (const auto problem = unrepresentable(scenario, {largest})) {
    const bool size = problem->key_path.rfind("collective.sizes", 0) == 0;  // the bucket itself
    throw UsageError(workload_file + ": its largest all-reduce bucket (" +
                     format_byte_size(largest) + ") does not fit the model on " + scenario_file +
                     ": " + (size ? "" : problem->key_path + ": ") + problem->what);
  }

  const PointRunner runner = point_runner(scenario, jobs);
  const TrainRuns runs = serialised
                             ? run_train_serialised(scenario, buckets, runner, run_backends())
                             : run_train_concurrent(scenario, buckets, runner, run_backends());
  if (!runs.ok()) {
    report_failures(runs);
    return kExitCheckFailed;
  }
  const std::vector<TrainRow> rows = train_rows(workload, buckets, runs.runs, serialised);

  std::uint64_t total_bytes = 0;
  for (const auto& b : buckets) total_bytes += b.bytes;
  std::cout << "workload " << workload.name << ": "
            << counted(static_cast<long long>(workload.layers.size()), "layer", "layers") << ", "
            << counted(static_cast<long long>(buckets.size()), "all-reduce bucket",
                       "all-reduce buckets")
            << ", " << total_bytes << " gradient bytes, "
            << "launch cost " << workload.launch_cycles << " cycles; network " << scenario.name
            << " (" << Topology(scenario.topology).name() << ", " << scenario.clock_ghz
            << " GHz)\n";
  std::cout << (serialised
                    ? "model: serialised: each bucket's all-reduce simulated stand-alone, queued "
                      "on the network in issue order\n"
                    : "model: concurrent: every bucket's all-reduce released at its ready cycle "
                      "(+ launch) into one simulation per algorithm, sharing the network\n");
  print_table(rows, scenario.clock_ghz);
  print_bucket_schedules(rows);
  std::cout << "iter_cycles: cycles of the " << scenario.clock_ghz
            << " GHz scenario clock from the forward pass to the end of the optimizer step; "
               "iter_us = iter_cycles / (1000 x clock_ghz).\n"
               "exposed_cycles: iteration - compute (forward + backprop + optimizer): "
               "communication not hidden behind compute. vs_ring%: iteration time saved vs ring "
               "(positive = faster). data: full = every element checked, sampled = timing-only "
               "run with sampled elements checked.\n";
  if (!json_out.empty()) {
    out.set_text(json_out,
                 json_text(to_json(workload, scenario, buckets, rows, serialised), 2) + "\n");
    out.commit();
  }
  return kExitOk;
}

}  // namespace

int train_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim train WORKLOAD.yaml --scenario NETWORK.yaml [options]\n\n"
      "One data-parallel training iteration: the gradient all-reduce of every bucket (a layer, or\n"
      "layers fused up to the workload's bucket_bytes) is released when backpropagation has\n"
      "produced it (plus the launch cost) and overlaps the rest of backpropagation. By default\n"
      "all buckets' all-reduces run in ONE simulation per algorithm, sharing the network;\n"
      "--serialised instead simulates each size stand-alone and queues them in issue order.\n"
      "Cycles are cycles of the scenario's clock (clock_ghz); exposed communication is the\n"
      "iteration time minus compute (forward + backprop + optimizer).\n\n"
      "options");
  std::string workload_file, scenario_file, json_out, bucket_text;
  std::vector<std::string> algorithms, overrides;
  int jobs = 1;
  long long launch_cycles = -1;
  opts.add_options()("help,h", "show this help")(
      "scenario", po::value(&scenario_file),
      "network scenario YAML file (see scenarios/README.md)")(
      "algorithm,a", po::value(&algorithms)->composing(),
      "all-reduce algorithm to compare: a name, or one with parameters as results name it, e.g. "
      "dbtree(pipeline=2) (repeatable; default: the scenario's collective.algorithms)")(
      "set,s", po::value(&overrides)->composing(),
      "override a scenario key before validation: key.path=value (repeatable)")(
      "bucket-bytes", po::value(&bucket_text),
      "override the workload's bucket_bytes (e.g. 25MiB; 0 = one all-reduce per layer)")(
      "launch-cycles", po::value(&launch_cycles),
      "override the workload's launch_cycles: host cost per all-reduce launch, cycles (launches "
      "are one at a time)")(
      "serialised", "queue stand-alone all-reduces in issue order instead of one shared run")(
      "json", po::value(&json_out), "write the iteration timelines as JSON to this file")(
      "jobs,j", po::value(&jobs), "simulations run in parallel (processes; default 1)")(
      "workload", po::value(&workload_file), "workload YAML file (scenarios/workloads/)");
  const auto vm = parse_command(args, opts, "workload");
  if (!vm) return kExitOk;
  if (workload_file.empty()) throw UsageError("missing WORKLOAD.yaml (mtsim train --help)");
  if (scenario_file.empty())
    throw UsageError("missing --scenario NETWORK.yaml (mtsim train --help)");
  if (jobs < 1 || jobs > 256)
    throw UsageError("--jobs " + std::to_string(jobs) + ": expected 1..256");
  const bool serialised = vm->count("serialised") > 0;

  WorkloadConfig workload = load_workload_file(workload_file);
  if (!bucket_text.empty()) {
    try {
      workload.bucket_bytes = bucket_text == "0" ? 0 : parse_byte_size(bucket_text);
    } catch (const ByteSizeError& e) {
      throw UsageError(std::string("--bucket-bytes: ") + e.what());
    }
  }
  if (vm->count("launch-cycles")) {
    if (launch_cycles < 0)
      throw UsageError("--launch-cycles " + std::to_string(launch_cycles) + ": expected >= 0");
    workload.launch_cycles = static_cast<std::uint64_t>(launch_cycles);
  }
  // Keys the workload decides, or -a: an override of them would be checked and then ignored.
  for (const auto& o : overrides) {
    const std::string key = o.substr(0, o.find('='));
    if (key.rfind("collective.sizes", 0) == 0)
      throw UsageError("--set " + o +
                       ": train takes its all-reduce sizes from the workload's buckets "
                       "(--bucket-bytes), not collective.sizes");
    if (key.rfind("collective.algorithms", 0) == 0 && !algorithms.empty())
      throw UsageError("--set " + o +
                       ": the algorithms are given by --algorithm; give them one way, not both");
  }
  OverrideOptions options;  // the override -a becomes, named as typed in errors
  if (!algorithms.empty()) {
    std::string as_typed;
    const std::vector<std::string> known = algorithm_names();
    std::string list, known_list;
    for (const auto& k : known) known_list += (known_list.empty() ? "" : ", ") + k;
    for (const auto& a : algorithms) {
      // A name, or a schedule as results name it (dbtree(pipeline=2)): quoted for the loader.
      std::string name = a;
      AlgorithmParams params;
      const bool labelled = parse_schedule_label(a, name, params);
      if (std::find(known.begin(), known.end(), name) == known.end() ||
          a.find_first_of("\"\\") != std::string::npos)
        throw UsageError("--algorithm " + a + ": unknown algorithm (known: " + known_list +
                         "; with parameters as results name them: NAME(key=value,...))");
      list += (list.empty() ? "" : ",") + (labelled ? "\"" + a + "\"" : a);
      as_typed += (as_typed.empty() ? "--algorithm " : " --algorithm ") + a;
    }
    const std::string injected = "collective.algorithms=[" + list + "]";
    overrides.push_back(injected);
    options[injected] = as_typed;
  }
  return train(workload, workload_file, scenario_file, overrides, options, json_out, jobs,
               serialised, vm->count("launch-cycles") > 0);
}

}  // namespace mt::cli
