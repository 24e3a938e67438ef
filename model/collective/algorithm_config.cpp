#include "model/collective/algorithm_config.h"

#include <functional>
#include <stdexcept>
#include <utility>

#include "model/collective/algorithm.h"
#include "model/collective/auto_select.h"
#include "model/collective/byte_size.h"
#include "model/collective/tree_packing.h"

namespace mt {

namespace {

// "'a' or 'b'", "'a', 'b' or 'c'".
std::string quoted_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
    out += "'" + choices[i] + "'";
  }
  return out;
}

// The parameters of one algorithm's struct, bound to the members of one instance: each with its
// ParamSpec (fallback: the text of the member's current value, so a default-constructed struct
// gives its defaults; empty for an optional member without one) and a setter that stores a value
// read from text into the member.
class Fields {
 public:
  // A whole number >= 1 with a default.
  void integer(const char* name, int& member, const char* help) {
    add({name, ParamType::kInt, 1, {}, std::to_string(member), help, ""},
        [&member](long long v) { member = static_cast<int>(v); });
  }
  // A whole number >= 1 the builder computes when absent (`computed` says how).
  void integer(const char* name, std::optional<int>& member, const char* help,
               std::string computed) {
    add({name,
         ParamType::kInt,
         1,
         {},
         member ? std::to_string(*member) : "",
         help,
         std::move(computed)},
        [&member](long long v) { member = static_cast<int>(v); });
  }
  // A byte size the builder takes from elsewhere when absent (`computed` says how).
  void size(const char* name, std::optional<std::uint64_t>& member, const char* help,
            std::string computed) {
    add({name,
         ParamType::kSize,
         0,
         {},
         member ? format_byte_size(*member) : "",
         help,
         std::move(computed)},
        [&member](long long v) { member = static_cast<std::uint64_t>(v); });
  }
  // One of enum E's names (EnumNames<E>), with a default.
  template <typename E>
  void choice(const char* name, E& member, const char* help) {
    const auto& names = EnumNames<E>::kNames;
    add({name, ParamType::kEnum, 0, {names.begin(), names.end()}, to_string(member), help, ""},
        [&member](long long index) { member = static_cast<E>(index); });
  }

  const std::vector<ParamSpec>& specs() const { return specs_; }

  // Stores `raw` into the bound members: unknown keys refused first, then every given value in
  // declaration order (AlgorithmError naming `algorithm` and the key).
  void read(const std::string& algorithm, const AlgorithmParams& raw) const {
    for (const auto& kv : raw) {
      bool known = false;
      for (const ParamSpec& s : specs_) known = known || s.name == kv.first;
      if (known) continue;
      std::string list;
      for (const ParamSpec& s : specs_) list += (list.empty() ? "" : ", ") + s.name;
      throw AlgorithmError(algorithm + ": unknown parameter '" + kv.first +
                           "' (known: " + (list.empty() ? std::string("none") : list) + ")");
    }
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      const ParamSpec& s = specs_[i];
      const auto it = raw.find(s.name);
      if (it != raw.end()) setters_[i](value(algorithm, s, it->second));
    }
  }

 private:
  void add(ParamSpec spec, std::function<void(long long)> setter) {
    specs_.push_back(std::move(spec));
    setters_.push_back(std::move(setter));
  }

  // `text` as parameter `s`'s value: the number, the bytes, or the choice's index.
  static long long value(const std::string& algorithm, const ParamSpec& s,
                         const std::string& text) {
    const std::string what = algorithm + ": parameter '" + s.name + "' must be ";
    switch (s.type) {
      case ParamType::kInt: {
        std::size_t used = 0;
        int number = 0;
        try {
          number = std::stoi(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size())
          throw AlgorithmError(what + "an integer, got '" + text + "'");
        if (number < s.min)
          throw AlgorithmError(what + ">= " + std::to_string(s.min) + ", got " + text);
        return number;
      }
      case ParamType::kSize:
        try {
          return static_cast<long long>(parse_byte_size(text));
        } catch (const std::exception&) {  // whatever parse_byte_size throws for bad text
          throw AlgorithmError(what + "a size such as 4096 or 16MiB, got '" + text + "'");
        }
      case ParamType::kEnum:
        for (std::size_t i = 0; i < s.choices.size(); ++i)
          if (s.choices[i] == text) return static_cast<long long>(i);
        throw AlgorithmError(what + quoted_choices(s.choices) + ", got '" + text + "'");
    }
    throw std::logic_error("parameter type out of range");
  }

  std::vector<ParamSpec> specs_;
  std::vector<std::function<void(long long)>> setters_;
};

