// Router allocation: which input FIFO each free output takes in a cycle (the round robins over
// input ports and their VCs, the output VC choice, the message-flow-control reservation) and the
// grant itself (credits, VC lock, forwarding, the credit owed upstream). process() in router.cpp
// calls arbitrate() per output in the allocator's order.
#include <algorithm>
#include <limits>
#include <vector>

#include "model/noc/packet.h"
#include "model/noc/router.h"

namespace mt {
int Router::pick_vc(const Output& output, const Entry& entry) const {
  const int flits = entry.flits;
  if (!entry.head) {
    // A body packet (message flow control) follows its head on the VC the head locked.
    for (int vc = entry.vc_first; vc < entry.vc_last; ++vc) {
      if (output.vc_owner[vc] == entry.message) {
        return output.credits[vc] >= flits ? vc : -1;
      }
    }
    return -1;
  }
  // Round robin over the allowed free VCs, starting after the last VC granted on this output.
  const int span = entry.vc_last - entry.vc_first;
  int at = ((output.vc_next - entry.vc_first) % span + span) % span;
  for (int k = 0; k < span; ++k, at = at + 1 == span ? 0 : at + 1) {
    const int vc = entry.vc_first + at;
    if (output.vc_owner[vc] >= 0) continue;  // locked by a message
    if (output.credits[vc] >= flits) return vc;
  }
  return -1;
}

bool Router::input_prefers_other(int fifo, int out, std::uint64_t now,
                                 const std::vector<int>& visit_rank) const {
  const int vcs = params_.vcs;
  const int port = port_of(fifo);
  const int vc_last = inputs_[static_cast<std::size_t>(port)].vc_last;
  const int mine = rotation_distance(vc_of(fifo), vc_last, vcs);
  for (int d = 0; d < mine; ++d) {
    const int other_vc = vc_last + 1 + d;  // below 2 vcs
    const int other = port * vcs + (other_vc >= vcs ? other_vc - vcs : other_vc);
    const RingQueue<Entry>& queue = fifos_[static_cast<std::size_t>(other)];
    if (queue.empty() || queue.front().ready > now) continue;
    const Entry& head = queue.front();
    const int last = head.eject ? static_cast<int>(outputs_.size()) : head.out + 1;
    for (int o = head.out; o < last; ++o) {
      if (o == out ||
          visit_rank[static_cast<std::size_t>(o)] <= visit_rank[static_cast<std::size_t>(out)]) {
        continue;  // only an output still to arbitrate in this pass can take it
      }
      if (scan_[static_cast<std::size_t>(o)].busy_until <= now &&
          pick_vc(outputs_[static_cast<std::size_t>(o)], head) >= 0) {
        return true;
      }
    }
  }
  return false;
}

bool Router::arbitrate(int out, std::uint64_t now, const std::vector<int>* visit_rank) {
  OutputScan& scan = scan_[static_cast<std::size_t>(out)];
  if (!scan.open(now)) return false;
  Output& output = outputs_[static_cast<std::size_t>(out)];
  const BitSetView requesters = requesters_of(out);
  // Round robin over input ports (starting after the last port granted this output), and within
  // a port over its VCs (starting after the last VC that port sent).
  const int inputs = static_cast<int>(inputs_.size());
  int best_fifo = -1;
  int best_vc = -1;
  std::int64_t best_key = std::numeric_limits<std::int64_t>::max();
  bool deferred = false;
  if (scan.reserved_fifo >= 0) {
    // The output waits for the input port whose turn it is (see below), unless that turn lapsed.
    const int fifo = scan.reserved_fifo;
    const int port = port_of(fifo);
    const RingQueue<Entry>& queue = fifos_[static_cast<std::size_t>(fifo)];
    const bool wants = requesters.contains(fifo);
    const int vc = wants ? pick_vc(output, queue.front()) : -1;
    if (vc >= 0 && inputs_[static_cast<std::size_t>(port)].busy_until > now) return false;
    scan.reserved_fifo = -1;
    inputs_[static_cast<std::size_t>(port)].reserved_by = -1;
    if (vc >= 0) {
      best_fifo = fifo;
      best_vc = vc;
    } else {
      revisit_requesters_of(port);  // outputs that skipped the reserved port may take it now
    }
  }
  int reserve_fifo = -1;
  std::int64_t reserve_key = std::numeric_limits<std::int64_t>::max();
  // (A served reservation needs no search.)
  const BitSetView none;
  for (const int fifo : best_fifo >= 0 ? none : requesters) {
    const Entry& head = fifos_[static_cast<std::size_t>(fifo)].front();
    if (head.ready > now) continue;
    const int port = port_of(fifo);
    const int port_distance = rotation_distance(port, output.input_last, inputs);
    const int vc_last = inputs_[static_cast<std::size_t>(port)].vc_last;
    const int vc_distance = rotation_distance(vc_of(fifo), vc_last, params_.vcs);
    // One packet at a time leaves an input port (no input speedup).
    if (inputs_[static_cast<std::size_t>(port)].busy_until > now) {
      // A packet whose turn it is at this output but whose input port is sending another VC's
      // packet keeps its turn (keeps_turn: message flow control, or every packet with
      // router.turn_reservation all): the output waits for the port (otherwise the port and the
      // output can stay out of phase and starve the packet for thousands of cycles; a flit-level
      // switch would interleave the two). Turns as in the grant below: ports, then their VCs.
      if (keeps_turn(head.message_flow) &&
          inputs_[static_cast<std::size_t>(port)].reserved_by < 0) {
        const std::int64_t key = port_distance * params_.vcs + vc_distance;
        if (key < reserve_key && pick_vc(output, head) >= 0) {
          reserve_key = key;
          reserve_fifo = fifo;
        }
      }
      continue;
    }
    // An input port an output waits for goes to that output.
    const int reserved_by = inputs_[static_cast<std::size_t>(port)].reserved_by;
    if (reserved_by >= 0 && reserved_by != out) continue;
    // The input port serves its VCs in turn: a VC nearer in its round robin that another output
    // can take in this pass goes first (output-first rotation alone can starve a VC).
    if (visit_rank != nullptr && input_prefers_other(fifo, out, now, *visit_rank)) {
      deferred = true;
      continue;
    }
    std::int64_t key = port_distance * params_.vcs + vc_distance;
    if (params_.step_priority && params_.step_priority_per_input) {
      // Input ports in turn; within a port its oldest step first, then its VCs in turn.
      key = port_distance * (std::int64_t{1} << 40) +
            static_cast<std::int64_t>(packet_of(*head.payload).step) * params_.vcs + vc_distance;
    } else if (params_.step_priority) {
      // Older schedule steps first; round robin among packets of the same step.
      key += static_cast<std::int64_t>(packet_of(*head.payload).step) * inputs * params_.vcs;
    }
    if (key >= best_key) continue;
    const int out_vc = pick_vc(output, head);
    if (out_vc < 0) continue;
    best_key = key;
    best_fifo = fifo;
    best_vc = out_vc;
  }
  // An output that left an input to another output visits again in the next pass.
  if (deferred) scan.gained_requester = true;
  if (reserve_fifo >= 0 && reserve_key < best_key) {
    scan.reserved_fifo = reserve_fifo;
    inputs_[static_cast<std::size_t>(port_of(reserve_fifo))].reserved_by = out;
    return false;
  }
  if (best_fifo < 0) return false;
  const int in_port = port_of(best_fifo);
  const int in_vc = vc_of(best_fifo);
  // The credit owed upstream goes out at the end of the grant, after the hop downstream: fetch
  // the path it takes now (a line of this router's no other step reads).
  __builtin_prefetch(&in_bw_[static_cast<std::size_t>(in_port)]);

  // Inter-flow contention: the winner waited behind another flow's packet on this output, and
  // ready losers of another flow now wait behind the winner.
  {
    const Entry& head = fifos_[static_cast<std::size_t>(best_fifo)].front();
    const int flow = head.flow;
    const bool behind = head.ready < now && output.last_flow >= 0 && output.last_flow != flow &&
                        scan.busy_until > head.ready;
    // A loss counts once the packet has really waited: another ejection port may still take it
    // in the cycle it lost at the first.
    if ((head.cross && now > head.cross_cycle) || behind) ++cross_flow_waits_;
    for (const int fifo : requesters) {
      if (fifo == best_fifo) continue;
      Entry& other = fifos_[static_cast<std::size_t>(fifo)].front();
      // Only a packet this output could have taken now loses to the winner (not a body packet
      // whose message holds another output, not one without credit here).
      if (other.ready <= now && !other.cross && other.flow != flow && pick_vc(output, other) >= 0) {
        other.cross = true;
        other.cross_cycle = now;
      }
    }
    output.last_flow = flow;
  }
  RingQueue<Entry>& queue = fifos_[static_cast<std::size_t>(best_fifo)];
  const Entry entry = queue.front();
  queue.pop_front();
  --buffered_;
  ++forwarded_;
  last_progress_ = std::max(last_progress_, now);
  remove_requesters(entry, best_fifo);
  if (!queue.empty()) add_requester(queue.front(), best_fifo);
  output.input_last = in_port;
  inputs_[static_cast<std::size_t>(in_port)].vc_last = in_vc;
  output.vc_next = best_vc + 1;

  tlm::tlm_generic_payload& payload = *entry.payload;
  PacketExtension& packet = packet_of(payload);
  fifo_flits_[static_cast<std::size_t>(best_fifo)] -= packet.flits;
  activity_.buffer_reads += static_cast<std::uint64_t>(packet.flits);
  activity_.heads += packet.head ? 1 : 0;
  output.credits[best_vc] -= packet.flits;
  if (packet.message_flow) {
    // Lock the VC from the head's grant until the message's last packet has passed.
    int& owner = output.vc_owner[best_vc];
    if (packet.head && packet.packets > 1) owner = packet.message;
    if (packet.index == packet.packets - 1) owner = -1;
  }
  packet.vc = best_vc;
  packet.route = entry.route;
  if (out_hops_[static_cast<std::size_t>(out)].link >= 0) packet.take_hop();

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = out_fw_[static_cast<std::size_t>(out)](payload, phase, delay);
  const std::uint64_t serialization =
      (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) ? clock_.to_cycles(delay) : 1;
  scan.busy_until = now + serialization;
  inputs_[static_cast<std::size_t>(in_port)].busy_until = now + serialization;
  // The port is now busy, which lets another output reserve it (keeps_turn): outputs that
  // wanted it visit again, so one process() call per cycle decides what several would.
  if (keeps_turn(packet.message_flow)) revisit_requesters_of(in_port);

  // The buffer space frees as the packet leaves: from a network input flit by flit (the first
  // flit's slot a cycle after the grant, the tail's after the serialisation); a NIC injection
  // port counts it whole after the serialisation.
  packet.credit_vc = in_vc;
  const bool per_flit = in_port < params_.network_inputs;
  activity_.link_credit_flits += per_flit ? static_cast<std::uint64_t>(packet.flits) : 0;
  packet.credit_span = per_flit ? serialization : 0;
  tlm::tlm_phase credit_phase = tlm::BEGIN_RESP;
  sc_core::sc_time credit_delay = clock_.to_time(per_flit ? 1 : serialization);
  in_bw_[static_cast<std::size_t>(in_port)](payload, credit_phase, credit_delay);
  return true;
}

}  // namespace mt
