#pragma once
// The prices of the events that cost energy, as a scenario gives them (`energy:`): a named preset
// for the link type, every figure taken from a published source (docs/energy.md lists each
// source, its technology node and how it was converted), any figure overridden by its own key.
// Logic (routers, the reduction unit, the scheduler) is priced at 7 nm; link PHYs and the local
// memory (HBM2) at the figures published for the parts named. model/run/resolve.h turns the
// section into EnergyParams; model/sim/energy.h counts and prices.

#include <array>
#include <cstddef>
#include <optional>

#include "model/core/enum_names.h"
#include "model/params/scheduler_power.h"

namespace mt {

/// The link type a preset prices (`energy.preset`).
enum class EnergyPreset {
  kOnPackage,  ///< "on_package": die-to-die links in one package (TSMC LIPINCON on CoWoS, 7 nm)
  kBoard,      ///< "board": chip-to-chip links over a board (112G-class SerDes)
};
template <>
struct EnumNames<EnergyPreset> {
  static constexpr std::array<const char*, 2> kNames{"on_package", "board"};
};

/// The price of every event, and the static power of every component.
struct EnergyParams {
  EnergyPreset preset = EnergyPreset::kBoard;  ///< the preset the figures start from
  double link_pj_per_bit = 0;     ///< a bit over a topology link (wire bits: heads included), pJ
  double link_idle_fraction = 0;  ///< an idle link's power / its power streaming, 0..1
  double router_buffer_write_pj = 0;     ///< a flit written into a router input buffer, pJ
  double router_buffer_read_pj = 0;      ///< a flit read out of a router input buffer, pJ
  double router_crossbar_pj = 0;         ///< a flit through a router's crossbar, pJ
  double router_switch_alloc_pj = 0;     ///< switch allocation, per flit granted, pJ
  double router_vc_alloc_pj = 0;         ///< VC allocation, per head granted, pJ
  double router_clock_pj_per_cycle = 0;  ///< a router's clock tree, per cycle of the run, pJ
  double router_leakage_mw = 0;          ///< a router's leakage, mW
  double memory_pj_per_bit = 0;          ///< a bit read or written in local memory by the NIC, pJ
  double fp32_add_pj = 0;                ///< one fp32 add in the reduction unit, pJ
  double int32_add_pj = 0;               ///< one int32 add in the reduction unit, pJ
  /// The NIC scheduler (hardware issue): a cycle it is clocked with work (ticked), pJ.
  double scheduler_active_pj_per_cycle = 0;
  /// A cycle it is clocked without work (its clock is not gated: flops clocked, data still), pJ.
  double scheduler_idle_pj_per_cycle = 0;
  double scheduler_leakage_mw = 0;  ///< its leakage, mW
};

/// `energy:` of a scenario: a preset and the figures that override it.
struct EnergyConfig {
  EnergyPreset preset = EnergyPreset::kBoard;  ///< the figures unless overridden
  /// Per EnergyParams member, in its order: the overriding figure, if given.
  std::array<std::optional<double>, 15> given;
};

/// The members of EnergyParams in key order (the index into EnergyConfig::given).
inline const std::array<double EnergyParams::*, 15>& energy_members() {
  static const std::array<double EnergyParams::*, 15> kMembers{
      &EnergyParams::link_pj_per_bit,
      &EnergyParams::link_idle_fraction,
      &EnergyParams::router_buffer_write_pj,
      &EnergyParams::router_buffer_read_pj,
      &EnergyParams::router_crossbar_pj,
      &EnergyParams::router_switch_alloc_pj,
      &EnergyParams::router_vc_alloc_pj,
      &EnergyParams::router_clock_pj_per_cycle,
      &EnergyParams::router_leakage_mw,
      &EnergyParams::memory_pj_per_bit,
      &EnergyParams::fp32_add_pj,
      &EnergyParams::int32_add_pj,
      &EnergyParams::scheduler_active_pj_per_cycle,
      &EnergyParams::scheduler_idle_pj_per_cycle,
      &EnergyParams::scheduler_leakage_mw,
  };
  return kMembers;
}

/// The figures of `preset` (docs/energy.md gives the source of each, [n] its reference):
/// - links: on_package 0.56 pJ/bit, TSMC LIPINCON measured on 7 nm CoWoS [4], idle at 0.15 of
///   streaming power (UCIe low-power states save 85 % and more [1]); board 5.5 pJ/bit, 112G PAM4
///   SerDes as NVIDIA compares them with NVLink-C2C [7], idle at full power (a SerDes keeps
///   sending idle symbols);
/// - router: DSENT v0.91 at 22 nm, 0.8 V, 128-bit flits, 5 ports, 4 VCs x 4 flits [10]; VC
///   allocation priced as one switch allocation (DSENT has no VC-allocation event);
/// - local memory: HBM2, 3.9 pJ/bit (O'Connor et al., MICRO 2017 [16]);
/// - adds: fp32 0.38 pJ at 7 nm (Jouppi et al., ISCA 2021, Table 2 [20]); int32 0.1 pJ at 45 nm
///   (Horowitz, ISSCC 2014 [18]; no 7 nm figure published);
/// - scheduler: scripts/power.sh's OpenSTA power of the synthesised nic_sched (OSU 0.18 um) at
///   the activity of a co-simulated run, scaled to 7 nm with Stillmaker and Baas's factors [22]
///   (model/params/scheduler_power.h, written by the script).
inline EnergyParams energy_preset(EnergyPreset preset) {
  EnergyParams p;
  p.preset = preset;
  const bool board = preset == EnergyPreset::kBoard;
  p.link_pj_per_bit = board ? 5.5 : 0.56;
  p.link_idle_fraction = board ? 1.0 : 0.15;
  p.router_buffer_write_pj = 1.26;
  p.router_buffer_read_pj = 1.04;
  p.router_crossbar_pj = 0.54;
  p.router_switch_alloc_pj = 0.054;
  p.router_vc_alloc_pj = 0.054;
  p.router_clock_pj_per_cycle = 0.30;
  p.router_leakage_mw = 21.6;
  p.memory_pj_per_bit = 3.9;
  p.fp32_add_pj = 0.38;
  p.int32_add_pj = 0.1;
  p.scheduler_active_pj_per_cycle =
      scheduler_power::kActiveEnergyPj018 * scheduler_power::kEnergyScaleTo7nm;
  p.scheduler_idle_pj_per_cycle =
      scheduler_power::kIdleEnergyPj018 * scheduler_power::kEnergyScaleTo7nm;
  p.scheduler_leakage_mw = scheduler_power::kLeakageMw018 * scheduler_power::kPowerScaleTo7nm;
  return p;
}

/// The prices `config` describes: its preset's, with every given figure in place of the preset's.
inline EnergyParams energy_params(const EnergyConfig& config) {
  EnergyParams p = energy_preset(config.preset);
  for (std::size_t i = 0; i < config.given.size(); ++i) {
    if (config.given[i]) p.*energy_members()[i] = *config.given[i];
  }
  return p;
}

}  // namespace mt
