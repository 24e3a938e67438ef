#pragma once
// The host of software issue as a scenario gives it (`host:`, and an algorithm entry's `host:`
// overrides): a named preset whose figures come from published measurements (docs/host.md
// lists each source), with any figure overridden in ns (converted with the scenario's clock) or
// cycles. model/run/resolve.h turns it into a HostTiming in cycles.

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>

#include "model/core/enum_names.h"
#include "model/sched/host_scheduler.h"

namespace mt {

/// A named host (`host.preset`).
enum class HostPreset {
  kFree,          ///< "free": no cost, arrivals known at once (the reference simulator's NIC)
  kCpuProxy,      ///< "cpu_proxy": a CPU proxy thread posting RDMA work requests over PCIe
  kGpuInitiated,  ///< "gpu_initiated": GPU threads writing work requests and ringing doorbells
  kSequencer,     ///< "sequencer": an on-accelerator command sequencer issuing from local queues
};
template <>
struct EnumNames<HostPreset> {
  static constexpr std::array<const char*, 4> kNames{"free", "cpu_proxy", "gpu_initiated",
                                                     "sequencer"};
};

/// A host time as given: nanoseconds, or cycles of the scenario's clock.
struct HostTime {
  double value = 0;     ///< ns, or cycles when `cycles`
  bool cycles = false;  ///< the value is in cycles
};

/// `host:` of a scenario: a preset and the figures that override it.
struct HostConfig {
  HostPreset preset = HostPreset::kFree;  ///< the host's figures unless overridden
  std::optional<HostTime> notify;         ///< a message landed -> the host knows it
  std::optional<HostTime> message;        ///< host time to post one message
  std::optional<HostTime> doorbell;       ///< host time per doorbell (once per batch)
  std::optional<HostTime> step;           ///< synchronisation before a later step
  std::optional<int> doorbell_batch;      ///< most messages per doorbell
  std::optional<int> contexts;            ///< issue contexts posting in parallel
};

/// A preset's figures, ns (docs/host.md gives the source of each).
struct HostFigures {
  double notify_ns = 0;    ///< arrival -> the host knows it, ns
  double message_ns = 0;   ///< post one message (descriptor), ns
  double doorbell_ns = 0;  ///< ring one doorbell, ns
  int doorbell_batch = 1;  ///< messages per doorbell at most
  int contexts = 1;        ///< issue contexts
  double step_ns = 0;      ///< synchronisation before a later step, ns
};

/// The figures of `preset`; docs/host.md gives the measurement each comes from.
inline const HostFigures& host_figures(HostPreset preset) {
  // notify, message, doorbell ns; doorbell batch; contexts; step ns. docs/host.md derives each
  // from the measurements it cites and gives the range the sources span.
  static const std::array<HostFigures, 4> kFigures{{
      {0, 0, 0, 1, 1, 0},          // free
      {1000, 200, 400, 4, 1, 0},   // cpu_proxy
      {1000, 300, 600, 1, 32, 0},  // gpu_initiated
      {100, 20, 0, 1, 1, 0},       // sequencer
  }};
  return kFigures.at(static_cast<std::size_t>(preset));
}

/// `t` in cycles of a `clock_ghz` clock (ns rounded to the nearest cycle).
inline std::uint64_t host_cycles(const HostTime& t, double clock_ghz) {
  const double cycles = t.cycles ? t.value : t.value * clock_ghz;
  return static_cast<std::uint64_t>(std::llround(cycles));
}

/// The host `config` describes, in cycles of a `clock_ghz` clock.
inline HostTiming host_timing(const HostConfig& config, double clock_ghz) {
  const HostFigures& f = host_figures(config.preset);
  const auto pick = [&](const std::optional<HostTime>& given, double preset_ns) {
    return host_cycles(given ? *given : HostTime{preset_ns, false}, clock_ghz);
  };
  HostTiming t;
  t.notify_cycles = pick(config.notify, f.notify_ns);
  t.message_cycles = pick(config.message, f.message_ns);
  t.doorbell_cycles = pick(config.doorbell, f.doorbell_ns);
  t.step_cycles = pick(config.step, f.step_ns);
  t.doorbell_batch = config.doorbell_batch.value_or(f.doorbell_batch);
  t.contexts = config.contexts.value_or(f.contexts);
  return t;
}

}  // namespace mt
