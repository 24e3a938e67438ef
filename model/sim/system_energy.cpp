// What a run did that costs energy: every component's activity counters (counted where the
// events happen) summed, and the time each component was powered (model/sim/energy.h).
#include <algorithm>
#include <cmath>

#include "model/sim/system_impl.h"

namespace mt {

EnergyCounts System::Impl::energy_counts(std::uint64_t completion) const {
  EnergyCounts c;
  const auto run_cycles = static_cast<double>(completion);
  for (const auto& link : links) {
    c.link_bits += 8 * link->bytes();
    const auto busy = static_cast<double>(std::min(link->busy_cycles(), completion));
    c.link_idle_bits += (run_cycles - busy) * link->params().bytes_per_cycle * 8;
  }
  const std::uint64_t router_credit_bits = credit_bits_per_flit(config.router.vcs);
  for (const auto& router : routers) {
    const RouterActivity& a = router->activity();
    c.router_buffer_writes += a.buffer_writes;
    c.router_buffer_reads += a.buffer_reads;
    c.router_heads += a.heads;
    c.link_credit_bits += a.link_credit_flits * router_credit_bits;
  }
  c.routers = routers.size();
  c.router_cycles = c.routers * completion;
  const std::uint64_t nic_credit_bits = credit_bits_per_flit(config.nic.receive_vcs);
  // The scheduler's clock edges over the run (its clock may be slower than the network's).
  const auto scheduler_clocks = static_cast<std::uint64_t>(
      std::ceil(run_cycles / config.issue.scheduler.network_cycles_per_tick));
  for (const auto& nic : nics) {
    const NicActivity a = nic->activity();
    c.nic_buffer_writes += a.rx.buffer_writes;
    c.nic_buffer_reads += a.rx.buffer_reads;
    c.memory_read_bits += 8 * (a.tx_memory_read_bytes + a.rx.memory_read_bytes);
    c.memory_write_bits += 8 * a.rx.memory_write_bytes;
    c.adds += a.rx.adds;
    c.link_credit_bits += a.rx.link_credit_flits * nic_credit_bits;
    if (a.hardware_scheduler) {
      ++c.schedulers;
      c.scheduler_active_cycles += a.scheduler_cycles;
      c.scheduler_idle_cycles += scheduler_clocks - std::min(a.scheduler_cycles, scheduler_clocks);
    }
  }
  c.dtype = config.data.dtype;
  c.run_ns = run_cycles / config.clock_ghz;
  return c;
}

}  // namespace mt
