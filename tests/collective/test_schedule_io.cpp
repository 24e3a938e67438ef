// Unit tests of the schedule JSON format and DOT output: round trips and every malformed-input
// error with its JSON path or file line/column.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/collective/schedule_io.h"
#include "model/topology/topology.h"

namespace {

using Json = nlohmann::json;

mt::Schedule sample() {
  mt::Schedule s;
  s.algorithm = "sample";
  s.topology = "switch:nodes=3";
  s.nodes = 3;
  s.num_chunks = 2;
  mt::Op op;
  op.node = 1;
  op.peer = 0;
  op.chunk = 1;
  op.flow = 2;
  op.step = 0;
  s.add(op);
  op.node = 0;
  op.peer = 2;
  op.kind = mt::OpKind::kBroadcast;
  op.step = 3;
  op.port = 0;
  op.deps = {0};
  op.path = {0 * 2, 2 * 2 + 1};  // 0 -> switch, switch -> 2
  s.add(op);
  return s;
}

void require_equal(const mt::Schedule& a, const mt::Schedule& b) {
  REQUIRE(a.algorithm == b.algorithm);
  REQUIRE(a.topology == b.topology);
  REQUIRE(a.nodes == b.nodes);
  REQUIRE(a.num_chunks == b.num_chunks);
  REQUIRE(a.num_flows == b.num_flows);
  REQUIRE(a.num_steps == b.num_steps);
  REQUIRE(a.ops.size() == b.ops.size());
  REQUIRE(a.chunk_offsets == b.chunk_offsets);
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const mt::Op& x = a.ops[i];
    const mt::Op& y = b.ops[i];
    INFO("op " << i);
    REQUIRE(x.id == y.id);
    REQUIRE(x.node == y.node);
    REQUIRE(x.peer == y.peer);
    REQUIRE(x.chunk == y.chunk);
    REQUIRE(x.flow == y.flow);
    REQUIRE(x.step == y.step);
    REQUIRE(x.port == y.port);
    REQUIRE(x.kind == y.kind);
    REQUIRE(x.deps == y.deps);
    REQUIRE(x.path == y.path);
    REQUIRE(x.release_cycle == y.release_cycle);
    REQUIRE(x.apply_after == y.apply_after);
  }
}

std::string from_json_error(const Json& j) {
  try {
    mt::schedule_from_json(j);
  } catch (const mt::ScheduleError& e) {
    return e.what();
  }
  return "<no error>";
}

std::string load_error(const std::string& path) {
  try {
    mt::load_schedule_file(path);
  } catch (const mt::ScheduleError& e) {
    return e.what();
  }
  return "<no error>";
}

