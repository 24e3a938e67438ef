#pragma once
// nic_sched_tb's command line: its options and the build's parameters as its logs name them.

#include <cstdint>
#include <string>

namespace nic_sched_tb {

/// What a nic_sched_tb run was asked to do (--help: kHelp in tb_options.cpp).
struct TbOptions {
  std::uint64_t seed = 1;           ///< --seed: random tables and input delays
  int random_tables = 200;          ///< --random: random legal tables after the real ones
  bool real = true;                 ///< the real tables (off: --no-real)
  std::string step_mode = "mixed";  ///< --step-order: on, off or mixed
  std::string trace_file;           ///< --trace: VCD file, empty none
  std::string coverage_file;        ///< --coverage: Verilator coverage file, empty none
  int model_latency;                ///< --model-latency: the golden model's decision latency
  long only_case = -1;              ///< --case: the one case to run, -1 all
  TbOptions();
};

/// Reads the command line into `o`: -1 to run, else the exit status (0 after --help, 2 after
/// a usage error, printed to stderr).
int parse_tb_options(int argc, char** argv, TbOptions& o);

/// Prints `why` and the usage line to stderr; returns 2 (the exit status of bad arguments).
int usage_error(const std::string& why);

/// The Verilated build's parameters (CMake MT_RTL_*), as its logs and --help name them.
std::string build_parameters();

}  // namespace nic_sched_tb
