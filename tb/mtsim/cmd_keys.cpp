// `mtsim keys [--markdown]`: every scenario key with its type, default, unit and meaning, printed
// from the loader's own declarations (model/config/scenario_keys.h); scenarios/README.md's key
// table is its --markdown output (ctest lint.scenario_keys checks it).

#include <boost/program_options.hpp>
#include <iostream>

#include "model/config/scenario_keys.h"
#include "tb/mtsim/cli.h"

namespace po = boost::program_options;

namespace mt::cli {

int keys_command(const std::vector<std::string>& args) {
  po::options_description opts(
      "mtsim keys [--markdown]\n\n"
      "Every key a scenario file takes, as the loader reads it: its type and range, its default,\n"
      "its unit and what it means (scenarios/README.md has the same table).\n\n"
      "options");
  bool markdown = false;
  opts.add_options()("help,h", "show this help")("markdown", po::bool_switch(&markdown),
                                                 "print a Markdown table (scenarios/README.md's)");
  const auto vm = parse_command(args, opts, nullptr);
  if (!vm) return kExitOk;
  const std::vector<KeyDoc> docs = scenario_key_docs();
  std::cout << (markdown ? key_docs_markdown(docs) : key_docs_text(docs));
  return kExitOk;
}

}  // namespace mt::cli
