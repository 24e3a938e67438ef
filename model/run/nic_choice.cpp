#include "model/run/nic_choice.h"

#include "model/collective/byte_size.h"

namespace mt {

std::uint64_t mean_message_bytes(const Schedule& schedule, std::uint64_t bytes) {
  if (schedule.ops.empty()) return 0;
  const std::vector<std::uint64_t> chunk_bytes = chunk_byte_sizes(schedule, bytes);
  std::uint64_t total = 0;
  for (const Op& op : schedule.ops) total += chunk_bytes[static_cast<std::size_t>(op.chunk)];
  return total / schedule.ops.size();
}

NicChoice choose_nic_mode(const NicConfig& nic, const Schedule& schedule, std::uint64_t bytes) {
  NicChoice choice{nic, ""};
  if (nic.issue == IssueMode::kAuto) {
    const std::uint64_t mean = mean_message_bytes(schedule, bytes);
    std::string why;
    if (nic.scheduler == SchedulerImpl::kRtl) {
      choice.nic.issue = IssueMode::kHardware;
      why = "nic.scheduler rtl";
    } else {
      const bool long_messages = mean >= kHardwareIssueMinMessageBytes;
      choice.nic.issue = long_messages ? IssueMode::kHardware : IssueMode::kSoftware;
      why = "mean message " + format_byte_size(mean) + (long_messages ? " >= " : " < ") +
            format_byte_size(kHardwareIssueMinMessageBytes);
    }
    choice.chosen = std::string(to_string(choice.nic.issue)) + " issue (" + why + ")";
  }
  if (nic.flow_control == FlowControl::kAuto) {
    choice.nic.flow_control = FlowControl::kMessage;
    choice.chosen += std::string(choice.chosen.empty() ? "" : ", ") + "message flow control";
  }
  return choice;
}

}  // namespace mt
