#include "tb/mtsim/sweep_slurm.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "model/core/json_text.h"
#include "model/sim/results.h"
#include "tb/mtsim/cli.h"

namespace mt::cli {

void emit_slurm(const std::string& exe, const std::string& sweep_file, const SweepConfig& sweep,
                const std::vector<SweepPoint>& points, const SweepDir& dir, int jobs,
                const std::vector<std::string>& slurm_options) {
  write_points_file(dir.root + "/points.txt", exe, sweep, points, dir);
  for (const auto& p : points) {  // results of an earlier run must not be merged as this one's
    std::remove(dir.point_json(p.index).c_str());
    std::remove(dir.point_error(p.index).c_str());
    std::remove(dir.point_status(p.index).c_str());
  }
  const std::string root = shell_quote(dir.root);
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Slurm job array of sweep " << sweep.name << ": " << points.size()
    << " points, one array task each.\n"
    << "# Written by: mtsim sweep " << sweep_file << " --emit-slurm --out " << dir.root << "\n"
    << "# Task i runs line i+1 of points.txt (an `mtsim run` of one point) and leaves\n"
    << "# points/i.json (results), points/i.status (exit status) and logs/i.log.\n"
    << "# Submit:  sbatch " << dir.root << "/sweep.slurm\n"
    << "# Merge:   " << exe << " sweep " << absolute_path(sweep_file) << " --merge --out "
    << dir.root << "\n"
    << "# The folder must be on a file system the compute nodes share.\n"
    << "#SBATCH --job-name=mtsim-" << sweep.name << "\n"
    << "#SBATCH --array=0-" << points.size() - 1;
  if (jobs > 0) s << "%" << jobs;
  s << "\n#SBATCH --output=" << dir.root << "/logs/%a.log\n"
    << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  for (const auto& o : slurm_options) s << "#SBATCH " << o << "\n";
  s << "set -u\n"
    << "dir=" << root << "\n"
    << "task=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (a job array)}\n"
    << "cmd=$(sed -n \"$((task + 1))p\" \"$dir/points.txt\")\n"
    << "if [ -z \"$cmd\" ]; then echo \"no point $task in $dir/points.txt\" >&2; exit 2; fi\n"
    << "rm -f \"$dir/points/$task.json\" \"$dir/points/$task.status\"\n"
    << "eval \"$cmd\"\n"
    << "status=$?\n"
    << "echo \"$status\" > \"$dir/points/$task.status\"\n"
    << "exit \"$status\"\n";
  const std::string script = dir.root + "/sweep.slurm";
  write_text_atomically(script, s.str());
  ::chmod(script.c_str(), 0755);
  std::cout << "sweep " << sweep.name << ": " << points.size() << " points\n"
            << "wrote " << script << " (Slurm job array 0-" << points.size() - 1 << ")\n"
            << "wrote " << dir.root << "/points.txt (one `mtsim run` per line)\n"
            << (points.size() > 1000 ? "note: more than 1000 array tasks; Slurm's default "
                                       "MaxArraySize is 1001\n"
                                     : "")
            << "submit: sbatch " << script << "\n"
            << "merge:  mtsim sweep " << sweep_file << " --merge --out " << dir.root << "\n";
}

int merge_slurm_results(const SweepConfig& sweep, const std::vector<SweepPoint>& points,
                        const SweepDir& dir) {
  // The job list was written from the same sweep file: a changed file would mislabel the points.
  std::ifstream list(dir.root + "/points.txt");
  if (list) {
    std::size_t lines = 0;
    for (std::string line; std::getline(list, line);) ++lines;
    if (lines != points.size())
      throw UsageError(dir.root + "/points.txt lists " + std::to_string(lines) +
                       " points but the sweep file gives " + std::to_string(points.size()) +
                       ": merge with the sweep file the job array was emitted from");
  }
  std::vector<SweepRecord> records;
  std::size_t missing = 0;
  for (const auto& p : points) {
    const bool has_json = file_exists(dir.point_json(p.index));
    const bool has_status = file_exists(dir.point_status(p.index));
    if (!has_json && !has_status) {
      ++missing;
      continue;
    }
    int status = 0;
    if (has_status) {
      std::ifstream in(dir.point_status(p.index));
      if (!(in >> status)) status = 125;
    }
    records.push_back(collect_sweep_record(p, status, dir.point_json(p.index),
                                           dir.point_error(p.index), dir.point_log(p.index), 0.0));
  }
  std::string text;
  for (const auto& r : records) text += json_text(to_json(r)) + "\n";
  write_text_atomically(dir.records(), text);
  write_sweep_results(dir.root, sweep, points, records);
  print_summary(sweep, points, records, dir);
  if (missing > 0)
    std::cout << missing << " points have no results yet (no points/<i>.json or .status)\n";
  return (missing > 0 || count_failed(records) > 0) ? kExitCheckFailed : kExitOk;
}

}  // namespace mt::cli
