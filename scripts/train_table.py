#!/usr/bin/env python3
"""Markdown table of training iterations from `mtsim train ... --json R.json` results.

  train_table.py R.json...

Per workload and network: every algorithm's iteration time (cycles of the scenario clock),
exposed communication (iteration - compute: communication not hidden behind backpropagation),
the reduction of iteration time against ring, and against the best prior algorithm that ran
(ring, ring_bi, ring2d, dbtree, halving_doubling: everything but MultiTree and our successors).
Standard library only.
"""

import json
import sys

PRIOR = {"ring", "ring_bi", "ring2d", "dbtree", "halving_doubling"}


def topology_of(path, data):
    """The network as the file name says it (train JSON names only the scenario)."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return stem.rsplit("_", 1)[-1] if "_" in stem else data.get("scenario", "")


def reduction(cycles, reference):
    return f"{100.0 * (reference - cycles) / reference:+.1f}%".replace("+", "-", 1) \
        if cycles < reference else f"+{100.0 * (cycles - reference) / reference:.1f}%"


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    print("| workload | network | algorithm | iteration cycles | exposed communication "
          "| vs ring | vs best prior |")
    print("|---|---|---|---|---|---|---|")
    for path in paths:
        data = json.load(open(path))
        runs = data["runs"]
        cycles = {r["algorithm"]: r["iteration_cycles"] for r in runs}
        ring = cycles.get("ring")
        prior = [c for a, c in cycles.items() if a in PRIOR]
        best_prior = min(prior) if prior else None
        for r in runs:
            it = r["iteration_cycles"]
            exposed = r["exposed_comm_cycles"]
            share = 100.0 * exposed / it if it else 0.0
            vs_ring = reduction(it, ring) if ring and r["algorithm"] != "ring" else ""
            vs_prior = ""
            if best_prior and r["algorithm"] not in PRIOR:
                vs_prior = reduction(it, best_prior)
            print(f"| {data['workload']} | {topology_of(path, data)} | {r['algorithm']} | {it:,} "
                  f"| {exposed:,} ({share:.1f}%) | {vs_ring} | {vs_prior} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
