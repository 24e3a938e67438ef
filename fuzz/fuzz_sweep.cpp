// Fuzz target: the sweep loader and the expansion of its axes into points. The base scenario is
// looked up in fuzz/sweep_base/ (scripts/fuzz.sh runs from the repository root).
#include "fuzz/fuzz_support.h"
#include "model/config/scenario_loader.h"
#include "model/config/sweep_loader.h"
#include "model/run/sweep.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const mt::SweepConfig s =
        mt::load_sweep_text(mt::fuzz::text_of(data, size), "fuzz/sweep_base/x.yaml");
    mt::expand_sweep(s);
  } catch (const mt::Error&) {
  }
  return 0;
}
