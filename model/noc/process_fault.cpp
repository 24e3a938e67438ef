#include "model/noc/process_fault.h"

#include <utility>

namespace mt {
namespace {

// One SystemC kernel per program (it elaborates once), so one slot.
std::exception_ptr& kept_fault() {
  static std::exception_ptr fault;
  return fault;
}

}  // namespace

void stop_simulation() {
  static bool stopped = false;  // one kernel per program
  if (stopped) return;
  stopped = true;
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_stop();
}

void keep_process_fault(std::exception_ptr fault) {
  if (kept_fault()) return;  // the first one stopped the run already
  kept_fault() = std::move(fault);
  stop_simulation();
}

void rethrow_process_fault() {
  if (std::exception_ptr fault = std::exchange(kept_fault(), nullptr))
    std::rethrow_exception(fault);
}

}  // namespace mt
