#pragma once
// An exception thrown inside a SystemC process reaches sc_start()'s caller as an sc_report that
// keeps only its text: its type is lost (an out-of-memory would read as a bug of the model, an
// mt::Error as an internal error). The model's processes run their body through guard_process(),
// which keeps the first exception and stops the kernel; the caller of sc_start() then calls
// rethrow_process_fault(), which throws it as it was thrown.

#include <systemc>

#include <exception>

namespace mt {

/// Stops the simulation at the end of this delta cycle, once (the watchdog and a fault may both
/// ask in one delta), without the kernel's "Simulation stopped by user." line: the caller reports.
void stop_simulation();

/// Keeps `fault` (the first one only) and stops the simulation.
void keep_process_fault(std::exception_ptr fault);

/// Throws the exception a guarded process kept, if any, and forgets it.
void rethrow_process_fault();

/// Runs a process body; an exception it throws is kept for rethrow_process_fault().
template <class Body>
void guard_process(Body&& body) {
  try {
    body();
  } catch (const sc_core::sc_unwind_exception&) {
    throw;  // the kernel's own (a process killed or reset): it must pass
  } catch (...) {
    keep_process_fault(std::current_exception());
  }
}

}  // namespace mt
