// `mtsim run`: every algorithm x size point of a scenario, each simulated in its own process
// (SystemC elaborates once per process), `--jobs` of them at a time.

#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>

#include "model/collective/algorithm.h"
#include "model/collective/verify.h"
#include "model/sim/results.h"
#include "model/sim/scenario_loader.h"
#include "model/sim/trace.h"
#include "model/sim/system.h"
#include "tb/mtsim/cli.h"
#include "tb/rtl_adapter/rtl_scheduler.h"

namespace po = boost::program_options;

namespace mt::cli {
namespace {

// One algorithm of the scenario, built and verified once before any simulation.
struct PreparedAlgorithm {
  const AlgorithmRun* run = nullptr;
  std::unique_ptr<Topology> topology;  // with this run's port count
  Schedule schedule;
  std::uint64_t only_bytes = 0;        // built for this size only (auto); 0 = every size
};

// A point simulating in a child process.
struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::size_t index = 0;  // position in the results vector
};

PreparedAlgorithm prepare(const ScenarioConfig& scenario, const AlgorithmRun& run,
                          const AlgorithmParams& params, std::uint64_t only_bytes) {
  PreparedAlgorithm p;
  p.run = &run;
  p.only_bytes = only_bytes;
  TopologyConfig config = scenario.topology;
  if (run.ports > 0) config.ports_per_node = run.ports;
  p.topology = std::make_unique<Topology>(config);
  try {
    p.schedule = build_schedule(run.name, *p.topology, params);
  } catch (const AlgorithmError& e) {
    throw ScenarioError(run.where + ": collective.algorithms: " + run.label + ": " + e.what());
  }
  return p;
}

// One schedule per algorithm, or one per size for algorithms that choose by size (auto).
std::vector<PreparedAlgorithm> prepare_all(const ScenarioConfig& scenario) {
  std::vector<PreparedAlgorithm> prepared;
  for (const auto& run : scenario.collective.algorithms) {
    const std::uint64_t first = scenario.collective.sizes_bytes.front();
    if (with_size(run.name, run.params, first) == run.params) {
      prepared.push_back(prepare(scenario, run, run.params, 0));
      continue;
    }
    for (const std::uint64_t bytes : scenario.collective.sizes_bytes)
      prepared.push_back(prepare(scenario, run, with_size(run.name, run.params, bytes), bytes));
  }
  return prepared;
}

RunResult failed_result(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                        std::uint64_t bytes, const std::string& error) {
  RunResult r;
  r.scenario = scenario.name;
  r.topology = p.topology->name();
  r.algorithm = p.run->label;
  r.schedule = p.schedule.algorithm;
  r.nodes = p.topology->nodes();
  r.ports = p.topology->ports_per_node();
  r.bytes = bytes;
  r.clock_ghz = scenario.clock_ghz;
  r.steps = p.schedule.num_steps;
  r.error = error;
  return r;
}

// Child side: simulate, send the result as JSON through the pipe, leave without unwinding SystemC.
[[noreturn]] void simulate_in_child(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                                    std::uint64_t bytes, bool with_messages, int fd) {
  std::string text;
  try {
    ScenarioConfig point = scenario;
    point.nic = p.run->nic;  // the entry's nic (scenario nic plus its `nic:` overrides)
    // nic.scheduler: rtl puts the Verilated nic_sched behind every NIC (hardware issue).
    const SchedulerFactory factory =
        point.nic.scheduler == "rtl" ? make_rtl_scheduler_factory() : SchedulerFactory();
    RunResult r = simulate(point, *p.topology, p.schedule, bytes, factory);
    r.algorithm = p.run->label;
    r.schedule = p.schedule.algorithm;
    text = to_json(r, with_messages).dump();
  } catch (const std::exception& e) {
    text = to_json(failed_result(scenario, p, bytes, e.what())).dump();
  }
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0 && errno != EINTR) break;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  std::cout.flush();
  ::_exit(0);
}

Child start_child(const ScenarioConfig& scenario, const PreparedAlgorithm& p, std::uint64_t bytes,
                  bool with_messages,
                  std::size_t index) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    simulate_in_child(scenario, p, bytes, with_messages, fds[1]);
  }
  ::close(fds[1]);
  return {pid, fds[0], index};
}

