#pragma once
// The power-of-two test of the algorithms that need one (halving-doubling on N endpoints, Swing
// on every torus dimension) and of auto, which offers them only there.

namespace mt {

/// True when `n` is a positive power of two.
constexpr bool is_power_of_two(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

}  // namespace mt
