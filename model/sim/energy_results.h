#pragma once
// A run's energy in the results: its JSON object (counts and priced breakdown, read back by
// run_result_from_json), its CSV columns and the energy table `mtsim run` prints below the
// timing table (model/sim/results.h).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/sim/run_result.h"

namespace mt {

/// `run`'s energy as JSON: preset, total_pj, pj_per_byte, static_pj, nic_pj, scheduler_pj, the
/// breakdown by line (pJ) and the counts priced.
nlohmann::json energy_to_json(const RunResult& run);
/// Reads energy_to_json's object into `run` (counts, breakdown and preset); a document without
/// one leaves them zero. Throws nlohmann::json errors on a malformed one.
void energy_from_json(const nlohmann::json& energy, RunResult& run);

/// The energy columns of the results CSV, each led by a comma (appended to its header).
std::string energy_csv_header();
/// `run`'s values of those columns, each led by a comma.
std::string energy_csv_row(const RunResult& run);
/// As many empty columns (a point without a run).
std::string energy_csv_empty();

/// Energy per all-reduce, one row per run that completed: total (uJ), pJ per byte reduced, and
/// the breakdown by component (uJ) with the static share, under a title naming the prices and
/// above a legend; empty when no run completed.
std::string format_energy_table(const std::vector<RunResult>& runs);

}  // namespace mt