// Reads the child's whole answer and reaps it; a crash becomes a failed result.
RunResult finish_child(const Child& child, const RunResult& placeholder) {
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(child.fd, buf, sizeof buf);
    if (n > 0) text.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(child.fd);
  int status = 0;
  ::waitpid(child.pid, &status, 0);
  RunResult failed = placeholder;
  if (WIFSIGNALED(status)) {
    failed.error = std::string("simulation process died: ") + ::strsignal(WTERMSIG(status));
    return failed;
  }
  try {
    return run_result_from_json(nlohmann::json::parse(text));
  } catch (const std::exception& e) {
    failed.error = "simulation process returned no result (exit status " +
                   std::to_string(WEXITSTATUS(status)) + ")";
    return failed;
  }
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim run SCENARIO.yaml [options]\n\n"
      "Simulates every algorithm at every size of the scenario (each point in its own process)\n"
      "and prints a table. Cycles are cycles of the scenario's clock (clock_ghz).\n\n"
      "options");
  std::string scenario_file, json_out, csv_out, trace_out;
  std::vector<std::string> overrides;
  int jobs = 1;
  opts.add_options()("help,h", "show this help")(
      "set,s", po::value(&overrides)->composing(),
      "override a scenario key before validation: key.path=value, e.g. nic.ports=4 or "
      "collective.sizes=[1MiB,4MiB] (repeatable)")(
      "json", po::value(&json_out), "write results JSON ({\"runs\": [...]}) to this file")(
      "csv", po::value(&csv_out), "write results CSV (one row per run) to this file")(
      "trace", po::value(&trace_out),
      "write a Chrome/Perfetto trace-event JSON of every run to this file: one track per NIC and "
      "per directed link, one slice per message from issue to arrival (open in ui.perfetto.dev "
      "or chrome://tracing; time in microseconds of simulated time)")(
      "jobs,j", po::value(&jobs), "points simulated in parallel (processes; default 1)")(
      "scenario", po::value(&scenario_file), "scenario YAML file (see scenarios/README.md)");
  if (!parse_command(args, opts, "scenario")) return kExitOk;
  if (scenario_file.empty()) throw UsageError("missing SCENARIO.yaml (mtsim run --help)");
  if (jobs < 1 || jobs > 256) throw UsageError("--jobs " + std::to_string(jobs) + ": expected 1..256");

  const ScenarioConfig scenario = load_scenario_file(scenario_file, overrides);
  if (json_out.empty()) json_out = scenario.output.json;
  if (csv_out.empty()) csv_out = scenario.output.csv;

  // Build and verify every schedule before simulating anything: bad input writes nothing.
  const std::vector<PreparedAlgorithm> prepared = prepare_all(scenario);
  int status = kExitOk;
  for (const auto& p : prepared) {
    const VerifyReport report = verify(p.schedule, *p.topology);
    if (!report.ok) {
      std::cerr << "mtsim: " << p.run->label << " on " << p.topology->name()
                << ": schedule verification failed: " << report.first_error << "\n";
      return kExitCheckFailed;
    }
  }

  // Points ordered by size, then algorithm, so the table groups sizes.
  std::vector<std::pair<const PreparedAlgorithm*, std::uint64_t>> points;
  for (const std::uint64_t bytes : scenario.collective.sizes_bytes)
    for (const auto& p : prepared)
      if (p.only_bytes == 0 || p.only_bytes == bytes) points.emplace_back(&p, bytes);
  std::vector<RunResult> results(points.size());
  std::vector<Child> running;
  std::size_t next = 0;
  while (next < points.size() || !running.empty()) {
    while (next < points.size() && static_cast<int>(running.size()) < jobs) {
      running.push_back(start_child(scenario, *points[next].first, points[next].second,
                                    !trace_out.empty(), next));
      ++next;
    }
    // Reap the oldest child first: results keep their order and no pipe can fill up unread
    // for long (each child writes once, at its end).
    const Child child = running.front();
    running.erase(running.begin());
    const auto& [p, bytes] = points[child.index];
    results[child.index] = finish_child(child, failed_result(scenario, *p, bytes, ""));
  }

  for (const auto& r : results)
    if (!r.error.empty() || (!r.data_verified && r.data_mode != "off")) status = kExitCheckFailed;
  std::cout << format_results_table(results);
  if (!json_out.empty()) write_results_json(json_out, results);
  if (!csv_out.empty()) write_results_csv(csv_out, results);
  if (!trace_out.empty()) {
    std::vector<TraceRun> traced;
    for (std::size_t i = 0; i < points.size(); ++i)
      traced.push_back({&results[i], &points[i].first->schedule, points[i].first->topology.get()});
    write_text_atomically(trace_out, chrome_trace(traced).dump() + "\n");
  }
  return status;
}

}  // namespace mt::cli
