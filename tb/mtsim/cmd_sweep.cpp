// `mtsim sweep`: every point of a sweep file (the cross product of its axes over a base scenario)
// run as its own `mtsim run` process, `--jobs` at a time, with a progress bar; results appended
// as points finish so an interrupted sweep keeps what it finished (`--resume` continues it).
// `--emit-slurm` writes the same job list as a Slurm job array instead; `--merge` assembles the
// array's per-point results. Sweep file schema: scenarios/README.md ("Sweep files").
// The parts: tb/mtsim/sweep_layout.h (folder, command lines, records), sweep_local.h (the local
// run), sweep_progress.h (progress bar), sweep_slurm.h (job array and merge).

#include <boost/program_options.hpp>
#include <iostream>

#include "model/config/scenario_loader.h"
#include "model/config/sweep_loader.h"
#include "model/core/output_files.h"
#include "model/run/sweep.h"
#include "model/topology/topology.h"
#include "tb/mtsim/cli.h"
#include "tb/mtsim/sweep_layout.h"
#include "tb/mtsim/sweep_local.h"
#include "tb/mtsim/sweep_slurm.h"

namespace po = boost::program_options;

namespace mt::cli {
namespace {

// Relative cost of simulating a scenario, for the progress bar's estimate: the simulator's work
// grows with nodes x bytes (packets moved), plus a fixed start-up cost per run.
double scenario_weight(const ScenarioConfig& scenario) {
  const double nodes = Topology(scenario.topology).nodes();
  double weight = 0;
  for (const std::uint64_t bytes : scenario.collective.sizes_bytes)
    weight += nodes * static_cast<double>(bytes) / (1 << 20) + 0.5;
  return weight * static_cast<double>(scenario.collective.algorithms.size());
}

// Loads every point's scenario before anything runs; a bad point names the sweep file position
// of the value that broke it. Returns each point's scenario_weight().
std::vector<double> validate_points(const SweepConfig& sweep,
                                    const std::vector<SweepPoint>& points) {
  std::vector<double> weights;
  for (const auto& p : points) {
    try {
      weights.push_back(scenario_weight(load_scenario_file(sweep.scenario_file, p.set_args)));
    } catch (const ScenarioError& e) {
      // The sweep value whose `--set` override broke the point, named by the error's field.
      const SweepOverride* culprit = nullptr;
      auto match = [&](const SweepOverride& o) {
        if (culprit == nullptr && e.location().override_key == o.key) culprit = &o;
      };
      for (const auto& o : p.values) match(o);
      for (const auto& o : sweep.set) match(o);
      const std::string point_text = "point " + std::to_string(p.index) + " (" + p.key + ")";
      if (culprit == nullptr) {
        // A check across keys (nic.ports against the topology): no one value is the culprit, so
        // the sweep file and the point's values come first, then the base scenario's place.
        ErrorLocation at;
        at.file = sweep.source_file;
        throw ScenarioError(sweep.source_file + ": " + point_text + ": " + e.what(), at);
      }
      // An unknown key is the axis key's fault, wherever the value that carried it stands.
      const ErrorLocation& at =
          e.location().key_unknown ? culprit->key_location : culprit->location;
      throw ScenarioError(at.where() + ": " + point_text + ": " + e.what(), at);
    }
  }
  return weights;
}

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim sweep SWEEP.yaml [options]\n\n"
      "Runs every point of a sweep (the cross product of its axes over a base scenario, see\n"
      "scenarios/README.md) as its own `mtsim run` process, --jobs at a time. Every point is\n"
      "validated first. Results are appended as points finish to DIR/results.jsonl and rewritten\n"
      "to DIR/results.csv and DIR/results.json; an interrupted sweep continues with --resume.\n"
      "Exit status: 0 every point passed, 1 some failed, 2 bad input.\n\n"
      "options");
  std::string sweep_file, out_dir;
  int jobs = 1;
  std::vector<std::string> slurm_options;
  double timeout_seconds = 0;
  opts.add_options()("help,h", "show this help")("jobs,j", po::value(&jobs),
                                                 "points run in parallel (processes; default 1)")(
      "out,o", po::value(&out_dir), "output folder (default out/<sweep name>)")(
      "resume", "skip the points already recorded in DIR/results.jsonl")(
      "overwrite",
      "replace the results of an earlier sweep in DIR (without it, or --resume, a DIR that holds "
      "recorded points is refused)")("retry-failed",
                                     "with --resume: run recorded points that failed again")(
      "list", "validate and print the points and their `mtsim run` commands; run nothing")(
      "emit-slurm",
      "write DIR/sweep.slurm (a Slurm job array, one task per point) and "
      "DIR/points.txt instead of running")(
      "slurm-option", po::value(&slurm_options)->composing(),
      "extra #SBATCH line for --emit-slurm, e.g. --slurm-option=--partition=cpu (repeatable)")(
      "merge", "assemble DIR/points/<i>.json of a Slurm run into DIR/results.*")(
      "timeout", po::value(&timeout_seconds),
      "wall-clock limit per point, seconds (default: none): a point still running then is "
      "killed and recorded as failed (exit 124), and the sweep goes on")(
      "sweep", po::value(&sweep_file), "sweep YAML file");
  const auto vm = parse_command(args, opts, "sweep");
  if (!vm) return kExitOk;
  if (sweep_file.empty()) throw UsageError("missing SWEEP.yaml (mtsim sweep --help)");
  if (jobs < 1 || jobs > 256)
    throw UsageError("--jobs " + std::to_string(jobs) + ": expected 1..256");
  const bool resume = vm->count("resume") > 0;
  const bool emit = vm->count("emit-slurm") > 0;
  const bool merging = vm->count("merge") > 0;
  const bool list = vm->count("list") > 0;
  if (static_cast<int>(emit) + static_cast<int>(merging) + static_cast<int>(list) +
          static_cast<int>(resume) >
      1)
    throw UsageError("--resume, --list, --emit-slurm and --merge exclude each other");
  if (vm->count("retry-failed") && !resume) throw UsageError("--retry-failed needs --resume");
  const bool overwrite = vm->count("overwrite") > 0;
  if (overwrite && (resume || emit || merging || list))
    throw UsageError(
        "--overwrite goes with a plain run (not --resume, --list, --emit-slurm or "
        "--merge)");
  if (!slurm_options.empty() && !emit) throw UsageError("--slurm-option needs --emit-slurm");
  if (!(timeout_seconds >= 0 && timeout_seconds <= 1e7))
    throw UsageError("--timeout: expected 0 (none) to 10000000 seconds");

