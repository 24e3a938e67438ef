// Fuzz target: the MSCCL XML reader (issue 52: every reader is fuzzed), the verifier on the
// program's ranks, and the export of what was read (it must read back to as many messages).
#include <cstdlib>

#include "fuzz/fuzz_support.h"
#include "model/collective/msccl_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mt::Schedule schedule;
  try {
    schedule = mt::schedule_from_msccl(mt::fuzz::text_of(data, size), "fuzz.xml");
  } catch (const mt::Error&) {
    return 0;
  }
  mt::fuzz::verify_on_its_topology(schedule);
  try {
    const mt::Schedule back = mt::schedule_from_msccl(mt::schedule_to_msccl(schedule), "back.xml");
    if (back.ops.size() != schedule.ops.size()) std::abort();
  } catch (const mt::Error&) {
  }
  return 0;
}
