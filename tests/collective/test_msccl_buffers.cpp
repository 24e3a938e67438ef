// Unit tests of scratch buffers, chunks moved to other offsets and local steps: the MSCCL
// programs of tests/data/msccl/ written from published descriptions (allpairs16.xml,
// hierarchical8.xml, relay4.xml, by scripts/msccl_programs.py) import with their buffers and
// verify; the verifier follows data through scratch slots and names the step that breaks the
// result; the importer refuses what the schedule model cannot hold, naming file, line and element.

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/collective/msccl_xml.h"
#include "model/collective/schedule_io.h"
#include "model/collective/verify.h"
#include "model/core/text_file.h"
#include "model/topology/topology.h"

namespace {

const std::string kProgramDir = std::string(MT_SOURCE_DIR) + "/tests/data/msccl/";

mt::Topology topology_of(const std::string& spec) {
  return mt::Topology(mt::parse_topology_spec(spec));
}

std::string buffer_import_error(const std::string& text) {
  try {
    mt::schedule_from_msccl(text, "x.xml");
  } catch (const mt::ScheduleError& e) {
    return e.what();
  }
  return "no error";
}

// Two ranks, one thread block each (send and receive to the other), steps given.
std::string two_rank_program(const std::string& step0, const std::string& step1) {
  return "<algo name=\"a\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allreduce\">\n"
         "<gpu id=\"0\" s_chunks=\"1\">\n<tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n" +
         step0 +
         "\n</tb>\n</gpu>\n<gpu id=\"1\" s_chunks=\"1\">\n"
         "<tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n" +
         step1 + "\n</tb>\n</gpu>\n</algo>\n";
}

}  // namespace

TEST_CASE("the all-pairs program imports with its scratch buffer and local reductions, verified",
          "[msccl]") {
  const mt::Schedule s = mt::load_msccl_file(kProgramDir + "allpairs16.xml");
  CHECK(s.nodes == 16);
  CHECK(s.num_chunks == 256);
  CHECK(s.scratch_chunks == 240);  // 15 senders x 16 chunks
  // 2 x 240 messages of cnt 16 and 16 x 16 x 15 local reductions, one op per chunk.
  CHECK(s.ops.size() == 2 * 240 * 16 + 16 * 16 * 15);
  const auto local =
      std::count_if(s.ops.begin(), s.ops.end(), [](const mt::Op& op) { return op.is_local(); });
  CHECK(local == 16 * 16 * 15);
  for (const mt::Op& op : s.ops) {
    if (!op.is_local()) continue;
    CHECK(op.kind == mt::OpKind::kReduce);
    CHECK(op.src_buf == mt::Buffer::kScratch);
    CHECK(op.dst_buf == mt::Buffer::kData);
    CHECK(op.dst_slot() / 16 == op.node);  // the owner's own chunks
    // It waits for the receive step (cnt 16) that filled its scratch slot, all 16 chunks, and
    // for the reduction before it in its thread block (a local step is done when it has run).
    int fills = 0;
    int locals = 0;
    for (const int d : op.deps) {
      const mt::Op& dep = s.ops[static_cast<std::size_t>(d)];
      locals += dep.is_local() ? 1 : 0;
      fills += !dep.is_local() && dep.dst_slot() == op.chunk ? 1 : 0;
    }
    CHECK(op.deps.size() == 16 + static_cast<std::size_t>(locals));
    CHECK(locals <= 1);
    CHECK(fills == 1);
  }
  CHECK(s.has_local_steps());
  const mt::VerifyReport report = mt::verify(s, topology_of("switch:16"));
  INFO(report.first_error);
  CHECK(report.ok);
}

