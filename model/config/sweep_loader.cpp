#include "model/config/sweep_loader.h"

#include <algorithm>
#include <cctype>
#include <fstream>

#include "model/collective/byte_size.h"
#include "model/config/yaml_reader.h"

namespace mt {
namespace {

constexpr std::size_t kMaxSweepPoints = 100000;

// A sweep's name names the output folder (OUT/<name>/...) and the Slurm job: one plain word.
bool plain_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
         });
}
constexpr const char* kPlainNameRule =
    "is not a plain name: letters, digits, '.', '_' and '-' only (it names the output folder and "
    "the Slurm job)";

// Bytes of a size value ("64KiB", "65536"); 0 when it is not one (the scenario loader says why).
std::uint64_t size_or_zero(const std::string& text) {
  try {
    return parse_byte_size(text);
  } catch (const ByteSizeError&) {
    return 0;
  }
}

void read_sweep(const YamlReader& r, const YAML::Node& root, SweepConfig& s) {
  if (!root.IsDefined() || root.IsNull())
    r.fail(root, "", "the sweep is empty; expected a mapping with at least scenario and axes");
  check_file_kind(r, root, FileKind::kSweep);
  YAML::Node scenario_node, axes_node, exclude_node;
  bool has_scenario = false, has_axes = false;
  r.each_key(
      root, "", {"name", "description", "scenario", "set", "axes", "exclude"},
      [&](const std::string& key, const YAML::Node& v, const std::string& p) {
        if (key == "name") {
          s.name = r.text(v, p);
          if (!plain_name(s.name)) r.fail(v, p, "\"" + s.name + "\" " + kPlainNameRule);
        }
        if (key == "description") s.description = r.text(v, p);
        if (key == "scenario") {
          scenario_node = v;
          has_scenario = true;
          s.scenario_file = r.text(v, p);
          if (s.scenario_file.empty()) r.fail(v, p, "expected the path of a scenario file");
        }
        if (key == "set") {
          if (!v.IsMap())
            r.fail(v, p, "expected a mapping of key.path: value, got " + YamlReader::kind_of(v));
          for (const auto& kv : v) {
            const std::string k = r.scalar(kv.first, p, "a key path");
            const std::string kp = p + "." + k;
            if (!is_key_path(k))
              r.fail(kv.first, kp, "not a scenario key path (names joined by '.')");
            for (const auto& o : s.set)
              if (o.key == k) r.fail(kv.first, kp, "key given twice");
            s.set.push_back(
                {k, flow_text(kv.second), r.location(kv.second, kp), r.location(kv.first, kp)});
          }
        }
        if (key == "exclude") exclude_node = v;
        if (key == "axes") {
          axes_node = v;
          has_axes = true;
          std::size_t i = 0;
          for (const auto& a : r.list(v, p, false, 32)) {
            const std::string ap = p + "[" + std::to_string(i++) + "]";
            SweepAxis axis;
            axis.location = r.location(a, ap);
            ErrorLocation key_location;
            YAML::Node values_node;
            bool has_values = false;
            r.each_key(a, ap, {"key", "values"},
                       [&](const std::string& k, const YAML::Node& av, const std::string& kp) {
                         if (k == "key") {
                           axis.key = r.text(av, kp);
                           key_location = r.location(av, kp);
                           if (!is_key_path(axis.key))
                             r.fail(av, kp,
                                    "\"" + axis.key +
                                        "\" is not a scenario key path (names joined by '.')");
                           for (const auto& other : s.axes)
                             if (other.key == axis.key)
                               r.fail(av, kp, "\"" + axis.key + "\" is already an axis");
                         } else {
                           values_node = av;
                           has_values = true;
                         }
                       });
            if (axis.key.empty()) r.fail(a, ap, "missing key \"key\"");
            if (!has_values) r.fail(a, ap, "missing key \"values\"");
            std::size_t j = 0;
            for (const auto& value : r.list(values_node, ap + ".values", false, 10000)) {
              const std::string vp = ap + ".values[" + std::to_string(j++) + "]";
              if (value.IsNull()) r.fail(value, vp, "expected a value, got nothing (null)");
              std::string text = flow_text(value);
              // An algorithm given as a mapping is one entry of the collective.algorithms
              // list.
              if (axis.key == "collective.algorithms" && value.IsMap()) text = "[" + text + "]";
              for (const auto& earlier : axis.values)
                if (earlier.value == text)
                  r.fail(value, vp, "the value " + text + " is listed twice");
              // A size written two ways (64KiB and 65536) would run the same point twice.
              if (axis.key == "collective.sizes" && value.IsScalar()) {
                const std::uint64_t bytes = size_or_zero(text);
                for (const auto& earlier : axis.values)
                  if (bytes > 0 && size_or_zero(earlier.value) == bytes)
                    r.fail(value, vp,
                           "the size " + text + " is " + earlier.value +
                               ", listed before: every point would run twice");
              }
              axis.values.push_back({axis.key, text, r.location(value, vp), key_location});
            }
            s.axes.push_back(std::move(axis));
          }
        }
      });
  // Exclusions name axis values: a typo would silently exclude nothing, so it is an error.
  if (exclude_node.IsDefined() && !exclude_node.IsNull()) {
    std::size_t i = 0;
    for (const auto& entry : r.list(exclude_node, "exclude", false, 10000)) {
      const std::string ep = "exclude[" + std::to_string(i++) + "]";
      if (!entry.IsMap() || entry.size() == 0)
        r.fail(entry, ep,
               "expected a mapping of axis key: value, got " + YamlReader::kind_of(entry));
      std::vector<SweepOverride> combination;
      for (const auto& kv : entry) {
        const std::string k = r.scalar(kv.first, ep, "an axis key");
        const std::string kp = ep + "." + k;
        const auto axis = std::find_if(s.axes.begin(), s.axes.end(),
                                       [&](const SweepAxis& a) { return a.key == k; });
        if (axis == s.axes.end()) r.fail(kv.first, kp, "\"" + k + "\" is not an axis key");
        std::string text = flow_text(kv.second);
        if (k == "collective.algorithms" && kv.second.IsMap()) text = "[" + text + "]";
        // The axis's own spelling of the value: a size matches in any unit (4KiB is 4096).
        const std::uint64_t bytes = kv.second.IsScalar() ? size_or_zero(text) : 0;
        auto known = std::find_if(axis->values.begin(), axis->values.end(),
                                  [&](const SweepOverride& v) { return v.value == text; });
        if (known == axis->values.end() && bytes > 0)
          known =
              std::find_if(axis->values.begin(), axis->values.end(),
                           [&](const SweepOverride& v) { return size_or_zero(v.value) == bytes; });
        if (known == axis->values.end())
          r.fail(kv.second, kp, text + " is not one of the values of axis " + k);
        combination.push_back(
            {k, known->value, r.location(kv.second, kp), r.location(kv.first, kp)});
      }
      s.exclude.push_back(std::move(combination));
    }
  }
  if (!has_scenario)
    r.fail(root, "scenario", "missing: the base scenario file every point starts from");
  if (!has_axes) r.fail(root, "axes", "missing: list at least one axis");
  for (const auto& o : s.set)
    for (const auto& a : s.axes)
      if (o.key == a.key)
        throw ScenarioError(o.location.where() + ": set." + o.key + ": this key is also an axis (" +
                                a.location.where() + ")",
                            o.location);
  std::size_t points = 1;
  for (const auto& a : s.axes) {
    points *= a.values.size();
    if (points > kMaxSweepPoints)
      r.fail(axes_node, "axes",
             "the axes give more than " + std::to_string(kMaxSweepPoints) + " points");
  }
  s.scenario_file = beside(s.source_file, s.scenario_file);  // relative to the sweep file
  if (!std::ifstream(s.scenario_file).good())
    r.fail(scenario_node, "scenario", "cannot open the scenario file \"" + s.scenario_file + "\"");
}

}  // namespace

SweepConfig load_sweep_text(const std::string& text, const std::string& source_name) {
  const YAML::Node root = parse_yaml(text, source_name);
  SweepConfig s;
  s.source_file = source_name;
  const YamlReader reader(source_name, {});
  read_sweep(reader, root, s);
  if (s.name.empty()) {
    s.name = file_stem(source_name);
    if (!plain_name(s.name))
      reader.fail(root, "",
                  "the file name's stem \"" + s.name + "\" " + kPlainNameRule +
                      "; give the sweep a name: key");
  }
  return s;
}

SweepConfig load_sweep_file(const std::string& path) {
  return load_sweep_text(read_config_file(path, "sweep"), path);
}

}  // namespace mt
