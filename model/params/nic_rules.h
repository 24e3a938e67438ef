#pragma once
// The rules a NIC's settings must keep with each other, its router and its topology, stated once:
// the scenario loader reports a violation at the key of the file (or of an algorithm entry's
// `nic:` overrides) and the System refuses it again for a caller that builds a ScenarioConfig
// itself. Single-key ranges are the loader's (its readers' limits); the System keeps only the
// few it needs not to crash (system_checks.cpp).

#include <optional>
#include <string>

#include "model/data/packet_sizes.h"
#include "model/params/scenario_config.h"

namespace mt {

/// One broken rule: the key at fault, from the scenario's root ("nic.packet_bytes",
/// "router.buffer_flits"), and what is wrong with its value.
struct NicRuleViolation {
  std::string key;
  std::string message;
};

/// The first rule of the packet path a NIC breaks with `router` on `topology`, if any: packets
/// of `packet_bytes` behind a `head_flit_bytes` head in flits of `flit_bytes`, received in
/// `receive_vcs` VCs (>= 1), ports bound as `port_binding`. The System checks these again.
inline std::optional<NicRuleViolation> packet_rule_violation(int packet_bytes, int head_flit_bytes,
                                                             int flit_bytes, int receive_vcs,
                                                             PortBinding port_binding,
                                                             const RouterConfig& router,
                                                             const Topology& topology) {
  if (packet_bytes % kElementBytes != 0)
    return NicRuleViolation{"nic.packet_bytes",
                            std::to_string(packet_bytes) +
                                " is not a whole number of 4-byte elements (the reduction unit "
                                "adds fp32/int32 elements; a packet carries whole ones)"};
  // Virtual cut-through moves whole packets: a router buffer must hold one.
  const int packet_flits = flits_in(packet_bytes, head_flit_bytes, flit_bytes);
  if (packet_flits > router.buffer_flits)
    return NicRuleViolation{"router.buffer_flits",
                            std::to_string(router.buffer_flits) +
                                " flits cannot hold one packet of " + std::to_string(packet_flits) +
                                " flits (nic.packet_bytes + nic.head_flit_bytes)"};
  if (port_binding == PortBinding::kAny && !topology.is_direct())
    return NicRuleViolation{"nic.port_binding", "any needs a direct topology: on " +
                                                    topology.name() +
                                                    " each NIC port is its own link to a switch "
                                                    "(use route)"};
  if (router.vcs * router.buffer_flits / receive_vcs < packet_flits)
    return NicRuleViolation{
        "nic.receive_vcs",
        std::to_string(receive_vcs) + " VCs of a receive port's " +
            std::to_string(router.vcs * router.buffer_flits) +
            " flits (router.vcs x router.buffer_flits) cannot each hold one packet of " +
            std::to_string(packet_flits) + " flits"};
  return std::nullopt;
}

/// Whether `nic` may run a planned table (`nic.scheduler_table_order` planned, or auto's planned
/// trial): a planned table is not sorted by step, so the scheduler cannot issue it in step order,
/// which `step_order: true` and the step barrier ask for.
inline bool planned_table_allowed(const NicConfig& nic) {
  return nic.step_order != StepOrderChoice::kOn && !nic.step_barrier;
}

/// The first rule `nic` breaks with `router` on `topology`, if any.
inline std::optional<NicRuleViolation> nic_rule_violation(const NicConfig& nic,
                                                          const RouterConfig& router,
                                                          const Topology& topology) {
  const int receive_vcs = nic.receive_vcs > 0 ? nic.receive_vcs : router.vcs;
  if (auto v = packet_rule_violation(nic.packet_bytes, nic.head_flit_bytes, nic.flit_bytes,
                                     receive_vcs, nic.port_binding, router, topology))
    return v;
  // The barrier starts steps strictly in order: a hardware scheduler that may grant a later
  // step's entry first would hand the NIC a grant it cannot take.
  if (nic.step_barrier && nic.step_order == StepOrderChoice::kOff)
    return NicRuleViolation{"nic.step_order",
                            "false contradicts nic.step_barrier true, which starts steps strictly "
                            "in order (use auto or true)"};
  if (nic.scheduler_table_order == TableOrder::kPlanned && !planned_table_allowed(nic))
    return NicRuleViolation{
        "nic.scheduler_table_order",
        std::string("planned orders a table by when a free host issues its "
                    "messages, not by step: it contradicts ") +
            (nic.step_barrier ? "nic.step_barrier true" : "nic.step_order true") + " (use step)"};
  if (nic.scheduler == SchedulerImpl::kRtl && nic.issue == IssueChoice::kSoftware)
    return NicRuleViolation{"nic.scheduler",
                            "rtl is the co-designed hardware scheduler: it needs nic.issue: "
                            "hardware or auto (nic.issue is " +
                                std::string(to_string(nic.issue)) + ")"};
  return std::nullopt;
}

}  // namespace mt
