#pragma once
// Memory for bulk data that is streamed front to back (the all-reduce's data buffers): large
// blocks come straight from the kernel in ordinary 4 KiB pages. mtsim asks glibc's malloc for
// transparent huge pages (tb/mtsim/huge_pages.cpp), which pay off for the simulator's randomly
// visited state but not for streamed data, whose first touch then clears and maps 2 MiB at a time:
// a 64 MiB all-reduce over 16 nodes with full data spent 6-7 s of system time on it against 2 s
// with 4 KiB pages (docs/speed.md).

#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <vector>

// GCC says it builds with AddressSanitizer by __SANITIZE_ADDRESS__, clang by __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MT_CLANG_ASAN 1
#endif
#endif

namespace mt {

/// A std::allocator whose blocks of at least kMinBytes are private anonymous mappings without
/// transparent huge pages; smaller blocks come from operator new.
template <class T>
struct BulkAllocator {
  using value_type = T;
#if defined(__SANITIZE_ADDRESS__) || defined(MT_CLANG_ASAN)
  // Under AddressSanitizer every block comes from operator new, which it checks (it cannot see
  // overruns of a mapping of our own).
  static constexpr std::size_t kMinBytes = ~std::size_t{0};
#else
  /// Blocks from this size on are mapped directly (a huge page's size).
  static constexpr std::size_t kMinBytes = std::size_t{2} << 20;
#endif

  BulkAllocator() = default;
  /// Rebinding copy (std::allocator protocol).
  template <class U>
  BulkAllocator(const BulkAllocator<U>& /*other*/) {}  // NOLINT(google-explicit-constructor)

  /// Storage for `n` objects.
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMinBytes) return static_cast<T*>(::operator new(bytes));
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    ::madvise(p, bytes, MADV_NOHUGEPAGE);  // advice only: a failure changes nothing but speed
    return static_cast<T*>(p);
  }
  /// Frees storage from allocate(n).
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMinBytes) {
      ::operator delete(p);
    } else {
      ::munmap(p, bytes);
    }
  }
  /// All instances are interchangeable.
  template <class U>
  bool operator==(const BulkAllocator<U>& /*other*/) const {
    return true;
  }
  template <class U>
  bool operator!=(const BulkAllocator<U>& /*other*/) const {
    return false;
  }
};

/// A vector of bulk data (see BulkAllocator).
template <class T>
using BulkVector = std::vector<T, BulkAllocator<T>>;

}  // namespace mt

#undef MT_CLANG_ASAN  // only for the allocator above, not for the files that include this one
