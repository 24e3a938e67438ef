#pragma once
// Stubs around one Router or LinkChannel, without a System: a Sender that injects packets at
// given cycles and records the credits that come back, and a Receiver that records every packet
// it gets and answers like a link (END_REQ after `serialization` cycles) and, when asked, like a
// downstream buffer (a credit `credit_after` cycles after the packet arrived). The protocol is
// the hop protocol of model/noc/packet.h.

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/core/error.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/packet.h"

namespace mt::test {

/// A packet sent, or a credit received, at a cycle.
struct NocEvent {
  std::uint64_t cycle = 0;
  int message = 0;
  int vc = 0;              ///< packet: VC it travels on; credit: credit_vc
  int flits = 0;           ///< packet: flits; credit: flits returned
  std::uint64_t span = 0;  ///< credit: cycles over which the flits land (0: all at `cycle`)
};

/// One credit return the upstream sender should see: `flits` flits, the first landing at `cycle`,
/// spread evenly over `span` cycles (0: all at `cycle`).
struct CreditReturn {
  std::uint64_t cycle = 0;
  int flits = 0;
  std::uint64_t span = 0;
  bool operator==(const CreditReturn& o) const {
    return cycle == o.cycle && flits == o.flits && span == o.span;
  }
};

/// The credit returns a router owes the upstream of a network input for a packet of `flits`
/// flits granted at cycle `grant` that occupies the output for `serialization` cycles. The one
/// place that states the rule: the buffer frees flit by flit as the packet drains, the first
/// flit's space a cycle after the grant, the tail's `serialization` cycles after it.
inline std::vector<CreditReturn> credit_returns(std::uint64_t grant, std::uint64_t serialization,
                                                int flits) {
  return {CreditReturn{grant + 1, flits, serialization}};
}

/// Injects packets at chosen cycles through `socket`; records END_REQ answers and credits.
class Sender : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Sender> socket{"socket"};

  SC_HAS_PROCESS(Sender);
  Sender(const sc_core::sc_module_name& name, const CycleClock& clock)
      : sc_core::sc_module(name), clock_(clock) {
    socket.register_nb_transport_bw(this, &Sender::nb_transport_bw);
    SC_THREAD(run);
  }

  /// Sends `payload` at `cycle` (cycles in increasing order of calls).
  void send_at(std::uint64_t cycle, tlm::tlm_generic_payload* payload) {
    plan_.emplace_back(cycle, payload);
  }

  std::vector<NocEvent> sent;                 ///< what left, when
  std::vector<std::uint64_t> end_req_delays;  ///< END_REQ delay of each send, cycles
  std::vector<NocEvent> credits;              ///< credits back, at the cycle they count
  std::vector<CreditReturn> credit_returns() const {
    std::vector<CreditReturn> out;
    for (const NocEvent& c : credits) out.push_back({c.cycle, c.flits, c.span});
    return out;
  }

 private:
  void run() {
    for (const auto& [cycle, payload] : plan_) {
      if (cycle > clock_.now()) wait(clock_.to_time(cycle - clock_.now()));
      const PacketExtension& packet = packet_of(*payload);
      sent.push_back({clock_.now(), packet.message, packet.vc, packet.flits});
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum status = socket->nb_transport_fw(*payload, phase, delay);
      end_req_delays.push_back(
          status == tlm::TLM_UPDATED && phase == tlm::END_REQ ? clock_.to_cycles(delay) : 0);
    }
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase&,
                                     sc_core::sc_time& delay) {
    const PacketExtension& packet = packet_of(payload);
    credits.push_back({clock_.now() + clock_.to_cycles(delay), packet.message, packet.credit_vc,
                       packet.flits, packet.credit_span});
    return tlm::TLM_COMPLETED;
  }

  const CycleClock& clock_;
  std::vector<std::pair<std::uint64_t, tlm::tlm_generic_payload*>> plan_;
};

/// Takes packets through `socket`: records each at the cycle its head arrives, answers END_REQ
/// after `serialization` cycles and, with credit_after >= 0, returns the packet's flits on its VC
/// `credit_after` cycles after the head arrived.
class Receiver : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Receiver> socket{"socket"};

  Receiver(const sc_core::sc_module_name& name, const CycleClock& clock,
           std::uint64_t serialization, int credit_after = -1, std::uint64_t credit_span = 0)
      : sc_core::sc_module(name),
        clock_(clock),
        serialization_(serialization),
        credit_after_(credit_after),
        credit_span_(credit_span) {
    socket.register_nb_transport_fw(this, &Receiver::nb_transport_fw);
  }

  std::vector<NocEvent> received;  ///< head arrivals
  /// Throws an mt::Error at the first packet: a fault in the process that delivers it.
  bool fail = false;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    if (fail) throw Error(std::string(name()) + ": a fault at the first packet");
    PacketExtension& packet = packet_of(payload);
    const std::uint64_t arrival = clock_.now() + clock_.to_cycles(delay);
    received.push_back({arrival, packet.message, packet.vc, packet.flits});
    if (credit_after_ >= 0) {
      packet.credit_vc = packet.vc;
      packet.credit_span = credit_span_;
      tlm::tlm_phase credit_phase = tlm::BEGIN_RESP;
      sc_core::sc_time credit_delay =
          delay + clock_.to_time(static_cast<std::uint64_t>(credit_after_));
      socket->nb_transport_bw(payload, credit_phase, credit_delay);
    }
    phase = tlm::END_REQ;
    delay += clock_.to_time(serialization_);
    return tlm::TLM_UPDATED;
  }

  const CycleClock& clock_;
  std::uint64_t serialization_;
  int credit_after_;
  std::uint64_t credit_span_;
};

/// A single-packet message of `flits` flits from `src` to `dst` along `path`, heading for the
/// path's link `hop` on VC `vc`.
inline tlm::tlm_generic_payload* make_packet(PacketPool& pool, int message, int src, int dst,
                                             const std::vector<int>* path, int hop, int flits,
                                             int vc = 0) {
  tlm::tlm_generic_payload* payload = pool.acquire();
  PacketExtension& p = packet_of(*payload);
  p = PacketExtension();
  p.src = src;
  p.dst = dst;
  p.flow = message;
  p.message = message;
  p.flits = flits;
  p.payload_bytes = flits * 16;
  p.set_route(path, path == nullptr ? 0 : static_cast<int>(path->size()),
              path == nullptr || path->empty() ? -1 : path->front(), hop);
  p.vc = vc;
  return payload;
}

}  // namespace mt::test
