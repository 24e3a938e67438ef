// Fuzz target: the scenario loader with `--set` overrides (leading "#set k=v" lines).
#include "fuzz/fuzz_support.h"
#include "model/config/scenario_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = mt::fuzz::text_of(data, size);
  try {
    mt::load_scenario_text(text, "fuzz.yaml", mt::fuzz::leading_overrides(text));
  } catch (const mt::Error&) {
  }
  return 0;
}
