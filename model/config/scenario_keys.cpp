#include "model/config/scenario_keys.h"

#include <sstream>

#include "model/config/energy_keys.h"
#include "model/config/host_keys.h"
#include "model/params/time_limits.h"

namespace mt {
namespace {

using D = ScenarioDraft;
using Node = YAML::Node;
using Reader = const YamlReader&;

// A section's own key: a mapping read by `read`.
KeySpec<D> section_key(std::string name, std::string type, std::string help,
                       KeySpec<D>::Reader read, std::string fallback = "") {
  KeySpec<D> k = custom_key<D>(std::move(name), std::move(type), "", std::move(help),
                               std::move(read), std::move(fallback));
  k.section = true;
  return k;
}

// An output file path, taken from the scenario file's folder as every path it names.
KeySpec<OutputConfig> output_key(std::string name, std::string OutputConfig::*member,
                                 std::string help) {
  return custom_key<OutputConfig>(
      std::move(name), "path", "", std::move(help),
      [member](Reader r, const Node& v, const std::string& p, OutputConfig& o) {
        const std::string path = r.text(v, p);
        if (path.empty()) r.fail(v, p, "empty path (leave the key out to write no file)");
        o.*member = beside(r.source(), path);
      },
      "none");
}

const KeyTable<OutputConfig>& output_keys() {
  static const KeyTable<OutputConfig> table{
      output_key("json", &OutputConfig::json, "results JSON: `{\"runs\": [...]}`"),
      output_key("csv", &OutputConfig::csv, "results CSV, one row per run"),
  };
  return table;
}

// The rows of `table` under "section." after the section's own row from the top-level table.
template <class S>
void append_section(std::vector<KeyDoc>& docs, const KeyDoc& section, const KeyTable<S>& table) {
  docs.push_back(section);
  const std::vector<KeyDoc> rows = key_docs(table, section.path + ".");
  docs.insert(docs.end(), rows.begin(), rows.end());
}

// "`x`" -> "x" for plain text.
std::string plain(std::string s) {
  std::string out;
  for (const char c : s)
    if (c != '`') out += c;
  return out;
}

}  // namespace

const KeyTable<ScenarioDraft>& scenario_keys() {
  static const KeyTable<D> table{
      custom_key<D>(
          "name", "string", "", "scenario name in results",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            d.scenario.name = r.text(v, p);
          },
          "file name without `.yaml`"),
      custom_key<D>(
          "description", "string", "", "free text shown above the results",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            d.scenario.description = r.text(v, p);
          },
          "empty"),
      custom_key<D>(
          "clock_ghz",
          "number >= " + show_number(kMinClockGhz) + ", <= " + show_number(kMaxClockGhz), "GHz",
          "network clock (links, routers, NICs): every cycle count is of this clock",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            d.scenario.clock_ghz = r.real(v, p, kMinClockGhz, kMaxClockGhz, false);
          },
          "1"),
      custom_key<D>(
          "granularity", "`packet` or `message`", "",
          "the grain of simulated time: `packet`, the packet/flit-level cycle model (routers, "
          "credits, the reference); `message`, each message moves as one unit over the same "
          "routes, holding each link for its wire time (docs/granularity.md: its error against "
          "`packet`, and what it leaves out)",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            d.scenario.granularity = r.choice_of<Granularity>(v, p);
          },
          "packet"),
      custom_key<D>(
          "watchdog_cycles", "integer >= 100, within the horizon", "cycles",
          "a run with no progress for this many cycles stops with an error naming the stuck "
          "component",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            d.scenario.watchdog_cycles =
                static_cast<std::uint64_t>(r.integer(v, p, 100, 1ll << 50));
          },
          "1000000"),
      custom_key<D>(
          "elaboration_order", "`forward`, `reverse`, `shuffle:SEED` or `every_cycle`", "",
          "the order in which routers, NICs and links are created (reverse and odd seeds create "
          "the NICs before the routers), for testing that results do not depend on the order the "
          "SystemC kernel runs same-cycle processes in; `every_cycle`: forward, with every router "
          "and NIC run in every cycle while it has work, the reference the event-driven model "
          "must match (docs/timing_contract.md; scripts/order_check.py)",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            const std::string text = r.text(v, p);
            ElaborationOrder& o = d.scenario.elaboration_order;
            if (text == "forward") {
              o.kind = ElaborationOrder::Kind::kForward;
            } else if (text == "reverse") {
              o.kind = ElaborationOrder::Kind::kReverse;
            } else if (text == "every_cycle") {
              o.kind = ElaborationOrder::Kind::kEveryCycle;
            } else {
              const std::string digits = text.rfind("shuffle:", 0) == 0 ? text.substr(8) : "";
              if (digits.empty() || digits.size() > 18 ||
                  digits.find_first_not_of("0123456789") != std::string::npos)
                r.fail(
                    v, p,
                    "expected forward, reverse, shuffle:SEED (SEED a whole number) or every_cycle, "
                    "got \"" +
                        text + "\"");
              o.kind = ElaborationOrder::Kind::kShuffle;
              o.seed = std::stoull(digits);
            }
          },
          "`forward`"),
      section_key(
          "topology", "mapping or spec string",
          "the network; a spec string such as `torus:4x4` is accepted as shorthand",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            d.topology_node = v;
            d.has_topology = true;
            read_topology(r, v, p, d.scenario.topology);
          },
          "required"),
      section_key("router", "mapping",
                  "routers of direct topologies and the switches of switched ones",
                  [](Reader r, const Node& v, const std::string& p, D& d) {
                    read_router(r, v, p, d.scenario.router);
                  }),
      section_key("nic", "mapping", "the network interface of every endpoint",
                  [](Reader r, const Node& v, const std::string& p, D& d) {
                    read_nic(r, v, p, d.scenario.nic, false);
                    d.scenario.topology.ports_per_node = d.scenario.nic.ports;
                  }),
      section_key("host", "mapping",
                  "the host of software issue (`nic.issue: software`): how late it learns of an "
                  "arrival and what posting a message costs it (docs/host.md)",
                  [](Reader r, const Node& v, const std::string& p, D& d) {
                    read_host(r, v, p, d.scenario.host);
                  }),
      section_key("energy", "mapping",
                  "the prices of the events that cost energy: a link-type preset and any figure "
                  "overridden (docs/energy.md gives each source)",
                  [](Reader r, const Node& v, const std::string& p, D& d) {
                    read_energy(r, v, p, d.scenario.energy);
                  }),
      section_key(
          "collective", "mapping", "what to all-reduce",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            read_collective(r, v, p, d.collective);
          },
          "required"),
      section_key(
          "output", "mapping",
          "files written after the run (the CLI's `--json`/`--csv` win); relative paths are "
          "taken from the scenario file's folder",
          [](Reader r, const Node& v, const std::string& p, D& d) {
            read_section(r, v, p, output_keys(), d.scenario.output);
          }),
  };
  return table;
}

