// mtsim: command-line front end of the MultiTree all-reduce simulator.

#include <cstdlib>
#include <iostream>
#include <systemc>

#include "tb/mtsim/cli.h"
#include "tb/mtsim/huge_pages.h"
#include "tb/mtsim/version.h"

namespace {

const char* const kUsage =
    R"(mtsim: SystemC/TLM-2.0 model of MultiTree and other all-reduce schedules

usage: mtsim COMMAND [options]     (mtsim COMMAND --help for the options of one command)
       mtsim --version              (the source, SystemC and RTL build this binary was built from)

commands:
  run SCENARIO.yaml     simulate every algorithm x size of a scenario and print a result table
  sweep SWEEP.yaml      run the cross product of a sweep's axes, one process per point, with a
                        progress bar; --resume continues, --emit-slurm writes a Slurm job array
  train WORKLOAD.yaml --scenario NETWORK.yaml
                        one DNN training iteration: per-layer (or bucket) all-reduces released as
                        backpropagation produces them and simulated together on the shared network
                        (--serialised: each alone, queued in issue order)
  schedule              build and verify one schedule (no simulation): text, JSON, Graphviz DOT,
                        MSCCL XML, or the co-designed NIC's packed tables (table, memh)
  verify SCHEDULE.json  verify a schedule file: every node must end with every chunk reduced
                        from all N contributions exactly once, whatever the message timing
                        (.xml: MSCCL algorithm XML, with --topology)
  import msccl IN.xml -o OUT.json
                        an MSCCL all-reduce algorithm as a verified mtsim schedule file
  keys                  every scenario key: type and range, default, unit, meaning

Units: sizes are bytes per node (suffixes B, KiB, MiB, GiB, TiB, or KB, MB, GB, TB in powers of
1000); times are cycles of the network clock
given in the scenario (clock_ghz): result tables add microseconds, JSON and CSV nanoseconds.
Exit status: 0 success, 1 a check failed (data or schedule verification, stalled run),
2 bad input (options, scenario, topology, algorithm, unreadable file), 3 internal error (a bug).
)";

}  // namespace

int sc_main(int argc, char* argv[]) {
  using namespace mt::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? kExitBadInput : kExitOk;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::cout << version_text();
    return kExitOk;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "run") return run_command(args);
    if (command == "schedule") return schedule_command(args);
    if (command == "verify") return verify_command(args);
    if (command == "sweep") return sweep_command(args);
    if (command == "train") return train_command(args);
    if (command == "import") return import_command(args);
    if (command == "keys") return keys_command(args);
    std::cerr << "mtsim: unknown command \"" << command
              << "\"; expected run, sweep, train, schedule, verify, import or keys"
              << " (mtsim --help)\n";
    return kExitBadInput;
  } catch (...) {
    const mt::ErrorReport report = report_current_error(command);
    std::cerr << report.line << "\n";
    return report.exit_status;
  }
}

// SystemC's own main() prints its banner on stderr before it calls sc_main, so sc_main cannot
// turn it off; this main sets the switch first (after restarting with huge pages, which only a
// fresh start can turn on), then runs the kernel's usual entry.
int main(int argc, char* argv[]) {
  mt::cli::restart_with_huge_pages(argv);
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
