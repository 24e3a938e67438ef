#include "model/noc/packet.h"

namespace mt {

tlm::tlm_generic_payload* PacketPool::acquire() {
  if (free_.empty()) {
    all_.push_back(std::make_unique<PooledPayload>());
    tlm::tlm_generic_payload* payload = all_.back().get();
    payload->set_command(tlm::TLM_WRITE_COMMAND);
    return payload;
  }
  tlm::tlm_generic_payload* payload = free_.back();
  free_.pop_back();
  return payload;
}

void PacketPool::release(tlm::tlm_generic_payload* payload) {
  free_.push_back(payload);
}

}  // namespace mt
