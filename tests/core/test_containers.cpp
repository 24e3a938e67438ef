// The small containers of model/core that the router and NIC keep their hot state in.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "model/core/bit_set_view.h"
#include "model/core/flat_lists.h"
#include "model/core/min_bit_set.h"
#include "model/core/ring_queue.h"
#include "model/core/small_int_list.h"

namespace {

TEST_CASE("a min bit set finds its next member as an ordered set does, across summary words") {
  // 9,000 places: members in three summary words (4,096 places each) and a last word that is
  // not full; random inserts and erases, dense in some stretches and empty in others.
  constexpr int kPlaces = 9000;
  mt::MinBitSet set(kPlaces);
  std::set<int> reference;
  std::mt19937 random(7);
  const auto check_next = [&](int from) {
    const auto it = reference.lower_bound(from);
    REQUIRE(set.next(from) == (it == reference.end() ? -1 : *it));
  };
  check_next(0);
  for (int round = 0; round < 20000; ++round) {
    const int stretch = static_cast<int>(random() % 3);  // 0: anywhere, 1: the start, 2: the end
    const int place = stretch == 0   ? static_cast<int>(random() % kPlaces)
                      : stretch == 1 ? static_cast<int>(random() % 200)
                                     : kPlaces - 1 - static_cast<int>(random() % 200);
    if (random() % 2 == 0) {
      set.insert(place);
      reference.insert(place);
    } else {
      set.erase(place);
      reference.erase(place);
    }
    check_next(0);
    check_next(place);
    check_next(static_cast<int>(random() % kPlaces));
  }
  CHECK(reference.size() > 100);  // the sets were not empty throughout
  for (const int member : std::vector<int>(reference.begin(), reference.end())) set.erase(member);
  CHECK(set.next(0) == -1);
  CHECK(set.next(kPlaces - 1) == -1);
}

TEST_CASE("a ring queue keeps first-in first-out order when it grows with its front wrapped") {
  mt::RingQueue<int> queue(4);
  for (int i = 0; i < 3; ++i) queue.push_back(i);
  queue.pop_front();
  queue.pop_front();  // front at slot 2: the next pushes wrap around the 4 slots
  for (int i = 3; i < 10; ++i) queue.push_back(i);  // grows at 4 elements, then at 8
  REQUIRE(queue.size() == 8);
  CHECK(queue[0] == 2);
  CHECK(queue[7] == 9);
  std::vector<int> order;
  while (!queue.empty()) {
    order.push_back(queue.front());
    queue.pop_front();
  }
  CHECK(order == std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9});
  queue.push_back(42);  // still usable after draining
  CHECK(queue.front() == 42);
  CHECK(queue.size() == 1);
}

TEST_CASE("a ring queue copy holds the same elements in the same order") {
  mt::RingQueue<int> queue(2);
  for (int i = 0; i < 5; ++i) queue.push_back(i * 10);
  queue.pop_front();
  const mt::RingQueue<int> copy(queue);
  REQUIRE(copy.size() == 4);
  for (std::size_t i = 0; i < copy.size(); ++i) CHECK(copy[i] == static_cast<int>(i + 1) * 10);
}

TEST_CASE("a bit set view visits its members in increasing order across words") {
  std::vector<std::uint64_t> words(3, 0);
  mt::BitSetView set{words.data(), 3};
  for (const int i : {130, 0, 64, 5, 191, 63}) set.insert(i);
  CHECK(set.erase(5));
  CHECK_FALSE(set.erase(5));
  CHECK_FALSE(set.contains(5));
  CHECK(set.contains(191));
  std::vector<int> members;
  for (const int i : set) members.push_back(i);
  CHECK(members == std::vector<int>{0, 63, 64, 130, 191});
  CHECK(words[1] == 1U);  // 64 is bit 0 of the second word

  const mt::BitSetView none;
  int visited = 0;
  for (const int i : none) visited += i + 1;
  CHECK(visited == 0);
  std::vector<std::uint64_t> zero(2, 0);
  const mt::BitSetView empty{zero.data(), 2};
  CHECK_FALSE(empty.begin() != empty.end());
}

