// `mtsim schedule` and `mtsim verify`: schedules without simulation.

#include <boost/program_options.hpp>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "model/collective/algorithm.h"
#include "model/collective/byte_size.h"
#include "model/collective/issue_order.h"
#include "model/collective/msccl_xml.h"
#include "model/collective/schedule_file.h"
#include "model/collective/schedule_io.h"
#include "model/collective/verify.h"
#include "model/config/scenario_loader.h"
#include "model/core/json_text.h"
#include "model/core/parse_integer.h"
#include "model/run/schedule_analysis.h"
#include "model/run/table_dump.h"
#include "model/sched/scheduler_build.h"
#include "tb/mtsim/cli.h"

namespace po = boost::program_options;

namespace mt::cli {
namespace {

// How many message ids the ops' dependency lists hold together.
long long dependencies_of(const Schedule& s) {
  long long n = 0;
  for (const Op& op : s.ops) n += static_cast<long long>(op.deps.size());
  return n;
}

void print_text(std::ostream& os, const Schedule& s, const Topology& t, const ScheduleAnalysis& a,
                const VerifyReport& v) {
  os << "schedule " << s.algorithm << " on " << t.name() << ": "
     << counted(s.nodes, "node", "nodes") << ", "
     << counted(t.ports_per_node(), "NIC port", "NIC ports") << " per node, "
     << counted(s.num_chunks, "chunk", "chunks") << ", " << counted(s.num_flows, "flow", "flows")
     << ", " << counted(static_cast<long long>(s.ops.size()), "message", "messages") << " ("
     << counted(dependencies_of(s), "dependency", "dependencies") << " in all)\n";
  os << "  verified:           "
     << (v.ok ? "yes, every node ends with every chunk reduced from all "
                "nodes exactly once"
              : "NO: " + v.first_error)
     << "\n";
  os << "  steps:              " << s.num_steps << " (reduce-scatter " << a.reduce_steps
     << ", all-gather " << a.broadcast_steps << ")\n";
  os << "  step lower bound:   " << a.step_lower_bound
     << " per phase for schedules that send at most one message per directed link and step, as "
        "MultiTree does\n                      (ceil(N(N-1) / directed links usable per step); "
        "pipelines and packings that share a link within a step may take fewer)\n";
  os << "  network diameter:   " << a.diameter << " hops\n";
  os << "  link contention:    " << v.contention.size()
     << " (step, directed link) pairs used by more than one message\n";
  os << "  estimate at " << format_byte_size(a.bytes) << ": " << std::fixed << std::setprecision(0)
     << a.estimate.cycles() << " cycles (dataflow model, as mtsim run's estimate_cycles and "
     << "auto's ranking);\n    per-step alpha-beta model " << a.estimate.per_step.cycles
     << " (latency " << a.estimate.per_step.latency_cycles << " + bandwidth "
     << a.estimate.per_step.bandwidth_cycles << ", blind to pipelining); bandwidth bound "
     << a.bound_cycles << ", latency bound " << a.latency_bound_cycles << " cycles\n";
  os << "  (cycles of the network clock, link latency " << t.config().link_latency_cycles
     << " cycles and " << t.config().link_bytes_per_cycle
     << " bytes/cycle per link; simulate with mtsim run for the figure that counts)\n";
  // Consecutive steps of one count as a range (a 4096-node MultiTree has 1368 steps, 1362 of
  // them with 24576 messages).
  os << "  messages per step (step or first-last: count):";
  const auto& steps = a.messages_per_step;
  const auto count_of = [](const auto& step) { return step.second.first + step.second.second; };
  for (auto it = steps.begin(); it != steps.end();) {
    const int count = count_of(*it);
    auto last = it;
    for (auto next = std::next(it);
         next != steps.end() && next->first == last->first + 1 && count_of(*next) == count; ++next)
      last = next;
    os << " " << it->first;
    if (last != it) os << "-" << last->first;
    os << ":" << count;
    it = std::next(last);
  }
  os << "\n";
}

AlgorithmParams parse_params(const std::vector<std::string>& items) {
  AlgorithmParams params;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--param " + item + ": expected key=value");
    params[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return params;
}

// An all-reduce size option, under the rules of a scenario's collective.sizes.
std::uint64_t parse_size_option(const std::string& name, const std::string& text) {
  std::uint64_t bytes = 0;
  try {
    bytes = parse_byte_size(text);
  } catch (const ByteSizeError& e) {
    throw UsageError("--" + name + ": " + e.what());
  }
  if (bytes > kMaxConfigBytes)
    throw UsageError("--" + name + ": \"" + text + "\" is larger than the 1TiB limit");
  if (const std::string problem = allreduce_size_problem(bytes); !problem.empty())
    throw UsageError("--" + name + ": " + problem);
  return bytes;
}

}  // namespace

int schedule_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim schedule --topology SPEC --algorithm NAME [options]\n\n"
      "Builds one all-reduce schedule, verifies it symbolically and prints it with its step "
      "count,\n"
      "step lower bound, network diameter, link contention and an analytical time estimate.\n\n"
      "options");
  std::string topology_spec, algorithm, format = "text", size = "1MiB", table_order = "step";
  std::vector<std::string> param_items, rtl_items;
  int ports = 0;
  int node = -1;
  bool rtl_build = false;
  opts.add_options()("help,h", "show this help")(
      "topology,t", po::value(&topology_spec),
      "topology spec: ring:16, torus:4x4, torus:4x4x4, mesh:8x8, fattree:k=8,levels=2, "
      "bigraph:m=4,n=8, switch:nodes=16")("algorithm,a", po::value(&algorithm),
                                          "algorithm name (see the list below)")(
      "param,p", po::value(&param_items)->composing(),
      "algorithm parameter key=value (repeatable)")(
      "ports", po::value(&ports),
      "NIC ports per node (default: one per network link on direct "
      "topologies, 1 on switched ones)")(
      "bytes", po::value(&size),
      "all-reduce size per node for the estimate and for algorithms "
      "that choose by size (auto, tree_packing); default 1MiB")(
      "format,f", po::value(&format),
      "output: text (summary), json (schedule file readable by "
      "mtsim verify, plus an \"analysis\" object), dot (Graphviz) or "
      "msccl (MSCCL all-reduce XML for the MSCCL runtime; "
      "mtsim import msccl reads it back), table (JSON: the co-designed NIC's packed tables as "
      "a hardware-issue run holds them in the order of --table-order and each message bound to "
      "its route's port (nic.port_binding route), every entry decoded and as hex; "
      "model/sched/SCHEDULE_TABLE.md) or memh (one node's table for $readmemh, with --node)")(
      "table-order", po::value(&table_order),
      "with --format table or memh: step (default; nic.scheduler_table_order step) or planned "
      "(the order a free host issues the schedule in, planned by a message-granularity run on "
      "the topology's default network: the tables of nic.scheduler_table_order planned, and of "
      "the default, auto, where a run's nic_choice says it kept them; tree_packing then takes "
      "the host's short messages)")(
      "node", po::value(&node),
      "with --format table: that node only; with memh: the node (required)")(
      "rtl-param", po::value(&rtl_items)->composing(),
      "with --format table or memh: NAME=VALUE of the RTL build to pack for (Nodes, Ports, "
      "Chunks, Flows, Steps, Counters, MaxCount: rtl/nic_sched's parameters); the field widths "
      "follow them instead of the schedule's smallest (repeatable)")(
      "rtl-build", po::bool_switch(&rtl_build),
      "with --format table or memh: pack for the nic_sched build mtsim was configured with "
      "(rtl/params/cosim.params unless CMake was given another MT_RTL_PARAMS_FILE; mtsim "
      "--version prints it): its seven table parameters, as --rtl-param would give them");
  std::string algorithms_help = "\nalgorithms:\n";
  for (const auto& name : algorithm_names())
    algorithms_help += "  " + name + ": " + algorithm_help(name) + "\n";
  if (!parse_command(args, opts, nullptr, algorithms_help)) return kExitOk;
  if (topology_spec.empty()) throw UsageError("--topology is required (e.g. --topology torus:4x4)");
  if (algorithm.empty()) throw UsageError("--algorithm is required (e.g. --algorithm multitree)");
  const bool table = format == "table" || format == "memh";
  if (format != "text" && format != "json" && format != "dot" && format != "msccl" && !table)
    throw UsageError("--format " + format + ": expected text, json, dot, msccl, table or memh");
  if (format == "memh" && node < 0)
    throw UsageError("--format memh writes one node's table: give --node N");
  if (node >= 0 && !table) throw UsageError("--node goes with --format table or memh");
  if (!rtl_items.empty() && !table)
    throw UsageError("--rtl-param goes with --format table or memh");
  if (rtl_build && !table) throw UsageError("--rtl-build goes with --format table or memh");
  if (rtl_build && !rtl_items.empty())
    throw UsageError("--rtl-build and --rtl-param: give one (--rtl-build is the build's seven)");
  if (table_order != "step" && table_order != "planned")
    throw UsageError("--table-order " + table_order + ": expected step or planned");
  const bool planned = table_order == "planned";
  if (planned && !table) throw UsageError("--table-order planned goes with --format table or memh");
  std::map<std::string, long long> rtl_params;
  for (const std::string& item : rtl_items) {
    const auto eq = item.find('=');
    const std::optional<long long> parsed =
        eq == std::string::npos ? std::nullopt : parse_integer(item.substr(eq + 1));
    const long long value = parsed ? *parsed : -1;
    if (value < 1)
      throw UsageError("--rtl-param " + item + ": expected NAME=VALUE with a VALUE >= 1");
    if (!rtl_params.emplace(item.substr(0, eq), value).second)
      throw UsageError("--rtl-param " + item + ": " + item.substr(0, eq) + " is given twice");
  }
  if (rtl_build)
    for (const auto& [name, value] : scheduler_build().table_capacity()) rtl_params[name] = value;
  const std::uint64_t bytes = parse_size_option("bytes", size);

