#pragma once
// How a message is cut into packets and a packet into flits: the one rule the loader's checks,
// the System's and the Nic count with; and how long the reduction unit takes for them.

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace mt {

/// Bytes of one element (fp32 or int32), the unit a packet carries and the reduction adds.
constexpr int kElementBytes = 4;

/// Packets of a message of `bytes`: whole packets of `packet_bytes` and a partial last one; an
/// empty message is still one packet (its head).
constexpr std::uint64_t packets_in(std::uint64_t bytes, int packet_bytes) {
  const auto per = static_cast<std::uint64_t>(packet_bytes);
  return std::max<std::uint64_t>(1, bytes / per + (bytes % per != 0));
}

/// Flits of a packet of `payload_bytes` behind a head of `head_flit_bytes` (0 for a body packet
/// of message flow control), in flits of `flit_bytes`.
constexpr int flits_in(int payload_bytes, int head_flit_bytes, int flit_bytes) {
  return (payload_bytes + head_flit_bytes + flit_bytes - 1) / flit_bytes;
}

/// Reduction unit cycles for `elements` elements at `elems_per_cycle` elements per cycle (ceil;
/// 0 elements: 0).
inline std::uint64_t reduce_cycles(std::uint64_t elements, double elems_per_cycle) {
  if (elements == 0) return 0;
  return static_cast<std::uint64_t>(
      std::ceil(static_cast<double>(elements) / elems_per_cycle - 1e-9));
}

}  // namespace mt
