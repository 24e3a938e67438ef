#include "model/core/error_json.h"

namespace mt {

namespace {

// The fields of an ErrorLocation, in one list for both directions: `text` for strings, `number`
// for ints (const or not, as the caller needs).
template <class Location, class Text, class Number>
void each_field(Location& location, const Text& text, const Number& number) {
  text("file", location.file);
  number("line", location.line);
  number("column", location.column);
  text("key_path", location.key_path);
  text("override_key", location.override_key);
  text("override_text", location.override_text);
  text("override_option", location.override_option);
  number("node", location.node);
  number("entry", location.entry);
  number("message", location.message);
}

}  // namespace

nlohmann::json to_json(const ErrorLocation& location) {
  nlohmann::json j = nlohmann::json::object();
  each_field(
      location,
      [&j](const char* key, const std::string& value) {
        if (!value.empty()) j[key] = value;
      },
      [&j](const char* key, int value) {
        if (value >= 0) j[key] = value;
      });
  return j;
}

ErrorLocation error_location_from_json(const nlohmann::json& j) {
  ErrorLocation location;
  each_field(
      location,
      [&j](const char* key, std::string& value) {
        if (j.contains(key)) value = j.at(key).get<std::string>();
      },
      [&j](const char* key, int& value) {
        if (j.contains(key)) value = j.at(key).get<int>();
      });
  return location;
}

nlohmann::json to_json(const ErrorReport& report) {
  return {{"error", report.line},
          {"exit_status", report.exit_status},
          {"location", to_json(report.location)}};
}

ErrorReport error_report_from_json(const nlohmann::json& j) {
  ErrorReport report;
  report.line = j.at("error").get<std::string>();
  report.exit_status = j.at("exit_status").get<int>();
  report.location = error_location_from_json(j.at("location"));
  return report;
}

}  // namespace mt
