#pragma once
// Byte sizes as people write them ("64MiB", "1.5 KiB", "4096"): one parser and one formatter for
// scenario keys, command-line options and algorithm parameters.

#include <cstdint>
#include <string>

#include "model/core/error.h"

namespace mt {

/// Text that is not a byte size; what() says why ("\"4 XB\" has an unknown unit ...").
class ByteSizeError : public Error {
 public:
  using Error::Error;
};

/// Parses a byte size: an integer number of bytes or a number with a unit B, KiB, MiB, GiB,
/// TiB (binary) or KB, MB, GB, TB (decimal), e.g. "64MiB", "1.5 KiB". Throws ByteSizeError with a
/// reason when the text is not a positive whole number of bytes.
std::uint64_t parse_byte_size(const std::string& text);

/// Largest size any scenario key or command-line option may name, bytes (1 TiB).
constexpr std::uint64_t kMaxConfigBytes = 1ull << 40;

/// Why `bytes` cannot be an all-reduce size per node ("6 bytes is not a whole number of 4-byte
/// elements"), or "" when it can: the data are 4-byte elements (int32, fp32).
std::string allreduce_size_problem(std::uint64_t bytes);

/// Formats a byte count with the largest binary unit that divides it ("64MiB", "1536B").
std::string format_byte_size(std::uint64_t bytes);

}  // namespace mt
