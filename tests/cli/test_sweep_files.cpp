// `mtsim sweep` files: loading into axes and points, and the errors of bad sweep files
// (file:line:col and key path, exit 2, before anything runs).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/config/scenario_loader.h"
#include "model/config/sweep_loader.h"
#include "model/run/sweep.h"
#include "tests/support/cli_runner.h"

namespace {

using mt::test::CliResult;
using mt::test::exists;
using mt::test::kSource;
using mt::test::mtsim;
using mt::test::scratch_dir;
using mt::test::write_file;

const std::string kSweepBaseScenario = kSource + "/scenarios/default.yaml";

}  // namespace

TEST_CASE("a sweep file loads into axes whose cross product gives ordered and keyed points") {
  const std::string dir = scratch_dir("load");
  write_file(dir + "/base.yaml", "topology: ring:4\ncollective: {algorithms: [ring]}\n");
  const mt::SweepConfig sweep = mt::load_sweep_text(
      "scenario: base.yaml\n"
      "set: {nic.packet_bytes: 128, collective.sizes: [4KiB]}\n"
      "axes:\n"
      "  - key: topology\n"
      "    values: [ring:4, torus:4x4, {kind: mesh, dims: [2, 3]}]\n"
      "  - key: collective.algorithms\n"
      "    values: [ring, {name: multitree, ports: 1}]\n",
      dir + "/my_sweep.yaml");
  CHECK(sweep.name == "my_sweep");
  CHECK(sweep.scenario_file == dir + "/base.yaml");  // relative to the sweep file
  REQUIRE(sweep.set.size() == 2);
  CHECK(sweep.set[0].key == "nic.packet_bytes");
  CHECK(sweep.set[1].value == "[4KiB]");
  REQUIRE(sweep.axes.size() == 2);
  CHECK(sweep.axes[0].values[2].value == "{kind: mesh, dims: [2, 3]}");
  CHECK(sweep.axes[0].values[1].location.where() == dir + "/my_sweep.yaml:5:22");
  CHECK(sweep.axes[0].values[1].location.line == 5);
  CHECK(sweep.axes[0].values[1].location.column == 22);
  // An algorithm mapping is one entry of the algorithms list.
  CHECK(sweep.axes[1].values[1].value == "[{name: multitree, ports: 1}]");

  const auto points = mt::expand_sweep(sweep);
  REQUIRE(points.size() == 6);
  CHECK(points[1].key == "topology=ring:4; collective.algorithms=[{name: multitree, ports: 1}]");
  CHECK(points[4].key == "topology={kind: mesh, dims: [2, 3]}; collective.algorithms=ring");
  const auto value = [](const std::string& key, const std::string& text) {
    mt::SweepOverride o;
    o.key = key;
    o.value = text;
    return o;
  };
  // Keys never collide: a value holding the separator is quoted. Unquoted, the two points
  // below would both read "a=x; b=y; c=z".
  const std::string joined = mt::sweep_point_key({value("a", "x; b=y"), value("c", "z")});
  const std::string apart = mt::sweep_point_key({value("a", "x"), value("b", "y; c=z")});
  CHECK(joined == "a=\"x; b=y\"; c=z");
  CHECK(apart == "a=x; b=\"y; c=z\"");
  // Unquoted, a value starting with a quote could end where another ends: "p and q" would read
  // as the one value p; b=q in quotes.
  CHECK(mt::sweep_point_key({value("a", "\"p"), value("b", "q\"")}) == "a=\"\\\"p\"; b=q\"");
  for (std::size_t i = 0; i < points.size(); ++i) CHECK(points[i].index == i);
  CHECK(points[3].set_args ==
        std::vector<std::string>{"nic.packet_bytes=128", "collective.sizes=[4KiB]",
                                 "topology=torus:4x4",
                                 "collective.algorithms=[{name: multitree, ports: 1}]"});
  // Excluded combinations are left out; the remaining points are numbered densely.
  const mt::SweepConfig excluding = mt::load_sweep_text(
      "scenario: base.yaml\n"
      "axes:\n"
      "  - {key: topology, values: [ring:4, ring:8]}\n"
      "  - {key: collective.sizes, values: [4KiB, 8KiB, 16KiB]}\n"
      "  - {key: collective.algorithms, values: [ring, {name: dbtree}]}\n"
      "exclude:\n"
      "  - {topology: ring:8, collective.sizes: 16KiB}\n"
      "  - {collective.algorithms: {name: dbtree}, collective.sizes: 4KiB}\n",
      dir + "/excluding.yaml");
  const auto kept = mt::expand_sweep(excluding);
  // 2 x 3 x 2 = 12 combinations, less ring:8 at 16KiB (2) and dbtree at 4KiB (2).
  REQUIRE(kept.size() == 8);
  for (std::size_t i = 0; i < kept.size(); ++i) CHECK(kept[i].index == i);
  CHECK(kept[0].key == "topology=ring:4; collective.sizes=4KiB; collective.algorithms=ring");
  CHECK(kept[1].key == "topology=ring:4; collective.sizes=8KiB; collective.algorithms=ring");
  CHECK(kept[7].key ==
        "topology=ring:8; collective.sizes=8KiB; collective.algorithms=[{name: dbtree}]");

  // Every point's overrides load as a scenario.
  const mt::ScenarioConfig mesh = mt::load_scenario_file(sweep.scenario_file, points[5].set_args);
  CHECK(mesh.topology.kind == mt::TopologyKind::kMesh);
  CHECK(mesh.topology.dims == std::vector<int>{2, 3});
  CHECK(mesh.nic.packet_bytes == 128);
  REQUIRE(mesh.collective.algorithms.size() == 1);
  CHECK(mesh.collective.algorithms[0].name == "multitree");
  CHECK(mesh.collective.algorithms[0].ports == 1);
}