TEST_CASE("the relayed program stages chunks in scratch slots and verifies", "[msccl]") {
  const mt::Schedule s = mt::load_msccl_file(kProgramDir + "relay4.xml");
  CHECK(s.nodes == 4);
  CHECK(s.scratch_chunks == 2);
  CHECK(s.ops.size() == 4 * 8);  // per rank: 2 sends to the left, 6 to the right
  CHECK_FALSE(s.has_local_steps());
  const auto count = [&](auto pred) { return std::count_if(s.ops.begin(), s.ops.end(), pred); };
  CHECK(count([](const mt::Op& op) { return op.dst_buf == mt::Buffer::kScratch; }) == 8);
  CHECK(count([](const mt::Op& op) { return op.src_buf == mt::Buffer::kScratch; }) == 8);
  const mt::VerifyReport report = mt::verify(s, topology_of("ring:4"));
  INFO(report.first_error);
  CHECK(report.ok);
  // The JSON form keeps the buffers.
  const mt::Schedule back = mt::schedule_from_json(mt::to_json(s));
  REQUIRE(back.ops.size() == s.ops.size());
  CHECK(back.scratch_chunks == 2);
  for (std::size_t i = 0; i < s.ops.size(); ++i) {
    CHECK(back.ops[i].src_buf == s.ops[i].src_buf);
    CHECK(back.ops[i].dst_buf == s.ops[i].dst_buf);
    CHECK(back.ops[i].dst_slot() == s.ops[i].dst_slot());
  }

  // A forward from a scratch slot that no longer waits for the slot's receive: the verifier
  // names the race on that slot and where both steps were written.
  mt::Schedule race = s;
  const auto forward = std::find_if(race.ops.begin(), race.ops.end(), [](const mt::Op& op) {
    return op.node == 0 && op.src_buf == mt::Buffer::kScratch && op.chunk == 0;
  });
  REQUIRE(forward != race.ops.end());
  forward->deps.clear();
  const mt::VerifyReport broken = mt::verify(race, topology_of("ring:4"));
  REQUIRE_FALSE(broken.ok);
  CHECK_THAT(broken.first_error, Catch::StartsWith("node 0 scratch slot 0: arrival of message "));
  CHECK_THAT(broken.first_error,
             Catch::Contains("message " + std::to_string(forward->id) + " is " +
                             race.op_sources[static_cast<std::size_t>(forward->id)]));
}

TEST_CASE("an instanced program (msccl-tools' instances) imports as its channels", "[msccl]") {
  // relay4x2.xml: relay4.xml replicated on channels 0 and 1, chunk and scratch slot o of
  // instance i at o * 2 + i. Each instance moves its own chunks: twice the messages, the same
  // steps, and each message keeps its instance's parity of chunk and of scratch slot.
  const mt::Schedule one = mt::load_msccl_file(kProgramDir + "relay4.xml");
  const mt::Schedule two = mt::load_msccl_file(kProgramDir + "relay4x2.xml");
  CHECK(two.num_chunks == 2 * one.num_chunks);
  CHECK(two.scratch_chunks == 2 * one.scratch_chunks);
  CHECK(two.ops.size() == 2 * one.ops.size());
  CHECK(two.num_steps == one.num_steps);
  for (const mt::Op& op : two.ops) {
    INFO(op.id);
    CHECK(op.chunk % 2 == op.flow);  // flow = the sender's channel = the instance
    CHECK(op.dst_slot() % 2 == op.flow);
  }
  const mt::VerifyReport report = mt::verify(two, topology_of("ring:4"));
  INFO(report.first_error);
  CHECK(report.ok);
}

TEST_CASE("the two-level program exchanges through scratch, its sum waiting for its own send",
          "[msccl]") {
  const mt::Schedule s = mt::load_msccl_file(kProgramDir + "hierarchical8.xml");
  CHECK(s.nodes == 8);
  CHECK(s.num_chunks == 4);
  CHECK(s.scratch_chunks == 4);  // 3 local senders and the other node's copy
  // Per rank 3 + 3 intra-node sends and one cross-node send; 3 + 1 local reductions per rank.
  CHECK(s.ops.size() == 8 * 7 + 8 * 4);
  // The cross-node sum writes chunk g, which the rank's own cross-node send reads, and nothing
  // in the data flow orders the two (the peer's copy does not wait for ours): the sum is staged
  // behind that send (Op::apply_after); no other op needs it.
  int staged = 0;
  for (const mt::Op& op : s.ops) {
    if (op.apply_after < 0) continue;
    ++staged;
    const mt::Op& own = s.ops[static_cast<std::size_t>(op.apply_after)];
    CHECK(op.is_local());
    CHECK(own.node == op.node);
    CHECK(own.peer == (op.node + 4) % 8);  // the other node's rank of this local index
    CHECK(own.src_buf == mt::Buffer::kData);
    CHECK(own.chunk == op.dst_slot());
    CHECK(op.dst_slot() == op.node % 4);
  }
  CHECK(staged == 8);
  const mt::VerifyReport report = mt::verify(s, topology_of("switch:8"));
  INFO(report.first_error);
  CHECK(report.ok);
  // Without the staging, the sum may land before the send has read the chunk: a race.
  mt::Schedule race = s;
  for (mt::Op& op : race.ops) op.apply_after = -1;
  const mt::VerifyReport broken = mt::verify(race, topology_of("switch:8"));
  REQUIRE_FALSE(broken.ok);
  CHECK_THAT(broken.first_error,
             Catch::Contains("are unordered: the value sent depends on timing"));
}

