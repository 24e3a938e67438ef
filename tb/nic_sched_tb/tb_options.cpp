#include "tb/nic_sched_tb/tb_options.h"

#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "model/core/parse_integer.h"
#include "tb/nic_sched_tb/tb_cases.h"

namespace nic_sched_tb {

TbOptions::TbOptions() : model_latency(kLatency) {}

std::string build_parameters() {
  std::ostringstream os;
  os << "Nodes " << kNodes << ", Ports " << kPorts << ", Depth " << kDepth << ", Window " << kWindow
     << ", Chunks " << kChunks << ", Flows " << kFlows << ", Steps " << kSteps << ", Counters "
     << kCounters << ", MaxCount " << kMaxCount << ", ArrivalLanes " << kLanes
     << ", DecisionLatency " << kLatency << ", IndexBits " << kIndexBits;
  return os.str();
}

namespace {

const char* const kHelp =
    "nic_sched_tb: the Verilated rtl/nic_sched against its C++ golden model, every grant and\n"
    "done_o every cycle (exit 0 all equal, 1 a mismatch or a stall, 2 bad arguments)\n"
    "\n"
    "  --seed N            random seed for the random tables and the arrival, doorbell and\n"
    "                      port-ready delays (default 1)\n"
    "  --random N          random legal tables after the real ones (default 200): up to\n"
    "                      4 x Depth + 8 entries, every port count, few or all counters\n"
    "  --no-real           skip the real tables (every algorithm's packed tables on seven\n"
    "                      topologies, every node)\n"
    "  --step-order M      on, off or mixed (default): the step_order_i input per table\n"
    "                      (mixed: on in three tables of four)\n"
    "  --case K            run case K alone (0-based: the real tables, the random ones, then\n"
    "                      one per injectable error; a mismatch names its case), with the\n"
    "                      stimulus it has in a full run\n"
    "  --trace FILE.vcd    VCD of the DUT's signals for GTKWave (every case run, back to back;\n"
    "                      a case starts at each clear_i pulse): with --case K only that one\n"
    "  --model-latency L   run the golden model with decision latency L instead of the RTL's\n"
    "                      (a deliberately wrong model: a mismatch must be reported)\n"
    "  --coverage FILE     Verilator line/toggle coverage (a -DMT_RTL_COVERAGE=ON build)\n";

// The whole of `text` as an integer in [lo, hi], else std::invalid_argument naming `option`.
long long integer_of(const std::string& option, const std::string& text, long long lo,
                     long long hi = std::numeric_limits<long long>::max()) {
  const std::optional<long long> v = mt::parse_integer(text);
  if (!v || text.find_first_of(" \t") != std::string::npos || *v < lo || *v > hi)
    throw std::invalid_argument(option + " takes an integer from " + std::to_string(lo) +
                                (hi == std::numeric_limits<long long>::max()
                                     ? std::string(" up")
                                     : " to " + std::to_string(hi)) +
                                ", got \"" + text + "\"");
  return *v;
}

}  // namespace

int usage_error(const std::string& why) {
  std::cerr << "nic_sched_tb: " << why
            << "\nusage: nic_sched_tb [--seed N] [--random N] [--no-real] "
               "[--step-order on|off|mixed] [--case K] [--trace FILE.vcd] [--model-latency L] "
               "[--coverage FILE]\n";
  return 2;
}

int parse_tb_options(int argc, char** argv, TbOptions& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--help" || arg == "-h") {
        std::cout << kHelp << "\nthis binary's RTL: " << build_parameters()
                  << " (CMake MT_RTL_*)\n";
        return 0;
      }
      if (arg == "--seed") {
        o.seed = static_cast<std::uint64_t>(integer_of(arg, value(), 0));
      } else if (arg == "--random") {
        o.random_tables = static_cast<int>(integer_of(arg, value(), 0, 1 << 20));
      } else if (arg == "--no-real") {
        o.real = false;
      } else if (arg == "--step-order") {
        o.step_mode = value();
        if (o.step_mode != "on" && o.step_mode != "off" && o.step_mode != "mixed") {
          return usage_error("--step-order takes on, off or mixed");
        }
      } else if (arg == "--model-latency") {
        o.model_latency = static_cast<int>(integer_of(arg, value(), 2, 64));
      } else if (arg == "--case") {
        o.only_case = static_cast<long>(integer_of(arg, value(), 0));
      } else if (arg == "--trace") {
        o.trace_file = value();
      } else if (arg == "--coverage") {
        o.coverage_file = value();
        if (!MT_RTL_COVERAGE)
          return usage_error("--coverage needs a coverage build (-DMT_RTL_COVERAGE=ON)");
      } else {
        return usage_error("unknown argument " + arg);
      }
    } catch (const std::invalid_argument& e) {
      return usage_error(e.what());
    }
  }
  if (!o.real && o.random_tables == 0)
    return usage_error("--no-real with --random 0 leaves no table to compare");

  return -1;
}

}  // namespace nic_sched_tb