TEST_CASE("bad sweep files stop with file:line:col and key path (exit 2) before anything runs") {
  const std::string dir = scratch_dir("bad");
  const std::string sweep = dir + "/bad.yaml";
  const std::string head = "scenario: " + kSweepBaseScenario + "\n";
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {head + "axes:\n  - key: topology\n    valuez: [ring:4]\n",
       sweep + ":4:5: axes[0].valuez: unknown key; expected one of: key, values"},
      {head + "axes:\n  - key: topology\n    values: ring:4\n",
       sweep + ":4:13: axes[0].values: expected a list, got \"ring:4\""},
      {head + "axes: []\n", sweep + ":2:7: axes: the list is empty"},
      {head + "axes:\n  - key: topology\n    values: [ring:4, ring:4]\n",
       sweep + ":4:22: axes[0].values[1]: the value ring:4 is listed twice"},
      {head + "axes:\n  - key: topology\n    values: [ring:4]\n  - key: topology\n    values: "
              "[ring:8]\n",
       sweep + ":5:10: axes[1].key: \"topology\" is already an axis"},
      {head + "axes:\n  - key: 'nic..ports'\n    values: [1]\n",
       sweep + ":3:10: axes[0].key: \"nic..ports\" is not a scenario key path"},
      {head + "nmae: x\naxes:\n  - key: topology\n    values: [ring:4]\n",
       sweep + ":2:1: nmae: unknown key; expected one of: name, description, scenario, set, axes"},
      {"scenario: missing.yaml\naxes:\n  - key: topology\n    values: [ring:4]\n",
       sweep + ":1:11: scenario: cannot open the scenario file \"" + dir + "/missing.yaml\""},
      {"axes:\n  - key: topology\n    values: [ring:4]\n", sweep + ":1:1: scenario: missing"},
      {head + "axes:\n  - values: [ring:4]\n", sweep + ":3:5: axes[0]: missing key \"key\""},
      {head + "axes:\n  - key: topology\n", sweep + ":3:5: axes[0]: missing key \"values\""},
      {head + "axes:\n  - key: topology\n    values: [ring:4\n", sweep + ":5:1: YAML syntax error"},
      {head + "axes:\n  - {key: topology, values: [ring:4]}\nexclude:\n  - {topolgy: ring:4}\n",
       sweep + ":5:6: exclude[0].topolgy: \"topolgy\" is not an axis key"},
      {head + "axes:\n  - {key: topology, values: [ring:4]}\nexclude:\n  - {topology: ring:8}\n",
       sweep + ":5:16: exclude[0].topology: ring:8 is not one of the values of axis topology"},
      {head + "axes:\n  - {key: topology, values: [ring:4]}\nexclude:\n  - {topology: ring:4}\n",
       "exclude leaves no points of the cross product to run"},
      // A point whose scenario is invalid is named by the position of the value that broke it.
      {head + "axes:\n  - key: collective.sizes\n    values: [4KiB, 6B]\n",
       sweep + ":4:20: point 1 (collective.sizes=6B): --set collective.sizes=6B: "
               "collective.sizes[0]: 6 bytes is not a whole number of 4-byte elements"},
      // An unknown key is named at the axis's key, not at a value.
      {head + "axes:\n  - key: nic.portz\n    values: [1]\n",
       sweep + ":3:10: point 0 (nic.portz=1): --set nic.portz=1: nic.portz: unknown key"},
      {head + "set:\n  nic.portz: 1\naxes:\n  - key: topology\n    values: [ring:4]\n",
       sweep + ":3:3: point 0 (topology=ring:4): --set nic.portz=1: nic.portz: unknown key"},
      // A quoted boolean stays a string on its way to the point's --set (refused as in a file).
      {head + "axes:\n  - key: nic.step_barrier\n    values: [\"true\"]\n",
       sweep +
           ":4:14: point 0 (nic.step_barrier=\"\\\"true\\\"\"): --set nic.step_barrier=\"true\": "
           "nic.step_barrier: expected true or false, got the quoted string \"true\" (write it "
           "unquoted)"},
      {head + "set:\n  nic.ports: 99\naxes:\n  - key: topology\n    values: [ring:4]\n",
       sweep + ":3:14: point 0 (topology=ring:4): --set nic.ports=99: nic.ports: \"99\" is out "
               "of range: must be between 0 and 64"},
      // An algorithm's parameters are checked with the rest of the point, before anything runs.
      {head + "axes:\n  - key: collective.algorithms\n    values: [ring, {name: dbtree, params: "
              "{pipe: 2}}]\n",
       sweep + ":4:20: point 1 (collective.algorithms=[{name: dbtree, params: {pipe: 2}}]): "
               "--set collective.algorithms=[{name: dbtree, params: {pipe: 2}}]: "
               "collective.algorithms[0].params: dbtree: unknown parameter 'pipe' (known: "
               "pipeline, steps, phases)"},
      // A check across keys has no one culprit: the sweep file and the point come first.
      {head + "axes:\n  - key: nic.ports\n    values: [1, 9]\n",
       "mtsim: " + sweep + ": point 1 (nic.ports=9): " + kSweepBaseScenario + ":"},
      {head + "axes:\n  - key: collective.sizes\n    values: [64KiB, 65536]\n",
       sweep + ":4:21: axes[0].values[1]: the size 65536 is 64KiB, listed before: every point "
               "would run twice"},
      {"name: ../up\n" + head + "axes:\n  - key: topology\n    values: [ring:4]\n",
       sweep + ":1:7: name: \"../up\" is not a plain name"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    write_file(sweep, c.text);
    const CliResult r = mtsim("sweep " + sweep + " --out " + dir + "/out");
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(c.message));
    CHECK_FALSE(exists(dir + "/out/results.csv"));
  }
  CHECK(mtsim("sweep").status == 2);
  CHECK(mtsim("sweep " + sweep + " --merge --resume").status == 2);
  // Without a name: key the file's stem names the sweep, under the same rule.
  const std::string unnamed = dir + "/bad+x.yaml";
  write_file(unnamed, head + "axes:\n  - key: topology\n    values: [ring:4]\n");
  const CliResult stem = mtsim("sweep " + unnamed + " --list");
  CHECK(stem.status == 2);
  CHECK_THAT(stem.output, Catch::Contains("the file name's stem \"bad+x\" is not a plain name"));
}
