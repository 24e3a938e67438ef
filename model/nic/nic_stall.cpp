// What a Nic that has not finished is waiting for (the watchdog's stall report).
#include "model/nic/nic.h"

#include <sstream>

namespace mt {

std::string Nic::describe_stall() const {
  if (finished_) return "";
  const Schedule& schedule = *env_.schedule;
  const std::vector<MessageRecord>& messages = *env_.messages;
  std::ostringstream out;
  const auto describe_message = [&](int id) {
    const Op& op = schedule.ops[static_cast<std::size_t>(id)];
    std::ostringstream s;
    s << "message " << id << " (chunk " << op.chunk << " from node " << op.node << ")";
    return s.str();
  };
  for (std::size_t i = 0; i < params_.program.size(); ++i) {
    if (scheduler_->is_issued(static_cast<int>(i))) continue;
    const std::vector<int> missing = scheduler_->missing_deps(static_cast<int>(i));
    out << "node " << params_.node;
    if (missing.empty()) {
      out << " has message " << params_.program[i] << " ready on port " << params_.program_ports[i];
    } else {
      out << " waits for " << describe_message(missing.front());
      if (missing.size() > 1) out << " and " << missing.size() - 1 << " more";
      out << " to issue message " << params_.program[i];
    }
    break;
  }
  for (int p = 0; p < params_.ports; ++p) {
    const TxPort& port = tx_[static_cast<std::size_t>(p)];
    if (port.queue.empty()) continue;
    const TxMessage& m = port.queue.front();
    if (!out.str().empty()) out << ", ";
    out << "node " << params_.node << " port " << p << " is sending message " << m.message
        << " to node " << schedule.ops[static_cast<std::size_t>(m.message)].peer << " ("
        << m.next_packet << " of " << m.packets << " packets sent, waiting for credits)";
  }
  if (out.str().empty()) {
    for (const int id : params_.incoming) {
      if (messages[static_cast<std::size_t>(id)].arrived) continue;
      out << "node " << params_.node << " waits for " << describe_message(id) << " to arrive";
      const MessageRecord& record = messages[static_cast<std::size_t>(id)];
      if (!record.issued) {
        out << " (not issued yet)";
      } else {
        out << " (" << record.received << " of " << record.packets << " packets received)";
      }
      break;
    }
  }
  return out.str();
}

}  // namespace mt
