#include "model/config/workload_loader.h"

#include <optional>
#include <set>

#include "model/config/yaml_reader.h"

namespace mt {
namespace {

constexpr long long kMaxLayerParams = 1ll << 40;
constexpr long long kMaxCycles = 1ll << 50;

LayerConfig read_layer(const YamlReader& r, const YAML::Node& node, const std::string& path) {
  LayerConfig l;
  bool has_name = false, has_params = false;
  r.each_key(node, path, {"name", "params", "backprop_cycles", "forward_cycles"},
             [&](const std::string& key, const YAML::Node& v, const std::string& sub) {
               if (key == "name") {
                 l.name = r.text(v, sub);
                 has_name = true;
                 if (l.name.empty()) r.fail(v, sub, "empty: a layer needs a name");
               }
               if (key == "params") {
                 l.params = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxLayerParams));
                 has_params = true;
               }
               if (key == "backprop_cycles")
                 l.backprop_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
               if (key == "forward_cycles")
                 l.forward_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
             });
  if (!has_name) r.fail(node, path, "missing key \"name\"");
  if (!has_params) r.fail(node, path, "missing key \"params\"");
  return l;
}

void read_workload(const YamlReader& r, const YAML::Node& root, WorkloadConfig& w) {
  std::optional<YAML::Node> layers_node;  // copies share the node: a handle for messages
  check_file_kind(r, root, FileKind::kWorkload);
  r.each_key(root, "",
             {"name", "description", "source", "dtype", "optimizer_cycles", "bucket_bytes",
              "launch_cycles", "layers"},
             [&](const std::string& key, const YAML::Node& v, const std::string& sub) {
               if (key == "name") w.name = r.text(v, sub);
               if (key == "description") w.description = r.text(v, sub);
               if (key == "source") w.source = r.text(v, sub);
               if (key == "dtype")
                 w.dtype_bytes = r.choice(v, sub, {"fp32", "fp16"}) == "fp32" ? 4 : 2;
               if (key == "optimizer_cycles")
                 w.optimizer_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
               if (key == "launch_cycles")
                 w.launch_cycles = static_cast<std::uint64_t>(r.integer(v, sub, 0, kMaxCycles));
               if (key == "bucket_bytes")  // 0: one all-reduce per layer
                 w.bucket_bytes = v.IsScalar() && v.Scalar() == "0" ? 0 : r.bytes(v, sub);
               if (key == "layers") {
                 const auto items = r.list(v, sub, false, 100000);
                 std::set<std::string> names;
                 for (std::size_t i = 0; i < items.size(); ++i) {
                   const std::string item_path = sub + "[" + std::to_string(i) + "]";
                   w.layers.push_back(read_layer(r, items[i], item_path));
                   if (!names.insert(w.layers.back().name).second)
                     r.fail(items[i], item_path + ".name",
                            "layer \"" + w.layers.back().name + "\" given twice");
                 }
                 layers_node.emplace(v);
               }
             });
  if (!layers_node) r.fail(root, "", "missing key \"layers\"");
  std::uint64_t total = 0;  // each term < 2^40 and at most 10^5 layers: no overflow
  for (const auto& l : w.layers) total += l.params;
  const std::uint64_t cycles = compute_and_launch_cycles(w);
  if (total == 0) r.fail(*layers_node, "layers", "no layer has parameters: nothing to all-reduce");
  // One bucket may fuse every layer: the whole gradient must be an all-reduce size.
  if (total * w.dtype_bytes > kMaxConfigBytes)
    r.fail(*layers_node, "layers",
           std::to_string(total) + " parameters are " + std::to_string(total * w.dtype_bytes) +
               " gradient bytes, more than the 1TiB all-reduce limit");
  if (cycles > static_cast<std::uint64_t>(kMaxCycles))
    r.fail(*layers_node, "layers",
           "forward + backprop cycles of all layers, one launch_cycles per layer and "
           "optimizer_cycles add up to " +
               std::to_string(cycles) +
               " cycles, more than the 2^50-cycle limit of one iteration (" +
               std::to_string(kMaxCycles) + ")");
}

}  // namespace

WorkloadConfig load_workload_text(const std::string& text, const std::string& source_name) {
  const YAML::Node root = parse_yaml(text, source_name);
  WorkloadConfig w;
  w.source_file = source_name;
  const YamlReader reader(source_name, {});
  read_workload(reader, root, w);
  if (w.name.empty()) w.name = file_stem(source_name);
  return w;
}

WorkloadConfig load_workload_file(const std::string& path) {
  return load_workload_text(read_config_file(path, "workload"), path);
}

}  // namespace mt
