#pragma once
// Per-message packet accounting shared by a message's sender and receiver NIC: how many packets and
// payload bytes it is split into, which packet indices arrived, and the completion check that
// turns a packetisation error into a data error (packets carry no data themselves).

#include <cstdint>
#include <string>
#include <vector>

namespace mt {

/// Progress of one message, shared by its sender and receiver NIC (owned by the System).
struct MessageRecord {
  int packets = 0;                   ///< packets the message is split into
  int received = 0;                  ///< packets received and reduced at the peer
  int snapshot = -1;                 ///< DataStore handle of the data sent (-1: none)
  bool issued = false;               ///< the sender has issued it
  bool arrived = false;              ///< every packet has been applied at the peer
  std::uint64_t issue_cycle = 0;     ///< cycle the sender's DMA started it
  std::uint64_t arrival_cycle = 0;   ///< cycle its last packet was reduced at the peer
  std::uint64_t bytes = 0;           ///< payload bytes the message carries (its chunk), bytes
  std::uint64_t bytes_received = 0;  ///< payload bytes received so far at the peer, bytes
  /// Which packet indices arrived: for up to 64 packets a bit per index in `once` (received at
  /// least once) and `more` (more than once), in the record itself; beyond that a count per index
  /// in `seen` (saturating; released by release_indices()).
  std::uint64_t once = 0;
  std::uint64_t more = 0;
  std::vector<std::uint8_t> seen;
  int bad_indices = 0;  ///< packets received with an index outside 0..packets-1
  /// The message's Op::apply_after (-1: none), copied here at elaboration: the receiver asks for
  /// it per packet and reads this record anyway, while the schedule's Op is out of cache at scale.
  int apply_after = -1;
  bool staged = false;  ///< receive staging: packets landed unreduced (Op::apply_after unissued)

  /// Sender side, at issue: the message is split into `packets` packets carrying `bytes` payload
  /// bytes in total.
  void start(int packets, std::uint64_t bytes);
  /// Receiver side: the packet with index `index` carrying `payload_bytes` bytes has been
  /// received. True when this completes the message (`packets` packets received).
  bool receive(int index, int payload_bytes);
  /// After completion: empty when the payload bytes received equal the message's bytes and every
  /// packet index 0..packets-1 arrived exactly once; else what is wrong, naming message `id`.
  std::string check_complete(int id) const;
  /// After completion: frees the per-index counts of a long message (memory then follows the
  /// messages in flight, not the data size).
  void release_indices() { std::vector<std::uint8_t>().swap(seen); }

  /// Messages of up to this many packets keep their indices in `once` and `more`.
  static constexpr int kInlinePackets = 64;
};

}  // namespace mt
