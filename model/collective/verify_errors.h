#pragma once
// What the schedule verifier (verify.cpp) shares between its checks: the error collector, the race
// check (verify_races.cpp) and the replay (verify_replay.cpp). Internal to the collective layer.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/schedule_graph.h"
#include "model/collective/verify.h"

namespace mt::verify_detail {

constexpr size_t kMaxErrors = 20;

/// Error collector that keeps the first kMaxErrors messages and counts the rest. Each error
/// keeps the ids of the messages it names, so an imported file's errors can say where each was
/// written.
class ErrorList {
 public:
  void add(std::string message, std::vector<int> messages = {}) {
    if (errors_.size() < kMaxErrors) {
      errors_.push_back({std::move(message), std::move(messages)});
    } else {
      ++suppressed_;
    }
  }
  bool empty() const { return errors_.empty(); }
  /// The errors as sentences; with `sources` (one per message: where it was written), each
  /// followed by the places of the first few messages it names, e.g. "... [message 18 is
  /// ring.xml:30: <step s=\"1\"> of gpu 1 tb 0]".
  std::vector<std::string> take(const std::vector<std::string>& sources) {
    std::vector<std::string> result;
    for (Entry& e : errors_) result.push_back(with_sources(std::move(e), sources));
    errors_.clear();
    if (suppressed_ > 0) {
      result.push_back("... and " + std::to_string(suppressed_) + " more error(s) not shown");
    }
    return result;
  }

 private:
  struct Entry {
    std::string text;
    std::vector<int> messages;
  };

  static std::string with_sources(Entry e, const std::vector<std::string>& sources) {
    std::vector<int> named;
    for (const int id : e.messages) {
      if (id >= 0 && static_cast<std::size_t>(id) < sources.size() &&
          std::find(named.begin(), named.end(), id) == named.end())
        named.push_back(id);
      if (named.size() == 4) break;  // the first few say where to look
    }
    if (named.empty()) return std::move(e.text);
    std::string text = std::move(e.text) + " [";
    for (std::size_t i = 0; i < named.size(); ++i)
      text += (i ? "; message " : "message ") + std::to_string(named[i]) + " is " +
              sources[static_cast<std::size_t>(named[i])];
    return text + "]";
  }

  std::vector<Entry> errors_;
  size_t suppressed_ = 0;
};

/// Every arrival at a node and chunk ordered with every issue from it and with every other
/// arrival there when either is a broadcast (see verify_races.cpp); `ok` false on a race, each
/// reported in `errors`.
void check_races(const ScheduleGraph& graph, const VerifyLimits& limits, ErrorList& errors,
                 bool& ok);

/// True when `s` (its structure checked, its dependencies acyclic) is shown by its structure
/// alone to be a race-free all-reduce whose every node ends with every chunk summed from all N
/// contributions: what the race check and the replay would find, found in one pass per chunk
/// (see verify_trees.cpp). False says nothing: the race check and the replay decide then.
bool tree_all_reduce(const Schedule& s);

/// Symbolic replay of `s` in the topological order `order`, then the final check that every
/// node holds every chunk reduced from all N contributions (see verify_replay.cpp), holding at
/// most `limit_words` of state at once (VerifyLimits::replay_words); `ok` false on an error,
/// each reported in `errors`.
void replay(const Schedule& s, const std::vector<int>& order, std::uint64_t limit_words,
            ErrorList& errors, bool& ok);

}  // namespace mt::verify_detail
