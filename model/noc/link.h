#pragma once
// LinkChannel: one directed link of the network model (named so as not to clash with the topology's
// mt::Link record). Serialises one packet at a time at its bandwidth, then delays it by the wire
// latency; a full-duplex cable is two LinkChannels. Also used, with zero latency, for the local
// injection/ejection ports between a NIC and its router.

#include <tlm_utils/passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>

#include "model/noc/cycle_clock.h"

namespace mt {

/// Parameters of one directed channel.
struct LinkParams {
  int id = -1;                  ///< topology directed link id, -1 for a local NIC port channel
  double bytes_per_cycle = 16;  ///< serialisation bandwidth, bytes per cycle
  int latency_cycles = 0;       ///< wire latency of the head (and of credits going back), cycles
  int flit_bytes = 16;          ///< flit size, bytes (a packet's wire size is flits * flit_bytes)
};

/// A directed channel between an upstream sender (router output or NIC port) and a downstream
/// receiver (router input or NIC port). See model/noc/packet.h for the hop protocol.
class LinkChannel : public sc_core::sc_module {
 public:
  /// From the upstream sender: BEGIN_REQ starts a packet; credits go back through it.
  tlm_utils::passthrough_target_socket<LinkChannel> in_socket{"in_socket"};
  /// To the downstream receiver.
  tlm_utils::simple_initiator_socket<LinkChannel> out_socket{"out_socket"};

  /// A channel with `params`; `clock` converts cycles to SystemC time.
  LinkChannel(const sc_core::sc_module_name& name, const LinkParams& params,
              const CycleClock& clock);

  /// Cycles a packet of `flits` flits occupies a channel: ceil(flits * flit_bytes /
  /// bytes_per_cycle).
  static std::uint64_t serialization_cycles(int flits, int flit_bytes, double bytes_per_cycle);

  /// Parameters the channel was built with.
  const LinkParams& params() const { return params_; }
  /// Wire bytes serialised so far (payload + headers, whole flits).
  std::uint64_t bytes() const { return bytes_; }
  /// Cycles spent serialising so far.
  std::uint64_t busy_cycles() const { return busy_cycles_; }
  /// Packets carried so far.
  std::uint64_t packets() const { return packets_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  /// Keeps the interfaces the sockets are bound to (see downstream_).
  void end_of_elaboration() override;

  // What a packet's forward and backward calls read comes first, in one cache line (the backward
  // call, a credit, reads only it); the statistics and the parameters follow.
  // The interfaces bound to out_socket and in_socket's backward path are called directly: a call
  // through a socket first reads the socket's port, one more cache line per packet at scale.
  alignas(64) tlm::tlm_bw_transport_if<>* upstream_ = nullptr;
  int latency_cycles_ = 0;  // params_.latency_cycles
  int last_flits_ = -1;     // flits of the last packet and its serialisation, cycles
  tlm::tlm_fw_transport_if<>* downstream_ = nullptr;
  const CycleClock& clock_;
  std::uint64_t busy_until_ = 0;          // cycle the current packet's tail has left
  std::uint64_t last_serialization_ = 0;  // (packets of a run mostly have one or two sizes)
  std::uint64_t bytes_ = 0;
  std::uint64_t busy_cycles_ = 0;
  std::uint64_t packets_ = 0;
  LinkParams params_;
};

}  // namespace mt
