#pragma once
// What the receiver of a message does with its data: the one schedule fact a packet carries
// (model/noc/packet.h), apart from the rest of the schedule.

namespace mt {

/// What the receiver does with the data of a message.
enum class OpKind {
  kReduce,     ///< receiver adds the chunk into its buffer (reduce-scatter direction)
  kBroadcast,  ///< receiver overwrites its buffer with the chunk (all-gather direction)
};

}  // namespace mt
