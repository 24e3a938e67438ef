#include "model/run/nic_choice.h"

namespace mt {

std::vector<FlowControl> flow_trials(const NicConfig& nic) {
  if (nic.flow_control == FlowControl::kAuto) return {FlowControl::kMessage, FlowControl::kPacket};
  return {nic.flow_control};
}

NicChoice choose_nic_mode(const NicConfig& nic, FlowControl trial) {
  NicChoice choice{nic, "", false};
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
    choice.nic.flow_control = trial;
    choice.flow_trial = true;
  }
  return choice;
}

std::string flow_trial_text(FlowControl kept, std::uint64_t kept_cycles,
                            std::uint64_t other_cycles) {
  const bool message = kept == FlowControl::kMessage;
  return std::string(to_string(kept)) +
         " flow control (tried both: " + std::to_string(kept_cycles) + " cycles against " +
         std::to_string(other_cycles) + " with " + (message ? "packet" : "message") + ")";
}

}  // namespace mt
