// `mtsim run`: every algorithm x size point of a scenario, each simulated in its own process
// (SystemC elaborates once per process), `--jobs` of them at a time.

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "model/config/scenario_loader.h"
#include "model/core/json_text.h"
#include "model/core/output_files.h"
#include "model/run/prepare.h"
#include "model/sim/results.h"
#include "model/sim/trace.h"
#include "tb/mtsim/backends.h"
#include "tb/mtsim/cli.h"
#include "tb/mtsim/huge_pages.h"
#include "tb/mtsim/point_pool.h"

namespace po = boost::program_options;

namespace mt::cli {

namespace {

// What a run's outputs may not be: its scenario and the schedule files it names; "-" is stdout.
OutputRules run_output_rules(const std::string& scenario_file, const ScenarioConfig& scenario) {
  OutputRules rules;
  rules.stdout_dash = true;
  rules.inputs.push_back(scenario_file);
  for (const AlgorithmRun& run : scenario.collective.algorithms)
    if (!run.schedule_file.empty()) rules.inputs.push_back(run.schedule_file);
  return rules;
}

// The run of a scenario once its options are parsed.
int run_scenario(const std::string& scenario_file, const std::vector<std::string>& overrides,
                 std::string json_out, std::string csv_out, const std::string& trace_out,
                 const std::string& error_json, int jobs, double time_limit,
                 const std::string& pin_trace_dir) {
  if (scenario_file.empty()) throw UsageError("missing SCENARIO.yaml (mtsim run --help)");
  if (jobs < 1 || jobs > 256)
    throw UsageError("--jobs " + std::to_string(jobs) + ": expected 1..256");
  if (!(time_limit >= 0 && time_limit <= 1e7))
    throw UsageError("--time-limit: expected 0 (none) to 10000000 seconds");

  const ScenarioConfig scenario = load_scenario_file(scenario_file, overrides);
  pages_for(scenario.granularity);
  const std::string json_from = json_out.empty() ? "output.json" : "--json";
  const std::string csv_from = csv_out.empty() ? "output.csv" : "--csv";
  if (json_out.empty()) json_out = scenario.output.json;
  if (csv_out.empty()) csv_out = scenario.output.csv;
  // Outputs that cannot be written, or would replace an input or one another, stop the run
  // before anything is simulated; they are written together at the end, all or nothing.
  OutputFiles out(run_output_rules(scenario_file, scenario));
  if (!error_json.empty()) out.add(error_json, "error report (--error-json)", "--error-json");
  if (!json_out.empty()) out.add(json_out, "results JSON", json_from);
  if (!csv_out.empty()) out.add(csv_out, "results CSV", csv_from);
  if (!trace_out.empty()) out.add(trace_out, "trace", "--trace");
  // With an output on stdout ("-") the table goes to stderr.
  std::ostream& text = out.uses_stdout() ? std::cerr : std::cout;

  // Build and verify every schedule before simulating anything: bad input writes nothing.
  if (!pin_trace_dir.empty() && !std::filesystem::is_directory(pin_trace_dir))
    throw UsageError("--rtl-pin-trace " + pin_trace_dir + ": no such folder");
  const std::vector<PreparedAlgorithm>& prepared =
      keep_until_exit(prepare_all(scenario, run_backends(pin_trace_dir)));
  if (const auto failure = verify_prepared(prepared)) {
    ErrorReport report;
    report.line = "mtsim: " + failure->message();
    report.location = failure->location;
    report.exit_status = kExitCheckFailed;
    std::cerr << report.line << "\n";
    if (!error_json.empty()) write_error_report(error_json, report);
    return kExitCheckFailed;
  }
  int status = kExitOk;
  // Points ordered by size, then algorithm, so the table groups sizes; flow_control auto's two
  // trials of a point reduced to the faster.
  const std::vector<Point> simulated = points_for(prepared, scenario.collective.sizes_bytes);
  // Each point's schedulers would write the same files.
  if (!pin_trace_dir.empty() && simulated.size() != 1)
    throw UsageError(
        "--rtl-pin-trace needs a scenario of one point (one algorithm at one size, "
        "one flow control), not " +
        std::to_string(simulated.size()));
  const PointResults run = settle_trials(
      simulated, run_points(scenario, simulated, jobs, !trace_out.empty(), time_limit));
  const std::vector<Point>& points = run.points;
  const std::vector<RunResult>& results = run.results;

  for (const auto& r : results) {
    if (r.internal_error) status = kExitInternal;
    if (run_failed(r) && status == kExitOk) status = kExitCheckFailed;
  }
  text << format_results_table(results);
  if (!json_out.empty()) out.set_text(json_out, results_json_text(results));
  if (!csv_out.empty()) out.set_text(csv_out, results_csv_text(results));
  if (!trace_out.empty()) {
    std::vector<TraceRun> traced;
    for (std::size_t i = 0; i < points.size(); ++i)
      traced.push_back({&results[i], &points[i].first->schedule, points[i].first->topology.get()});
    out.set_text(trace_out, json_text(chrome_trace(traced)) + "\n");
  }
  out.commit();
  for (const auto& [path, what] :
       {std::pair{json_out, "results JSON"}, {csv_out, "results CSV"}, {trace_out, "trace"}})
    if (!path.empty() && path != "-") text << what << ": " << path << "\n";
  return status;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim run SCENARIO.yaml [options]\n\n"
      "Simulates every algorithm at every size of the scenario (each point in its own process)\n"
      "and prints a table. Cycles are cycles of the scenario's clock (clock_ghz). Under the\n"
      "table a footer explains every column (bounds, efficiency, data check) and the lines\n"
      "about auto's choices and the hardware tables; README.md \"What the numbers mean\" has\n"
      "the derivations and the JSON and CSV fields.\n\n"
      "options");
  std::string scenario_file, json_out, csv_out, trace_out, error_json, pin_trace_dir;
  std::vector<std::string> overrides;
  int jobs = 1;
  double time_limit = 0;
  opts.add_options()("help,h", "show this help")(
      "set,s", po::value(&overrides)->composing(),
      "override a scenario key before validation: key.path=value, e.g. nic.ports=4 or "
      "collective.sizes=[1MiB,4MiB] (repeatable)")(
      "json", po::value(&json_out),
      "write results JSON ({\"runs\": [...]}) to this file (- for stdout: the table then goes "
      "to stderr)")("csv", po::value(&csv_out),
                    "write results CSV (one row per run) to this file (- for stdout)")(
      "trace", po::value(&trace_out),
      "write a Chrome/Perfetto trace-event JSON of every run to this file: one track per NIC and "
      "per directed link, one slice per message from issue to arrival (open in ui.perfetto.dev "
      "or chrome://tracing; time in microseconds of simulated time; - for stdout)")(
      "error-json", po::value(&error_json),
      "when an error stops the run before its results (bad input, failed verification), write "
      "it to this file as JSON: {\"error\": the line printed, \"exit_status\", \"location\": "
      "{file, line, column, key_path, ...}} (mtsim sweep reads it for a failed point)")(
      "jobs,j", po::value(&jobs), "points simulated in parallel (processes; default 1)")(
      "time-limit", po::value(&time_limit),
      "wall-clock limit per point, seconds (default 0: none): a point still simulating then is "
      "stopped and reported as failed")(
      "rtl-pin-trace", po::value(&pin_trace_dir),
      "nic.scheduler rtl, a scenario of one point: every NIC's Verilated scheduler writes its "
      "input pins and grants, clock by clock, to FOLDER/node<N>.pins (scripts/power.sh replays "
      "them for the scheduler's switching activity)")(
      "scenario", po::value(&scenario_file), "scenario YAML file (see scenarios/README.md)");
  if (!parse_command(args, opts, "scenario")) return kExitOk;
  // Checked first: an error report that cannot be written would hide the error it reports.
  if (!error_json.empty())
    check_output(error_json, "error report (--error-json)", {{scenario_file}, false});
  try {
    return run_scenario(scenario_file, overrides, json_out, csv_out, trace_out, error_json, jobs,
                        time_limit, pin_trace_dir);
  } catch (...) {
    if (!error_json.empty()) write_error_report(error_json, report_current_error("run"));
    throw;
  }
}

}  // namespace mt::cli
