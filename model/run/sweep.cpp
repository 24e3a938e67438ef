#include "model/run/sweep.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "model/core/error.h"
#include "model/core/error_json.h"
#include "model/core/json_text.h"
#include "model/sim/results.h"

namespace mt {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::string sweep_point_key(const std::vector<SweepOverride>& values) {
  std::string key;
  for (const auto& v : values) {
    // A value holding the separator or starting with a quote is written as a JSON string, so
    // that no two points share a key: an unquoted value has no ';' and starts with no quote, so
    // it ends at the next "; ", and a quoted one ends where its JSON string does.
    const bool quote = v.value.find(';') != std::string::npos || v.value.rfind('"', 0) == 0;
    key += (key.empty() ? "" : "; ") + v.key + "=" +
           (quote ? nlohmann::json(v.value).dump() : v.value);
  }
  return key;
}

std::vector<SweepPoint> expand_sweep(const SweepConfig& sweep) {
  std::size_t total = 1;
  for (const auto& axis : sweep.axes) total *= axis.values.size();
  std::vector<SweepPoint> points;
  points.reserve(total);
  for (std::size_t combination = 0; combination < total; ++combination) {
    SweepPoint p;
    p.index = points.size();
    std::size_t rest = combination;
    p.values.resize(sweep.axes.size());
    for (std::size_t a = sweep.axes.size(); a-- > 0;) {
      const auto& values = sweep.axes[a].values;
      p.values[a] = values[rest % values.size()];
      rest /= values.size();
    }
    const auto has = [&](const SweepOverride& o) {
      return std::any_of(p.values.begin(), p.values.end(), [&](const SweepOverride& v) {
        return v.key == o.key && v.value == o.value;
      });
    };
    const bool excluded = std::any_of(
        sweep.exclude.begin(), sweep.exclude.end(),
        [&](const std::vector<SweepOverride>& e) { return std::all_of(e.begin(), e.end(), has); });
    if (excluded) continue;
    p.key = sweep_point_key(p.values);
    for (const auto& o : sweep.set) p.set_args.push_back(o.key + "=" + o.value);
    for (const auto& o : p.values) p.set_args.push_back(o.key + "=" + o.value);
    points.push_back(std::move(p));
  }
  return points;
}

nlohmann::json to_json(const SweepRecord& r) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : r.values) values.push_back({{"key", v.key}, {"value", v.value}});
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : r.runs) runs.push_back(to_json(run));
  return {{"point", r.point},
          {"key", r.key},
          {"values", values},
          {"exit_status", r.exit_status},
          {"error", r.error},
          {"error_location", to_json(r.error_location)},
          {"wall_seconds", r.wall_seconds},
          {"runs", runs}};
}

SweepRecord sweep_record_from_json(const nlohmann::json& j) {
  SweepRecord r;
  r.point = j.at("point").get<std::size_t>();
  r.key = j.at("key").get<std::string>();
  for (const auto& v : j.at("values"))
    r.values.push_back({v.at("key").get<std::string>(), v.at("value").get<std::string>(),
                        ErrorLocation(), ErrorLocation()});
  r.exit_status = j.at("exit_status").get<int>();
  r.error = j.at("error").get<std::string>();
  // Records written before error locations were kept have none.
  if (j.contains("error_location"))
    r.error_location = error_location_from_json(j.at("error_location"));
  r.wall_seconds = j.at("wall_seconds").get<double>();
  for (const auto& run : j.at("runs")) r.runs.push_back(run_result_from_json(run));
  return r;
}

std::vector<SweepRecord> read_sweep_records(const std::string& path) {
  std::vector<SweepRecord> records;
  std::ifstream in(path, std::ios::binary);
  if (!in) return records;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::map<std::string, std::size_t> by_key;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (trim(lines[i]).empty()) continue;
    SweepRecord r;
    try {
      r = sweep_record_from_json(nlohmann::json::parse(lines[i]));
    } catch (const std::exception& e) {
      if (i + 1 == lines.size()) break;  // the write of the last record was cut short
      throw Error(path + ":" + std::to_string(i + 1) + ": not a sweep record: " + e.what());
    }
    const auto found = by_key.find(r.key);
    if (found != by_key.end()) {
      records[found->second] = std::move(r);
    } else {
      by_key[r.key] = records.size();
      records.push_back(std::move(r));
    }
  }
  return records;
}

void append_sweep_record(const std::string& path, const SweepRecord& record) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  if (!out) throw Error(path + ": cannot append to the sweep records");
  out << json_text(to_json(record)) << '\n';
  if (!out.flush()) throw Error(path + ": write failed");
}

void write_sweep_results(const std::string& dir, const SweepConfig& sweep,
                         const std::vector<SweepPoint>& points,
                         const std::vector<SweepRecord>& records) {
  std::vector<const SweepRecord*> sorted;
  for (const auto& r : records) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const SweepRecord* a, const SweepRecord* b) { return a->point < b->point; });

  // CSV: the point's columns, one per axis, then the columns of write_results_csv.
  std::string header = "point,point_key,exit_status,passed";
  for (const auto& axis : sweep.axes) header += "," + csv_field("axis." + axis.key);
  std::string csv = header + "," + results_csv_header() + "\n";
  for (const SweepRecord* r : sorted) {
    std::string prefix = std::to_string(r->point) + "," + csv_field(r->key) + "," +
                         std::to_string(r->exit_status) + "," + (r->passed() ? "true" : "false");
    for (const auto& v : r->values) prefix += "," + csv_field(v.value);
    if (r->runs.empty()) csv += prefix + "," + results_csv_error_row(r->error) + "\n";
    for (const auto& run : r->runs) csv += prefix + "," + results_csv_row(run) + "\n";
  }
  write_text_atomically(dir + "/results.csv", csv);

  // JSON: totals, one summary per point and every run with its point's fields.
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& axis : sweep.axes) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& v : axis.values) values.push_back(v.value);
    axes.push_back({{"key", axis.key}, {"values", values}});
  }
  nlohmann::json point_list = nlohmann::json::array();
  nlohmann::json runs = nlohmann::json::array();
  std::size_t failed = 0;
  for (const SweepRecord* r : sorted) {
    if (!r->passed()) ++failed;
    nlohmann::json values = nlohmann::json::object();
    for (const auto& v : r->values) values[v.key] = v.value;
    point_list.push_back({{"point", r->point},
                          {"key", r->key},
                          {"values", values},
                          {"exit_status", r->exit_status},
                          {"passed", r->passed()},
                          {"error", r->error},
                          {"wall_seconds", r->wall_seconds},
                          {"runs", r->runs.size()}});
    for (const auto& run : r->runs) {
      nlohmann::json j = to_json(run);
      j["point"] = r->point;
      j["point_key"] = r->key;
      j["axes"] = values;
      runs.push_back(std::move(j));
    }
  }
  const nlohmann::json doc = {{"sweep", sweep.name},
                              {"description", sweep.description},
                              {"scenario", sweep.scenario_file},
                              {"axes", axes},
                              {"points_total", points.size()},
                              {"points_finished", sorted.size()},
                              {"points_failed", failed},
                              {"points", point_list},
                              {"runs", runs}};
  write_text_atomically(dir + "/results.json", json_text(doc, 1) + "\n");
}

}  // namespace mt
