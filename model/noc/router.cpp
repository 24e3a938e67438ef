#include "model/noc/router.h"

#include <algorithm>
#include <limits>
#include <string>

#include "model/noc/link.h"
#include "model/noc/packet.h"
#include "model/noc/process_fault.h"

namespace mt {

Router::Router(const sc_core::sc_module_name& name, const RouterParams& params,
               RoutingTable& routing, const CycleClock& clock)
    : sc_core::sc_module(name),
      in_socket("in_socket", static_cast<std::size_t>(params.network_inputs + params.local_ports)),
      out_socket("out_socket", params.outputs.size()),
      params_(params),
      routing_(routing),
      clock_(clock),
      allocator_(static_cast<int>(params.outputs.size())),
      wakeup_(clock, *this, [this] { process(); }) {
  const int inputs = params_.network_inputs + params_.local_ports;
  if (params_.vcs > 0 && (params_.vcs & (params_.vcs - 1)) == 0)
    vc_bits_ = __builtin_ctz(params_.vcs);
  fifos_.resize(static_cast<std::size_t>(inputs * params_.vcs));
  fifo_flits_.assign(fifos_.size(), 0);
  inputs_.assign(static_cast<std::size_t>(inputs), Input{0, params_.vcs - 1, -1});
  for (int i = 0; i < inputs; ++i) {
    in_socket[static_cast<std::size_t>(i)].register_nb_transport_fw(this, &Router::in_fw, i);
  }
  // The arenas first (their pointers must not move): per output its credits and its VCs'
  // owners, and a requester bit per FIFO.
  std::size_t arena = 0;
  for (const RouterOutputConfig& config : params_.outputs) {
    arena += 2 * static_cast<std::size_t>(config.vcs);
  }
  arena_.assign(arena, 0);
  const std::size_t words = (fifos_.size() + 63) / 64;
  requester_words_.assign(words * params_.outputs.size(), 0);
  requester_base_ = requester_words_.data();
  requester_words_per_output_ = static_cast<int>(words);
  scan_.assign(params_.outputs.size(), OutputScan{});
  int* slot = arena_.data();
  for (std::size_t o = 0; o < params_.outputs.size(); ++o) {
    Output output;
    const RouterOutputConfig& config = params_.outputs[o];
    output.vcs = config.vcs;
    const auto vcs = static_cast<std::size_t>(config.vcs);
    output.credits = slot;
    std::fill(slot, slot + vcs, config.credits_per_vc);
    output.vc_owner = slot + vcs;
    std::fill(slot + vcs, slot + 2 * vcs, -1);
    slot += 2 * vcs;
    outputs_.push_back(output);
    out_hops_.push_back(config.link >= 0 ? routing_.hop(config.link) : RoutingTable::LinkHop{});
    out_socket[o].register_nb_transport_bw(this, &Router::out_bw, static_cast<int>(o));
  }
}

tlm::tlm_sync_enum Router::in_fw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                 sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "unexpected phase on a router input");
    return tlm::TLM_COMPLETED;
  }
  PacketExtension& packet = packet_of(payload);
  Entry entry;
  entry.payload = &payload;
  // Body packets of a message (message flow control) follow their head without routing. Nothing
  // delivered is visible in the cycle it is delivered (docs/timing_contract.md): which process
  // the kernel runs first in a cycle must not matter.
  const std::uint64_t now = clock_.now();
  entry.ready = std::max(
      now + 1, now + clock_.to_cycles(delay) +
                   (packet.head ? static_cast<std::uint64_t>(params_.pipeline_cycles) : 0));
  entry.route = packet.route;
  entry.flits = packet.flits;
  entry.message = packet.message;
  entry.flow = packet.flow;
  entry.head = packet.head;
  entry.message_flow = packet.message_flow;
  if (packet.hop < packet.hops) {
    const int link = packet.next_link;
    entry.out = -1;
    for (std::size_t o = 0; o < out_hops_.size(); ++o) {
      if (out_hops_[o].link == link) {
        entry.out = static_cast<int>(o);
        break;
      }
    }
    if (entry.out < 0) {
      SC_REPORT_ERROR(name(), ("message " + std::to_string(packet.message) + ": route link " +
                               std::to_string(link) + " does not leave this router")
                                  .c_str());
      return tlm::TLM_COMPLETED;
    }
    routing_.advance(out_hops_[static_cast<std::size_t>(entry.out)], entry.route);
    const auto range =
        routing_.vc_range(entry.route.vc_class, outputs_[static_cast<std::size_t>(entry.out)].vcs);
    entry.vc_first = static_cast<std::int16_t>(range.first);
    entry.vc_last = static_cast<std::int16_t>(range.second);
  } else {
    if (params_.local_ports == 0) {
      SC_REPORT_ERROR(
          name(),
          ("message " + std::to_string(packet.message) + ": route ends at a switch").c_str());
    }
    // Any ejection port may take it (the first free one in the allocator's rotating order),
    // unless the message names its receiver port.
    const int network_outputs = static_cast<int>(outputs_.size()) - params_.local_ports;
    entry.out = network_outputs;
    entry.eject = true;
    if (packet.rx_port >= 0) {
      entry.out = network_outputs + packet.rx_port % params_.local_ports;
      entry.eject = false;
    }
    entry.vc_first = 0;
    entry.vc_last = static_cast<std::int16_t>(outputs_[static_cast<std::size_t>(entry.out)].vcs);
  }
  const int fifo = port * params_.vcs + packet.vc;
  RingQueue<Entry>& queue = fifos_[static_cast<std::size_t>(fifo)];
  fifo_flits_[static_cast<std::size_t>(fifo)] += packet.flits;
  activity_.buffer_writes += static_cast<std::uint64_t>(packet.flits);
  if (fifo_flits_[static_cast<std::size_t>(fifo)] > params_.buffer_flits) {
    SC_REPORT_ERROR(name(), "input buffer overflow: credit protocol violated (model bug)");
  }
  queue.push_back(entry);
  // A packet on the wire is progress to come: it must not look like a stall while it travels.
  last_progress_ = std::max(last_progress_, entry.ready);
  ++buffered_;
  if (queue.size() == 1) add_requester(entry, fifo);
  wakeup_.at(entry.ready);
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum Router::out_bw(int port, tlm::tlm_generic_payload& payload,
                                  tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) {
    SC_REPORT_ERROR(name(), "unexpected phase on a router output's backward path");
    return tlm::TLM_COMPLETED;
  }
  const PacketExtension& packet = packet_of(payload);
  // A credit counts from the cycle after it is returned at the earliest (as a packet above).
  const std::uint64_t now = clock_.now();
  const std::uint64_t cycle = std::max(now + 1, now + clock_.to_cycles(delay));
  RingQueue<Credit>& returning = outputs_[static_cast<std::size_t>(port)].returning;
  if (!returning.empty() && returning[returning.size() - 1].start > cycle) {
    SC_REPORT_ERROR(name(), "credits returned out of order (model bug)");
  }
  returning.push_back(Credit{cycle, cycle, packet.credit_span, packet.credit_vc, packet.flits, 0});
  OutputScan& scan = scan_[static_cast<std::size_t>(port)];
  scan.credit_cycle = std::min(scan.credit_cycle, cycle);
  // A credit on its way back is progress to come: a sender waiting for it is not stalled.
  const std::uint64_t last = packet.credit_span > 0 ? cycle + packet.credit_span - 1 : cycle;
  last_progress_ = std::max(last_progress_, last);
  // Credits are applied lazily; they only need a wake-up when a packet waits for them.
  if (blocked_) wakeup_.at(cycle);
  return tlm::TLM_COMPLETED;
}

