#pragma once
// nic_sched_tb's grant comparison: the RTL's grant pins decoded into issues, and the first
// difference from the golden model's issues of the same cycle, as a mismatch report says it.

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "model/sched/scheduler_model.h"
#include "tb/nic_sched_tb/tb_cases.h"
#include "tb/nic_sched_tb/tb_pins.h"

namespace nic_sched_tb {

/// The grants on the pins (grant_o, grant_index_o, grant_entry_o), by ascending port; indices
/// as the RTL gives them, modulo 2^IndexBits.
template <typename Grant, typename Index, typename Entry>
std::vector<mt::IssueCommand> granted(const Grant& g, const Index& gi, const Entry& ge,
                                      const mt::TableFormat& format) {
  std::vector<mt::IssueCommand> out;
  for (int p = 0; p < kPorts; ++p) {
    if (pin_get(g, p, 1) == 0) continue;
    mt::IssueCommand cmd;
    cmd.port = p;
    cmd.index = static_cast<int>(pin_get(gi, p * kIndexBits, kIndexBits));
    cmd.entry =
        mt::decode_entry(pin_get_words(ge, p * format.entry_bits(), format.entry_bits()), format);
    out.push_back(cmd);
  }
  return out;
}

/// Empty when the model's `expected` issues are the RTL's `actual` grants (indices compared
/// modulo 2^IndexBits), else the first difference: "model issues entry 3 on port 1 {...}; RTL
/// grants nothing more".
inline std::string grant_mismatch(const std::vector<mt::IssueCommand>& expected,
                                  const std::vector<mt::IssueCommand>& actual) {
  constexpr int kIndexMask = (1 << kIndexBits) - 1;
  std::size_t i = 0;
  for (; i < expected.size() && i < actual.size(); ++i) {
    const mt::IssueCommand& x = expected[i];
    const mt::IssueCommand& y = actual[i];
    if (x.port != y.port || (x.index & kIndexMask) != y.index || x.entry != y.entry) break;
  }
  if (i == expected.size() && i == actual.size()) return "";
  std::ostringstream s;
  if (i < expected.size()) {
    s << "model issues entry " << expected[i].index << " on port " << expected[i].port << " "
      << describe(expected[i].entry);
  } else {
    s << "model issues nothing more";
  }
  s << "; RTL ";
  if (i < actual.size()) {
    s << "grants entry " << actual[i].index << " on port " << actual[i].port << " "
      << describe(actual[i].entry);
  } else {
    s << "grants nothing more";
  }
  return s.str();
}

}  // namespace nic_sched_tb
