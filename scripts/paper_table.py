#!/usr/bin/env python3
"""Markdown table of the paper comparison from `mtsim run scenarios/ideal/*.yaml --json` results.

  paper_table.py RESULTS.json... > table.md

Each RESULTS.json is the --json output of one scenarios/ideal/<topology>.yaml run. Per topology
and size it prints MultiTree on the co-designed NIC (label multitree-hw): its cycles and
efficiency, its speedup over the 1-port ring and over the best baseline of the paper mode (ring
and double binary tree on 1 NIC port, 2D ring on 4), its speedup over the best baseline of the
equal-hardware mode (every baseline on the same ports as MultiTree, bidirectional rings
included), and the co-design's own effect (the same MultiTree schedule on the baseline NIC,
label multitree-sw, over multitree-hw). Then the mean over sizes of 1 MiB and more.
Standard library only.
"""

import json
import statistics
import sys

PAPER_BASELINES = ["ring-1port", "ring_bi-1port", "dbtree-1port", "ring2d-4port"]
EQUAL_BASELINES = ["ring-4port", "ring_bi-4port", "dbtree-4port", "ring2d-4port"]


def size_text(b):
    return f"{b >> 20}MiB" if b >= 1 << 20 else f"{b >> 10}KiB"


def best(cycles, labels):
    """(cycles, label) of the fastest of `labels` that ran, or None."""
    ran = [(cycles[label], label) for label in labels if label in cycles]
    return min(ran) if ran else None


def main(paths):
    print("| topology | size | multitree-hw cycles | eff | paper mode: vs ring-1port "
          "| paper mode: vs best baseline | equal hardware: vs best baseline | hw NIC vs sw NIC |")
    print("|---|---|---|---|---|---|---|---|")
    means = []
    for path in paths:
        runs = json.load(open(path))["runs"]
        topology = runs[0]["topology"]
        by_size = {}
        for r in runs:
            if not r["error"]:
                by_size.setdefault(r["bytes"], {})[r["algorithm"]] = r
        large = []
        for size in sorted(by_size):
            runs_at = by_size[size]
            if "multitree-hw" not in runs_at:
                continue
            cycles = {label: r["completion_cycles"] for label, r in runs_at.items()}
            mt = cycles["multitree-hw"]
            paper = best(cycles, PAPER_BASELINES)
            # Switched topologies have one port per node: there both modes are the same.
            equal = best(cycles, EQUAL_BASELINES) or paper
            row = (cycles["ring-1port"] / mt, paper[0] / mt, equal[0] / mt,
                   cycles.get("multitree-sw", mt) / mt)
            print(f"| {topology} | {size_text(size)} | {mt} | "
                  f"{runs_at['multitree-hw']['efficiency']:.2f} | {row[0]:.2f}x | "
                  f"{row[1]:.2f}x ({paper[1]}) | {row[2]:.2f}x ({equal[1]}) | {row[3]:.3f}x |")
            if size >= 1 << 20:
                large.append(row)
        if large:
            means.append((topology, [statistics.mean(c) for c in zip(*large)]))
    print()
    print("| topology (mean over sizes >= 1 MiB) | vs ring-1port | paper mode: vs best baseline "
          "| equal hardware: vs best baseline | hw NIC vs sw NIC |")
    print("|---|---|---|---|---|")
    for topology, m in means:
        print(f"| {topology} | {m[0]:.2f}x | {m[1]:.2f}x | {m[2]:.2f}x | {m[3]:.3f}x |")
    if means:
        overall = [statistics.mean(m[i] for _, m in means) for i in range(4)]
        print(f"| **mean of topologies** | **{overall[0]:.2f}x** | **{overall[1]:.2f}x** | "
              f"**{overall[2]:.2f}x** | **{overall[3]:.3f}x** |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1:])
