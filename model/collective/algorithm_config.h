#pragma once
// Typed algorithm parameters: one struct per registered algorithm (also those without
// parameters), enums for the closed choices, std::optional for values a builder computes when
// absent. A struct's member initialisers are the one place its defaults are written: the
// schema's fallback texts (--help, algorithm_schema()) are derived from them. AlgorithmConfig
// holds one of the structs; algorithm_config() is the only code that reads parameter text
// (`--param`, a scenario's collective.params, a label's name(k=v,...)) into it.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/collective/algorithm_params.h"
#include "model/core/enum_names.h"

namespace mt {

/// dbtree: the step a message belongs to.
enum class DbtreeSteps {
  kHeight,   ///< reduce of chunk p by a node of height h at step p + h, broadcast after
  kColored,  ///< Sanders et al.'s two-colour steps (the MultiTree authors' simulator; even N)
};
template <>
struct EnumNames<DbtreeSteps> {
  static constexpr std::array<const char*, 2> kNames{"height", "colored"};
};

/// dbtree: when a node broadcasts.
enum class DbtreePhases {
  kOverlapped,  ///< a chunk's broadcast starts while other chunks still reduce
  kSeparate,    ///< a node broadcasts once all its contributions arrived (needs kColored)
};
template <>
struct EnumNames<DbtreePhases> {
  static constexpr std::array<const char*, 2> kNames{"overlapped", "separate"};
};

/// multitree_opt: which forest.
enum class MultiTreeOptTrees {
  kOpt,        ///< build_multitree_opt_forest()
  kPublished,  ///< the published MultiTree forest, pipelined
};
template <>
struct EnumNames<MultiTreeOptTrees> {
  static constexpr std::array<const char*, 2> kNames{"opt", "published"};
};

/// multitree_opt: what a tree's root does.
enum class MultiTreeOptRoots {
  kSingle,    ///< reduce to the root, then broadcast
  kExchange,  ///< the root and its tallest child exchange partial sums (exchange_at_roots())
};
template <>
struct EnumNames<MultiTreeOptRoots> {
  static constexpr std::array<const char*, 2> kNames{"single", "exchange"};
};

/// swing: which of the published variants.
enum class SwingVariant {
  kBandwidth,  ///< recursive halving reduce-scatter then all-gather, 2 log2(N) steps
  kLatency,    ///< whole-share exchanges, log2(N) steps, received data staged
};
template <>
struct EnumNames<SwingVariant> {
  static constexpr std::array<const char*, 2> kNames{"bandwidth", "latency"};
};

/// auto: what ranks the candidates.
enum class AutoRank {
  kEstimate,  ///< the cost model's dataflow estimate (cost_model.h): no simulation
  kMessage,   ///< a message-granularity simulation of each candidate (docs/granularity.md)
};
template <>
struct EnumNames<AutoRank> {
  static constexpr std::array<const char*, 2> kNames{"estimate", "message"};
};

/// `ring`: no parameters.
struct RingParams {
  static constexpr const char* kName = "ring";  ///< registered name
};

/// `ring_bi`: no parameters.
struct RingBiParams {
  static constexpr const char* kName = "ring_bi";  ///< registered name
};

/// `ring2d`: no parameters.
struct Ring2dParams {
  static constexpr const char* kName = "ring2d";  ///< registered name
};

/// `dbtree` (dbtree.h).
struct DbtreeParams {
  static constexpr const char* kName = "dbtree";    ///< registered name
  int pipeline = 8;                                 ///< chunks per tree (>= 1)
  DbtreeSteps steps = DbtreeSteps::kHeight;         ///< step numbering
  DbtreePhases phases = DbtreePhases::kOverlapped;  ///< reduce and broadcast overlapped or not
};

/// `halving_doubling`: no parameters.
struct HalvingDoublingParams {
  static constexpr const char* kName = "halving_doubling";  ///< registered name
};

/// `multitree`: no parameters.
struct MultiTreeParams {
  static constexpr const char* kName = "multitree";  ///< registered name
};

/// `multitree_opt` (multitree_opt.h).
struct MultiTreeOptParams {
  static constexpr const char* kName = "multitree_opt";  ///< registered name
  int pipeline = 1;                                      ///< sub-chunks per tree (>= 1)
  MultiTreeOptTrees trees = MultiTreeOptTrees::kOpt;     ///< the forest
  MultiTreeOptRoots roots = MultiTreeOptRoots::kSingle;  ///< root exchanges or not
};

/// `disjoint_rings` (disjoint_rings.h).
struct DisjointRingsParams {
  static constexpr const char* kName = "disjoint_rings";  ///< registered name
  int pipeline = 2;                                       ///< sub-chunks per ring position (>= 1)
  int rings = 64;  ///< most rings used (never more than the NIC ports)
};

/// `tree_packing` (tree_packing.h).
struct TreePackingParams {
  static constexpr const char* kName = "tree_packing";  ///< registered name
  /// Sub-chunks per tree; absent: tree_packing_pipeline() for the size.
  std::optional<int> pipeline;
  int trees = 32;  ///< most spanning trees packed
  /// Sub-chunks a reduce waits behind a broadcast; absent: tree_packing_window().
  std::optional<int> window;
  /// All-reduce size the default pipeline is sized for, bytes; absent: BuildContext::bytes,
  /// else kTreePackingDefaultBytes.
  std::optional<std::uint64_t> bytes;
};

/// `swing` (swing.h).
struct SwingParams {
  static constexpr const char* kName = "swing";     ///< registered name
  SwingVariant variant = SwingVariant::kBandwidth;  ///< bandwidth- or latency-optimal
  std::optional<int> collectives;  ///< collectives side by side; absent: min(ports, 2 x dims)
};

/// `auto` (auto_select.h).
struct AutoParams {
  static constexpr const char* kName = "auto";  ///< registered name
  /// All-reduce size to choose for, bytes; absent: BuildContext::bytes, else kAutoDefaultBytes.
  std::optional<std::uint64_t> bytes;
  AutoRank rank = AutoRank::kEstimate;  ///< what ranks the candidates
};

/// One registered algorithm with its typed parameters, alternatives in registry order
/// (algorithm_names()).
using AlgorithmConfig =
    std::variant<RingParams, RingBiParams, Ring2dParams, DbtreeParams, HalvingDoublingParams,
                 MultiTreeParams, MultiTreeOptParams, DisjointRingsParams, TreePackingParams,
                 SwingParams, AutoParams>;

/// Reads `params` as the parameters of algorithm `name`: the only code that reads parameter
/// text. Throws AlgorithmError for an unknown algorithm ("unknown algorithm 'x' (known: ring,
/// ...)"), then for unknown keys ("dbtree: unknown parameter 'pipe' (known: pipeline, steps,
/// phases)"), then for every given value in schema order ("dbtree: parameter 'pipeline' must be
/// >= 1, got 0", "... must be an integer, got '4x'", "... must be a size such as 4096 or 16MiB,
/// got 'lots'", "... must be 'opt' or 'published', got 'best'"). Absent keys keep the struct's
/// defaults (optional ones stay empty).
AlgorithmConfig algorithm_config(const std::string& name, const AlgorithmParams& params = {});

/// The registered name of the algorithm `config` holds ("dbtree").
std::string algorithm_name(const AlgorithmConfig& config);

/// Every parameter `config` has a value for, as text algorithm_config() reads back to the same
/// value ("8", "height", "16MiB"); optional members left empty are not listed.
AlgorithmParams parameter_texts(const AlgorithmConfig& config);

/// True when `config` builds a different schedule per all-reduce size (`auto` picks by size,
/// `tree_packing` sizes its pipeline unless given one) and no bytes parameter fixes the size:
/// callers build it once per size with BuildContext::bytes.
bool depends_on_size(const AlgorithmConfig& config);

/// `config` with `bytes` as its bytes parameter when depends_on_size(), else unchanged.
AlgorithmConfig with_size(AlgorithmConfig config, std::uint64_t bytes);

/// depends_on_size() of algorithm `name` with `params` (read by algorithm_config()).
bool depends_on_size(const std::string& name, const AlgorithmParams& params);

/// `params` with the all-reduce size set as the "bytes" parameter when depends_on_size(); other
/// params are returned unchanged. For callers that name a schedule by its parameters; the run
/// layer passes the size in BuildContext::bytes instead.
AlgorithmParams with_size(const std::string& name, AlgorithmParams params, std::uint64_t bytes);

/// The parameters algorithm `name` accepts, in the order its errors list them, with fallbacks
/// derived from its struct's defaults.
const std::vector<ParamSpec>& algorithm_schema(const std::string& name);

/// CLI names of every registered algorithm, in presentation order.
std::vector<std::string> algorithm_names();

/// One-line description of an algorithm and its parameters (each with its default), for --help.
std::string algorithm_help(const std::string& name);

}  // namespace mt
