// Fuzz target: the training workload loader.
#include "fuzz/fuzz_support.h"
#include "model/config/workload_loader.h"
#include "model/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const mt::WorkloadConfig w = mt::load_workload_text(mt::fuzz::text_of(data, size), "fuzz.yaml");
    mt::make_buckets(w);
  } catch (const mt::Error&) {
  }
  return 0;
}
