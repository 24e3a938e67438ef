#pragma once
// Switch allocation policy of a router, apart from the SystemC kernel: the rotating priority over
// outputs that decides which output arbitrates first when several compete for the same input
// (an input sends one packet at a time). Each round visits every output once, starting just
// after the output granted first in the previous round that granted anything, so two outputs
// that free up in the same cycle and want the same input take turns instead of the lower index
// always winning. Ejection ports are outputs like any other: visiting them in this rotating order
// gives a packet the first free ejection port after a rotating start.

#include <vector>

namespace mt {

/// Rotating output priority of one router (plain C++, no SystemC).
class SwitchAllocator {
 public:
  /// An allocator over `outputs` outputs (>= 0); the first round starts at output 0.
  explicit SwitchAllocator(int outputs);

  /// Number of outputs.
  int outputs() const { return outputs_; }
  /// Output visited k-th (k in 0..outputs()-1) in the current round.
  int output_at(int k) const { return (start_ + k) % outputs_; }
  /// The outputs in the order the current round visits them.
  std::vector<int> order() const;
  /// Output `out` was granted a packet in the current round (the first grant counts).
  void granted(int out);
  /// Ends the round: the next round starts just after the output granted first in this one
  /// (unchanged when nothing was granted).
  void end_round();

 private:
  int outputs_;
  int start_ = 0;
  int first_granted_ = -1;
};

}  // namespace mt