  TopologyConfig config = parse_topology_spec(topology_spec);
  config.ports_per_node = ports;
  // The tables: built as a run on the co-designed NIC (hardware issue, message flow control)
  // builds its schedule, so that tree_packing's window and auto's choice are the run's.
  BuildContext context;
  context.hardware_issue = table;
  context.cost.head_per_message = table;
  context.planned_table_order = planned;
  // The text summary holds the schedule, its check and analysis only; the other formats hold
  // packed tables or a text per message too and keep the packet-level model's budget.
  if (format == "text") set_message_budget(kScheduleSummaryBudget);
  const ScheduleStudy& study =
      keep_until_exit(study_schedule(config, algorithm, parse_params(param_items), bytes, context));
  const Topology& topology = *study.topology;
  const Schedule& schedule = study.schedule;
  const VerifyReport& report = study.report;
  const ScheduleAnalysis& analysis = study.analysis;

  if (table) {
    if (node >= schedule.nodes)
      throw UsageError("--node " + std::to_string(node) + ": the schedule has nodes 0.." +
                       std::to_string(schedule.nodes - 1));
    // A schedule that fails verification has no tables to dump: the error below says why.
    if (report.ok) {
      PackedSchedule packed = pack_for_hardware(
          schedule, topology,
          planned ? planned_issue_cycles(schedule, topology, bytes) : std::vector<std::uint64_t>{});
      if (!rtl_params.empty()) {
        try {
          packed = with_rtl_widths(std::move(packed), schedule, rtl_params);
        } catch (const TableError& e) {
          throw UsageError((rtl_build ? "--rtl-build (" + scheduler_build().file + "): "
                                      : std::string("--rtl-param: ")) +
                           e.what());
        }
        // The widths an RTL build uses come from all seven: one left out keeps the table's own
        // count, not the RTL's default, which may be another width.
        std::string missing;
        for (const char* name : kTableParams)
          if (rtl_params.count(name) == 0)
            missing += std::string(missing.empty() ? "" : ", ") + name;
        if (!missing.empty())
          std::cerr << "mtsim schedule: note: " << missing
                    << " not given: their widths are this table's smallest, not an RTL build's "
                       "(give every --rtl-param your build sets or defaults, rtl/nic_sched.sv)\n";
      }
      if (format == "memh") {
        std::cout << packed_table_memh(packed, node);
      } else {
        std::cout << json_text(packed_tables_json(packed, node), 1) << "\n";
      }
    }
  } else if (format == "json") {
    nlohmann::json j = to_json(schedule);
    j["analysis"] = to_json(analysis, report);
    std::cout << json_text(j, 1) << "\n";
  } else if (format == "msccl") {
    MscclExportStats stats;
    std::cout << schedule_to_msccl(schedule, &stats);
    if (stats.dropped > 0)
      std::cerr << "mtsim schedule: note: " << stats.dropped << " message(s) name a NIC port or "
                << "an explicit path, which MSCCL XML cannot carry; they were dropped\n";
    for (const auto& note : msccl_limit_notes(stats))
      std::cerr << "mtsim schedule: note: " << note << ": valid XML, too wide to run as is\n";
  } else if (format == "dot") {
    std::cout << to_dot(schedule, topology);
  } else {
    print_text(std::cout, schedule, topology, analysis, report);
  }
  if (!report.ok) {
    std::cerr << "mtsim schedule: verification failed: " << report.first_error << "\n";
    return kExitCheckFailed;
  }
  return kExitOk;
}

