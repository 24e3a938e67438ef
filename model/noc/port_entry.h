#pragma once
// PortEntry: where a packet (or its credit) goes next, called directly. Links, routers and NICs are
// bound by TLM-2.0 sockets as usual; at the end of elaboration each keeps, per socket, one entry
// into what the socket is bound to (see LinkChannel::attach_sender/attach_receiver). A call then
// reads only the entry, which sits in the caller's own state, and lands in the handler of the
// component behind it: a call through a socket first reads the socket's port, then the peer
// socket's callback object, two cache lines per hop that no cache holds at pod scale
// (docs/speed.md).

#include <systemc>
#include <tlm>

namespace mt {

/// A direct entry into one port's nb_transport handler of a component, or into a TLM interface.
struct PortEntry {
  /// Calls the handler of `owner` for `port`.
  using Call = tlm::tlm_sync_enum (*)(void* owner, int port, tlm::tlm_generic_payload& payload,
                                      tlm::tlm_phase& phase, sc_core::sc_time& delay);

  void* owner = nullptr;  ///< the component (or interface) called
  Call call = nullptr;    ///< its handler
  int port = 0;           ///< the port (socket tag) the handler is called for
  /// The cache line of `owner` its handler reads first (nullptr: not known).
  const void* first_line = nullptr;

  /// True once the entry leads somewhere.
  bool bound() const { return call != nullptr; }
  /// Starts fetching the line the handler reads first, ahead of a call that may follow.
  void prefetch() const {
    if (first_line != nullptr) __builtin_prefetch(first_line);
  }
  /// Hands the payload to the handler.
  tlm::tlm_sync_enum operator()(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                sc_core::sc_time& delay) const {
    return call(owner, port, payload, phase, delay);
  }

  /// The entry into `Method` of `owner` (a tagged socket's callback) for `port`.
  template <class T, tlm::tlm_sync_enum (T::*Method)(int, tlm::tlm_generic_payload&,
                                                     tlm::tlm_phase&, sc_core::sc_time&)>
  static PortEntry method(T* owner, int port) {
    return PortEntry{owner,
                     [](void* self, int tag, tlm::tlm_generic_payload& payload,
                        tlm::tlm_phase& phase, sc_core::sc_time& delay) {
                       return (static_cast<T*>(self)->*Method)(tag, payload, phase, delay);
                     },
                     port, nullptr};
  }
  /// The entry into `Method` of interface `target` (the port is not passed).
  template <class I, tlm::tlm_sync_enum (I::*Method)(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                     sc_core::sc_time&)>
  static PortEntry interface(I* target) {
    return PortEntry{target,
                     [](void* self, int, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                        sc_core::sc_time& delay) {
                       return (static_cast<I*>(self)->*Method)(payload, phase, delay);
                     },
                     0, nullptr};
  }
  /// The entry into a forward interface (any TLM target).
  static PortEntry forward(tlm::tlm_fw_nonblocking_transport_if<>* target) {
    return interface<tlm::tlm_fw_nonblocking_transport_if<>,
                     &tlm::tlm_fw_nonblocking_transport_if<>::nb_transport_fw>(target);
  }
  /// The entry into a backward interface (any TLM initiator).
  static PortEntry backward(tlm::tlm_bw_nonblocking_transport_if<>* initiator) {
    return interface<tlm::tlm_bw_nonblocking_transport_if<>,
                     &tlm::tlm_bw_nonblocking_transport_if<>::nb_transport_bw>(initiator);
  }
};

/// Where a receiver's credits go: to the sender's backward handler, `latency` later. A credit
/// crossing a LinkChannel changes nothing in the channel but the time, so the receiver keeps the
/// sender's entry and the wire's latency (LinkChannel::credit_path) and calls the sender directly.
struct CreditPath {
  PortEntry to;                                      ///< the sender's backward handler
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;  ///< added to the credit's delay

  /// Returns the credit to the sender.
  tlm::tlm_sync_enum operator()(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                sc_core::sc_time& delay) const {
    delay += latency;
    return to(payload, phase, delay);
  }
};

}  // namespace mt
