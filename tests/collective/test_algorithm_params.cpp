// Typed algorithm parameters (one struct per algorithm, read from text in one place, errors
// naming the key, defaults and their --help text from the struct) and the build context (the
// size and cost parameters a builder may use).
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/algorithm_config.h"
#include "model/collective/algorithm_params.h"
#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

TEST_CASE("typed parameters: given values are read, absent ones keep the struct's defaults",
          "[params]") {
  const mt::AlgorithmConfig none = mt::algorithm_config("dbtree");
  REQUIRE(std::holds_alternative<mt::DbtreeParams>(none));
  CHECK(std::get<mt::DbtreeParams>(none).pipeline == 8);
  CHECK(std::get<mt::DbtreeParams>(none).steps == mt::DbtreeSteps::kHeight);
  const mt::AlgorithmConfig some =
      mt::algorithm_config("dbtree", {{"pipeline", "3"}, {"steps", "colored"}});
  const auto& dbtree = std::get<mt::DbtreeParams>(some);
  CHECK(dbtree.pipeline == 3);
  CHECK(dbtree.steps == mt::DbtreeSteps::kColored);  // an enum chosen by its name
  CHECK(dbtree.phases == mt::DbtreePhases::kOverlapped);
  // Values the builder computes stay empty unless given; sizes are read as bytes.
  const auto packing = std::get<mt::TreePackingParams>(
      mt::algorithm_config("tree_packing", {{"window", "12"}, {"bytes", "1.5 KiB"}}));
  CHECK_FALSE(packing.pipeline.has_value());
  CHECK(packing.window == std::optional<int>(12));
  CHECK(packing.bytes == std::optional<std::uint64_t>(1536));
  CHECK(packing.trees == 32);
  const auto swing = std::get<mt::SwingParams>(mt::algorithm_config("swing"));
  CHECK_FALSE(swing.collectives.has_value());
  // Algorithms without parameters have a struct too, and the name comes back from it.
  CHECK(mt::algorithm_names().size() == std::variant_size_v<mt::AlgorithmConfig>);
  for (const std::string& name : mt::algorithm_names())
    CHECK(mt::algorithm_name(mt::algorithm_config(name)) == name);
  CHECK(
      std::holds_alternative<mt::HalvingDoublingParams>(mt::algorithm_config("halving_doubling")));
  // Text written back from a config reads back to it (auto names its candidates so).
  CHECK(mt::parameter_texts(some) ==
        mt::AlgorithmParams{{"phases", "overlapped"}, {"pipeline", "3"}, {"steps", "colored"}});
  CHECK(mt::parameter_texts(mt::algorithm_config("tree_packing", {{"bytes", "65536"}})) ==
        mt::AlgorithmParams{{"bytes", "64KiB"}, {"trees", "32"}});
}

TEST_CASE("typed parameters: each bad value is refused naming the algorithm and the key",
          "[params]") {
  CHECK_THROWS_WITH(
      mt::algorithm_config("tree_packing", {{"colour", "red"}}),
      "tree_packing: unknown parameter 'colour' (known: pipeline, trees, window, bytes)");
  CHECK_THROWS_WITH(mt::algorithm_config("disjoint_rings", {{"rings", "0"}}),
                    "disjoint_rings: parameter 'rings' must be >= 1, got 0");
  CHECK_THROWS_WITH(mt::algorithm_config("dbtree", {{"pipeline", "3x"}}),
                    "dbtree: parameter 'pipeline' must be an integer, got '3x'");
  CHECK_THROWS_WITH(
      mt::algorithm_config("tree_packing", {{"bytes", "lots"}}),
      "tree_packing: parameter 'bytes' must be a size such as 4096 or 16MiB, got 'lots'");
  CHECK_THROWS_WITH(mt::algorithm_config("dbtree", {{"phases", "both"}}),
                    "dbtree: parameter 'phases' must be 'overlapped' or 'separate', got 'both'");
  CHECK_THROWS_WITH(mt::algorithm_config("ring", {{"x", "1"}}),
                    "ring: unknown parameter 'x' (known: none)");
  // Unknown keys first, then the values in declaration order.
  CHECK_THROWS_WITH(mt::algorithm_config("dbtree", {{"pipeline", "0"}, {"pipe", "1"}}),
                    "dbtree: unknown parameter 'pipe' (known: pipeline, steps, phases)");
  CHECK_THROWS_WITH(mt::algorithm_config("dbtree", {{"phases", "x"}, {"pipeline", "0"}}),
                    "dbtree: parameter 'pipeline' must be >= 1, got 0");
  CHECK_THROWS_WITH(mt::algorithm_config("rings"),
                    Catch::StartsWith("unknown algorithm 'rings' (known: ring, ring_bi,"));
  // The registry's schemas list the keys their errors name.
  std::vector<std::string> names;
  for (const mt::ParamSpec& p : mt::algorithm_schema("tree_packing")) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"pipeline", "trees", "window", "bytes"});
  CHECK(mt::algorithm_schema("ring").empty());
}

