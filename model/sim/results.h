#pragma once
// Results of scenario runs: JSON and CSV files, and the text table printed on stdout.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/core/error.h"
#include "model/core/output_files.h"  // write_text_atomically
#include "model/sim/run_result.h"

namespace mt {

/// The host of a software-issue run in one line for the result table's notes: its preset and
/// times in cycles.
std::string host_description(const RunResult& r);

/// One run as JSON (all RunResult fields; per-link and per-node arrays included).
/// With `with_messages`, also the per-message issue and arrival cycles (large: used for traces).
nlohmann::json to_json(const RunResult& run, bool with_messages = false);
/// A results JSON document that does not describe runs (an unknown name in an enum field).
class ResultsError : public Error {
 public:
  using Error::Error;
};

/// Inverse of to_json (used to pass results from a run's process back to the CLI).
RunResult run_result_from_json(const nlohmann::json& j);

/// The results JSON {"runs": [...]} as text (what write_results_json writes).
std::string results_json_text(const std::vector<RunResult>& runs);
/// The results CSV as text: the header and one row per run (what write_results_csv writes).
std::string results_csv_text(const std::vector<RunResult>& runs);
/// Writes {"runs": [...]} to `path` atomically (a temporary file renamed into place).
void write_results_json(const std::string& path, const std::vector<RunResult>& runs);
/// Writes one CSV row per run (scalar fields only) to `path` atomically.
void write_results_csv(const std::string& path, const std::vector<RunResult>& runs);

/// `text` as one CSV field: unchanged, or double-quoted (quotes doubled) when it holds a comma,
/// a quote or a newline.
std::string csv_field(const std::string& text);

/// Header line of the results CSV (no newline): the scalar RunResult fields, in file order.
std::string results_csv_header();
/// One CSV row (no newline) of the scalar fields of `run`, matching results_csv_header().
std::string results_csv_row(const RunResult& run);
/// A row of the same columns for a point that produced no run: only `error` filled in.
std::string results_csv_error_row(const std::string& error);

/// Human-readable table: one row per run, grouped by size, with the speedup over ring (or over
/// the first algorithm when ring did not run) and a legend explaining every column and unit.
std::string format_results_table(const std::vector<RunResult>& runs);

}  // namespace mt
