#pragma once
// Pipelined all-reduce over a spanning-tree packing: t spanning trees of a direct topology such
// that every link is in at most c of them, with c/t as small as the graph allows. Each tree
// carries 1/t of the data, reduced leaf-to-root and broadcast root-to-leaf; every tree edge
// carries its tree's share once in each direction, so a link carries c/t of the data each way.
// With c/t = (N-1)/E (E undirected links, which the Nash-Williams/Tutte condition allows when no
// vertex partition is sparser than the whole graph, e.g. meshes and tori) every link is equally
// loaded and the schedule meets the aggregate bandwidth bound 2(N-1)S / (2E link bandwidth).

#include <cstdint>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/collective/spanning_tree_packing.h"
#include "model/topology/topology.h"

namespace mt {

/// Message size the default pipeline aims at, bytes: the fill and drain of a tree pipeline cost
/// about 2 x height x (message time) x (trees sharing a link), so smaller messages stream better
/// (0.87 -> 0.90 -> 0.92 of the bound at 16, 8, 4 KiB on an 8x8 mesh at 16 MiB).
constexpr std::uint64_t kTreePackingMessageBytes = 4096;
/// Most chunks the default pipeline makes (messages = 2(N-1) x chunks; bounds schedule memory).
constexpr std::uint64_t kTreePackingMaxChunks = 4096;
/// The same for the short messages of message flow control: their rule's optimum on the 8x8 mesh
/// at 16 MiB is 512 sub-chunks per tree, 8192 chunks (1.03 M messages, 0.54 GiB of run memory).
constexpr std::uint64_t kTreePackingMaxShortChunks = 8192;
/// All-reduce size the default pipeline is sized for when no bytes parameter is given.
constexpr std::uint64_t kTreePackingDefaultBytes = 16u << 20;

/// Under message flow control a message costs no head per packet, so the default pipeline trades
/// the fill and drain (about 2 x height x message time: growing with the message size and the
/// tallest tree) against the per-message cost (growing with the message count). Minimising
/// a H S / P + b P over P gives sub-chunks per tree P = sqrt(bytes per tree x tallest height /
/// this), i.e. messages of sqrt(this x bytes per tree / height) bytes. Measured with software
/// issue, message flow control: the best of pipelines 4..512 was 64, 128, 256 on the 4x4 mesh
/// (8 trees, height 4) at 256 KiB, 1 MiB, 4 MiB (the formula's 64, 128, 256); on the 8x8 mesh
/// (16 trees, height 8) between 32 and 64 at 256 KiB and 64 and 128 at 1 MiB, and at 16 MiB 512
/// (0.981 of the bound) against 362 (0.979) and 1024 (0.978): the formula's 64, 128 and 512.
constexpr std::uint64_t kTreePackingMessageFcScaleBytes = 32;

/// Default sub-chunks per tree for an all-reduce of `bytes` per node over `trees` trees whose
/// tallest has `height` hops: messages of about kTreePackingMessageBytes, or with
/// `short_messages` (message flow control issued by the host or from a planned table:
/// BuildContext::cost.head_per_message without hardware_issue, or with planned_table_order)
/// floor(sqrt(bytes / trees x height / kTreePackingMessageFcScaleBytes)); at most
/// kTreePackingMaxChunks (kTreePackingMaxShortChunks with short messages) chunks in all, at
/// least 1. The hardware scheduler's step-ordered table keeps the 4 KiB messages: with short
/// ones its 4-entry windows over table order stall on the 8x8 and 4x4x4 tori (1.2-1.9x the
/// cycles of 4 KiB messages there; measured 2026-12-06, docs/beyond.md "Why hardware issue
/// keeps 4 KiB messages"); a planned table does not (docs/beyond.md "Planned table order");
/// its arrival counters do not bound the chunks (see tree_packing_window).
int tree_packing_pipeline(int trees, int height, std::uint64_t bytes, bool short_messages);

/// Default window (TreePipeline::window) of `trees` trees whose tallest has `height` hops, with
/// `pipeline` sub-chunks per tree, at `bytes` per node: none without hardware issue (or with at
/// most 2 x height sub-chunks); otherwise the larger of 2 x height and 1.5 x the sub-chunks a
/// tree starts during one round trip (2 x height hops of the slowest link's latency, the
/// router pipeline and a message's serialisation, over the bandwidth bound / pipeline cycles
/// between a tree's sub-chunks). The co-designed NIC's table then needs W arrival counters per
/// tree at a node (groups W sub-chunks apart share one) instead of one per sub-chunk (897 for
/// the 4x4 mesh at 1 MiB with short messages, against the RTL build's 256; 72 with the window),
/// 2 x height is the smallest window whose dependencies fit the pipeline's steps (a node's
/// broadcast of sub-chunk k comes at most 2 x height steps after its reduce of k), and below
/// one round trip the window throttles the pipeline. Measured with hardware issue, message flow
/// control, window 64: 4x4 mesh at 256 KiB (64 sub-chunks per tree) 14661 cycles with window 8,
/// 12739 with 12, 12727 without; at 1 MiB (128) 44559 with 8, 44652 with 12 and without; 8x8
/// mesh at 16 MiB (512) 601344 with 16 against 601346 without (256 counters per node against
/// 7169). A window below 2 x height also moves later sub-chunks to later steps; at 4 on the 4x4
/// mesh at 1 MiB (128 sub-chunks) it throttles the pipeline to 64471 cycles.
int tree_packing_window(const Topology& topology, int trees, int height, int pipeline,
                        std::uint64_t bytes, const BuildContext& context);

/// `tree_packing`: pack_spanning_trees() + one pipelined reduce/broadcast per tree. Tree r owns
/// chunks r*P .. r*P+P-1 (P = pipeline). Sub-chunk p's reduce from endpoint v is step
/// p + height(v) (its subtree's height), its broadcast from u to a child is step
/// p + H_r + depth(u), so every message's dependencies lie in earlier steps and the sub-chunks
/// stream. TreePackingParams: at most `trees` trees; `pipeline` when given, else
/// tree_packing_pipeline(t, height, bytes, short messages under message flow control with host
/// issue); `window` when given, else tree_packing_window(); `bytes` when given, else the context's
/// size, else kTreePackingDefaultBytes. Throws AlgorithmError for N < 2 or a switched topology.
Schedule build_tree_packing(const Topology& topology, const TreePackingParams& params,
                            const BuildContext& context);

}  // namespace mt