TEST_CASE("a bit set view finds a member in a range as a scan of its members does") {
  // Ranges inside one word, ending or starting at a word's edge, and across two and three words.
  std::mt19937 random(7);
  std::vector<std::uint64_t> words(3, 0);
  const mt::BitSetView set{words.data(), 3};
  for (int trial = 0; trial < 2000; ++trial) {
    std::fill(words.begin(), words.end(), 0);
    const int members = static_cast<int>(random() % 4);
    std::vector<int> inserted;
    for (int k = 0; k < members; ++k) {
      inserted.push_back(static_cast<int>(random() % 192));
      mt::BitSetView{words.data(), 3}.insert(inserted.back());
    }
    const int first = static_cast<int>(random() % 192);
    const int last = first + 1 + static_cast<int>(random() % (192 - first));
    const bool expected = std::any_of(inserted.begin(), inserted.end(),
                                      [&](int i) { return i >= first && i < last; });
    INFO("members " << members << ", range [" << first << ", " << last << ")");
    REQUIRE(set.any_in(first, last) == expected);
  }
  words = {0, std::uint64_t{1} << 63, 1};  // 127 and 128: the edges of the middle word's range
  CHECK(set.any_in(127, 128));
  CHECK_FALSE(set.any_in(64, 127));
  CHECK(set.any_in(128, 129));
  CHECK_FALSE(set.any_in(129, 192));
  CHECK_FALSE(set.any_in(0, 64));
}

TEST_CASE("a small int list keeps its values across the move from in place to the heap and back") {
  static_assert(sizeof(mt::SmallIntList) == 16, "16 bytes: three ints in place, or a pointer");
  mt::SmallIntList list{7, 3};
  list.push_back(5);  // three: still in place
  CHECK(list == std::vector<int>{7, 3, 5});
  for (int i = 0; i < 14; ++i) list.push_back(100 + i);  // onto the heap, grown 4 -> 8 -> 16 -> 32
  REQUIRE(list.size() == 17);
  CHECK(list[3] == 100);
  CHECK(list.back() == 113);
  std::sort(list.begin(), list.end());
  list.erase(list.begin() + 3, list.end());  // back in place
  CHECK(list == std::vector<int>{3, 5, 7});
  const std::vector<int> fours{4, 4};
  list.insert(list.begin() + 1, fours.begin(), fours.end());
  CHECK(list == std::vector<int>{3, 4, 4, 5, 7});
  list.erase(std::unique(list.begin(), list.end()), list.end());
  CHECK(list == std::vector<int>{3, 4, 5, 7});
  CHECK(list.to_vector() == std::vector<int>{3, 4, 5, 7});
  const mt::IntSpan span = list;
  CHECK(std::vector<int>(span.begin(), span.end()) == std::vector<int>{3, 4, 5, 7});
  list.clear();
  CHECK(list.empty());
}

TEST_CASE("small int lists copy and move their values, in place or on the heap") {
  mt::SmallIntList heap(std::vector<int>{1, 2, 3, 4, 5});
  mt::SmallIntList copy = heap;
  copy[0] = 9;  // a copy has its own block
  CHECK(heap.front() == 1);
  mt::SmallIntList moved = std::move(heap);
  CHECK(moved == std::vector<int>{1, 2, 3, 4, 5});
  CHECK(heap.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
  mt::SmallIntList small{1};
  small = moved;  // in place <- heap
  CHECK(small == std::vector<int>{1, 2, 3, 4, 5});
  moved = mt::SmallIntList{6};  // heap <- in place
  CHECK(moved == std::vector<int>{6});
  const mt::SmallIntList& same = small;
  small.assign(same.begin() + 1, same.end());  // its own values: copied before the list changes
  CHECK(small == std::vector<int>{2, 3, 4, 5});
  CHECK(copy == std::vector<int>{9, 2, 3, 4, 5});
}

}  // namespace
