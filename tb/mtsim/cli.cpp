#include "tb/mtsim/cli.h"

#include <iostream>

namespace po = boost::program_options;

namespace mt::cli {

std::optional<po::variables_map> parse_command(const std::vector<std::string>& args,
                                               const po::options_description& options,
                                               const char* positional,
                                               const std::string& help_footer) {
  po::positional_options_description positionals;
  if (positional != nullptr) positionals.add(positional, 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(options).positional(positionals).run(), vm);
  po::notify(vm);
  if (vm.count("help") == 0) return vm;
  std::cout << options << help_footer;
  return std::nullopt;
}

}  // namespace mt::cli
