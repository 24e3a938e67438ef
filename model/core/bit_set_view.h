#pragma once
// A set of small non-negative integers as bits in words someone else owns (e.g. one slice of an
// arena per router output), iterated in increasing order.

#include <cstdint>

namespace mt {

/// A view of `word_count` 64-bit words as a set of the integers 0 .. 64 * word_count - 1.
struct BitSetView {
  std::uint64_t* words = nullptr;
  int word_count = 0;

  /// True when `i` is in the set.
  bool contains(int i) const { return ((words[i >> 6] >> (i & 63)) & 1U) != 0; }
  /// Adds `i`.
  void insert(int i) { words[i >> 6] |= std::uint64_t{1} << (i & 63); }
  /// Removes `i`; true when it was there.
  bool erase(int i) {
    if (!contains(i)) return false;
    words[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
    return true;
  }
  /// The integers [first, last) (first < last) as masks of the words they fall in, computed once
  /// to test many sets with any_in().
  struct Range {
    int first_word, last_word;
    std::uint64_t first_mask, last_mask;
    Range(int first, int last)
        : first_word(first >> 6),
          last_word((last - 1) >> 6),
          first_mask(~std::uint64_t{0} << (first & 63)),
          last_mask(~std::uint64_t{0} >> (63 - ((last - 1) & 63))) {}
  };
  /// True when a member lies in `range` (within the set's range).
  bool any_in(const Range& range) const {
    if (range.first_word == range.last_word)
      return (words[range.first_word] & range.first_mask & range.last_mask) != 0;
    if ((words[range.first_word] & range.first_mask) != 0) return true;
    for (int w = range.first_word + 1; w < range.last_word; ++w) {
      if (words[w] != 0) return true;
    }
    return (words[range.last_word] & range.last_mask) != 0;
  }
  /// True when a member lies in [first, last) (first < last, both within the set's range).
  bool any_in(int first, int last) const { return any_in(Range(first, last)); }

  /// Visits the members in increasing order.
  struct Iterator {
    const std::uint64_t* words;
    int word;
    int last;
    std::uint64_t bits;  // members of words[word] not visited yet
    int operator*() const { return word * 64 + __builtin_ctzll(bits); }
    Iterator& operator++() {
      bits &= bits - 1;
      settle();
      return *this;
    }
    bool operator!=(const Iterator& other) const {
      return word != other.word || bits != other.bits;
    }
    /// Moves to the next word with a member (or to the end).
    void settle() {
      while (bits == 0) {
        if (++word >= last) {
          word = last;
          return;
        }
        bits = words[word];
      }
    }
  };
  /// The smallest member.
  Iterator begin() const {
    if (word_count == 0) return end();
    Iterator it{words, 0, word_count, words[0]};
    it.settle();
    return it;
  }
  /// Past the largest member.
  Iterator end() const { return Iterator{words, word_count, word_count, 0}; }
};

}  // namespace mt
