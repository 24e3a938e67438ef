// Issue 52 at the config loaders (model/config): every kind of YAML mtsim reads refuses a
// recursive alias and aliases that expand without bound at the alias, takes a lone CR as a line
// break, and names an empty layer name as empty; a sweep's exclude matches a size in any unit.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/config/scenario_loader.h"
#include "model/config/sweep_loader.h"
#include "model/config/workload_loader.h"
#include "model/run/sweep.h"
#include "tests/support/source_dir.h"

namespace {

using mt::test::kSource;

const std::string kBase = kSource + "/scenarios/default.yaml";

// "the alias *NAME stands for ..." as the loaders say it.
std::string recursive(const std::string& name) {
  return "the alias *" + name + " stands for a value that contains it (a recursive alias: &" +
         name + " is still open here); it would never end";
}

// A sweep file's text with the base scenario filled in.
std::string sweep_text(const std::string& body) {
  return "scenario: " + kBase + "\n" + body;
}

}  // namespace

TEST_CASE("a recursive alias is refused at the alias in every kind of YAML file") {
  // Sweep files walked such a value into one line of YAML for the point's --set: SIGSEGV
  // (axis values, set:, exclude:). Scenarios and workloads met it with a type error first.
  const std::string axis = "axes:\n  - key: collective.sizes\n    values: &a [4KiB, *a]\n";
  CHECK_THROWS_WITH(mt::load_sweep_text(sweep_text(axis), "s.yaml"),
                    "s.yaml:4:23: " + recursive("a"));
  CHECK_THROWS_WITH(
      mt::load_sweep_text(sweep_text("set: &s {nic.ports: *s}\naxes:\n  - key: topology\n"
                                     "    values: [ring:4]\n"),
                          "s.yaml"),
      "s.yaml:2:21: " + recursive("s"));
  CHECK_THROWS_WITH(
      mt::load_sweep_text(sweep_text("axes:\n  - key: topology\n    values: [ring:4]\n"
                                     "exclude:\n  - &e {topology: *e}\n"),
                          "s.yaml"),
      "s.yaml:6:19: " + recursive("e"));
  CHECK_THROWS_WITH(mt::load_scenario_text("topology: ring:4\ncollective:\n  algorithms: [ring]\n"
                                           "  sizes: &z [4KiB, [*z]]\n",
                                           "c.yaml", {}),
                    "c.yaml:4:21: " + recursive("z"));
  CHECK_THROWS_WITH(mt::load_workload_text("layers: &l [{name: a, params: 4}, *l]\n", "w.yaml"),
                    "w.yaml:1:35: " + recursive("l"));
  // A --set value is YAML too.
  CHECK_THROWS_WITH(
      mt::load_scenario_file(kBase, {"collective.sizes=&a [4KiB, *a]"}),
      "--set collective.sizes=&a [4KiB, *a]: value is not valid YAML: " + recursive("a"));
  // An alias of a finished value is fine, also inside a later one.
  const mt::SweepConfig fine = mt::load_sweep_text(
      sweep_text("axes:\n  - key: collective.sizes\n    values: &v [4KiB, 8KiB]\n"
                 "  - key: collective.algorithms\n    values: [ring, dbtree]\n"
                 "exclude:\n  - {collective.sizes: 4KiB, collective.algorithms: dbtree}\n"),
      "s.yaml");
  CHECK(mt::expand_sweep(fine).size() == 3);
}

TEST_CASE("aliases of aliases that expand past a million values are refused") {
  // 30 levels that each double the one before: 2^31 values for a walk of the tree to meet, where
  // yaml-cpp's own tree shares them (the sweep loader's walk would never finish).
  std::string text = "description: x\nfill:\n  a0: &a0 [x, x]\n";
  for (int i = 1; i < 30; ++i)
    text += "  a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" +
            std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + "]\n";
  CHECK_THROWS_WITH(mt::load_sweep_text(sweep_text(text), "s.yaml"),
                    "s.yaml:21:20: with its aliases expanded the file holds more than 1048576 "
                    "values (aliases of aliases double it at every level)");
}

TEST_CASE("a lone CR is a line break, and errors count lines by it") {
  const mt::ScenarioConfig s = mt::load_scenario_text(
      "topology: ring:4\rcollective: {algorithms: [ring], sizes: [4KiB]}\r", "cr.yaml", {});
  CHECK(s.topology.dims == std::vector<int>{4});
  CHECK_THROWS_WITH(
      mt::load_scenario_text("topology: ring:4\r\rcollective: {algorithms: [ring], sizez: [4KiB]}",
                             "cr.yaml", {}),
      Catch::StartsWith("cr.yaml:3:34: collective.sizez: unknown key"));
  // CR LF stays one line break.
  CHECK_THROWS_WITH(mt::load_workload_text("layers:\r\n  - {name: a, params: x}\r\n", "w.yaml"),
                    Catch::StartsWith("w.yaml:2:23: layers[0].params: expected an integer"));
}

TEST_CASE("a workload layer with an empty name is named empty, not missing") {
  CHECK_THROWS_WITH(mt::load_workload_text("layers:\n  - {name: \"\", params: 4}\n", "w.yaml"),
                    "w.yaml:2:12: layers[0].name: empty: a layer needs a name");
  CHECK_THROWS_WITH(mt::load_workload_text("layers:\n  - {params: 4}\n", "w.yaml"),
                    "w.yaml:2:5: layers[0]: missing key \"name\"");
}

TEST_CASE("exclude matches a size axis in any unit") {
  const mt::SweepConfig s = mt::load_sweep_text(
      sweep_text("axes:\n  - key: collective.sizes\n    values: [4096, 8KiB]\n"
                 "exclude:\n  - {collective.sizes: 4KiB}\n  - {collective.sizes: 8192}\n"),
      "s.yaml");
  // Both points excluded: each exclusion names the axis's own spelling.
  REQUIRE(s.exclude.size() == 2);
  CHECK(s.exclude[0][0].value == "4096");
  CHECK(s.exclude[1][0].value == "8KiB");
  CHECK(mt::expand_sweep(s).empty());
  CHECK_THROWS_WITH(
      mt::load_sweep_text(
          sweep_text("axes:\n  - key: collective.sizes\n    values: [4096]\nexclude:\n"
                     "  - {collective.sizes: 8KiB}\n"),
          "s.yaml"),
      "s.yaml:6:24: exclude[0].collective.sizes: 8KiB is not one of the values of axis "
      "collective.sizes");
}
