// Typed algorithm parameters (one schema per algorithm, validated once, errors naming the key)
// and the build context (the size and cost parameters a builder may use).
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/algorithm_params.h"
#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

const std::vector<mt::ParamSpec> kSchema = {
    {"depth", mt::ParamType::kInt, 2, {}, "3"},
    {"size", mt::ParamType::kSize, 0, {}, ""},
    {"shape", mt::ParamType::kEnum, 0, {"star", "line", "ring"}, "star"},
    {"width", mt::ParamType::kInt, 1, {}, ""},
};

mt::TypedParams parse(const mt::AlgorithmParams& raw) {
  return mt::TypedParams("demo", kSchema, raw);
}

}  // namespace

TEST_CASE("typed parameters: defaults, given values and computed fallbacks", "[params]") {
  const mt::TypedParams none = parse({});
  CHECK(none.integer("depth") == 3);
  CHECK(none.choice("shape") == "star");
  CHECK(none.integer_or("width", 7) == 7);
  CHECK(none.size_or("size", 99) == 99u);
  CHECK_FALSE(none.given("depth"));
  const mt::TypedParams some =
      parse({{"depth", "5"}, {"size", "1.5 KiB"}, {"shape", "ring"}, {"width", "2"}});
  CHECK(some.integer("depth") == 5);
  CHECK(some.size_or("size", 99) == 1536u);
  CHECK(some.choice("shape") == "ring");
  CHECK(some.integer_or("width", 7) == 2);
  CHECK(some.given("depth"));
}

TEST_CASE("typed parameters: each bad value is refused naming the algorithm and the key",
          "[params]") {
  CHECK_THROWS_WITH(parse({{"colour", "red"}}),
                    "demo: unknown parameter 'colour' (known: depth, size, shape, width)");
  CHECK_THROWS_WITH(parse({{"depth", "1"}}), "demo: parameter 'depth' must be >= 2, got 1");
  CHECK_THROWS_WITH(parse({{"depth", "3x"}}),
                    "demo: parameter 'depth' must be an integer, got '3x'");
  CHECK_THROWS_WITH(parse({{"size", "lots"}}),
                    "demo: parameter 'size' must be a size such as 4096 or 16MiB, got 'lots'");
  CHECK_THROWS_WITH(parse({{"shape", "tree"}}),
                    "demo: parameter 'shape' must be 'star', 'line' or 'ring', got 'tree'");
  CHECK_THROWS_WITH(mt::TypedParams("none", {}, {{"x", "1"}}),
                    "none: unknown parameter 'x' (known: none)");
  // The registry's schemas list the keys their errors name.
  std::vector<std::string> names;
  for (const mt::ParamSpec& p : mt::algorithm_schema("tree_packing")) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"pipeline", "trees", "window", "bytes"});
  CHECK(mt::algorithm_schema("ring").empty());
}

TEST_CASE("the build context's size reaches tree_packing and auto like a bytes parameter",
          "[params]") {
  const mt::Topology mesh = make("mesh:4x4");
  mt::BuildContext context;
  context.bytes = 2u << 20;
  const mt::Schedule by_context = mt::build_schedule("tree_packing", mesh, {}, context);
  const mt::Schedule by_param =
      mt::build_schedule("tree_packing", mesh, mt::with_size("tree_packing", {}, 2u << 20));
  CHECK(by_context.num_chunks == by_param.num_chunks);
  CHECK(by_context.ops.size() == by_param.ops.size());
  // Without either, the default size (16 MiB): a deeper pipeline than at 2 MiB.
  CHECK(mt::build_schedule("tree_packing", mesh).num_chunks > by_context.num_chunks);
  // A bytes parameter wins over the context.
  CHECK(mt::build_schedule("tree_packing", mesh, {{"bytes", "16MiB"}}, context).num_chunks ==
        mt::build_schedule("tree_packing", mesh).num_chunks);

  const mt::Topology torus = make("torus:8x8");
  mt::BuildContext small;
  small.bytes = 4096;
  CHECK(mt::build_schedule("auto", torus, {}, small).algorithm ==
        mt::build_schedule("auto", torus, {{"bytes", "4KiB"}}).algorithm);
}

TEST_CASE("a schedule too large for this machine stops while it is built, naming the cause",
          "[params]") {
  // The limit: one message per 2 KiB of physical memory.
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGE_SIZE);
  CHECK(mt::default_message_limit() ==
        static_cast<std::size_t>(pages) / 2048 * static_cast<std::size_t>(page_bytes));
  // Schedule::add refuses the message past the schedule's limit, naming the limit.
  mt::Schedule s;
  s.message_limit = 2;
  s.add(mt::Op{});
  s.add(mt::Op{});
  try {
    s.add(mt::Op{});
    FAIL("no error");
  } catch (const mt::ScheduleTooLarge& e) {
    const std::string text = e.what();
    CHECK(text.rfind("the schedule passes 2 messages, more than this machine can simulate (at "
                     "most 2,",
                     0) == 0);
    CHECK(text.find("fewer chunks (a smaller pipeline) or a smaller network") != std::string::npos);
  }
  CHECK(s.ops.size() == 2);
  // A pipeline whose chunks x nodes pass the limit is refused before anything is allocated for
  // them (16 nodes x 4 rings x 16 positions x 10^6 sub-chunks).
  try {
    mt::build_schedule("disjoint_rings", make("torus:4x4"), {{"pipeline", "1000000"}});
    FAIL("no error");
  } catch (const mt::ScheduleTooLarge& e) {
    const std::string text = e.what();
    CHECK(text.rfind("64000000 chunks on 16 nodes are 1024000000 node-chunk states, more than",
                     0) == 0);
    CHECK(text.find("fewer chunks (a smaller pipeline) or a smaller network") != std::string::npos);
  }
}
