#!/usr/bin/python3
"""How far can a pipelined tree schedule overlap its fill and drain with streaming? (issue 16)

  tree_overlap.py SCHEDULE.json [--cycles C ... --tree-bytes D] [--hop-cycles A]
                  [--link-bytes-per-cycle W] [--message-bytes M] [--head-bytes H] [--slot S]

e.g. mtsim schedule -t mesh:4x4 -a tree_packing --bytes 256KiB -p pipeline=64 -f json > tp.json
     scripts/tree_overlap.py tp.json --tree-bytes 32768 --cycles 11300 11700 12100

SCHEDULE.json: a tree schedule as `mtsim schedule --format json` writes it (tree_packing,
multitree_opt, dbtree): flow t is tree t, and the reduce messages of its first sub-chunk (the
smallest chunk of the flow) give every endpoint's parent. Prints, per directed link, the slack
S = (earliest start of any tree's use of the link, in hops) + (least hops any of its uses must
still travel after it): a link busy for its whole share B needs T >= B + S x hop, so the largest
S bounds what any timing of these trees can reach. With --cycles, solves a linear program
(scipy's HiGHS) for the most data the trees deliver by each deadline when every tree follows one
entry-rate profile in time and each use carries it delayed by its hop position, each directed
link carrying at most W x slot bytes per slot (heads included as M + H per M): 1.0 means the
trees could finish by then. A fluid model: no packets, no arbitration. Exit status 0, 2 bad input.
"""

import argparse
import collections
import json
import sys

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, vstack


def load_trees(path):
    """Per flow: {endpoint: parent} from the reduces of the flow's smallest chunk."""
    ops = json.load(open(path))["ops"]
    first = {}
    for op in ops:
        first[op["flow"]] = min(first.get(op["flow"], op["chunk"]), op["chunk"])
    trees = collections.defaultdict(dict)
    for op in ops:
        if op["kind"] == "reduce" and op["chunk"] == first[op["flow"]]:
            trees[op["flow"]][op["node"]] = op["peer"]
    return [trees[f] for f in sorted(trees)]


def shape(parent):
    """Root, depth and subtree height per endpoint, and the tree's height."""
    nodes = set(parent) | set(parent.values())
    roots = [v for v in nodes if v not in parent]
    if len(roots) != 1:
        raise ValueError(f"a flow's first reduces form no tree ({len(roots)} roots): "
                         "not a tree schedule")
    root = roots[0]
    children = collections.defaultdict(list)
    for child, up in parent.items():
        children[up].append(child)
    depth, order = {root: 0}, [root]
    for v in order:
        for c in children[v]:
            depth[c] = depth[v] + 1
            order.append(c)
    height = {v: 0 for v in nodes}
    for v in reversed(order):
        for c in children[v]:
            height[v] = max(height[v], height[c] + 1)
    return root, depth, height, height[root]


def uses(trees):
    """Per directed link: (tree, hop position of its use, hops still to go after it)."""
    links = collections.defaultdict(list)
    for t, parent in enumerate(trees):
        _, depth, height, tall = shape(parent)
        for child, up in parent.items():
            # The reduce child -> parent starts once the child's subtree is in (its height) and
            # still has to reach the root and come back down to the deepest leaf.
            links[(child, up)].append((t, height[child], depth[child] + tall))
            # The broadcast parent -> child starts after the whole tree is reduced and carried
            # down to the parent, and still has to reach the deepest leaf below the child.
            links[(up, child)].append((t, tall + depth[up], height[child]))
    return links


def wave_fraction(trees, links, slots, hop_slots, capacity):
    """Largest mean fraction of the trees' data delivered within `slots` slots."""
    count = len(trees)
    tall = [shape(parent)[3] for parent in trees]
    last = [slots - 1 - 2 * h * hop_slots for h in tall]  # last slot an entry can still finish
    rows, cols, rhs = [], [], []
    for link_uses in links.values():
        for s in range(slots):
            terms = [t * slots + s - pos * hop_slots for t, pos, _ in link_uses
                     if 0 <= s - pos * hop_slots <= last[t]]
            if terms:
                rows += [len(rhs)] * len(terms)
                cols += terms
                rhs.append(capacity)
    link_rows = coo_matrix((np.ones(len(cols)), (rows, cols)), shape=(len(rhs), count * slots))
    tree_rows = coo_matrix((np.ones(count * slots),
                            (np.repeat(np.arange(count), slots), np.arange(count * slots))),
                           shape=(count, count * slots))
    bounds = [(0, None) if s <= last[t] else (0, 0) for t in range(count) for s in range(slots)]
    result = linprog(-np.ones(count * slots), A_ub=vstack([link_rows, tree_rows]).tocsr(),
                     b_ub=np.concatenate([rhs, np.ones(count)]), bounds=bounds, method="highs")
    if result.status != 0:
        sys.exit(f"tree_overlap.py: the linear program failed: {result.message}")
    return -result.fun / count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("schedule")
    ap.add_argument("--cycles", type=int, nargs="*", default=[],
                    help="deadlines to test with the fluid model, cycles")
    ap.add_argument("--hop-cycles", type=float, default=151.0,
                    help="wire latency + router pipeline per hop (paper network: 150 + 1)")
    ap.add_argument("--link-bytes-per-cycle", type=float, default=16.0)
    ap.add_argument("--message-bytes", type=float, default=512.0,
                    help="message payload; a hop also takes its serialisation")
    ap.add_argument("--head-bytes", type=float, default=16.0)
    ap.add_argument("--tree-bytes", type=float, required=False,
                    help="bytes each tree carries (all-reduce size / trees); needed with --cycles")
    ap.add_argument("--slot", type=float, default=23.0, help="time slot of the model, cycles")
    args = ap.parse_args()
    try:
        trees = load_trees(args.schedule)
        links = uses(trees)
    except (OSError, ValueError, KeyError) as e:
        print(f"tree_overlap.py: {args.schedule}: {e}", file=sys.stderr)
        return 2
    slack = {link: min(p for _, p, _ in u) + min(g for _, _, g in u) for link, u in links.items()}
    hop = args.hop_cycles + (args.message_bytes + args.head_bytes) / args.link_bytes_per_cycle
    print(f"{len(trees)} trees, heights {sorted(shape(p)[3] for p in trees)}, "
          f"{len(links)} directed links; a hop takes {hop:.0f} cycles")
    histogram = collections.Counter(slack.values())
    counts = ", ".join(f"S={s}: {n}" for s, n in sorted(histogram.items()))
    print(f"links by slack S (hops): {counts}")
    print(f"largest S = {max(slack.values())}: T >= B + {max(slack.values())} x {hop:.0f} cycles")
    if args.cycles:
        if not args.tree_bytes:
            print("tree_overlap.py: --cycles needs --tree-bytes", file=sys.stderr)
            return 2
        hop_slots = max(1, round(hop / args.slot))
        wire = args.tree_bytes * (1 + args.head_bytes / args.message_bytes)
        capacity = args.link_bytes_per_cycle * args.slot / wire
        for cycles in args.cycles:
            fraction = wave_fraction(trees, links, round(cycles / args.slot), hop_slots, capacity)
            print(f"by {cycles} cycles: {fraction:.4f} of the data delivered (fluid model)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
