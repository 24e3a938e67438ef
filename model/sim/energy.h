#pragma once
// Energy of one all-reduce: the events that cost energy, counted where they happen (links,
// routers, the NICs' transmit DMA, receive buffer and reduction unit, the NIC scheduler), with
// the time each component is powered, and their price (EnergyParams, model/params/energy_config.h)
// in picojoules by component. docs/energy.md gives the sources of the prices and the formula of
// every line.

#include <cstdint>

#include "model/data/data_store.h"
#include "model/params/energy_config.h"

namespace mt {

/// What one run did that costs energy, summed over its components.
struct EnergyCounts {
  std::uint64_t link_bits = 0;         ///< bits serialised on topology links (whole flits)
  std::uint64_t link_credit_bits = 0;  ///< credit bits sent back over topology links
  /// Bits the topology links could have sent while idle: sum over links of (run cycles - busy
  /// cycles) x bandwidth, bits.
  double link_idle_bits = 0;
  std::uint64_t router_buffer_writes = 0;  ///< flits written into router input buffers
  std::uint64_t router_buffer_reads = 0;   ///< flits read out of them (each crosses the crossbar)
  std::uint64_t router_heads = 0;          ///< heads granted: VC allocations
  std::uint64_t routers = 0;               ///< routers (and switches) powered
  std::uint64_t router_cycles = 0;         ///< routers x run cycles
  std::uint64_t nic_buffer_writes = 0;     ///< flits into NIC receive buffers
  std::uint64_t nic_buffer_reads = 0;      ///< flits out of them
  std::uint64_t memory_read_bits = 0;      ///< local memory read by the NICs, bits
  std::uint64_t memory_write_bits = 0;     ///< local memory written by the NICs, bits
  std::uint64_t adds = 0;                  ///< element adds of the reduction units
  Dtype dtype = Dtype::kFp32;              ///< what the adds add
  std::uint64_t schedulers = 0;            ///< NIC schedulers powered (hardware issue)
  std::uint64_t scheduler_active_cycles = 0;  ///< cycles the schedulers worked (ticks), summed
  std::uint64_t scheduler_idle_cycles = 0;    ///< their clock cycles in the run without work
  double run_ns = 0;                          ///< the run's time (completion), ns
};

/// The price of a run's events by component, pJ. Static lines are powers over the run's time.
struct EnergyBreakdown {
  double link_data_pj = 0;          ///< link bits x link pJ/bit
  double link_credit_pj = 0;        ///< credit bits x link pJ/bit
  double link_idle_pj = 0;          ///< idle bits x link pJ/bit x idle fraction (static)
  double router_buffer_pj = 0;      ///< buffer writes and reads
  double router_crossbar_pj = 0;    ///< crossbar traversals
  double router_allocation_pj = 0;  ///< switch allocation per flit, VC allocation per head
  double router_clock_pj = 0;       ///< clock tree per router cycle (static)
  double router_leakage_pj = 0;     ///< leakage x routers x run time (static)
  double nic_memory_pj = 0;         ///< local memory bits read and written x pJ/bit
  double nic_buffer_pj = 0;         ///< receive buffer writes and reads (router buffer prices)
  double nic_reduction_pj = 0;      ///< adds x pJ/add (fp32 or int32)
  double scheduler_active_pj = 0;   ///< scheduler cycles with work x pJ/cycle
  double scheduler_idle_pj = 0;     ///< scheduler cycles without work x pJ/cycle (static)
  double scheduler_leakage_pj = 0;  ///< leakage x schedulers x run time (static)

  /// Every line, pJ.
  double total_pj() const;
  /// The lines that scale with the time a run takes rather than with its traffic, pJ.
  double static_pj() const;
  /// The NIC's share: memory, receive buffer, reduction and scheduler, pJ.
  double nic_pj() const;
  /// The scheduler's lines, pJ.
  double scheduler_pj() const;
};

/// `counts` priced with `prices`.
EnergyBreakdown price_energy(const EnergyCounts& counts, const EnergyParams& prices);

/// Energy per byte reduced: `total_pj` over (nodes x bytes), every node contributing `bytes`;
/// 0 when nothing was reduced, pJ/B.
double energy_pj_per_byte(double total_pj, int nodes, std::uint64_t bytes);

/// Bits per flit of a credit returned to a buffer of `vcs` VCs: the VC's number and a valid bit.
int credit_bits_per_flit(int vcs);

}  // namespace mt