// Each algorithm's parameters, in the order its errors list them.
void fields(RingParams&, Fields&) {}
void fields(RingBiParams&, Fields&) {}
void fields(Ring2dParams&, Fields&) {}
void fields(DbtreeParams& p, Fields& f) {
  f.integer("pipeline", p.pipeline, "chunks per tree");
  f.choice("steps", p.steps,
           "colored: Sanders et al.'s two-colour steps, as the MultiTree authors' simulator; "
           "even N");
  f.choice("phases", p.phases,
           "separate: a node broadcasts once all its contributions arrived; needs steps=colored");
}
void fields(HalvingDoublingParams&, Fields&) {}
void fields(MultiTreeParams&, Fields&) {}
void fields(MultiTreeOptParams& p, Fields& f) {
  f.integer("pipeline", p.pipeline, "sub-chunks per tree");
  f.choice("trees", p.trees, "published: the published forest, pipelined");
  f.choice("roots", p.roots,
           "exchange: a root and its child with the tallest subtree exchange partial sums, "
           "staged, instead of reduce then broadcast");
}
void fields(DisjointRingsParams& p, Fields& f) {
  f.integer("pipeline", p.pipeline, "sub-chunks per ring position");
  f.integer("rings", p.rings, "max rings");
}
void fields(TreePackingParams& p, Fields& f) {
  f.integer("pipeline", p.pipeline, "sub-chunks per tree",
            "sized by the all-reduce size, shorter messages under message flow control with host "
            "issue");
  f.integer("trees", p.trees, "max trees");
  f.integer("window", p.window,
            "W: a node's reduce of sub-chunk p + W waits for its broadcast of sub-chunk p, so the "
            "co-designed NIC reuses its arrival counters every W sub-chunks",
            "under hardware issue the larger of 2 x the tallest tree's height and 1.5 round "
            "trips' worth of sub-chunks, none otherwise");
  f.size("bytes", p.bytes, "all-reduce size the default pipeline is sized for",
         "the run's all-reduce size, else " + format_byte_size(kTreePackingDefaultBytes));
}
void fields(SwingParams& p, Fields& f) {
  f.choice("variant", p.variant,
           "latency: whole-share exchanges, log2(N) steps, received data staged until the node's "
           "own message has been issued");
  f.integer("collectives", p.collectives, "count", "min(ports, 2 x dimensions)");
}
void fields(AutoParams& p, Fields& f) {
  f.size("bytes", p.bytes, "size to choose for",
         "the run's all-reduce size (mtsim schedule's --bytes), else " +
             format_byte_size(kAutoDefaultBytes));
  f.choice("rank", p.rank,
           "message: simulate every candidate with the message-granularity model on the run's "
           "network and NIC and pick the fastest (in a scenario run only; docs/granularity.md "
           "gives its error)");
}

// Algorithm P's struct read from `raw`.
template <typename P>
AlgorithmConfig read_config(const AlgorithmParams& raw) {
  P params;
  Fields f;
  fields(params, f);
  f.read(P::kName, raw);
  return params;
}

struct Entry {
  const char* name;
  std::string description;  // what it does, without its parameters (help appends them)
  AlgorithmConfig (*read)(const AlgorithmParams&);
  std::vector<ParamSpec> schema;  // derived from a default-constructed struct
};

template <typename P>
Entry entry(std::string description) {
  P defaults;
  Fields f;
  fields(defaults, f);
  return {P::kName, std::move(description), &read_config<P>, f.specs()};
}