void Router::end_of_elaboration() {
  for (std::size_t o = 0; o < out_socket.size(); ++o) {
    out_fw_.push_back(LinkChannel::attach_sender(
        out_socket[o].operator->(),
        PortEntry::method<Router, &Router::out_bw>(this, static_cast<int>(o))));
  }
  for (std::size_t i = 0; i < in_socket.size(); ++i) {
    LinkChannel::attach_receiver(
        in_socket[i].operator->(),
        PortEntry::method<Router, &Router::in_fw>(this, static_cast<int>(i)));
  }
}

void Router::start_of_simulation() {
  for (auto& socket : in_socket) in_bw_.push_back(LinkChannel::credit_path(socket.operator->()));
}

void Router::revisit_requesters_of(int port) {
  // The port's FIFOs are port * vcs .. port * vcs + vcs - 1: their words' masks once, then one
  // masked test per output (one word each unless the range crosses a word).
  const BitSetView::Range fifos(port * params_.vcs, (port + 1) * params_.vcs);
  for (std::size_t o = 0; o < scan_.size(); ++o) {
    if (requesters_of(static_cast<int>(o)).any_in(fifos)) scan_[o].gained_requester = true;
  }
}

void Router::add_requester(const Entry& entry, int fifo) {
  if (!entry.eject) {
    requesters_of(entry.out).insert(fifo);
    ++scan_[static_cast<std::size_t>(entry.out)].requesters;
    scan_[static_cast<std::size_t>(entry.out)].gained_requester = true;
    return;
  }
  for (int o = entry.out; o < static_cast<int>(scan_.size()); ++o) {
    requesters_of(o).insert(fifo);
    ++scan_[static_cast<std::size_t>(o)].requesters;
    scan_[static_cast<std::size_t>(o)].gained_requester = true;
  }
}

