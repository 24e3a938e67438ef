#pragma once
// A set of the integers 0 .. n-1 kept as bits, with one summary bit per word of them, so that
// its smallest member (or the next one at or after a position) is found in two word reads
// whatever the set holds. Made for the host's posted messages (model/sched/host_scheduler.h): a
// binary heap of a few hundred program indices read about log2(size) cache lines at each
// removal, one node's heap after another's at 4096 nodes.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mt {

class MinBitSet {
 public:
  MinBitSet() = default;
  /// An empty set of the integers 0 .. n-1: n / 8 bytes and n / 4096 words of summary.
  explicit MinBitSet(std::size_t n) : words_((n + 63) / 64), summary_words_((words_ + 63) / 64) {
    bits_.assign(summary_words_ + words_, 0);  // the summary first, then the members' words
  }

  /// Adds `i` (0 <= i < n).
  void insert(int i) {
    const auto w = static_cast<std::size_t>(i) >> 6;
    member_word(w) |= std::uint64_t{1} << (i & 63);
    bits_[w >> 6] |= std::uint64_t{1} << (w & 63);
  }
  /// Removes `i` (0 <= i < n; nothing happens when it is not a member).
  void erase(int i) {
    const auto w = static_cast<std::size_t>(i) >> 6;
    std::uint64_t& word = member_word(w);
    word &= ~(std::uint64_t{1} << (i & 63));
    if (word == 0) bits_[w >> 6] &= ~(std::uint64_t{1} << (w & 63));
  }
  /// The smallest member at or after `from` (>= 0), -1 when there is none.
  int next(int from) const {
    auto w = static_cast<std::size_t>(from) >> 6;
    if (w >= words_) return -1;
    const std::uint64_t here = member_word(w) & (~std::uint64_t{0} << (from & 63));
    if (here != 0) return static_cast<int>(w * 64) + __builtin_ctzll(here);
    // The first later word with a member, from the summary.
    ++w;
    if (w >= words_) return -1;
    std::size_t s = w >> 6;
    std::uint64_t mark = bits_[s] & (~std::uint64_t{0} << (w & 63));
    while (mark == 0) {
      if (++s >= summary_words_) return -1;
      mark = bits_[s];
    }
    w = s * 64 + static_cast<std::size_t>(__builtin_ctzll(mark));
    return static_cast<int>(w * 64) + __builtin_ctzll(member_word(w));
  }

 private:
  std::uint64_t& member_word(std::size_t w) { return bits_[summary_words_ + w]; }
  const std::uint64_t& member_word(std::size_t w) const { return bits_[summary_words_ + w]; }

  std::size_t words_ = 0;          // words of members
  std::size_t summary_words_ = 0;  // words of summary: bit w set when member word w is not 0
  std::vector<std::uint64_t> bits_;
};

}  // namespace mt
