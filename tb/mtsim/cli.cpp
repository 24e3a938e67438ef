#include "tb/mtsim/cli.h"

#include <boost/program_options/errors.hpp>
#include <exception>
#include <iostream>
#include <new>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/core/json_text.h"
#include "model/core/output_files.h"
#include "model/params/config_error.h"
#include "model/topology/topology.h"

namespace po = boost::program_options;

namespace mt::cli {

std::optional<po::variables_map> parse_command(const std::vector<std::string>& args,
                                               const po::options_description& options,
                                               const char* positional,
                                               const std::string& help_footer) {
  po::positional_options_description positionals;
  if (positional != nullptr) positionals.add(positional, 1);
  const po::parsed_options parsed =
      po::command_line_parser(args).options(options).positional(positionals).run();
  // An empty value (`--json ""`, an unset shell variable) would read as "not given" further on:
  // no option of mtsim means anything by it.
  for (const po::option& o : parsed.options)
    for (const std::string& v : o.value)
      if (v.empty())
        throw UsageError(o.position_key >= 0 ? "empty " + o.string_key + " argument"
                                             : "--" + o.string_key + ": empty value");
  po::variables_map vm;
  po::store(parsed, vm);
  po::notify(vm);
  if (vm.count("help") == 0) return vm;
  std::cout << options << help_footer;
  return std::nullopt;
}

ErrorReport report_current_error(const std::string& command) {
  ErrorReport report;
  report.exit_status = kExitBadInput;
  try {
    throw;
  } catch (const boost::program_options::error& e) {
    report.line = "mtsim " + command + ": " + e.what() + " (mtsim " + command + " --help)";
  } catch (const UsageError& e) {
    report.line = "mtsim " + command + ": " + e.what();
    report.location = e.location();
  } catch (const ScenarioError& e) {
    report.line = std::string("mtsim: ") + e.what();
    report.location = e.location();
  } catch (const TopologyError& e) {
    report.line = std::string("mtsim: topology: ") + e.what();
    report.location = e.location();
  } catch (const AlgorithmError& e) {
    report.line = std::string("mtsim: algorithm: ") + e.what();
    report.location = e.location();
  } catch (const ScheduleError& e) {
    report.line = "mtsim " + command + ": " + e.what();  // names the file or the schedule
    report.location = e.location();
  } catch (const Error& e) {  // files that cannot be read or written, fork failures
    report.line = "mtsim " + command + ": " + e.what();
    report.location = e.location();
  } catch (const std::bad_alloc&) {
    report.line = "mtsim " + command + ": out of memory";
  } catch (const std::exception& e) {
    // Every input and system error is an mt::Error: anything else is mtsim's own bug.
    report.line = "mtsim " + command +
                  ": internal error (a bug in mtsim; please report it with the command line and "
                  "input files): " +
                  e.what();
    report.exit_status = kExitInternal;
  }
  return report;
}

void write_error_report(const std::string& path, const ErrorReport& report) {
  write_text_atomically(path, json_text(to_json(report)) + "\n");
}

}  // namespace mt::cli
