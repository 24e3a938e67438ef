// `mtsim import msccl IN.xml -o OUT.json`: an MSCCL all-reduce algorithm (XML as msccl-tools
// writes it) as an mtsim schedule file, verified before it is written.

#include <boost/program_options.hpp>
#include <iostream>

#include "model/collective/msccl_xml.h"
#include "model/collective/schedule_file.h"
#include "model/collective/schedule_io.h"
#include "model/collective/verify.h"
#include "model/core/output_files.h"
#include "model/params/scenario_config.h"
#include "tb/mtsim/cli.h"

namespace po = boost::program_options;

namespace mt::cli {

int import_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim import msccl IN.xml -o OUT.json [options]\n\n"
      "Reads an MSCCL all-reduce algorithm (coll=\"allreduce\": <algo>, <gpu>, <tb>, <step>) and\n"
      "writes it as an mtsim schedule file (model/collective/SCHEDULE_FORMAT.md). Rank r becomes\n"
      "node r. The schedule is verified first; exit 0 when it is right, 1 when the verifier\n"
      "rejects it (nothing is written), 2 when the XML is malformed or cannot be represented\n"
      "(file, line and element named). OUT.xml writes the schedule back as MSCCL XML, as\n"
      "mtsim schedule writes its msccl format (the executor's limits it passes on stderr).\n\n"
      "options");
  std::string format, in_file, out_file, topology_spec;
  opts.add_options()("help,h", "show this help")(
      "output,o", po::value(&out_file),
      "schedule JSON file (or .xml: MSCCL XML) to write (- for stdout)")(
      "topology,t", po::value(&topology_spec),
      "topology to verify against and to record in the file (default: the XML's mtsim_topology "
      "attribute, else a ring of ngpus nodes)");
  po::options_description positionals;  // the two words after `import`, not shown as options
  positionals.add_options()("format", po::value(&format))("file", po::value(&in_file));
  po::options_description all;
  all.add(opts).add(positionals);
  po::positional_options_description positional;
  positional.add("format", 1).add("file", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << opts;
    return kExitOk;
  }
  if (format != "msccl") throw UsageError("expected `mtsim import msccl IN.xml -o OUT.json`");
  if (in_file.empty()) throw UsageError("missing IN.xml (mtsim import --help)");
  if (out_file.empty()) throw UsageError("missing -o OUT.json (mtsim import --help)");
  // -o may not be the XML it reads; "-" writes the schedule to stdout (the report to stderr).
  OutputFiles out({{in_file}, true});
  out.add(out_file, "schedule file", "-o");
  std::ostream& text = out.uses_stdout() ? std::cerr : std::cout;
  Schedule schedule = load_msccl_file(in_file);
  if (!topology_spec.empty()) schedule.topology = topology_spec;
  if (schedule.topology.empty()) schedule.topology = "ring:" + std::to_string(schedule.nodes);
  const Topology topology(parse_topology_spec(schedule.topology));
  schedule.topology = topology.name();
  const std::string mismatch = topology_mismatch(schedule, topology);
  if (!mismatch.empty()) throw UsageError(in_file + ": " + mismatch);
  const VerifyReport report = verify(schedule, topology);
  text << in_file << ": " << schedule.algorithm << ", " << schedule.nodes << " ranks, "
       << schedule.num_chunks << " chunks, " << schedule.ops.size() << " messages, "
       << schedule.num_steps << " steps (verified on " << topology.name() << ")\n";
  if (!report.ok) {
    text << "FAILED: " << report.first_error << "\n";
    return kExitCheckFailed;
  }
  const bool xml = out_file.size() > 4 && out_file.compare(out_file.size() - 4, 4, ".xml") == 0;
  if (xml) {
    MscclExportStats stats;
    out.set_text(out_file, schedule_to_msccl(schedule, &stats));
    for (const std::string& note : msccl_limit_notes(stats))
      std::cerr << "mtsim import: note: " << note << ": valid XML, too wide to run as is\n";
  } else {
    out.set_text(out_file, schedule_file_text(schedule));
  }
  out.commit();
  if (out_file != "-") text << "wrote " << out_file << "\n";
  return kExitOk;
}

}  // namespace mt::cli