TEST_CASE("a write the data flow already orders after a read is not staged", "[msccl]") {
  // Each ring rank sends chunk c and later receives its final value in the same thread block;
  // the final value cannot arrive before the send was issued (it carries the send's data).
  for (const std::string file :
       {"ring4.xml", "ring8.xml", "relay4.xml", "relay4x2.xml", "allpairs16.xml"}) {
    INFO(file);
    const mt::Schedule s = mt::load_msccl_file(kProgramDir + file);
    CHECK(std::none_of(s.ops.begin(), s.ops.end(),
                       [](const mt::Op& op) { return op.apply_after >= 0; }));
  }
}

TEST_CASE("the verifier follows data through scratch slots and other offsets", "[verify]") {
  // Node 0 sends scratch slot 0, which nothing wrote; node 1 moves its chunk 0 into node 0's
  // chunk 1.
  mt::Schedule s;
  s.nodes = 2;
  s.num_chunks = 2;
  s.scratch_chunks = 1;
  mt::Op read;
  read.node = 0;
  read.peer = 1;
  read.src_buf = mt::Buffer::kScratch;
  read.dst_buf = mt::Buffer::kScratch;
  s.add(read);
  mt::Op moved;
  moved.node = 1;
  moved.peer = 0;
  moved.dst_chunk = 1;
  s.add(moved);
  const mt::VerifyReport report = mt::verify(s, topology_of("ring:2"));
  REQUIRE_FALSE(report.ok);
  const auto has = [&](const std::string& text) {
    return std::find(report.errors.begin(), report.errors.end(), text) != report.errors.end();
  };
  CHECK(has("message 0: node 0 reads scratch slot 0 before anything is written there"));
  // Chunk 0 of node 1 lands in chunk 1 of node 0, which already holds node 0's chunk 1: counted
  // as contributions by node, the result is wrong for chunk 0 of node 0 (never received).
  CHECK(has("node 0 never receives chunk 0"));
  CHECK(has("node 1 never receives chunk 1"));
  // A slot past the scratch buffer is a structural error.
  mt::Schedule past = s;
  past.ops[0].chunk = 3;
  CHECK(mt::verify(past, topology_of("ring:2")).first_error ==
        "message 0: scratch slot 3 is out of range 0..0");
}

TEST_CASE("the verifier knows which chunk a slot holds: a sum moved to another offset fails",
          "[verify]") {
  // Both nodes end with every contribution in both slots, but node 1's chunk 1 is overwritten
  // with chunk 0's sum (message 3 moves chunk 0 to offset 1): counted by contributions alone it
  // passed.
  mt::Schedule s;
  s.nodes = 2;
  s.num_chunks = 2;
  const auto op = [&](int node, int peer, int chunk, mt::OpKind kind, std::vector<int> deps) {
    mt::Op o;
    o.node = node;
    o.peer = peer;
    o.chunk = chunk;
    o.kind = kind;
    o.deps = std::move(deps);
    return o;
  };
  const int m0 = s.add(op(0, 1, 0, mt::OpKind::kReduce, {}));
  const int m1 = s.add(op(1, 0, 1, mt::OpKind::kReduce, {}));
  const int m2 = s.add(op(1, 0, 0, mt::OpKind::kBroadcast, {m0}));
  mt::Op moved = op(0, 1, 0, mt::OpKind::kBroadcast, {m1, m2});
  moved.dst_chunk = 1;
  s.add(moved);
  const mt::VerifyReport report = mt::verify(s, topology_of("ring:2"));
  REQUIRE_FALSE(report.ok);
  CHECK(std::find(report.errors.begin(), report.errors.end(),
                  "node 1 chunk 1 ends holding chunk 0's data") != report.errors.end());
  // Summing it there instead names the message.
  s.ops[3].kind = mt::OpKind::kReduce;
  const mt::VerifyReport sum = mt::verify(s, topology_of("ring:2"));
  CHECK(std::find(sum.errors.begin(), sum.errors.end(),
                  "message 3: node 1 adds chunk 0's data into chunk 1, which holds chunk 1's") !=
        sum.errors.end());
}

