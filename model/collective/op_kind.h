#pragma once
// What the receiver of a message does with its data: the one schedule fact a packet carries
// (model/noc/packet.h), apart from the rest of the schedule.

#include <cstdint>

namespace mt {

/// What the receiver does with the data of a message (one byte: Op packs it with its buffers).
enum class OpKind : std::uint8_t {
  kReduce,     ///< receiver adds the chunk into its buffer (reduce-scatter direction)
  kBroadcast,  ///< receiver overwrites its buffer with the chunk (all-gather direction)
};

}  // namespace mt
