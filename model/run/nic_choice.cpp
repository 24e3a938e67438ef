#include "model/run/nic_choice.h"

namespace mt {

NicChoice choose_nic_mode(const NicConfig& nic) {
  NicChoice choice{nic, ""};
  if (nic.issue == IssueMode::kAuto) {
    std::string why;
    if (nic.scheduler == SchedulerImpl::kRtl) {
      choice.nic.issue = IssueMode::kHardware;
      why = "nic.scheduler rtl";
    } else {
      const bool slow_host = nic.software_issue_cycles > nic.decision_latency_cycles;
      choice.nic.issue = slow_host ? IssueMode::kHardware : IssueMode::kSoftware;
      why = "host " + std::to_string(nic.software_issue_cycles) + " cycles per message " +
            (slow_host ? "> " : "<= ") + "scheduler " + std::to_string(nic.decision_latency_cycles);
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