int verify_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim verify SCHEDULE.json|ALGO.xml [options]\n\n"
      "Replays a schedule symbolically: every node must end with every chunk reduced from all N\n"
      "contributions exactly once, whatever the message timing. Exit 0 when it does, 1 when it\n"
      "does not (the first violation is named), 2 when the file cannot be read or parsed or\n"
      "does not fit the topology (node count, NIC ports, links of explicit paths). A correct\n"
      "schedule in which a message waits for one of a later step runs with software issue only:\n"
      "hardware issue and nic.step_barrier issue steps in order (a last line says which).\n\n"
      "options");
  std::string file, topology_spec;
  opts.add_options()("help,h", "show this help")(
      "topology,t", po::value(&topology_spec),
      "topology to check links against (default: the file's \"topology\" field, an MSCCL file's "
      "mtsim_topology attribute, else a ring of its nodes as `mtsim import` takes)")(
      "file", po::value(&file), "schedule JSON file");
  if (!parse_command(args, opts, "file")) return kExitOk;
  if (file.empty()) throw UsageError("missing SCHEDULE.json (mtsim verify --help)");
  const Schedule schedule = load_any_schedule_file(file);
  const bool from_file = topology_spec.empty();
  if (from_file) topology_spec = schedule.topology;
  if (topology_spec.empty()) topology_spec = "ring:" + std::to_string(schedule.nodes);
  std::unique_ptr<Topology> built;
  try {
    built = std::make_unique<Topology>(parse_topology_spec(topology_spec));
  } catch (const TopologyError& e) {
    // Name where the spec came from: the file's "topology" field or the option.
    throw UsageError((from_file ? "schedule file \"" + file + "\": topology: \""
                                : std::string("--topology \"")) +
                     topology_spec + "\": " + e.what());
  }
  const Topology& topology = *built;
  // A schedule that does not fit the topology cannot be run there (exit 2, as `run` and
  // `import` say it); only a schedule that fits is verified.
  const std::string mismatch = topology_mismatch(schedule, topology);
  if (!mismatch.empty()) throw UsageError(file + ": " + mismatch);
  const VerifyReport report = verify(schedule, topology);
  std::cout << file << ": " << schedule.algorithm << " on " << topology.name() << ", "
            << schedule.nodes << " nodes, " << schedule.ops.size() << " messages, "
            << report.num_steps << " steps, " << report.contention.size()
            << " contended (step, link) pairs\n";
  if (!report.ok) {
    std::cout << "FAILED: " << report.first_error << "\n";
    for (std::size_t i = 1; i < report.errors.size(); ++i)
      std::cout << "  also: " << report.errors[i] << "\n";
    return kExitCheckFailed;
  }
  std::cout << "OK: every node ends with every chunk reduced from all " << schedule.nodes
            << " contributions exactly once\n";
  // Correct in any timing, but in-order issue of steps adds a rule of its own.
  const IssueOrder order = issue_order(schedule);
  if (order.ok()) {
    std::cout << "runs with every issue mode: no message waits for a later step\n";
  } else {
    std::cout << "runs with nic.issue software only (no step barrier): " << order.violation.text
              << "\n";
  }
  return kExitOk;
}

}  // namespace mt::cli
