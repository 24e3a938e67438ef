#pragma once
// Which NIC issue queue a message waits in: one rule for the simulator's NICs, the table packer
// and the cost model's estimates.

#include "model/collective/schedule.h"

namespace mt {

/// The NIC issue queue of message `op` as the simulator binds it (the `ports` argument of
/// pack_schedule): with `any_port` (nic.port_binding any) one queue, 0, for every port; on direct
/// topologies the message's Op::port when it names one, else the router output its route leaves
/// by (`first_out`: the position of the route's first link in Topology::out_links of the sender,
/// RoutingTable::out_index) modulo `ports`; on switched topologies `first_out` itself, the
/// endpoint's link the route takes.
inline int issue_queue(const Op& op, int first_out, bool direct, int ports, bool any_port) {
  if (any_port) return 0;  // one issue queue: the NIC picks a free port when the message starts
  if (direct) return op.port >= 0 ? op.port : first_out % ports;
  return first_out;  // the port is the endpoint's link: the route decides
}

}  // namespace mt
