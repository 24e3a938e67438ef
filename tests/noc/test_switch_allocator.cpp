// SwitchAllocator: the rotating output priority of a router (plain C++, no SystemC).
#include <catch2/catch.hpp>

#include <vector>

#include "model/noc/switch_allocator.h"

namespace mt {
namespace {

TEST_CASE("the first round visits the outputs from 0", "[noc][allocator]") {
  const SwitchAllocator a(4);
  CHECK(a.outputs() == 4);
  CHECK(a.order() == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("the next round starts after the output granted first", "[noc][allocator]") {
  SwitchAllocator a(4);
  a.granted(2);
  a.granted(0);  // a later grant in the same round does not move the start
  a.end_round();
  CHECK(a.order() == std::vector<int>{3, 0, 1, 2});
  a.granted(3);
  a.end_round();
  CHECK(a.order() == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("a round without grants keeps the start", "[noc][allocator]") {
  SwitchAllocator a(3);
  a.granted(1);
  a.end_round();
  a.end_round();
  CHECK(a.order() == std::vector<int>{2, 0, 1});
}

TEST_CASE("two outputs competing for one input each round take turns", "[noc][allocator]") {
  // Outputs 1 and 3 of 5 want the same input every round; the one visited first wins it.
  SwitchAllocator a(5);
  std::vector<int> winners;
  for (int round = 0; round < 4; ++round) {
    int winner = -1;
    for (const int out : a.order()) {
      if (out == 1 || out == 3) {
        winner = out;
        break;
      }
    }
    winners.push_back(winner);
    a.granted(winner);
    a.end_round();
  }
  CHECK(winners == std::vector<int>{1, 3, 1, 3});
}

}  // namespace
}  // namespace mt
