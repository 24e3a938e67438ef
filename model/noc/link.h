#pragma once
// LinkChannel: one directed link of the network model (named so as not to clash with the topology's
// mt::Link record). Serialises one packet at a time at its bandwidth, then delays it by the wire
// latency; a full-duplex cable is two LinkChannels. Also used, with zero latency, for the local
// injection/ejection ports between a NIC and its router.

#include <systemc>
#include <tlm>

#include <algorithm>
#include <cstdint>

#include "model/noc/cycle_clock.h"
#include "model/noc/port_entry.h"

namespace mt {

/// Parameters of one directed channel.
struct LinkParams {
  int id = -1;                  ///< topology directed link id, -1 for a local NIC port channel
  double bytes_per_cycle = 16;  ///< serialisation bandwidth, bytes per cycle
  int latency_cycles = 0;       ///< wire latency of the head (and of credits going back), cycles
  int flit_bytes = 16;          ///< flit size, bytes (a packet's wire size is flits * flit_bytes)
};

/// A directed channel between an upstream sender (router output or NIC port) and a downstream
/// receiver (router input or NIC port). See model/noc/packet.h for the hop protocol. The channel
/// is its sockets' TLM interface itself (forward for the sender, backward for the receiver).
class LinkChannel : public sc_core::sc_module,
                    public tlm::tlm_fw_transport_if<>,
                    public tlm::tlm_bw_transport_if<> {
 public:
  /// From the upstream sender: BEGIN_REQ starts a packet; credits go back through it.
  tlm::tlm_target_socket<> in_socket{"in_socket"};
  /// To the downstream receiver.
  tlm::tlm_initiator_socket<> out_socket{"out_socket"};

  /// A channel with `params`; `clock` converts cycles to SystemC time.
  LinkChannel(const sc_core::sc_module_name& name, const LinkParams& params,
              const CycleClock& clock);

  /// Cycles a packet of `flits` flits occupies a channel: ceil(flits * flit_bytes /
  /// bytes_per_cycle).
  static std::uint64_t serialization_cycles(int flits, int flit_bytes, double bytes_per_cycle);

  /// For a sender whose socket is bound to `target` (at the end of elaboration): the entry its
  /// packets take. When `target` is a LinkChannel, the channel's forward handler, and the
  /// channel returns credits straight to `credits` (the sender's backward handler); otherwise
  /// the interface.
  static PortEntry attach_sender(tlm::tlm_fw_transport_if<>* target, const PortEntry& credits);
  /// For a receiver whose socket is bound to `initiator` (at the end of elaboration): when that
  /// is a LinkChannel, the channel delivers packets straight to `packets` (the receiver's forward
  /// handler).
  static void attach_receiver(tlm::tlm_bw_transport_if<>* initiator, const PortEntry& packets);
  /// For that receiver, once every component is attached (at the start of simulation): where its
  /// credits go. Through a LinkChannel, straight to the sender's backward handler after the
  /// wire's latency; otherwise into the interface.
  static CreditPath credit_path(tlm::tlm_bw_transport_if<>* initiator);

  /// Parameters the channel was built with.
  const LinkParams& params() const { return params_; }
  /// Wire bytes serialised so far (payload + headers, whole flits).
  std::uint64_t bytes() const {
    return bytes_before_ + run_packets_ * static_cast<std::uint64_t>(std::max(last_flits_, 0)) *
                               static_cast<std::uint64_t>(params_.flit_bytes);
  }
  /// Cycles spent serialising so far.
  std::uint64_t busy_cycles() const {
    return busy_cycles_before_ + run_packets_ * last_serialization_;
  }
  /// Packets carried so far.
  std::uint64_t packets() const { return packets_before_ + run_packets_; }

  /// TLM forward path (the sender's socket): BEGIN_REQ starts a packet.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  /// TLM backward path (the receiver's socket): BEGIN_RESP returns a credit.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  /// Not part of the hop protocol: reports an error.
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  /// No direct memory interface: false.
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi) override;
  /// No debug transport: 0 bytes.
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;
  /// No direct memory interface: nothing to invalidate.
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

 private:
  /// nb_transport_fw with the tag of a PortEntry (attach_sender).
  tlm::tlm_sync_enum forward(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                             sc_core::sc_time& delay);
  /// Where packets and credits go when no component attached itself (any TLM peer).
  void end_of_elaboration() override;

  // What a packet's forward call reads and writes, in one cache line: the statistics count the
  // packets of the current run of one size only (a run's packets have one serialisation), and
  // the totals of earlier runs sit in the next line, written when the size changes. (Credits
  // from a receiver attached by credit_path() skip the channel.)
  alignas(64) PortEntry downstream_;  // the receiver's forward handler
  const CycleClock& clock_;
  std::uint64_t busy_until_ = 0;          // cycle the current packet's tail has left
  std::uint64_t last_serialization_ = 0;  // serialisation of a packet of last_flits_, cycles
  int latency_cycles_ = 0;                // params_.latency_cycles
  int last_flits_ = -1;                   // flits of the packets of the current run
  std::uint64_t run_packets_ = 0;         // packets of the current run
  PortEntry upstream_;                    // the sender's backward handler
  std::uint64_t bytes_before_ = 0;        // totals of the runs before the current one
  std::uint64_t busy_cycles_before_ = 0;
  std::uint64_t packets_before_ = 0;
  LinkParams params_;
};

}  // namespace mt
