#include "model/data/message_record.h"

#include <algorithm>
#include <sstream>

namespace mt {

void MessageRecord::start(int packet_count, std::uint64_t message_bytes) {
  packets = packet_count;
  bytes = message_bytes;
  bytes_received = 0;
  received = 0;
  bad_indices = 0;
  once = 0;
  more = 0;
  seen.assign(packet_count > kInlinePackets ? static_cast<std::size_t>(packet_count) : 0, 0);
}

bool MessageRecord::receive(int index, int payload_bytes) {
  bytes_received += static_cast<std::uint64_t>(std::max(payload_bytes, 0));
  if (index < 0 || index >= packets) {
    ++bad_indices;
  } else if (packets <= kInlinePackets) {
    const std::uint64_t bit = std::uint64_t{1} << index;
    more |= once & bit;
    once |= bit;
  } else {
    std::uint8_t& count = seen[static_cast<std::size_t>(index)];
    if (count < 255) ++count;  // saturates: only 0, 1 and "more than once" matter
  }
  return ++received == packets;
}

std::string MessageRecord::check_complete(int id) const {
  std::ostringstream out;
  const auto separator = [&out]() {
    if (!out.str().empty()) out << "; ";
  };
  if (bytes_received != bytes) {
    out << "received " << bytes_received << " payload bytes of " << bytes;
  }
  int missing = 0;
  int first_missing = -1;
  int duplicated = 0;
  int first_duplicated = -1;
  if (packets <= kInlinePackets) {
    const std::uint64_t all = packets <= 0    ? 0
                              : packets >= 64 ? ~std::uint64_t{0}
                                              : (std::uint64_t{1} << packets) - 1;
    const std::uint64_t absent = all & ~once;
    missing = __builtin_popcountll(absent);
    if (absent != 0) first_missing = __builtin_ctzll(absent);
    duplicated = __builtin_popcountll(more);
    if (more != 0) first_duplicated = __builtin_ctzll(more);
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (seen[i] == 0 && missing++ == 0) first_missing = static_cast<int>(i);
    if (seen[i] > 1 && duplicated++ == 0) first_duplicated = static_cast<int>(i);
  }
  if (missing > 0) {
    separator();
    out << missing << " packet index(es) missing (first " << first_missing << ")";
  }
  if (duplicated > 0) {
    separator();
    out << duplicated << " packet index(es) received more than once (first " << first_duplicated
        << ")";
  }
  if (bad_indices > 0) {
    separator();
    out << bad_indices << " packet(s) with an index outside 0.." << packets - 1;
  }
  if (out.str().empty()) return "";
  return "data error: message " + std::to_string(id) + " completed with " +
         std::to_string(packets) + " packets but " + out.str();
}

}  // namespace mt
