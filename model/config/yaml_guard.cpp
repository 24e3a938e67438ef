#include "model/config/yaml_guard.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <cstdint>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace mt {
namespace {

// Values an alias-free copy of a document may hold: no mtsim file has more than a few thousand.
constexpr std::uint64_t kMaxExpandedValues = std::uint64_t{1} << 20;

// Walks the parser's events of one document: an alias naming a collection that is still open
// (`&a [x, *a]`) would make the tree contain itself, so every walk of it (flow_text, a key
// lookup, a copy) would recurse without end; and a chain of aliases (`&b [*a, *a]`, `[*b, *b]`,
// ...) doubles the values a walk meets at every level.
class AliasGuard : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    leaf(mark, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    for (const Open& o : open_)
      if (o.anchor == anchor)
        throw AliasError(mark, "the alias *" + name_of(anchor) +
                                   " stands for a value that contains it (a recursive alias: "
                                   "&" +
                                   name_of(anchor) + " is still open here); it would never end");
    const auto found = values_.find(anchor);
    count(mark, found == values_.end() ? 1 : found->second);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnMapEnd() override { close(); }
  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_name_ = name; }

 private:
  struct Open {
    YAML::anchor_t anchor;
    std::uint64_t first;  // expanded_ when it opened
  };
  std::string name_of(YAML::anchor_t anchor) const {
    const auto found = names_.find(anchor);
    return found == names_.end() ? "?" : found->second;
  }
  void name(YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) names_[anchor] = pending_name_;
    pending_name_.clear();
  }
  void count(const YAML::Mark& mark, std::uint64_t values) {
    expanded_ += values;
    if (expanded_ > kMaxExpandedValues)
      throw AliasError(mark, "with its aliases expanded the file holds more than " +
                                 std::to_string(kMaxExpandedValues) +
                                 " values (aliases of aliases double it at every level)");
  }
  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor) {
    name(anchor);
    count(mark, 1);
    if (anchor != YAML::NullAnchor) values_[anchor] = 1;
  }
  void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    name(anchor);
    open_.push_back({anchor, expanded_});
    count(mark, 1);
  }
  void close() {
    const Open o = open_.back();
    open_.pop_back();
    if (o.anchor != YAML::NullAnchor) values_[o.anchor] = expanded_ - o.first;
  }

  std::vector<Open> open_;
  std::unordered_map<YAML::anchor_t, std::uint64_t> values_;  // closed anchors: values expanded
  std::unordered_map<YAML::anchor_t, std::string> names_;
  std::string pending_name_;
  std::uint64_t expanded_ = 0;
};

}  // namespace

// YAML allows a lone CR as a line break (old Mac files); yaml-cpp reads it as part of the line.
std::string lone_cr_as_lf(std::string text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  return text;
}

YAML::Node load_yaml(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  AliasGuard guard;
  parser.HandleNextDocument(guard);
  return YAML::Load(text);
}

}  // namespace mt