TEST_CASE("MSCCL import refuses buffer references it cannot hold, naming the line", "[msccl]") {
  CHECK(
      buffer_import_error(two_rank_program("<step s=\"0\" type=\"rrc\" srcoff=\"0\" dstoff=\"1\"/>",
                                           "<step s=\"0\" type=\"s\" srcoff=\"0\"/>")) ==
      "x.xml:4: <step s=\"0\"> of gpu 0 tb 0: adds the received chunks to chunk 0 and writes "
      "the sum to chunk 1: an mtsim receive reduces in place (srcbuf/srcoff equal to "
      "dstbuf/dstoff); write a cpy step first");
  CHECK(buffer_import_error(
            two_rank_program("<step s=\"0\" type=\"re\" srcoff=\"1\" dstoff=\"1\"/>", "")) ==
        "x.xml:4: <step s=\"0\"> of gpu 0 tb 0: reduces chunk 1 into itself");
  CHECK(buffer_import_error(two_rank_program("<step s=\"0\" type=\"cpy\" srcoff=\"1\"/>", "")) ==
        "x.xml:4: <step s=\"0\"> of gpu 0 tb 0: a local copy needs srcoff and dstoff");
  CHECK(buffer_import_error(
            two_rank_program("<step s=\"0\" type=\"r\" dstbuf=\"s\" dstoff=\"1\"/>", "")) ==
        "x.xml:4: <step s=\"0\"> of gpu 0 tb 0: scratch slots 1..1 run past s_chunks=\"1\"");
  CHECK(buffer_import_error(two_rank_program(
            "<step s=\"0\" type=\"r\" dstbuf=\"s\" dstoff=\"0\" cnt=\"2\"/>", "")) ==
        "x.xml:4: <step s=\"0\"> of gpu 0 tb 0: scratch slots 0..1 run past s_chunks=\"1\"");
  CHECK(buffer_import_error(
            two_rank_program("<step s=\"0\" type=\"s\" srcbuf=\"x\" srcoff=\"0\"/>", "")) ==
        "x.xml:4: <step s=\"0\"> of gpu 0 tb 0: srcbuf=\"x\": expected i, o or s");
}

TEST_CASE("MSCCL files without coll and ngpus (older ones) import as all-reduces", "[msccl]") {
  std::string text = mt::read_text_file(kProgramDir + "ring4.xml", "MSCCL file", 1 << 20);
  for (const std::string attr : {" ngpus=\"4\"", " coll=\"allreduce\""}) {
    const std::size_t at = text.find(attr);
    REQUIRE(at != std::string::npos);
    text.erase(at, attr.size());
  }
  const mt::Schedule s = mt::schedule_from_msccl(text, "old.xml");
  CHECK(s.nodes == 4);
  CHECK(s.ops.size() == mt::load_msccl_file(kProgramDir + "ring4.xml").ops.size());
  CHECK(mt::verify(s, topology_of("ring:4")).ok);
}

TEST_CASE("programs with buffers and local steps export to MSCCL and import back unchanged",
          "[msccl]") {
  for (const auto& [file, spec] : {std::pair<std::string, std::string>{"local2.xml", "switch:2"},
                                   {"relay4.xml", "ring:4"},
                                   {"relay4x2.xml", "ring:4"},
                                   {"hierarchical8.xml", "switch:8"},
                                   {"allpairs16.xml", "switch:16"}}) {
    INFO(file);
    const mt::Schedule original = mt::load_msccl_file(kProgramDir + file);
    mt::MscclExportStats stats;
    const std::string xml = mt::schedule_to_msccl(original, &stats);
    // Within the MSCCL executor's limits (steps fused back to cnt > 1, local blocks spread
    // over channels).
    CHECK(mt::msccl_limit_notes(stats).empty());
    if (file == "allpairs16.xml") {
      // 15 send, 15 receive and 16 local blocks per GPU: 32 on channel 0, 14 on channel 1.
      CHECK(stats.max_tbs_per_gpu == 46);
      CHECK(stats.channels == 2);
      CHECK(stats.max_tbs_per_channel == 32);
    }
    const mt::Schedule back = mt::schedule_from_msccl(xml, "back.xml");
    CHECK(back.scratch_chunks == original.scratch_chunks);
    REQUIRE(back.ops.size() == original.ops.size());
    for (std::size_t i = 0; i < back.ops.size(); ++i) {
      const mt::Op& a = original.ops[i];
      const mt::Op& b = back.ops[i];
      CHECK(std::tie(a.node, a.peer, a.chunk, a.src_buf, a.dst_buf, a.kind, a.step, a.flow) ==
            std::tie(b.node, b.peer, b.chunk, b.src_buf, b.dst_buf, b.kind, b.step, b.flow));
      CHECK(a.dst_slot() == b.dst_slot());
      CHECK(a.apply_after == b.apply_after);  // a local step's wait for its own send
      // Every original dependency is kept; any other is already implied by the data flow.
      for (const int d : a.deps) CHECK(std::find(b.deps.begin(), b.deps.end(), d) != b.deps.end());
    }
    CHECK(mt::verify(back, topology_of(spec)).ok);
  }
}
