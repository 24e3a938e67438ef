#pragma once
// The pin trace of one Verilated nic_sched in a co-simulated run: every clock's input pins and
// the grants after its edge, one text line per clock, so that scripts/power.sh can replay the
// run's exact stimulus into a toggle-counting build (tb/rtl_activity) for switching activity.
// Written by the co-simulation adapter (`mtsim run --rtl-pin-trace DIR`), read by the replay.
//
//   nic_sched-pins 3 Nodes=256 Ports=6 ... EntryBits=61 CounterBits=8     (header)
//   L <clear> <step_order> <tbl_valid> <tbl_wdata> <arr_valid> <arr_counter> <host_valid>
//     <host_counter> <port_ready> <grant_ack> <wdog_tick> <wdog_limit> <shared_window>
//     <open_step> <grant>
//                                                               (a load clock: before cycle 0)
//   T ...                                                       (a clock of the run: a tick)
//
// Every field is hexadecimal, most significant digit first, of its port's width; <grant> is
// grant_o after the clock's rising edge (the replay checks it).

#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "tb/rtl_adapter/rtl_bits.h"

namespace mt {
namespace rtl_pins {

/// The pin trace format's version (the header's second field; 2: grant_ack_i traced; 3: the
/// watchdog's wdog_tick_i and wdog_limit_i traced; 4: shared_window_i traced; 5: open_step_i
/// traced).
constexpr int kVersion = 5;
/// Input pins per line, in line order, then grant_o.
constexpr int kInputFields = 14;
/// Width of wdog_limit_i, bits.
constexpr int kWatchdogBits = 16;

/// Widths of the traced pins, bits.
struct PinWidths {
  int entry_bits = 1;    ///< tbl_wdata_i
  int lanes = 1;         ///< arr_valid_i (ArrivalLanes)
  int counter_bits = 1;  ///< host_counter_i; arr_counter_i has lanes of it
  int ports = 1;         ///< port_ready_i, grant_ack_i, grant_o
  int step_bits = 1;     ///< open_step_i
};

/// Width of each field of a clock line, bits, in line order: the kInputFields inputs as
/// write_inputs writes them, then grant_o.
inline std::vector<int> field_widths(const PinWidths& w) {
  return {1,       1,
          1,       w.entry_bits,
          w.lanes, w.lanes * w.counter_bits,
          1,       w.counter_bits,
          w.ports, w.ports,
          1,       kWatchdogBits,
          1,       w.step_bits,
          w.ports};
}

/// `width` bits of `value` at 0 as hexadecimal, most significant digit first.
template <typename T>
std::string hex(const T& value, int width) {
  const std::vector<std::uint64_t> words = rtl_bits::get_words(value, 0, width);
  std::string out;
  for (int digit = (width + 3) / 4 - 1; digit >= 0; --digit) {
    const std::uint64_t nibble =
        (words[static_cast<std::size_t>(digit / 16)] >> (4 * (digit % 16))) & 0xF;
    out += "0123456789abcdef"[nibble];
  }
  return out;
}

/// A hexadecimal field as 64-bit words, least significant first (empty when malformed).
inline std::vector<std::uint64_t> words_of(const std::string& text) {
  std::vector<std::uint64_t> words((text.size() * 4 + 63) / 64, 0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[text.size() - 1 - i];
    const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (v < 0) return {};
    words[i / 16] |= static_cast<std::uint64_t>(v) << (4 * (i % 16));
  }
  return words;
}

/// Writes the line of one clock of `top` (its inputs as presented; `grant` read after the edge
/// by the caller) with phase `phase` ('L' load, 'T' tick).
template <typename Top>
void write_inputs(std::ostream& out, char phase, const Top& top, const PinWidths& w) {
  out << phase << ' ' << hex(top.clear_i, 1) << ' ' << hex(top.step_order_i, 1) << ' '
      << hex(top.tbl_valid_i, 1) << ' ' << hex(top.tbl_wdata_i, w.entry_bits) << ' '
      << hex(top.arr_valid_i, w.lanes) << ' ' << hex(top.arr_counter_i, w.lanes * w.counter_bits)
      << ' ' << hex(top.host_valid_i, 1) << ' ' << hex(top.host_counter_i, w.counter_bits) << ' '
      << hex(top.port_ready_i, w.ports) << ' ' << hex(top.grant_ack_i, w.ports) << ' '
      << hex(top.wdog_tick_i, 1) << ' ' << hex(top.wdog_limit_i, kWatchdogBits) << ' '
      << hex(top.shared_window_i, 1) << ' ' << hex(top.open_step_i, w.step_bits);
}

/// Sets `top`'s inputs from the input fields of a line (`fields`: the kInputFields of it as
/// words).
template <typename Top>
void apply_inputs(Top& top, const std::vector<std::vector<std::uint64_t>>& f, const PinWidths& w) {
  top.clear_i = static_cast<std::uint8_t>(f[0][0]);
  top.step_order_i = static_cast<std::uint8_t>(f[1][0]);
  top.tbl_valid_i = static_cast<std::uint8_t>(f[2][0]);
  rtl_bits::put_words(top.tbl_wdata_i, 0, w.entry_bits, f[3]);
  rtl_bits::put_words(top.arr_valid_i, 0, w.lanes, f[4]);
  rtl_bits::put_words(top.arr_counter_i, 0, w.lanes * w.counter_bits, f[5]);
  top.host_valid_i = static_cast<std::uint8_t>(f[6][0]);
  rtl_bits::put_words(top.host_counter_i, 0, w.counter_bits, f[7]);
  rtl_bits::put_words(top.port_ready_i, 0, w.ports, f[8]);
  rtl_bits::put_words(top.grant_ack_i, 0, w.ports, f[9]);
  top.wdog_tick_i = static_cast<std::uint8_t>(f[10][0]);
  top.wdog_limit_i = static_cast<std::uint16_t>(f[11][0]);
  top.shared_window_i = static_cast<std::uint8_t>(f[12][0]);
  rtl_bits::put_words(top.open_step_i, 0, w.step_bits, f[13]);
}

}  // namespace rtl_pins
}  // namespace mt
