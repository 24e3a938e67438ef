// The step barrier alone: steps strictly in order, a new step only once every port is free.
#include <catch2/catch.hpp>

#include "model/nic/step_barrier.h"

namespace mt {
namespace {

TEST_CASE("steps are taken in order, a new one only with every port free", "[nic][barrier]") {
  StepBarrier b(true, {0, 0, 2});  // step 1 has no operation
  const auto free = [] { return true; };
  const auto busy = [] { return false; };
  CHECK(b.current() == 0);
  CHECK_FALSE(b.allows(0, busy));  // a new step: ports must be free
  CHECK(b.allows(0, free));
  CHECK_FALSE(b.allows(2, free));  // not the current step
  b.started(0);
  CHECK(b.allows(0, busy));  // the step under way continues
  b.started(0);
  CHECK(b.current() == 2);  // step 1 skipped: nothing in it
  CHECK_FALSE(b.allows(2, busy));
  CHECK(b.allows(2, free));
}

TEST_CASE("a disabled barrier allows everything", "[nic][barrier]") {
  StepBarrier b(false, {0, 5});
  CHECK(b.allows(5, [] { return false; }));
}

}  // namespace
}  // namespace mt
