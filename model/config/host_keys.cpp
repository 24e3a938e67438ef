#include "model/config/host_keys.h"

#include <vector>

namespace mt {
namespace {

using H = HostConfig;

// `NAME_ns` or `NAME_cycles` (`cycles`) for the time `member`; the other unit's key of the same
// figure may not be given in the same mapping.
KeySpec<H> time_key(const std::string& name, std::optional<HostTime> H::*member, bool cycles,
                    const std::string& help) {
  const std::string key = name + (cycles ? "_cycles" : "_ns");
  const std::string other = name + (cycles ? "_ns" : "_cycles");
  return custom_key<H>(
      key, cycles ? "integer 0..1000000000" : "number >= 0, <= 1e9", cycles ? "cycles" : "ns",
      help + " (" + (cycles ? "cycles; or `" + other + "`" : "ns; or `" + other + "`") + ")",
      [member, cycles, other](const YamlReader& r, const YAML::Node& v, const std::string& p,
                              H& h) {
        if (h.*member)
          r.fail(v, p, "give one of " + other + " and this key, not both (the same figure)");
        h.*member = cycles ? HostTime{static_cast<double>(r.integer(v, p, 0, 1000000000)), true}
                           : HostTime{r.real(v, p, 0, 1e9, false), false};
      },
      "the preset's");
}

}  // namespace

const KeyTable<HostConfig>& host_keys() {
  static const KeyTable<H> table{
      enum_key("preset", &H::preset,
               "the host's figures unless overridden below, each from published measurements "
               "(docs/host.md): `free` = no cost and arrivals known at once (the reference "
               "simulator's NIC); `cpu_proxy` = a CPU proxy thread posting RDMA work requests "
               "over PCIe and polling completions; `gpu_initiated` = GPU threads writing work "
               "requests and ringing the NIC's doorbell; `sequencer` = an on-accelerator command "
               "sequencer"),
      time_key("notify", &H::notify, false,
               "from a message's last packet landing to the host knowing it (completion written "
               "and polled, or an interrupt)"),
      time_key("notify", &H::notify, true, "the same, in cycles"),
      time_key("message", &H::message, false,
               "host time to post one message (work request written), serialised per issue "
               "context"),
      time_key("message", &H::message, true, "the same, in cycles"),
      time_key("doorbell", &H::doorbell, false,
               "host time to ring one doorbell (an MMIO write), once per batch of messages"),
      time_key("doorbell", &H::doorbell, true, "the same, in cycles"),
      custom_key<H>(
          "doorbell_batch", "integer 1..4096", "messages",
          "most ready messages of one port posted under one doorbell",
          [](const YamlReader& r, const YAML::Node& v, const std::string& p, H& h) {
            h.doorbell_batch = r.integer32(v, p, 1, 4096);
          },
          "the preset's"),
      custom_key<H>(
          "contexts", "integer 1..1024", "",
          "issue contexts (threads, queues) posting in parallel; a message waits for a free one",
          [](const YamlReader& r, const YAML::Node& v, const std::string& p, H& h) {
            h.contexts = r.integer32(v, p, 1, 1024);
          },
          "the preset's"),
      time_key("step", &H::step, false,
               "synchronisation before posting the first message of a later schedule step"),
      time_key("step", &H::step, true, "the same, in cycles"),
  };
  return table;
}

void read_host(const YamlReader& r, const YAML::Node& node, const std::string& path,
               HostConfig& c) {
  HostConfig given;  // this mapping's keys only, then over `c`
  given.preset = c.preset;
  read_section(r, node, path, host_keys(), given);
  // A new preset replaces the figures it was given over, unless this mapping gives them too.
  if (given.preset != c.preset) {
    c = HostConfig();
    c.preset = given.preset;
  }
  const auto over = [](auto& to, const auto& from) {
    if (from) to = from;
  };
  over(c.notify, given.notify);
  over(c.message, given.message);
  over(c.doorbell, given.doorbell);
  over(c.step, given.step);
  over(c.doorbell_batch, given.doorbell_batch);
  over(c.contexts, given.contexts);
}

}  // namespace mt
