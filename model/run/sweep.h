#pragma once
// A parameter sweep: its points (the cross product of the axes of a SweepConfig), the record of
// each finished point, and the result files assembled from the records. Running the points (and
// reading what their processes left) is a front end's job; this block is plain data and files.
//
// Files in a sweep's output folder:
//   results.jsonl  one record per finished point, appended as points finish (the source of truth:
//                  `--resume` reads it; a truncated last line is ignored)
//   results.csv    one row per run (a point whose process failed without results gets one row with
//                  its error), rewritten atomically after every point
//   results.json   {"sweep", "scenario", "axes", "points": [...], "runs": [...]}, rewritten
//                  atomically; "runs" has the schema of write_results_json plus the point fields

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/params/sweep_config.h"
#include "model/sim/run_result.h"

namespace mt {

/// One point of a sweep: one value of every axis.
struct SweepPoint {
  std::size_t index = 0;              ///< position among the points (last axis fastest)
  std::vector<SweepOverride> values;  ///< one per axis, in axis order
  std::string key;                    ///< stable identity of the point, see sweep_point_key()
  std::vector<std::string> set_args;  ///< "key=value" overrides: the sweep's `set`, then axes
};

/// The points of a sweep in cross-product order (the first axis varies slowest), less the
/// combinations of `exclude`; indices are dense (0..points-1).
std::vector<SweepPoint> expand_sweep(const SweepConfig& sweep);

/// Identity of a point, stable across runs of the same sweep: "key1=value1; key2=value2" over the
/// axes in file order, a value holding ';' or starting with '"' written as a JSON string (so no
/// two points share one). `--resume` matches recorded points by it.
std::string sweep_point_key(const std::vector<SweepOverride>& values);

/// What one point's run produced.
struct SweepRecord {
  std::size_t point = 0;              ///< index of the point in the current sweep
  std::string key;                    ///< sweep_point_key() of the point
  std::vector<SweepOverride> values;  ///< its axis values (location left empty)
  int exit_status = 0;           ///< exit status of the point's process; 128 + signal if killed
  std::string error;             ///< why the point failed; empty when it passed
  ErrorLocation error_location;  ///< where that error is, when the point reported it located
  double wall_seconds = 0;       ///< host time of the point's process, seconds
  std::vector<RunResult> runs;   ///< the runs the point wrote (may be empty on failure)

  /// True when the process exited 0 and every run verified its data (or did not check it).
  bool passed() const { return exit_status == 0 && error.empty(); }
};

/// One record as a JSON object (one line of results.jsonl).
nlohmann::json to_json(const SweepRecord& record);
/// Inverse of to_json(const SweepRecord&). Throws nlohmann::json::exception on a malformed record.
SweepRecord sweep_record_from_json(const nlohmann::json& j);

/// Reads results.jsonl: the records in file order, a later record of the same key replacing an
/// earlier one. A missing file gives no records; an unparsable last line (a write cut short by
/// an interruption) is ignored; an unparsable line elsewhere throws std::runtime_error.
std::vector<SweepRecord> read_sweep_records(const std::string& path);

/// Appends one record as a line of `path` and flushes it to the file system.
void append_sweep_record(const std::string& path, const SweepRecord& record);

/// Rewrites `dir`/results.csv and `dir`/results.json (atomically) from `records`, sorted by
/// point index. `points` is the whole sweep (for the totals).
void write_sweep_results(const std::string& dir, const SweepConfig& sweep,
                         const std::vector<SweepPoint>& points,
                         const std::vector<SweepRecord>& records);

}  // namespace mt
