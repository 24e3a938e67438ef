// Fuzz target: the schedule JSON reader, the verifier on the file's topology, the table packer
// and the packed-entry codec (decode(encode(table)) must give the table back).
#include <cstdlib>

#include "fuzz/fuzz_support.h"
#include "model/collective/schedule_io.h"
#include "model/sched/table_packer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mt::Schedule schedule;
  try {
    schedule = mt::load_schedule_text(mt::fuzz::text_of(data, size), "fuzz.json");
  } catch (const mt::Error&) {
    return 0;
  }
  mt::fuzz::verify_on_its_topology(schedule);
  try {
    int ports = 1;
    std::vector<int> port_of;
    for (const mt::Op& op : schedule.ops) {
      port_of.push_back(op.port < 0 ? 0 : op.port);
      ports = std::max(ports, port_of.back() + 1);
    }
    const mt::PackedSchedule packed = mt::pack_schedule(schedule, port_of, ports);
    for (const auto& table : packed.tables) {
      const auto words = mt::encode_table(table, packed.format);
      if (mt::decode_table(words, table.size(), packed.format) != table) std::abort();
    }
  } catch (const mt::Error&) {
  }
  return 0;
}
