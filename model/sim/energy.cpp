#include "model/sim/energy.h"

namespace mt {

double EnergyBreakdown::total_pj() const {
  return link_data_pj + link_credit_pj + link_idle_pj + router_buffer_pj + router_crossbar_pj +
         router_allocation_pj + router_clock_pj + router_leakage_pj + nic_memory_pj +
         nic_buffer_pj + nic_reduction_pj + scheduler_pj();
}

double EnergyBreakdown::static_pj() const {
  return link_idle_pj + router_clock_pj + router_leakage_pj + scheduler_idle_pj +
         scheduler_leakage_pj;
}

double EnergyBreakdown::nic_pj() const {
  return nic_memory_pj + nic_buffer_pj + nic_reduction_pj + scheduler_pj();
}

double EnergyBreakdown::scheduler_pj() const {
  return scheduler_active_pj + scheduler_idle_pj + scheduler_leakage_pj;
}

EnergyBreakdown price_energy(const EnergyCounts& c, const EnergyParams& p) {
  const auto n = [](std::uint64_t v) { return static_cast<double>(v); };
  EnergyBreakdown e;
  e.link_data_pj = n(c.link_bits) * p.link_pj_per_bit;
  e.link_credit_pj = n(c.link_credit_bits) * p.link_pj_per_bit;
  e.link_idle_pj = c.link_idle_bits * p.link_pj_per_bit * p.link_idle_fraction;
  e.router_buffer_pj = n(c.router_buffer_writes) * p.router_buffer_write_pj +
                       n(c.router_buffer_reads) * p.router_buffer_read_pj;
  e.router_crossbar_pj = n(c.router_buffer_reads) * p.router_crossbar_pj;
  e.router_allocation_pj = n(c.router_buffer_reads) * p.router_switch_alloc_pj +
                           n(c.router_heads) * p.router_vc_alloc_pj;
  e.router_clock_pj = n(c.router_cycles) * p.router_clock_pj_per_cycle;
  // mW x ns = pJ.
  e.router_leakage_pj = n(c.routers) * p.router_leakage_mw * c.run_ns;
  e.nic_memory_pj = n(c.memory_read_bits + c.memory_write_bits) * p.memory_pj_per_bit;
  e.nic_buffer_pj = n(c.nic_buffer_writes) * p.router_buffer_write_pj +
                    n(c.nic_buffer_reads) * p.router_buffer_read_pj;
  e.nic_reduction_pj = n(c.adds) * (c.dtype == Dtype::kInt32 ? p.int32_add_pj : p.fp32_add_pj);
  e.scheduler_active_pj = n(c.scheduler_active_cycles) * p.scheduler_active_pj_per_cycle;
  e.scheduler_idle_pj = n(c.scheduler_idle_cycles) * p.scheduler_idle_pj_per_cycle;
  e.scheduler_leakage_pj = n(c.schedulers) * p.scheduler_leakage_mw * c.run_ns;
  return e;
}

double energy_pj_per_byte(double total_pj, int nodes, std::uint64_t bytes) {
  const double reduced = static_cast<double>(nodes) * static_cast<double>(bytes);
  return reduced > 0 ? total_pj / reduced : 0.0;
}

int credit_bits_per_flit(int vcs) {
  int bits = 0;
  while ((1 << bits) < vcs) ++bits;
  return bits + 1;
}

}  // namespace mt
