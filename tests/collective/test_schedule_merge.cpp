// Unit tests of chunk boundaries (mt::chunk_bounds) and of merging concurrent all-reduce
// schedules (mt::merge_schedules): exact offsets, renumbering, release times, verification.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/cost_model.h"
#include "model/collective/schedule.h"
#include "model/collective/schedule_merge.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

std::string bounds_error(const mt::Schedule& s, std::uint64_t elements) {
  try {
    (void)mt::chunk_bounds(s, elements);
  } catch (const mt::ScheduleError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("chunk_bounds is the equal split unless chunk_offsets is given", "[merge]") {
  mt::Schedule s;
  s.num_chunks = 4;
  CHECK(mt::chunk_bounds(s, 10) == std::vector<std::uint64_t>{0, 2, 5, 7, 10});
  s.chunk_offsets = {0, 1, 1, 6, 9};  // an empty chunk is allowed, as in the equal split
  CHECK(mt::chunk_bounds(s, 9) == s.chunk_offsets);
  CHECK(bounds_error(s, 10) ==
        "schedule chunk_offsets cover 9 elements but the buffer holds 10 elements");
  s.chunk_offsets = {0, 3, 10};
  CHECK(bounds_error(s, 10) == "schedule chunk_offsets has 3 values; num_chunks 4 needs 5");
  s.chunk_offsets = {1, 2, 3, 4, 5};
  CHECK(bounds_error(s, 5) == "schedule chunk_offsets starts at 1; it must start at 0");
  s.chunk_offsets = {0, 5, 3, 7, 9};
  CHECK(bounds_error(s, 9) == "schedule chunk_offsets decreases at chunk 1 (5 then 3)");
  // Estimates split bytes: the equal byte split, or the offsets' 4-byte elements.
  s.chunk_offsets.clear();
  CHECK(mt::chunk_byte_sizes(s, 10) == std::vector<std::uint64_t>{2, 3, 2, 3});
  s.chunk_offsets = {0, 1, 1, 6, 9};
  CHECK(mt::chunk_byte_sizes(s, 36) == std::vector<std::uint64_t>{4, 0, 20, 12});
  CHECK_THROWS_AS(mt::chunk_byte_sizes(s, 40), mt::ScheduleError);
}

TEST_CASE("verify rejects malformed chunk_offsets", "[merge]") {
  const mt::Topology t = make("ring:4");
  mt::Schedule s = mt::build_schedule("ring", t);
  s.chunk_offsets = {0, 1};
  const mt::VerifyReport report = mt::verify(s, t);
  CHECK_FALSE(report.ok);
  CHECK(report.first_error == "schedule chunk_offsets has 2 values; num_chunks 4 needs 5");
  s.chunk_offsets = {0, 0, 0, 0, 0};  // nothing to scale to a buffer of any size
  CHECK(mt::verify(s, t).first_error ==
        "schedule chunk_offsets ends at 0: its chunks cover no elements, so they cannot be scaled "
        "to a buffer");
}

TEST_CASE("merging two ring schedules concatenates buffers and verifies", "[merge]") {
  const mt::Topology t = make("ring:4");
  const mt::Schedule ring = mt::build_schedule("ring", t);
  REQUIRE(ring.num_chunks == 4);
  const int m = static_cast<int>(ring.ops.size());
  // Buckets of 10 and 8 elements, released at cycles 0 and 700.
  const mt::MergedSchedule merged = mt::merge_schedules({{&ring, 10, 0}, {&ring, 8, 700}});
  const mt::Schedule& s = merged.schedule;
  CHECK(s.algorithm == "ring");
  CHECK(s.topology == "ring:4");
  CHECK(s.num_chunks == 8);
  // floor(c*10/4) = 0 2 5 7 10, then 10 + floor(c*8/4) = 12 14 16 18.
  CHECK(s.chunk_offsets == std::vector<std::uint64_t>{0, 2, 5, 7, 10, 12, 14, 16, 18});
  CHECK(mt::chunk_bounds(s, 18) == s.chunk_offsets);
  CHECK(s.num_flows == 2 * ring.num_flows);
  CHECK(s.num_steps == 2 * ring.num_steps);
  CHECK(merged.op_begin == std::vector<int>{0, m, 2 * m});
  CHECK(merged.chunk_begin == std::vector<int>{0, 4, 8});
  REQUIRE(static_cast<int>(s.ops.size()) == 2 * m);
  for (int i = 0; i < m; ++i) {
    const mt::Op& a = s.ops[static_cast<std::size_t>(i)];
    const mt::Op& b = s.ops[static_cast<std::size_t>(m + i)];
    const mt::Op& o = ring.ops[static_cast<std::size_t>(i)];
    CHECK(a.chunk == o.chunk);
    CHECK(b.chunk == o.chunk + 4);
    CHECK(b.id == m + i);
    CHECK(b.flow == o.flow + ring.num_flows);
    CHECK(b.step == o.step + ring.num_steps);
    std::vector<int> deps = o.deps.to_vector();
    for (int& d : deps) d += m;
    CHECK(b.deps == deps);
    CHECK(a.release_cycle == 0);
    CHECK(b.release_cycle == (o.deps.empty() ? 700u : 0u));
  }
  const mt::VerifyReport report = mt::verify(s, t);
  INFO(report.first_error);
  CHECK(report.ok);
}

TEST_CASE("the cost model charges a merged schedule chunk by chunk, part after part", "[merge]") {
  // Steps of the second part follow the first's, and each chunk costs what its offsets say: two
  // equal 64 KiB parts cost exactly twice one; a 64 KiB + 32 KiB merge costs one of each.
  const mt::Topology t = make("ring:4");
  const mt::Schedule ring = mt::build_schedule("ring", t);
  const double one = mt::estimate_cost(ring, t, 1 << 16).cycles;
  const double half = mt::estimate_cost(ring, t, 1 << 15).cycles;
  const mt::MergedSchedule two = mt::merge_schedules({{&ring, 1 << 14, 0}, {&ring, 1 << 14, 0}});
  CHECK(mt::estimate_cost(two.schedule, t, 2 << 16).cycles == Approx(2 * one));
  const mt::MergedSchedule mixed = mt::merge_schedules({{&ring, 1 << 14, 0}, {&ring, 1 << 13, 0}});
  CHECK(mt::estimate_cost(mixed.schedule, t, (1 << 16) + (1 << 15)).cycles == Approx(one + half));
  CHECK(half < one);
}

TEST_CASE("merging multitree buckets of different sizes verifies", "[merge]") {
  const mt::Topology t = make("torus:4x4");
  const mt::Schedule tree = mt::build_schedule("multitree", t);
  const mt::Schedule ring = mt::build_schedule("ring", t);
  const mt::MergedSchedule merged =
      mt::merge_schedules({{&tree, 1000, 0}, {&ring, 64, 10}, {&tree, 5, 20}});
  CHECK(merged.schedule.algorithm == "merged");
  CHECK(merged.schedule.chunk_offsets.back() == 1069u);
  CHECK(merged.schedule.num_chunks == 2 * tree.num_chunks + ring.num_chunks);
  const mt::VerifyReport report = mt::verify(merged.schedule, t);
  INFO(report.first_error);
  CHECK(report.ok);
}

TEST_CASE("merge rejects parts for different topologies", "[merge]") {
  const mt::Schedule a = mt::build_schedule("ring", make("ring:4"));
  const mt::Schedule b = mt::build_schedule("ring", make("ring:8"));
  std::string error;
  try {
    (void)mt::merge_schedules({{&a, 8, 0}, {&b, 8, 0}});
  } catch (const mt::ScheduleError& e) {
    error = e.what();
  }
  CHECK(error ==
        "merge_schedules: part 1 (ring on ring:8) is for 8 nodes, part 0 for 4 nodes on "
        "ring:4");
  CHECK_THROWS_AS(mt::merge_schedules({}), mt::ScheduleError);
}

TEST_CASE("a message's own release cycle survives the merge when it is later", "[merge]") {
  // Issue 52: concurrent `mtsim train` merged a schedule file's messages with the bucket's
  // release cycle in place of their own (run and serialised train honour it).
  const mt::Topology t = make("ring:4");
  mt::Schedule own = mt::build_schedule("ring", t);
  for (mt::Op& op : own.ops)
    if (op.deps.empty()) op.release_cycle = op.node == 0 ? 900 : 0;
  const mt::MergedSchedule m = mt::merge_schedules({{&own, 8, 0}, {&own, 8, 500}, {&own, 8, 1200}});
  for (std::size_t part = 0; part < 3; ++part) {
    const std::uint64_t bucket = part == 0 ? 0 : part == 1 ? 500 : 1200;
    for (int id = m.op_begin[part]; id < m.op_begin[part + 1]; ++id) {
      const mt::Op& op = m.schedule.ops[static_cast<std::size_t>(id)];
      const std::uint64_t mine = op.deps.empty() && op.node == 0 ? 900 : 0;
      INFO("part " << part << " message " << id);
      CHECK(op.release_cycle == (op.deps.empty() ? std::max(mine, bucket) : 0u));
    }
  }
}