// "line L, column C" of the error's location fields (what --error-json and sweeps record).
std::string load_error_place(const std::string& path) {
  try {
    mt::load_schedule_file(path);
  } catch (const mt::ScheduleError& e) {
    return "line " + std::to_string(e.location().line) + ", column " +
           std::to_string(e.location().column);
  }
  return "<no error>";
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("mtsim_test_schedule_io_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

}  // namespace

TEST_CASE("JSON round trip keeps every field", "[schedule_io]") {
  mt::Schedule s = sample();
  Json j = mt::to_json(s);
  CHECK(j["format"] == "mtsim-schedule");
  CHECK(j["version"] == 1);
  CHECK(j["num_flows"] == 3);
  CHECK(j["num_steps"] == 4);
  CHECK(j["ops"][0]["kind"] == "reduce");
  CHECK(j["ops"][1]["kind"] == "broadcast");
  CHECK_FALSE(j["ops"][0].contains("path"));  // empty path omitted
  CHECK_FALSE(j["ops"][0].contains("port"));  // port -1 omitted
  CHECK(j["ops"][1]["port"] == 0);
  CHECK(j["ops"][1]["path"] == Json::array({0, 5}));
  CHECK(j["ops"][1]["deps"] == Json::array({0}));
  // Through text, as in a file.
  mt::Schedule back = mt::schedule_from_json(Json::parse(j.dump()));
  require_equal(s, back);
  CHECK(mt::to_json(back) == j);
}

TEST_CASE("deps may be omitted", "[schedule_io]") {
  Json j = mt::to_json(sample());
  j["ops"][0].erase("deps");
  CHECK(mt::schedule_from_json(j).ops[0].deps.empty());
}

TEST_CASE("malformed JSON names the path of the bad field", "[schedule_io]") {
  const Json good = mt::to_json(sample());
  Json j = good;
  j["ops"][1]["chunk"] = "1";
  CHECK(from_json_error(j) == "ops[1].chunk: expected integer, got string");
  j = good;
  j["ops"][1]["chunk"] = 1.5;
  CHECK(from_json_error(j) == "ops[1].chunk: expected integer, got number");
  j = good;
  j["ops"][0].erase("peer");
  CHECK(from_json_error(j) == "ops[0].peer: missing");
  j = good;
  j["ops"][1]["deps"] = Json::array({0, "x"});
  CHECK(from_json_error(j) == "ops[1].deps[1]: expected integer, got string");
  j = good;
  j["ops"][1]["path"] = 3;
  CHECK(from_json_error(j) == "ops[1].path: expected array of integers, got number");
  j = good;
  j["ops"][1]["kind"] = "sum";
  CHECK(from_json_error(j) ==
        "ops[1].kind: \"sum\" is not an op kind (expected \"reduce\" or \"broadcast\")");
  j = good;
  j["ops"][1]["id"] = 5;
  CHECK(from_json_error(j) == "ops[1].id: is 5 but must equal the op's index 1");
  j = good;
  j["ops"][0]["colour"] = "red";
  CHECK(from_json_error(j) ==
        "ops[0]: unknown key \"colour\" (known keys: apply_after, chunk, deps, dst_buf, "
        "dst_chunk, flow, id, kind, node, path, peer, port, release_cycle, src_buf, step)");
  j = good;
  j["ops"][0]["node"] = 5000000000LL;
  CHECK(from_json_error(j) == "ops[0].node: 5000000000 is out of range for an integer");
  j = good;
  j["ops"][0]["node"] = Json::parse("1180591620717411303424");  // 2^70: a float to the parser
  CHECK(from_json_error(j) == "ops[0].node: 1.1805916207174113e+21 is out of range for an integer");
  j = good;
  j["ops"][0]["release_cycle"] = 1'000'000'000'001;
  CHECK(from_json_error(j) ==
        "ops[0].release_cycle: is 1000000000001; at most 1000000000000 "
        "cycles (10^12), far past any run this simulator reaches");
  j = good;
  j["ops"][0]["release_cycle"] = 1'000'000'000'000;
  CHECK(from_json_error(j) == "<no error>");
  j = good;  // a range is the verifier's (exit 1), above as below: test_verify
  j["ops"][1]["step"] = 4;
  CHECK(from_json_error(j) == "<no error>");
  j = good;
  j["nodes"] = -1;
  CHECK(from_json_error(j) == "nodes: is -1; it must be at least 1");
  j = good;
  j["num_chunks"] = 0;
  CHECK(from_json_error(j) == "num_chunks: is 0; it must be at least 1");
  j = good;
  j["ops"][1] = 7;
  CHECK(from_json_error(j) == "ops[1]: expected object, got number");
  j = good;
  j["format"] = "other";
  CHECK(from_json_error(j) == "format: is \"other\"; expected \"mtsim-schedule\"");
  j = good;
  j["version"] = 2;
  CHECK(from_json_error(j) == "version: is 2; this build reads version 1");
  j = good;
  j.erase("nodes");
  CHECK(from_json_error(j) == "nodes: missing");
  j = good;
  j["ops"] = Json::object();
  CHECK(from_json_error(j) == "ops: expected array, got object");
  j = good;
  j["extra"] = 1;
  CHECK(from_json_error(j) ==
        "schedule: unknown key \"extra\" (known keys: algorithm, analysis, chunk_offsets, "
        "format, nodes, num_chunks, num_flows, num_steps, ops, scratch_chunks, topology, "
        "version)");
  j = good;
  j["analysis"] = {{"steps", 3}};  // what `mtsim schedule --format json` adds: ignored
  CHECK(from_json_error(j) == "<no error>");
  CHECK(from_json_error(Json::array()) == "schedule: expected a JSON object, got array");
}

TEST_CASE("schedule files: save, load and errors with file, line and column", "[schedule_io]") {
  const std::string path = temp_path("good.json");
  mt::save_schedule_file(sample(), path);
  require_equal(mt::load_schedule_file(path), sample());

  const std::string bad = temp_path("bad.json");
  write_file(bad, "{\n  \"format\": \"mtsim-schedule\",\n  \"version\": 1,,\n}\n");
  const std::string e = load_error(bad);
  // Column 16 is the second comma of `  "version": 1,,`.
  CHECK(e == "schedule file \"" + bad +
                 "\": invalid JSON: parse error at line 3, column 16: syntax error while parsing "
                 "object key - unexpected ','; expected string literal");
  CHECK(load_error_place(bad) == "line 3, column 16");
  // Cut short: the place is past the last character read, as the message says.
  for (const auto& [cut, place] : std::vector<std::pair<std::string, std::string>>{
           {"{", "line 1, column 2"}, {"{\n", "line 2, column 1"}, {"", "line 1, column 1"}}) {
    write_file(bad, cut);
    INFO("file \"" << cut << "\"");
    CHECK_THAT(load_error(bad), Catch::Contains("parse error at " + place + ":"));
    CHECK(load_error_place(bad) == place);
  }

  // A key written twice: the parsed tree would keep the last value silently.
  const std::string twice = temp_path("twice.json");
  std::string text = mt::to_json(sample()).dump(2);
  const std::string chunk = "\"chunk\": 1,";
  const std::size_t second_op = text.find(chunk, text.find(chunk) + 1);
  REQUIRE(second_op != std::string::npos);
  text.insert(second_op, chunk + " ");
  write_file(twice, text);
  CHECK(load_error(twice) == "schedule file \"" + twice +
                                 "\": ops[1].chunk: duplicate key (each key may appear once in an "
                                 "object)");
  write_file(twice, "{\"format\": \"mtsim-schedule\", \"nodes\": [1, {\"a\": 1, \"a\": 2}]}");
  CHECK(load_error(twice) == "schedule file \"" + twice +
                                 "\": nodes[1].a: duplicate key (each key may appear once in an "
                                 "object)");

  const std::string wrong = temp_path("wrong.json");
  Json j = mt::to_json(sample());
  j["ops"][0]["peer"] = nullptr;
  write_file(wrong, j.dump(2));
  CHECK(load_error(wrong) ==
        "schedule file \"" + wrong + "\": ops[0].peer: expected integer, got null");

  const std::string missing = temp_path("does_not_exist.json");
  CHECK(load_error(missing) ==
        missing + ": cannot open the schedule file: No such file or directory");
  CHECK_THROWS_AS(mt::save_schedule_file(sample(), "/nonexistent_dir/x.json"), mt::ScheduleError);
  std::remove(path.c_str());
  std::remove(bad.c_str());
  std::remove(wrong.c_str());
  std::remove(twice.c_str());
}

TEST_CASE("DOT output has one edge per message, coloured by flow", "[schedule_io]") {
  mt::Topology t(mt::parse_topology_spec("switch:3"));
  const std::string dot = mt::to_dot(sample(), t);
  CHECK(dot.rfind("digraph schedule {\n", 0) == 0);
  CHECK(dot.find("n1 -> n0 [label=\"s0 c1\", color=\"#2ca02c\", fontcolor=\"#2ca02c\"];") !=
        std::string::npos);
  CHECK(dot.find("n0 -> n2 [label=\"s3 c1\", color=\"#2ca02c\", fontcolor=\"#2ca02c\", "
                 "style=dashed];") != std::string::npos);
  size_t edges = 0;
  for (size_t p = dot.find("->"); p != std::string::npos; p = dot.find("->", p + 1)) ++edges;
  CHECK(edges == 2);
  CHECK(dot.find("pos=") == std::string::npos);  // no coordinates on a switch

  mt::Topology torus(mt::parse_topology_spec("torus:2x2"));
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 1;
  const std::string grid = mt::to_dot(s, torus);
  CHECK(grid.find("n3 [label=\"3\", pos=\"1.5,-1.5!\"];") != std::string::npos);
}

TEST_CASE("JSON round trip keeps apply_after, omitted when -1", "[schedule_io]") {
  mt::Schedule s = sample();
  s.ops[1].apply_after = 0;
  const Json j = mt::to_json(s);
  CHECK(j["ops"][1]["apply_after"] == 0);
  CHECK_FALSE(j["ops"][0].contains("apply_after"));
  CHECK(mt::schedule_from_json(j).ops[1].apply_after == 0);
  CHECK(mt::schedule_from_json(j).ops[0].apply_after == -1);
}

TEST_CASE("JSON round trip keeps chunk_offsets and release_cycle", "[schedule_io]") {
  mt::Schedule s = sample();
  s.chunk_offsets = {0, 3, 10};
  s.ops[0].release_cycle = 5000000000ULL;  // beyond 32 bits
  const Json j = mt::to_json(s);
  CHECK(j["chunk_offsets"] == Json::array({0, 3, 10}));
  CHECK(j["ops"][0]["release_cycle"] == 5000000000ULL);
  CHECK_FALSE(j["ops"][1].contains("release_cycle"));            // 0 is omitted
  CHECK_FALSE(mt::to_json(sample()).contains("chunk_offsets"));  // empty is omitted
  const mt::Schedule back = mt::schedule_from_json(j);
  CHECK(back.chunk_offsets == s.chunk_offsets);
  CHECK(back.ops[0].release_cycle == 5000000000ULL);
  CHECK(back.ops[1].release_cycle == 0);
  Json bad = j;
  bad["ops"][0]["release_cycle"] = -1;
  CHECK(from_json_error(bad) == "ops[0].release_cycle: -1 is negative");
  bad = j;
  bad["ops"][0]["apply_after"] = "one";
  CHECK(from_json_error(bad) == "ops[0].apply_after: expected integer, got string");
  bad = j;
  bad["chunk_offsets"] = Json::array({0, "x"});
  CHECK(from_json_error(bad) == "chunk_offsets[1]: expected integer, got string");
  // Their form is read's to check: no command can split a buffer by these.
  bad["chunk_offsets"] = Json::array({0, 0, 0});
  CHECK(from_json_error(bad) ==
        "chunk_offsets: ends at 0: its chunks cover no elements, so they "
        "cannot be scaled to a buffer");
  bad["chunk_offsets"] = Json::array({0, 3});
  CHECK(from_json_error(bad) == "chunk_offsets: has 2 values; num_chunks 2 needs 3");
}
