#!/usr/bin/env python3
"""Markdown table of training iterations from `mtsim train ... --json R.json` results.

  train_table.py R.json...

One row per workload and network: compute cycles, then iteration cycles (scenario clock) with
the exposed communication's share of them (iteration - compute: communication not hidden behind
backpropagation) for ring, the best prior algorithm that ran (ring, ring_bi, ring2d, dbtree,
halving_doubling: everything but MultiTree and our successors), MultiTree and auto; then the
change of iteration time of MultiTree and auto against ring and against the best prior
(negative = a shorter iteration; `mtsim train`'s vs_ring% counts time saved, so its sign is the
opposite). The network column is the topology (e.g. torus:4x4), marked "(serialised)" for results of
`mtsim train --serialised`. Exit status: 0, or 2 for a file that is not a train result.
Standard library only.
"""

import json
import sys

PRIOR = {"ring", "ring_bi", "ring2d", "dbtree", "halving_doubling"}


class InputError(Exception):
    """A results file this script cannot tabulate."""


def load(path):
    """The train JSON at `path`, checked for what the table reads."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}:{e.colno}: not JSON: {e.msg}")
    runs = data.get("runs") if isinstance(data, dict) else None
    if not isinstance(runs, list) or not runs or "iteration_cycles" not in runs[0]:
        raise InputError(f"{path}: not a `mtsim train --json` result (no runs with "
                         "iteration_cycles)")
    return data


def topology_of(path, data):
    """The network: the JSON's topology ("torus:4x4"); files written before the JSON named the
    topology say it in their name only ("mlp_4x4.json" -> "4x4")."""
    if "topology" in data:
        network = data["topology"]
    else:
        stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        network = stem.rsplit("_", 1)[-1] if "_" in stem else data.get("scenario", "")
    if str(data.get("model", "")).startswith("serialised"):
        network += " (serialised)"
    return network


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
    try:
        files = [(path, load(path)) for path in paths]
    except InputError as e:
        print(f"train_table.py: {e}", file=sys.stderr)
        return 2
    print("| workload | network | compute | ring | best prior | multitree | auto "
          "| multitree vs ring / best prior | auto vs ring / best prior |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path, data in files:
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