void Router::remove_requesters(const Entry& entry, int fifo) {
  if (!entry.eject) {
    remove_requester(entry.out, fifo);
    return;
  }
  for (int o = entry.out; o < static_cast<int>(outputs_.size()); ++o) remove_requester(o, fifo);
}

void Router::remove_requester(int out, int fifo) {
  if (requesters_of(out).erase(fifo)) --scan_[static_cast<std::size_t>(out)].requesters;
}

void Router::apply_credits(std::uint64_t now) {
  for (std::size_t o = 0; o < scan_.size(); ++o) {
    if (scan_[o].credit_cycle <= now) land(o, now);
  }
}

void Router::land(std::size_t out, std::uint64_t now) {
  Output& output = outputs_[out];
  RingQueue<Credit>& returning = output.returning;
  std::uint64_t next = kNever;
  for (std::size_t k = 0; k < returning.size(); ++k) {
    Credit& credit = returning[k];
    if (credit.start > now) {  // by start cycle: the rest start later still
      next = std::min(next, credit.cycle);
      break;
    }
    if (credit.applied == credit.flits) continue;  // landed, behind one still landing
    if (credit.cycle > now) {
      next = std::min(next, credit.cycle);
      continue;
    }
    const std::uint64_t flits = static_cast<std::uint64_t>(credit.flits);
    const int landed = credit.landed_by(now);
    output.credits[credit.vc] += landed - credit.applied;
    credit.applied = landed;
    if (credit.applied == credit.flits) continue;
    // The first cycle at which one more flit has landed.
    const std::uint64_t more = static_cast<std::uint64_t>(credit.applied + 1);
    credit.cycle =
        credit.start - 1 + (credit.span == flits ? more : (more * credit.span + flits - 1) / flits);
    next = std::min(next, credit.cycle);
  }
  while (!returning.empty() && returning.front().applied == returning.front().flits) {
    returning.pop_front();
  }
  scan_[out].credit_cycle = next;
}

std::uint64_t Router::credit_reach(const Output& output, int vc, int needed,
                                   std::uint64_t now) const {
  const auto held = [&](std::uint64_t t) {
    int credits = output.credits[vc];
    for (std::size_t k = 0; k < output.returning.size(); ++k) {
      const Credit& credit = output.returning[k];
      if (credit.vc == vc) credits += credit.landed_by(t) - credit.applied;
    }
    return credits;
  };
  std::uint64_t last = now + 1;
  for (std::size_t k = 0; k < output.returning.size(); ++k) {
    const Credit& credit = output.returning[k];
    if (credit.vc == vc)
      last = std::max(last, credit.start + (credit.span > 1 ? credit.span - 1 : 0));
  }
  if (held(last) < needed) return kNever;
  std::uint64_t low = now + 1;  // the answer is in [low, last]
  while (low < last) {
    const std::uint64_t mid = low + (last - low) / 2;
    if (held(mid) >= needed) {
      last = mid;
    } else {
      low = mid + 1;
    }
  }
  return last;
}

std::uint64_t Router::vc_reach(const Output& output, const Entry& head, std::uint64_t now) const {
  std::uint64_t reach = kNever;
  for (int vc = head.vc_first; vc < head.vc_last; ++vc) {
    // A body packet waits for its message's VC; a head for any VC no message holds.
    if (head.head ? output.vc_owner[vc] >= 0 : output.vc_owner[vc] != head.message) continue;
    reach = std::min(reach, credit_reach(output, vc, head.flits, now));
  }
  return reach;
}

bool Router::reservation_holds(std::size_t out, std::uint64_t now) const {
  const int fifo = scan_[out].reserved_fifo;
  if (fifo < 0) return false;
  return inputs_[static_cast<std::size_t>(port_of(fifo))].busy_until > now &&
         requesters_of(static_cast<int>(out)).contains(fifo) &&
         pick_vc(outputs_[out], fifos_[static_cast<std::size_t>(fifo)].front()) >= 0;
}

bool Router::can_move(std::uint64_t now) const {
  for (std::size_t o = 0; o < scan_.size(); ++o) {
    const OutputScan& scan = scan_[o];
    if (!scan.open(now)) continue;
    if (scan.reserved_fifo >= 0) {
      if (reservation_holds(o, now)) continue;
      return true;  // the reservation lapses or is served
    }
    for (const int fifo : requesters_of(static_cast<int>(o))) {
      const Entry& head = fifos_[static_cast<std::size_t>(fifo)].front();
      if (head.ready <= now && pick_vc(outputs_[o], head) >= 0) return true;
    }
  }
  return false;
}

void Router::process() {
  guard_process([this] { step(); });
}

void Router::step() {
  const std::uint64_t now = clock_.now();
  wakeup_.clear();
  apply_credits(now);
  // Most wake-ups of a router whose packets wait for credits land a flit too few: when no free
  // output has a packet it could take (nor a reservation to serve or drop), the passes below
  // would change nothing; only the next wake-up is due. The every_cycle reference allocates in
  // every run, so scripts/order_check.py checks this shortcut too.
  if (params_.every_cycle || can_move(now)) allocate(now);
  schedule_wakeup(now);
}

