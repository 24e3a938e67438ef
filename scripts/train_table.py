#!/usr/bin/env python3
"""Markdown table of training iterations from `mtsim train ... --json R.json` results.

  train_table.py R.json...

One row per workload and network: compute cycles, then iteration cycles (scenario clock) with
the exposed communication's share of them (iteration - compute: communication not hidden behind
backpropagation) for ring, the best prior algorithm that ran (ring, ring_bi, ring2d, dbtree,
halving_doubling: everything but MultiTree and our successors), MultiTree and auto; then the
change of iteration time of MultiTree and auto against ring and against the best prior.
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
    """Change of iteration time against `reference`: -30.0% = 30% shorter."""
    change = 100.0 * (cycles - reference) / reference
    return "0.0%" if abs(change) < 0.05 else f"{change:+.1f}%"


def cell(run):
    """Iteration cycles with the exposed share of it."""
    it = run["iteration_cycles"]
    share = 100.0 * run["exposed_comm_cycles"] / it if it else 0.0
    return f"{it:,} ({share:.0f}%)"


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    print("| workload | network | compute | ring | best prior | multitree | auto "
          "| multitree vs ring / best prior | auto vs ring / best prior |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        data = json.load(open(path))
        runs = {r["algorithm"]: r for r in data["runs"]}
        ring = runs.get("ring")
        prior = [r for a, r in runs.items() if a in PRIOR]
        best = min(prior, key=lambda r: r["iteration_cycles"]) if prior else None
        compute = next(iter(runs.values()))["compute_cycles"]
        row = [data["workload"], topology_of(path, data), f"{compute:,}",
               cell(ring) if ring else "n/a",
               f"{best['algorithm']}: {cell(best)}" if best else "n/a"]
        changes = []
        for name in ("multitree", "auto"):
            r = runs.get(name)
            row.append(cell(r) if r else "n/a")
            if r and ring and best:
                changes.append(f"{reduction(r['iteration_cycles'], ring['iteration_cycles'])} / "
                               f"{reduction(r['iteration_cycles'], best['iteration_cycles'])}")
            else:
                changes.append("n/a")
        print("| " + " | ".join(row + changes) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