std::vector<KeyDoc> scenario_key_docs() {
  std::vector<KeyDoc> docs;
  for (const KeyDoc& top : key_docs(scenario_keys(), "")) {
    if (!top.section) {
      docs.push_back(top);
    } else if (top.path == "topology") {
      append_section(docs, top, topology_keys());
    } else if (top.path == "router") {
      append_section(docs, top, router_keys());
    } else if (top.path == "nic") {
      append_section(docs, top, nic_keys());
    } else if (top.path == "host") {
      append_section(docs, top, host_keys());
    } else if (top.path == "energy") {
      append_section(docs, top, energy_keys());
    } else if (top.path == "collective") {
      docs.push_back(top);
      for (const KeyDoc& row : key_docs(collective_keys(), "collective.")) {
        docs.push_back(row);
        if (row.path == "collective.algorithms") {
          const std::vector<KeyDoc> entry = entry_key_docs("collective.algorithms[i].");
          docs.insert(docs.end(), entry.begin(), entry.end());
        }
      }
    } else if (top.path == "output") {
      append_section(docs, top, output_keys());
    }
  }
  return docs;
}

std::string key_docs_markdown(const std::vector<KeyDoc>& docs) {
  std::ostringstream out;
  out << "| key | type | default | unit | meaning |\n|---|---|---|---|---|\n";
  for (const KeyDoc& d : docs) {
    const std::string key = d.section ? "**" + d.path + "**" : "`" + d.path + "`";
    out << "| " << key << " | " << d.type << " | " << d.fallback << " | " << d.unit << " | "
        << d.help << " |\n";
  }
  return out.str();
}

std::string key_docs_text(const std::vector<KeyDoc>& docs) {
  std::ostringstream out;
  for (const KeyDoc& d : docs) {
    out << d.path << "  (" << plain(d.type);
    if (!d.unit.empty()) out << ", " << d.unit;
    if (!d.fallback.empty()) out << "; default " << plain(d.fallback);
    out << ")\n    " << plain(d.help) << "\n";
  }
  return out.str();
}

}  // namespace mt
