#include "model/config/energy_keys.h"

#include <vector>

namespace mt {
namespace {

using E = EnergyConfig;

// The presets' values of figure `index` as the docs print them: "5.5 (`board`), 0.56
// (`on_package`)", or one value when they agree.
std::string preset_values(std::size_t index) {
  const double board = energy_preset(EnergyPreset::kBoard).*energy_members()[index];
  const double package = energy_preset(EnergyPreset::kOnPackage).*energy_members()[index];
  if (board == package) return show_number(board);
  return show_number(board) + " (`board`), " + show_number(package) + " (`on_package`)";
}

// The figure `index` of EnergyParams (energy_members()): a number in [0, hi], the preset's
// value unless given.
KeySpec<E> figure_key(const std::string& name, std::size_t index, double hi,
                      const std::string& unit, const std::string& help) {
  return custom_key<E>(
      name, "number >= 0, <= " + show_number(hi), unit, help,
      [index, hi](const YamlReader& r, const YAML::Node& v, const std::string& p, E& e) {
        e.given.at(index) = r.real(v, p, 0, hi, false);
      },
      preset_values(index));
}

}  // namespace

const KeyTable<EnergyConfig>& energy_keys() {
  static const KeyTable<E> table{
      enum_key("preset", &E::preset,
               "the link type priced, every figure from a published source (docs/energy.md): "
               "`board` = chip-to-chip links over a board (112G-class SerDes, 5.5 pJ/bit, "
               "always on); `on_package` = die-to-die links in one package (7 nm CoWoS, 0.56 "
               "pJ/bit, 0.15 of that power when idle); routers, reduction unit and scheduler "
               "at 7 nm, local memory HBM2, in both"),
      figure_key("link_pj_per_bit", 0, 1000, "pJ/bit",
                 "a bit over a topology link: every flit of a packet (head flits included) and "
                 "every credit coming back (log2(router.vcs) + 1 bits per flit credited)"),
      figure_key("link_idle_fraction", 1, 1, "",
                 "an idle link's power over its power streaming (its pJ/bit at its bandwidth): "
                 "1 = always on, as a SerDes"),
      figure_key("router_buffer_write_pj", 2, 1e4, "pJ/flit",
                 "a flit written into a router's input buffer (a NIC's receive buffer too)"),
      figure_key("router_buffer_read_pj", 3, 1e4, "pJ/flit",
                 "a flit read out of a router's input buffer (a NIC's receive buffer too)"),
      figure_key("router_crossbar_pj", 4, 1e4, "pJ/flit", "a flit through a router's crossbar"),
      figure_key("router_switch_alloc_pj", 5, 1e4, "pJ/flit",
                 "switch allocation, per flit granted"),
      figure_key("router_vc_alloc_pj", 6, 1e4, "pJ/head",
                 "VC allocation, per head granted (under message flow control one per message "
                 "per hop)"),
      figure_key("router_clock_pj_per_cycle", 7, 1e6, "pJ/cycle",
                 "a router's clock tree, every cycle of the run"),
      figure_key("router_leakage_mw", 8, 1e6, "mW", "a router's leakage, over the run's time"),
      figure_key("memory_pj_per_bit", 9, 1e4, "pJ/bit",
                 "a bit the NIC reads or writes in local memory (the DMA's reads of what it "
                 "sends, the received data written, the reduction's operand read)"),
      figure_key("fp32_add_pj", 10, 1e4, "pJ", "one fp32 add of the reduction unit"),
      figure_key("int32_add_pj", 11, 1e4, "pJ", "one int32 add of the reduction unit"),
      figure_key("scheduler_active_pj_per_cycle", 12, 1e6, "pJ/cycle",
                 "the NIC scheduler (hardware issue), a cycle it works (scripts/power.sh, "
                 "scaled to 7 nm)"),
      figure_key("scheduler_idle_pj_per_cycle", 13, 1e6, "pJ/cycle",
                 "the NIC scheduler, a cycle without work (its clock runs: nic_sched has no "
                 "clock gate)"),
      figure_key("scheduler_leakage_mw", 14, 1e6, "mW",
                 "the NIC scheduler's leakage (hardware issue), over the run's time"),
  };
  return table;
}

void read_energy(const YamlReader& r, const YAML::Node& node, const std::string& path,
                 EnergyConfig& c) {
  EnergyConfig given;  // this mapping's keys only, then over `c`
  given.preset = c.preset;
  read_section(r, node, path, energy_keys(), given);
  if (given.preset != c.preset) c = EnergyConfig{given.preset, {}};
  for (std::size_t i = 0; i < given.given.size(); ++i) {
    if (given.given[i]) c.given[i] = given.given[i];
  }
}

}  // namespace mt