  SweepConfig sweep = load_sweep_file(sweep_file);
  sweep.scenario_file = absolute_path(sweep.scenario_file);
  const std::vector<SweepPoint> points = expand_sweep(sweep);
  if (points.empty())
    throw UsageError(sweep_file + ": exclude leaves no points of the cross product to run");
  const std::vector<double> weights = validate_points(sweep, points);

  if (out_dir.empty()) out_dir = "out/" + sweep.name;
  const std::string exe = self_executable();
  if (list) {
    SweepDir dir{out_dir};
    std::cout << "sweep " << sweep.name << ": " << points.size() << " points over "
              << sweep.scenario_file << "\n";
    for (const auto& p : points)
      std::cout << p.index << "\t" << p.key << "\n\t"
                << command_line(point_command(exe, sweep, p, dir)) << "\n";
    return kExitOk;
  }
  // One sweep writes a folder at a time: a second one (running, resuming or merging) is refused
  // before it reads or writes anything there.
  make_dir(out_dir);
  const SweepLock lock(absolute_path(out_dir));
  if (!resume && !emit && !merging && !overwrite) {
    // A sweep of hours is not thrown away by a forgotten --resume.
    const std::string records = SweepDir{out_dir}.records();
    std::string held;
    if (file_exists(records)) {
      try {
        const std::size_t n = read_sweep_records(records).size();
        if (n > 0) held = counted(static_cast<long long>(n), "recorded point", "recorded points");
      } catch (const std::exception&) {  // unreadable records are still an earlier sweep's
        held = "the records";
      }
    }
    if (!held.empty()) {
      throw UsageError(records + " holds " + held +
                       " of an earlier sweep: --resume continues it, --overwrite replaces it, or "
                       "give another --out");
    }
  }
  make_dir(out_dir + "/points");
  make_dir(out_dir + "/logs");
  const SweepDir dir{absolute_path(out_dir)};
  // Results are reused only for the sweep they came from.
  const std::string manifest = sweep_manifest(sweep);
  if (resume || merging) check_sweep_manifest(dir.root, manifest, resume ? "--resume" : "--merge");
  write_text_atomically(dir.root + "/sweep.manifest", manifest);
  if (emit) {
    emit_slurm(exe, sweep_file, sweep, points, dir, vm->count("jobs") ? jobs : 0, slurm_options);
    return kExitOk;
  }
  if (merging) return merge_slurm_results(sweep, points, dir);

  LocalSweepOptions local;
  local.jobs = jobs;
  local.timeout_seconds = timeout_seconds;
  local.resume = resume;
  local.retry_failed = vm->count("retry-failed") > 0;
  return run_sweep_locally(exe, sweep_file, out_dir, sweep, points, weights, dir, local);
}

}  // namespace mt::cli