// In AlgorithmConfig's order (algorithm_names()).
const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      entry<RingParams>("unidirectional ring over a Hamiltonian cycle of the topology: N chunks, "
                        "reduce-scatter then all-gather, 2(N-1) steps"),
      entry<RingBiParams>("two rings in opposite directions, each with half of the data: 2N "
                          "chunks, 2(N-1) steps"),
      entry<Ring2dParams>("hierarchical 2D ring on a 2D torus/mesh: half of the data "
                          "rows-then-columns, the other half columns-then-rows in the opposite "
                          "direction, 2(X-1)+2(Y-1) steps"),
      entry<DbtreeParams>(
          "NCCL-style double binary tree, each tree carries half of the data, pipelined"),
      entry<HalvingDoublingParams>("recursive halving reduce-scatter + recursive doubling "
                                   "all-gather, N a power of two, 2 log2(N) steps, nearest "
                                   "partners first"),
      entry<MultiTreeParams>("MultiTree (ISCA 2021): one spanning tree per node built top-down "
                             "with link/port reservation per time step, 2T steps; NIC ports from "
                             "the topology"),
      entry<MultiTreeOptParams>(
          "improved MultiTree: per-step maximum matching of free links to (tree, endpoint) pairs "
          "on direct topologies (step bound or one more on 2D tori/meshes), two-level "
          "local-first trees on switch topologies"),
      entry<DisjointRingsParams>(
          "pipelined rings over link-disjoint directed Hamiltonian cycles: 4 on a 2D torus (2 "
          "edge-disjoint cycles, both directions), 2 on meshes/rings, a switch-grouped ring per "
          "port on switch topologies"),
      entry<TreePackingParams>(
          "pipelined reduce/broadcast over t spanning trees that share every link equally (the "
          "smallest link load c/t; Edmonds matroid partition, then shortened by edge "
          "exchanges), direct topologies; reaches the aggregate bound on meshes"),
      entry<SwingParams>(
          "Swing (NSDI 2024) on rings and tori with power-of-two dimensions: peers at rho(s) = "
          "1, -1, 3, -5, ... hops, left for odd coordinates, cycling over dimensions; "
          "reduce-scatter by recursive halving then all-gather, 2 log2(N) steps; one collective "
          "per port (shifted and mirrored)"),
      entry<AutoParams>(
          "picks the candidate with the smallest dataflow estimate (or message-model time) among "
          "ring2d, dbtree, "
          "halving_doubling, multitree, multitree_opt, tree_packing, disjoint_rings (several "
          "pipeline depths) and swing (rings, tori); Schedule::algorithm names the choice "
          "(auto:<name(params)>)"),
  };
  return entries;
}

const Entry& find(const std::string& name) {
  for (const auto& e : registry()) {
    if (name == e.name) return e;
  }
  std::string known;
  for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw AlgorithmError("unknown algorithm '" + name + "' (known: " + known + ")");
}

// "pipeline=<chunks per tree> (default 8)", "steps=height|colored (default height; colored:
// ...)", "window=<W: ...> (default: under hardware issue ...)".
std::string param_help(const ParamSpec& s) {
  std::string out = s.name + "=";
  if (s.type == ParamType::kEnum) {
    for (std::size_t i = 0; i < s.choices.size(); ++i) out += (i > 0 ? "|" : "") + s.choices[i];
    return out + " (default " + s.fallback + (s.help.empty() ? "" : "; " + s.help) + ")";
  }
  out += "<" + s.help + ">";
  return out +
         (s.fallback.empty() ? " (default: " + s.computed + ")" : " (default " + s.fallback + ")");
}

}  // namespace

AlgorithmConfig algorithm_config(const std::string& name, const AlgorithmParams& params) {
  return find(name).read(params);
}

std::string algorithm_name(const AlgorithmConfig& config) {
  return std::visit([](const auto& p) { return std::string(p.kName); }, config);
}

AlgorithmParams parameter_texts(const AlgorithmConfig& config) {
  return std::visit(
      [](auto p) {  // a copy: Fields binds to non-const members
        Fields f;
        fields(p, f);
        AlgorithmParams texts;
        for (const ParamSpec& s : f.specs())
          if (!s.fallback.empty()) texts[s.name] = s.fallback;
        return texts;
      },
      config);
}

bool depends_on_size(const AlgorithmConfig& config) {
  if (const auto* a = std::get_if<AutoParams>(&config)) return !a->bytes;
  if (const auto* t = std::get_if<TreePackingParams>(&config)) return !t->pipeline && !t->bytes;
  return false;
}

AlgorithmConfig with_size(AlgorithmConfig config, std::uint64_t bytes) {
  if (!depends_on_size(config)) return config;
  if (auto* a = std::get_if<AutoParams>(&config)) a->bytes = bytes;
  if (auto* t = std::get_if<TreePackingParams>(&config)) t->bytes = bytes;
  return config;
}

bool depends_on_size(const std::string& name, const AlgorithmParams& params) {
  return depends_on_size(algorithm_config(name, params));
}

AlgorithmParams with_size(const std::string& name, AlgorithmParams params, std::uint64_t bytes) {
  if (depends_on_size(name, params)) params["bytes"] = format_byte_size(bytes);
  return params;
}

const std::vector<ParamSpec>& algorithm_schema(const std::string& name) {
  return find(name).schema;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& e : registry()) names.emplace_back(e.name);
  return names;
}

std::string algorithm_help(const std::string& name) {
  const Entry& e = find(name);
  std::string params;
  for (const ParamSpec& s : e.schema) params += (params.empty() ? "" : ", ") + param_help(s);
  return e.description + "; " + (params.empty() ? "no parameters" : params);
}

}  // namespace mt
