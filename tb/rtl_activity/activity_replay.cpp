// nic_sched_activity: switching activity of the NIC scheduler in a co-simulated run. Replays the
// pin traces that `mtsim run --rtl-pin-trace DIR` wrote (tb/rtl_adapter/rtl_pin_trace.h), node by
// node, into nic_sched Verilated with toggle coverage (the co-simulated build's parameters), and
// writes the toggle count of every signal bit over the run's clocks (the load clocks before cycle
// 0 left out) to OUT/nodeN.dat (Verilator coverage format), checking every clock's grants against
// the trace. scripts/power.sh turns the counts into OpenSTA activities.
//
//   nic_sched_activity --out DIR PINS...    (exit 0; 1 when a replayed grant differs; 2 bad input)

#include <Vnic_sched_act.h>
#include <verilated.h>
#include <verilated_cov.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/sched/schedule_table.h"
#include "tb/rtl_adapter/rtl_pin_trace.h"

namespace {

using mt::rtl_pins::PinWidths;

// The header this build writes: nic_sched-pins, the version, the parameters.
std::string expected_header(const PinWidths& w) {
  std::ostringstream out;
  out << "nic_sched-pins " << mt::rtl_pins::kVersion << " Nodes=" << MT_RTL_NODES
      << " Ports=" << MT_RTL_PORTS << " Depth=" << MT_RTL_DEPTH << " Window=" << MT_RTL_WINDOW
      << " Chunks=" << MT_RTL_CHUNKS << " Flows=" << MT_RTL_FLOWS << " Steps=" << MT_RTL_STEPS
      << " Counters=" << MT_RTL_COUNTERS << " MaxCount=" << MT_RTL_MAX_COUNT
      << " ArrivalLanes=" << MT_RTL_ARRIVAL_LANES << " DecisionLatency=" << MT_RTL_DECISION_LATENCY
      << " IndexBits=" << MT_RTL_INDEX_BITS << " EntryBits=" << w.entry_bits
      << " CounterBits=" << w.counter_bits;
  return out.str();
}

struct Failure {
  int status;
  std::string message;
};

// Replays `path` into `top` (reset first); coverage counts only the 'T' clocks. Returns the
// number of T clocks.
std::uint64_t replay(const std::string& path, VerilatedContext& context, Vnic_sched_act& top,
                     const PinWidths& w) {
  std::ifstream in(path);
  if (!in) throw Failure{2, path + ": cannot read"};
  std::string line;
  std::getline(in, line);
  if (line != expected_header(w)) {
    throw Failure{2, path + ": not a pin trace of this build: its header is \"" + line +
                         "\", this build's \"" + expected_header(w) + "\""};
  }
  top.clk_i = 0;
  top.rst_ni = 1;
  top.eval();
  top.rst_ni = 0;
  top.eval();
  top.rst_ni = 1;
  top.eval();
  std::uint64_t ticks = 0;
  bool counting = false;
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::string phase;
    fields >> phase;
    std::vector<std::string> texts;
    for (std::string field; fields >> field;) texts.push_back(field);
    const auto where = path + ":" + std::to_string(number);
    if ((phase != "L" && phase != "T") || texts.size() != mt::rtl_pins::kInputFields + 1)
      throw Failure{2, where + ": not a clock line (L or T and " +
                           std::to_string(mt::rtl_pins::kInputFields + 1) + " hex fields)"};
    // Each field has its pin's digits (hex() writes them all): a shorter one would leave pins
    // unset, a longer one set bits the pin does not have.
    const std::vector<int> widths = mt::rtl_pins::field_widths(w);
    if (widths.size() != texts.size()) throw std::logic_error("field_widths: not one per field");
    std::vector<std::vector<std::uint64_t>> f;
    for (std::size_t k = 0; k < texts.size(); ++k) {
      f.push_back(mt::rtl_pins::words_of(texts[k]));
      if (f.back().empty()) throw Failure{2, where + ": a field is not hexadecimal"};
      const auto digits = static_cast<std::size_t>((widths[k] + 3) / 4);
      const int top_bits = widths[k] - 4 * (static_cast<int>(digits) - 1);  // of the first digit
      const int first = texts[k].empty() ? 0 : std::stoi(texts[k].substr(0, 1), nullptr, 16);
      if (texts[k].size() != digits || (first >> top_bits) != 0) {
        throw Failure{2, where + ": field " + std::to_string(k + 1) + " is \"" + texts[k] +
                             "\", its pin has " + std::to_string(widths[k]) + " bits (" +
                             std::to_string(digits) + " hex digits, the first below " +
                             std::to_string(1 << top_bits) + ")"};
      }
    }
    if (phase == "T" && !counting) {
      context.coveragep()->zero();  // the run starts: load clocks not counted
      counting = true;
    }
    if (phase == "L" && counting) throw Failure{2, where + ": a load clock after the run's"};
    mt::rtl_pins::apply_inputs(top, f, w);
    top.clk_i = 0;
    top.eval();
    top.clk_i = 1;
    top.eval();
    ticks += counting ? 1 : 0;
    const std::string grant = mt::rtl_pins::hex(top.grant_o, w.ports);
    if (mt::rtl_pins::words_of(grant) != f.back()) {
      throw Failure{1, where + ": replayed grant_o " + grant +
                           " differs from the co-simulation's (the trace or the build differ)"};
    }
  }
  if (!counting) context.coveragep()->zero();  // a node that never ran
  return ticks;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  std::vector<std::string> traces;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      std::cout << "nic_sched_activity --out DIR PINS...: toggle counts of nic_sched over the "
                   "clocks of co-simulated pin traces (mtsim run --rtl-pin-trace), DIR/nodeN.dat "
                   "per trace, the ticks in DIR/ticks.txt\n";
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "nic_sched_activity: unknown option " << arg << " (see --help)\n";
      return 2;
    } else {
      traces.push_back(arg);
    }
  }
  if (out.empty() || traces.empty()) {
    std::cerr << "nic_sched_activity: give --out DIR and at least one pin trace (see --help)\n";
    return 2;
  }
  VerilatedContext context;
  context.fatalOnError(false);
  Vnic_sched_act top(&context, "nic_sched");
  // Widths from the build's parameters (the trace header repeats them: a mismatch is refused).
  const mt::TableFormat format =
      mt::TableFormat::make(MT_RTL_NODES, MT_RTL_PORTS, MT_RTL_CHUNKS, MT_RTL_FLOWS, MT_RTL_STEPS,
                            MT_RTL_COUNTERS, MT_RTL_MAX_COUNT);
  const PinWidths widths{format.entry_bits(), MT_RTL_ARRIVAL_LANES, format.counter_bits,
                         MT_RTL_PORTS, format.step_bits};
  std::ofstream ticks_out(out + "/ticks.txt");
  if (!ticks_out) {
    std::cerr << "nic_sched_activity: cannot write " << out << "/ticks.txt\n";
    return 2;
  }
  try {
    for (std::size_t k = 0; k < traces.size(); ++k) {
      const std::uint64_t ticks = replay(traces[k], context, top, widths);
      const std::string dat = out + "/node" + std::to_string(k) + ".dat";
      context.coveragep()->write(dat.c_str());
      ticks_out << traces[k] << " " << ticks << "\n";
      if (context.gotError()) throw Failure{1, traces[k] + ": an RTL assertion failed"};
    }
  } catch (const Failure& f) {
    std::cerr << "nic_sched_activity: " << f.message << "\n";
    return f.status;
  }
  top.final();
  return 0;
}