TEST_CASE("defaults are written once, in the structs: the schema and --help derive their text",
          "[params]") {
  const std::vector<mt::ParamSpec>& dbtree = mt::algorithm_schema("dbtree");
  REQUIRE(dbtree.size() == 3);
  CHECK(dbtree[0].fallback == std::to_string(mt::DbtreeParams{}.pipeline));
  CHECK(dbtree[0].fallback == "8");
  CHECK(dbtree[1].fallback == "height");
  CHECK(dbtree[1].choices == std::vector<std::string>{"height", "colored"});
  CHECK(mt::algorithm_schema("tree_packing")[0].fallback.empty());  // computed by the builder
  CHECK(mt::algorithm_schema("tree_packing")[1].fallback == "32");
  CHECK_THAT(mt::algorithm_help("dbtree"),
             Catch::Contains("; pipeline=<chunks per tree> (default 8), steps=height|colored "
                             "(default height; colored: ") &&
                 Catch::Contains("phases=overlapped|separate (default overlapped; separate: "));
  CHECK_THAT(mt::algorithm_help("disjoint_rings"),
             Catch::EndsWith("; pipeline=<sub-chunks per ring position> (default 2), "
                             "rings=<max rings> (default 64)"));
  CHECK_THAT(mt::algorithm_help("swing"),
             Catch::EndsWith("collectives=<count> (default: min(ports, 2 x dimensions))"));
  CHECK_THAT(mt::algorithm_help("auto"), Catch::Contains("else 16MiB)"));
  CHECK_THAT(mt::algorithm_help("ring"), Catch::EndsWith("2(N-1) steps; no parameters"));
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
  // The limit: one message per 2 KiB of physical memory for the packet-level model, one per
  // 512 B for the message-granularity model.
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGE_SIZE);
  const auto memory = static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_bytes);
  CHECK(mt::default_message_limit() == memory / 2048);
  mt::set_message_budget(mt::kMessageModelBudget);
  CHECK(mt::default_message_limit() == memory / 512);
  mt::set_message_budget(mt::kScheduleSummaryBudget);
  CHECK(mt::default_message_limit() == memory / 512);
  mt::set_message_budget(mt::kPacketModelBudget);
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
    CHECK(text.find(", one per 2048 B of its ") != std::string::npos);
    CHECK(text.find(" GiB of memory; a message costs about 0.7 KiB in all on the packet-level "
                    "model): fewer chunks (a smaller pipeline) or a smaller network") !=
          std::string::npos);
  }
  CHECK(s.ops.size() == 2);
  // Dependencies have a limit of their own (memory / 32 B), counted over all the ops added.
  CHECK(mt::Schedule().dependency_limit == memory / mt::kDependencyBudgetBytes);
  mt::Schedule waits;
  waits.dependency_limit = 3;
  mt::Op two;
  two.node = 5;
  two.deps = {0, 1};
  waits.add(two);
  CHECK(waits.dependencies == 2);
  try {
    waits.add(two);
    FAIL("no error");
  } catch (const mt::ScheduleTooLarge& e) {
    const std::string text = e.what();
    CHECK(text.rfind("the schedule's messages wait for more than 3 dependencies in all (message 1 "
                     "from node 5 waits for 2), more than this machine can simulate (at most one "
                     "per 32 B of its ",
                     0) == 0);
    CHECK(text.find("an algorithm whose messages wait for fewer others") != std::string::npos);
  }
  CHECK(waits.ops.size() == 1);
  mt::Op one;
  one.deps = {0};
  waits.add(one);  // exactly at the limit
  CHECK(waits.dependencies == 3);
  // Under the message model's budget the refusal names that budget.
  mt::set_message_budget(mt::kMessageModelBudget);
  try {
    s.add(mt::Op{});
    FAIL("no error");
  } catch (const mt::ScheduleTooLarge& e) {
    CHECK(std::string(e.what()).find(", one per 512 B of its ") != std::string::npos);
    CHECK(std::string(e.what()).find("240 B in all on the message-granularity model") !=
          std::string::npos);
  }
  // A schedule only built and checked (mtsim schedule's text) says so.
  mt::set_message_budget(mt::kScheduleSummaryBudget);
  try {
    s.add(mt::Op{});
    FAIL("no error");
  } catch (const mt::ScheduleTooLarge& e) {
    CHECK(std::string(e.what()).rfind("the schedule passes 2 messages, more than this machine can "
                                      "build and check (at most 2, one per 512 B of its ",
                                      0) == 0);
  }
  mt::set_message_budget(mt::kPacketModelBudget);
  // Messages held by other schedules leave the next one room for the rest only, and its refusal
  // says how many are held.
  mt::set_messages_held(memory / 2048 - 1);
  mt::Schedule last;
  CHECK(last.message_limit == 1);
  last.add(mt::Op{});
  try {
    last.add(mt::Op{});
    FAIL("no error");
  } catch (const mt::ScheduleTooLarge& e) {
    CHECK(std::string(e.what()).find("(at most 1, one per 2048 B of its ") != std::string::npos);
    CHECK(std::string(e.what()).find("; " + std::to_string(memory / 2048 - 1) +
                                     " are held by the scenario's other schedules)") !=
          std::string::npos);
  }
  mt::set_messages_held(memory / 2048 + 5);
  CHECK(mt::default_message_limit() == 0);
  mt::set_messages_held(0);
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
