// Unit tests of MSCCL XML import and export (model/collective/msccl_xml.h) and the XML reader:
// hand-written ring and tree all-reduces (tests/data/msccl/) import and verify with the
// dependencies their thread blocks imply; malformed files fail with file, line and element;
// every algorithm's export imports back to the same messages and dependencies.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "model/collective/algorithm.h"
#include "model/collective/msccl_xml.h"
#include "model/collective/verify.h"
#include "model/collective/xml_reader.h"
#include "model/topology/topology.h"
#include "tests/support/cli_runner.h"

namespace {

const std::string kData = std::string(MT_SOURCE_DIR) + "/tests/data/msccl/";

mt::Topology ring_topology(int n) {
  return mt::Topology(mt::parse_topology_spec("ring:" + std::to_string(n)));
}

// Id of the one message from `node` to `peer` carrying `chunk` with `kind`.
int find_op(const mt::Schedule& s, int node, int peer, int chunk, mt::OpKind kind) {
  int found = -1;
  for (const auto& op : s.ops)
    if (op.node == node && op.peer == peer && op.chunk == chunk && op.kind == kind) {
      REQUIRE(found == -1);
      found = op.id;
    }
  REQUIRE(found >= 0);
  return found;
}

std::string import_error(const std::string& text) {
  try {
    mt::schedule_from_msccl(text, "x.xml");
  } catch (const mt::ScheduleError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("hand-written MSCCL ring all-reduces on 4 and 8 ranks import and verify", "[msccl]") {
  for (const int n : {4, 8}) {
    const mt::Schedule s = mt::load_msccl_file(kData + "ring" + std::to_string(n) + ".xml");
    CHECK(s.nodes == n);
    CHECK(s.num_chunks == n);
    // 2(N-1) messages per rank; the receiver's step type decides the kind: rrs and rrcs reduce
    // (N-1 per rank), rcs and r overwrite (N-1 per rank).
    REQUIRE(s.ops.size() == static_cast<std::size_t>(n * (2 * n - 2)));
    int reduces = 0;
    for (const auto& op : s.ops) {
      CHECK(op.peer == (op.node + 1) % n);
      if (op.kind == mt::OpKind::kReduce) ++reduces;
    }
    CHECK(reduces == n * (n - 1));
    const mt::VerifyReport report = mt::verify(s, ring_topology(n));
    CHECK(report.ok);
    CHECK(report.first_error.empty());
    // Rank 0's rrs of chunk N-1 forwards what rank N-1 sent at step 0: that is its only wait.
    const int in = find_op(s, n - 1, 0, n - 1, mt::OpKind::kReduce);
    const int out = find_op(s, 0, 1, n - 1, mt::OpKind::kReduce);
    CHECK(s.ops[static_cast<std::size_t>(out)].deps == std::vector<int>{in});
    CHECK(s.ops[static_cast<std::size_t>(find_op(s, 0, 1, 0, mt::OpKind::kReduce))].deps.empty());
  }
}

TEST_CASE("verification errors of an imported MSCCL file say where each named message was written",
          "[msccl]") {
  const std::string file = kData + "ring4.xml";
  mt::Schedule s = mt::load_msccl_file(file);
  REQUIRE(s.op_sources.size() == s.ops.size());
  // Rank 0's forward of chunk 3 no longer waits for what it receives: a race on that chunk.
  const int out = find_op(s, 0, 1, 3, mt::OpKind::kReduce);
  s.ops[static_cast<std::size_t>(out)].deps.clear();
  const mt::VerifyReport report = mt::verify(s, ring_topology(4));
  REQUIRE_FALSE(report.ok);
  const std::string& source = s.op_sources[static_cast<std::size_t>(out)];
  CHECK(source == file + ":8: <step s=\"1\"> of gpu 0 tb 0");  // its rrs of chunk 3
  CHECK_THAT(report.first_error,
             Catch::Contains("message " + std::to_string(out) + " is " + source));
  CHECK_THAT(report.first_error, Catch::EndsWith("]"));

  // Two arrivals in a race ("arrivals of messages A (reduce) and B (broadcast)"): both placed.
  // Rank 0's all-gather send of chunk 0 no longer waits: its broadcast can reach rank 1 before
  // the reduce of that chunk does, with no issue of rank 1 between them.
  mt::Schedule race = mt::load_msccl_file(file);
  race.ops[static_cast<std::size_t>(find_op(race, 0, 1, 0, mt::OpKind::kBroadcast))].deps.clear();
  const mt::VerifyReport pair = mt::verify(race, ring_topology(4));
  std::string both;
  for (const std::string& e : pair.errors)
    if (both.empty() && e.find("arrivals of messages ") != std::string::npos) both = e;
  REQUIRE_FALSE(both.empty());
  // "arrivals of messages A (kind) and B (kind) ...": both ids.
  const std::size_t a_at = both.find("messages ") + 9;
  const std::size_t b_at = both.find(") and ", a_at) + 6;
  for (const std::size_t at : {a_at, b_at}) {
    const auto id = static_cast<std::size_t>(std::stoi(both.substr(at)));
    CHECK_THAT(both,
               Catch::Contains("message " + std::to_string(id) + " is " + race.op_sources[id]));
  }
}

TEST_CASE("hand-written MSCCL tree all-reduces split cnt=2 steps and keep cross-block waits",
          "[msccl]") {
  for (const int n : {4, 8}) {
    const mt::Schedule s = mt::load_msccl_file(kData + "tree" + std::to_string(n) + ".xml");
    CHECK(s.num_chunks == 2);
    // Every tree edge carries both chunks up (reduce) and down (broadcast): 4(N-1) messages.
    REQUIRE(s.ops.size() == static_cast<std::size_t>(4 * (n - 1)));
    CHECK(mt::verify(s, ring_topology(n)).ok);
    // Rank 0 broadcasts to rank 1 after both children's reductions (tb order + depid); a step
    // moves both chunks at once, so each chunk's message waits for both chunks of the step.
    const std::set<int> want_root = {
        find_op(s, 1, 0, 0, mt::OpKind::kReduce), find_op(s, 1, 0, 1, mt::OpKind::kReduce),
        find_op(s, 2, 0, 0, mt::OpKind::kReduce), find_op(s, 2, 0, 1, mt::OpKind::kReduce)};
    for (const int chunk : {0, 1}) {
      const auto& deps =
          s.ops[static_cast<std::size_t>(find_op(s, 0, 1, chunk, mt::OpKind::kBroadcast))].deps;
      CHECK(std::set<int>(deps.begin(), deps.end()) == want_root);
    }
    // A leaf's broadcast arrival is what its parent's send waited for, nothing else.
    const auto& leaf_deps =
        s.ops[static_cast<std::size_t>(find_op(s, 1, 3, 0, mt::OpKind::kBroadcast))].deps;
    CHECK(std::set<int>(leaf_deps.begin(), leaf_deps.end()) ==
          std::set<int>{find_op(s, 0, 1, 0, mt::OpKind::kBroadcast),
                        find_op(s, 0, 1, 1, mt::OpKind::kBroadcast)});
  }
  // On 8 ranks rank 1 waits for both children through a nop (depid 0) and its send (depid 1).
  const mt::Schedule s = mt::load_msccl_file(kData + "tree8.xml");
  const int up = find_op(s, 1, 0, 1, mt::OpKind::kReduce);
  std::set<int> want;
  for (const int child : {3, 4})
    for (const int chunk : {0, 1}) want.insert(find_op(s, child, 1, chunk, mt::OpKind::kReduce));
  const auto& deps = s.ops[static_cast<std::size_t>(up)].deps;
  CHECK(std::set<int>(deps.begin(), deps.end()) == want);
}

TEST_CASE("malformed MSCCL files fail with file, line and element", "[msccl]") {
  auto error_of = [](const std::string& name) {
    try {
      mt::load_msccl_file(kData + name);
    } catch (const mt::ScheduleError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("bad_step_type.xml") ==
        kData +
            "bad_step_type.xml:9: <step s=\"2\"> of gpu 0 tb 0: unknown step type \"rx\" "
            "(expected s, r, rcs, rrs, rrc, rrcs, cpy, re or nop)");
  CHECK(error_of("bad_dangling_dep.xml") ==
        kData +
            "bad_dangling_dep.xml:19: <step s=\"1\"> of gpu 1 tb 0: dangling dependency "
            "depid=\"5\" deps=\"1\": gpu 1 has no thread block 5");
  CHECK(error_of("bad_unreceived_chunk.xml") ==
        kData +
            "bad_unreceived_chunk.xml:6: <gpu id=\"0\">: rank 0 never receives chunk 2: in an "
            "all-reduce every rank receives every chunk (at least its final value)");
  CHECK(error_of("missing.xml") ==
        kData + "missing.xml: cannot open the MSCCL file: No such file or directory");
  // The file and line are fields of the error as well.
  try {
    mt::load_msccl_file(kData + "bad_dangling_dep.xml");
    FAIL("loaded");
  } catch (const mt::ScheduleError& e) {
    CHECK(e.location().file == kData + "bad_dangling_dep.xml");
    CHECK(e.location().line == 19);
  }
  try {
    mt::schedule_from_msccl("<algo>\n<gpu>\n</algo>", "x.xml");
    FAIL("parsed");
  } catch (const mt::ScheduleError& e) {
    CHECK(e.what() == std::string("x.xml:3: </algo> closes <gpu> of line 2"));
    CHECK(e.location().file == "x.xml");
    CHECK(e.location().line == 3);
  }
}

TEST_CASE("MSCCL import refuses what an mtsim schedule cannot hold, naming the line", "[msccl]") {
  const std::string head =
      "<algo name=\"a\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" "
      "coll=\"allreduce\" inplace=\"1\">\n";
  auto two_gpus = [&](const std::string& step0, const std::string& step1) {
    return head +
           "<gpu id=\"0\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"1\">\n"
           "<tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n" +
           step0 +
           "\n</tb>\n</gpu>\n"
           "<gpu id=\"1\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"1\">\n"
           "<tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n" +
           step1 + "\n</tb>\n</gpu>\n</algo>\n";
  };
  CHECK(import_error(two_gpus(
            "<step s=\"0\" type=\"s\" srcoff=\"0\"/>",
            "<step s=\"0\" type=\"r\" dstoff=\"0\"/>\n<step s=\"1\" type=\"r\" dstoff=\"1\"/>")) ==
        "x.xml:3: <tb id=\"0\"> of gpu 0: sends 1 message(s) to gpu 1 on channel 0, whose thread "
        "block 0 (line 8) receives 2");
  CHECK(
      import_error(two_gpus("<step s=\"0\" type=\"s\" srcoff=\"0\" cnt=\"2\"/>",
                            "<step s=\"0\" type=\"rrc\" srcoff=\"1\" dstoff=\"1\"/>")) ==
      "x.xml:9: <step s=\"0\"> of gpu 1 tb 0: receives 1 chunk(s) but the matching send (gpu 0 tb "
      "0 step 0, line 4) carries 2 (chunk 0..1)");
  CHECK(
      import_error(two_gpus("<step s=\"1\" type=\"s\" srcoff=\"0\"/>", "")) ==
      "x.xml:4: <step s=\"1\"> of gpu 0 tb 0: s=\"1\" but it is step 0 of its thread block (steps "
      "are numbered from 0 in order)");
  CHECK(
      import_error(two_gpus("<step s=\"0\" type=\"rrc\" srcoff=\"0\" dstoff=\"0\" hasdep=\"0\"/>\n"
                            "<step s=\"1\" type=\"s\" srcoff=\"0\" depid=\"0\" deps=\"0\"/>",
                            "")) ==
      "x.xml:4: <step s=\"0\"> of gpu 0 tb 0: gpu 0 tb 0 step 1 (line 5) waits for it, but it has "
      "hasdep=\"0\": the MSCCL runtime would never signal it");
  CHECK(import_error(head + "<gpu id=\"0\" bogus=\"1\"/>\n</algo>") ==
        "x.xml:2: <gpu id=\"0\">: unknown attribute 'bogus' (known: i_chunks, id, o_chunks, "
        "s_chunks)");
  CHECK(import_error(head + "<gpu id=\"0\">\n</algo>") ==
        "x.xml:3: </algo> closes <gpu> of line 2");
  CHECK(import_error("<algo coll=\"allgather\" ngpus=\"2\" nchunksperloop=\"2\"/>") ==
        "x.xml:1: <algo>: coll=\"allgather\": only all-reduce algorithms (coll=\"allreduce\") are "
        "schedules here");
}

TEST_CASE("every algorithm on a 4x4 torus exports to MSCCL and imports back unchanged", "[msccl]") {
  const mt::Topology torus(mt::parse_topology_spec("torus:4x4"));
  for (const auto& name : mt::algorithm_names()) {
    INFO(name);
    const mt::Schedule original =
        mt::build_schedule(name, torus, mt::with_size(name, {}, 64 << 10));
    mt::MscclExportStats stats;
    const std::string xml = mt::schedule_to_msccl(original, &stats);
    CHECK(stats.dropped == 0);
    // nchannels is one more than the highest chan a thread block uses (MSCCL needs chan <
    // nchannels, and no channel left unused), at most MAXCHANNELS = 32.
    int highest_chan = -1;
    for (const mt::XmlElement& gpu : mt::parse_xml(xml).children)
      for (const mt::XmlElement& tb : gpu.children)
        highest_chan = std::max(highest_chan, std::stoi(tb.attributes.at("chan")));
    CHECK(stats.channels == highest_chan + 1);
    CHECK(stats.channels <= 32);
    CHECK(xml.find("nchannels=\"" + std::to_string(stats.channels) + "\"") != std::string::npos);
    const mt::Schedule back = mt::schedule_from_msccl(xml, name + ".xml");
    CHECK(back.topology == "torus:4x4");
    CHECK(back.num_chunks == original.num_chunks);
    REQUIRE(back.ops.size() == original.ops.size());
    for (std::size_t i = 0; i < back.ops.size(); ++i) {
      const mt::Op& a = original.ops[i];
      const mt::Op& b = back.ops[i];
      CHECK(std::tie(a.node, a.peer, a.chunk, a.kind, a.step, a.flow) ==
            std::tie(b.node, b.peer, b.chunk, b.kind, b.step, b.flow));
      // Every original dependency is kept; any other is already implied by the data flow.
      for (const int d : a.deps) CHECK(std::find(b.deps.begin(), b.deps.end(), d) != b.deps.end());
    }
    CHECK(mt::verify(back, torus).ok);
  }
}

TEST_CASE("MSCCL export of a ring: channels, thread blocks and the runtime's limits", "[msccl]") {
  // On ring:4 every node sends 6 messages (steps 0..5) to its successor; a send may follow
  // another in one thread block only when the earlier one's wait is implied by its own: the
  // step-0 send waits for nothing (step 1 joins it), then only step 5 implies step 1's wait.
  // Chains {0, 1, 5}, {2}, {3}, {4}: 4 channels, 4 send and 4 receive blocks per GPU.
  mt::MscclExportStats stats;
  mt::schedule_to_msccl(mt::build_schedule("ring", ring_topology(4)), &stats);
  CHECK(stats.channels == 4);
  CHECK(stats.max_tbs_per_gpu == 8);
  CHECK(stats.max_tbs_per_channel == 2);
  CHECK(stats.max_steps_per_tb == 3);
  CHECK(mt::msccl_limit_notes(stats).empty());
  stats.channels = 33;
  stats.max_steps_per_tb = 300;
  CHECK(mt::msccl_limit_notes(stats) ==
        std::vector<std::string>{"33 channels (the MSCCL runtime allows 32)",
                                 "300 steps in one thread block (the MSCCL runtime allows 256)"});
}

TEST_CASE("MSCCL export refuses unequal chunks and receive staging", "[msccl]") {
  mt::Schedule s = mt::build_schedule("ring", ring_topology(4));
  s.chunk_offsets = {0, 1, 2, 3, 10};
  CHECK_THROWS_WITH(mt::schedule_to_msccl(s),
                    "schedule has unequal chunks (chunk_offsets): MSCCL "
                    "XML has equal chunks only");
  CHECK_THROWS_WITH(mt::schedule_to_msccl(
                        mt::build_schedule("swing", ring_topology(4), {{"variant", "latency"}})),
                    "message 0 uses receive staging (apply_after): MSCCL XML has no form for it "
                    "that keeps the receives of its thread block free to proceed");
}

TEST_CASE("the XML reader keeps lines, unescapes values and refuses what it does not support",
          "[msccl]") {
  const mt::XmlElement root = mt::parse_xml(
      "<?xml version=\"1.0\"?>\n<!-- c -->\n<a x='1 &lt; 2'>\n  <b/>\n  <c "
      "y=\"&amp;\"></c>\n</a>\n");
  CHECK(root.name == "a");
  CHECK(root.line == 3);
  CHECK(root.attributes.at("x") == "1 < 2");
  REQUIRE(root.children.size() == 2);
  CHECK(root.children[1].line == 5);
  CHECK(root.children[1].attributes.at("y") == "&");
  CHECK_THROWS_WITH(mt::parse_xml("<a x=1/>"),
                    "1: the value of attribute 'x' of <a> must be quoted");
  CHECK_THROWS_WITH(mt::parse_xml("<a>\ntext</a>"), "2: unexpected text inside <a>");
  CHECK_THROWS_WITH(mt::parse_xml("<a x=\"1\" x=\"2\"/>"), "1: attribute 'x' given twice in <a>");
  CHECK_THROWS_WITH(mt::parse_xml("<a/><b/>"), "1: text or a second root element after </a>");
  CHECK_THROWS_WITH(mt::parse_xml("<a>\n<b>\n</a>"), "3: </a> closes <b> of line 2");
  CHECK_THROWS_WITH(mt::parse_xml("<a y=\"&nbsp;\"/>"), "1: unknown entity \"&nbsp;\"");
  // A UTF-8 byte-order mark is allowed; a file that is not XML says what it starts with.
  CHECK(mt::parse_xml("\xEF\xBB\xBF<a/>").name == "a");
  CHECK_THROWS_WITH(mt::parse_xml("\x01<a/>"),
                    "1: not XML: expected the root element, found byte 0x01");
  CHECK_THROWS_WITH(mt::parse_xml("{\"format\": 1}"),
                    Catch::StartsWith("1: not XML: expected the root element, found '{' (JSON?"));
}

TEST_CASE("MSCCL export names the first structural problem of a malformed schedule", "[msccl]") {
  mt::Schedule s = mt::build_schedule("ring", ring_topology(4));
  REQUIRE(s.ops[5].node == 1);
  REQUIRE(s.ops[1].peer == 2);
  s.ops[5].deps = {1};  // message 1 goes from node 1 to node 2: it never arrives at node 1
  CHECK_THROWS_WITH(
      mt::schedule_to_msccl(s),
      "message 5 at node 1 depends on message 1, which is sent to node 2, not node 1");
  s.ops[2].peer = s.ops[2].node;
  CHECK_THROWS_WITH(mt::schedule_to_msccl(s), "message 2: node 2 sends to itself");
}

TEST_CASE("the MSCCL reader takes regular files of at most 256 MiB, as the JSON reader") {
  // Issue 52: it read any file whole (a device, or a multi-GiB file, took several GB).
  const auto error_of = [](const std::string& path) {
    try {
      (void)mt::load_msccl_file(path);
    } catch (const mt::ScheduleError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("/dev/zero") == "/dev/zero: cannot read the MSCCL file: not a regular file");
  const std::string dir = mt::test::scratch_dir("msccl_limit");
  const std::string big = dir + "/big.xml";
  { std::ofstream(big) << "<algo>"; }
  std::filesystem::resize_file(big, (std::uint64_t{256} << 20) + 1);  // sparse: no disk used
  CHECK(error_of(big) == big + ": cannot read the MSCCL file: larger than 256 MiB");
  CHECK(error_of(dir) == dir + ": cannot read the MSCCL file: Is a directory");
}
