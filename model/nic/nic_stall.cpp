// What a Nic that has not finished is waiting for (the watchdog's stall report).
#include "model/nic/nic.h"

#include <algorithm>
#include <sstream>

namespace mt {

std::string Nic::describe_stall() const {
  if (finished_) return "";
  const Schedule& schedule = *shared_.rx.schedule;
  const std::vector<MessageRecord>& messages = *shared_.rx.messages;
  std::ostringstream out;
  const auto describe_message = [&](int id) {
    const Op& op = schedule.ops[static_cast<std::size_t>(id)];
    std::ostringstream s;
    s << "message " << id << " (chunk " << op.chunk << " from node " << op.node << ")";
    return s.str();
  };
  for (std::size_t i = 0; i < params_.program.size(); ++i) {
    if (issue_->is_issued(static_cast<int>(i))) continue;
    // A dependency is met once it has arrived here (a message to another node never does).
    std::vector<int> missing;
    for (const int dep : schedule.ops[static_cast<std::size_t>(params_.program[i])].deps) {
      const bool here = schedule.ops[static_cast<std::size_t>(dep)].peer == params_.node;
      if (!here || !messages[static_cast<std::size_t>(dep)].arrived) missing.push_back(dep);
    }
    std::sort(missing.begin(), missing.end());
    missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
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
    const TxMessage* m = tx_.front(p);
    if (m == nullptr) continue;
    if (!out.str().empty()) out << ", ";
    out << "node " << params_.node << " port " << p << " is sending message " << m->message
        << " to node " << schedule.ops[static_cast<std::size_t>(m->message)].peer << " ("
        << m->next_packet << " of " << m->packets << " packets sent, waiting for credits)";
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
