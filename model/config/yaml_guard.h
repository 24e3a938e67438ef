#pragma once
// Loading YAML text into yaml-cpp's tree safely: a guard on the parser's events refuses, before
// the tree is built, what no walk of the tree could finish (a recursive alias) or afford (aliases
// of aliases that double the values at every level). Included only from model/config/.

#include <yaml-cpp/yaml.h>

#include <string>

namespace mt {

/// An alias yaml-cpp would resolve into a value that contains itself, or aliases that expand a
/// document past 2^20 values: thrown by load_yaml at the alias (`mark`), before the tree is built.
class AliasError : public YAML::ParserException {
 public:
  using YAML::ParserException::ParserException;
};

/// YAML::Load of the first document of `text`, refusing first (AliasError at the alias) an alias
/// inside the value its anchor names (`&a [x, *a]`: a tree that contains itself, which no walk
/// of it could finish) and aliases that expand the document past 2^20 values. Every YAML mtsim
/// reads (files and `--set` values) is loaded by it.
YAML::Node load_yaml(const std::string& text);

/// `text` with every lone CR (not followed by LF) made an LF: YAML allows a lone CR as a line
/// break (old Mac files), which yaml-cpp reads as part of the line.
std::string lone_cr_as_lf(std::string text);

}  // namespace mt