void Router::allocate(std::uint64_t now) {
  // A grant can expose a new head for an output already visited: repeat until nothing moves.
  // Outputs arbitrate in the allocator's rotating order (they compete for inputs).
  // After the first pass only an output that gained a requester can grant (a grant only takes
  // an input port, an output and credits away), so later passes visit only those.
  // In the first pass an input port's VCs take turns across outputs (input_prefers_other); later
  // passes only fill what is still free.
  const int outputs = allocator_.outputs();
  if (visit_rank_start_ != allocator_.output_at(0)) {  // the rotation moved: new ranks
    visit_rank_start_ = allocator_.output_at(0);
    visit_rank_.resize(static_cast<std::size_t>(outputs));
    for (int k = 0; k < outputs; ++k) {
      visit_rank_[static_cast<std::size_t>(allocator_.output_at(k))] = k;
    }
  }
  // The packets these passes may grant are read only when granted, most of them far from this
  // router's last run in the cache: fetch their lines now, while the passes decide.
  for (std::size_t o = 0; o < scan_.size(); ++o) {
    const OutputScan& scan = scan_[o];
    if (!scan.open(now)) continue;
    out_fw_[o].prefetch();  // the link a grant hands the packet to
    for (const int fifo : requesters_of(static_cast<int>(o))) {
      prefetch_hop_lines(*fifos_[static_cast<std::size_t>(fifo)].front().payload);
    }
  }
  bool moved = true;
  bool first_pass = true;
  while (moved) {
    moved = false;
    for (int k = 0, out = visit_rank_start_; k < outputs;
         ++k, out = out + 1 == outputs ? 0 : out + 1) {
      OutputScan& scan = scan_[static_cast<std::size_t>(out)];
      if (!first_pass && !scan.gained_requester) continue;
      scan.gained_requester = false;
      if (!scan.open(now)) continue;  // (arbitrate would say so first)
      if (arbitrate(out, now, first_pass ? &visit_rank_ : nullptr)) {
        allocator_.granted(out);
        moved = true;
      }
    }
    if (first_pass) {
      // An output that deferred to a later one visits again even if nothing moved.
      for (const OutputScan& scan : scan_) moved = moved || scan.gained_requester;
    }
    first_pass = false;
  }
  allocator_.end_round();
}

void Router::schedule_wakeup(std::uint64_t now) {
  std::uint64_t next = kNever;
  std::uint64_t credit_wake = kNever;  // credits that let a waiting head move (or reserve)
  blocked_ = false;
  for (std::size_t o = 0; o < scan_.size(); ++o) {
    const OutputScan& scan = scan_[o];
    if (scan.requesters == 0) continue;
    if (scan.busy_until > now) {
      next = std::min(next, scan.busy_until);
      continue;
    }
    if (reservation_holds(o, now)) {  // nothing changes here before the reserved port frees
      const Input& reserved = inputs_[static_cast<std::size_t>(port_of(scan.reserved_fifo))];
      next = std::min(next, reserved.busy_until);
      continue;
    }
    for (const int fifo : requesters_of(static_cast<int>(o))) {
      const Entry& head = fifos_[static_cast<std::size_t>(fifo)].front();
      const std::uint64_t input_free = inputs_[static_cast<std::size_t>(port_of(fifo))].busy_until;
      // A head that keeps its turn reserves this output from its ready cycle on even while its
      // input port is busy (arbitrate): the router runs then, and when a credit lands that it
      // lacks, as if it ran every cycle; results then do not depend on which cycles it runs.
      const bool reserves = keeps_turn(head.message_flow);
      if (head.ready > now) {
        next = std::min(next, reserves ? head.ready : std::max(head.ready, input_free));
        continue;
      }
      if (input_free > now) next = std::min(next, input_free);
      if (input_free > now && !reserves) continue;
      // A credit may let it move or reserve: run when enough have landed for it, not at every
      // flit landing (runs in between would change nothing). A head with a VC it could take
      // already waits for nothing a credit changes: after allocate()'s passes such a head at a
      // free output (can_move was true) has its input port busy and reserved by another output
      // (it would have been granted, or have reserved this output, otherwise), and the router
      // runs when that port frees.
      const Output& output = outputs_[o];
      if (pick_vc(output, head) >= 0) continue;
      blocked_ = true;
      credit_wake = std::min(credit_wake, vc_reach(output, head, now));
    }
  }
  if (blocked_) next = std::min(next, credit_wake);
  if (params_.every_cycle && buffered_ > 0) next = std::min(next, now + 1);
  if (next != kNever) wakeup_.at(next);
}

}  // namespace mt
