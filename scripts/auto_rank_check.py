#!/usr/bin/env python3
"""Does ranking `auto`'s candidates with the message-granularity model pick differently from
ranking them with the dataflow estimate? (issue 50, docs/granularity.md)

  auto_rank_check.py [--mtsim build/bin/mtsim] [--out DIR] [--jobs 2]

On a fixed grid (tori 4x4 and 8x8, mesh 4x4, fat-trees k=4 and k=8, a 16-node switch, BiGraph
m=4,n=8; 4 KiB, 64 KiB and 1 MiB; the default NIC, software issue) runs `auto` twice, ranked by
the estimate (rank=estimate, the default) and by the message model (rank=message), each chosen
schedule then simulated by the packet model, and prints one markdown row per point: both
choices, their packet-model cycles, the ratio message / estimate and the wall time of each
`auto` run (ranking plus the run). Exit status: 0 done, 2 bad input or a failed run. Standard
library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
NETWORKS = ["torus:4x4", "mesh:4x4", "torus:8x8", "fattree:k=4", "fattree:k=8", "switch:nodes=16",
            "bigraph:m=4,n=8"]
SIZES = ["4KiB", "64KiB", "1MiB"]
RANKS = ["estimate", "message"]


def run(mtsim, out, network, rank, jobs):
    """One scenario: `auto` ranked by `rank` at every size; returns {bytes: run} and seconds."""
    name = f"{network.replace(':', '_').replace(',', '_').replace('=', '')}_{rank}"
    yaml = os.path.join(out, name + ".yaml")
    result = os.path.join(out, name + ".json")
    with open(yaml, "w") as f:
        f.write(f"topology: {network}\ncollective:\n  sizes: [{', '.join(SIZES)}]\n"
                f"  algorithms:\n    - {{name: auto, params: {{rank: {rank}}}}}\n")
    start = time.monotonic()
    done = subprocess.run([mtsim, "run", yaml, "--json", result, "-j", str(jobs)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"auto_rank_check.py: {network} rank={rank}: mtsim failed:\n{done.stderr}")
    with open(result) as f:
        runs = json.load(f)["runs"]
    for r in runs:
        if not r["data_verified"]:
            sys.exit(f"auto_rank_check.py: {network} rank={rank}: data not verified")
    return {r["bytes"]: r for r in runs}, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mtsim", default=os.path.join(ROOT, "build/bin/mtsim"))
    parser.add_argument("--out", help="scenarios and results JSON (default: a scratch folder)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not os.access(args.mtsim, os.X_OK):
        print(f"auto_rank_check.py: {args.mtsim} is not an executable mtsim", file=sys.stderr)
        return 2
    out = args.out or tempfile.mkdtemp(prefix="auto_rank_")
    os.makedirs(out, exist_ok=True)
    print("| network | size | auto by estimate | cycles | auto by message model | cycles "
          "| message / estimate |")
    print("|---|---|---|---:|---|---:|---:|")
    differ, better, worse, seconds = 0, 0, 0, {rank: 0.0 for rank in RANKS}
    for network in NETWORKS:
        results = {}
        for rank in RANKS:
            results[rank], took = run(os.path.abspath(args.mtsim), out, network, rank, args.jobs)
            seconds[rank] += took
        for size in sorted(results["estimate"]):
            e, m = results["estimate"][size], results["message"][size]
            ratio = m["completion_cycles"] / e["completion_cycles"]
            text = f"{size >> 20} MiB" if size >= 1 << 20 else f"{size >> 10} KiB"
            chosen = [r["schedule"].removeprefix("auto:") for r in (e, m)]
            differ += chosen[0] != chosen[1]
            better += ratio < 1
            worse += ratio > 1
            print(f"| {network} | {text} | {chosen[0]} | {e['completion_cycles']} | {chosen[1]} | "
                  f"{m['completion_cycles']} | {ratio:.3f} |")
    points = len(NETWORKS) * len(SIZES)
    print(f"\nOf {points} points the two rankings choose differently at {differ}; the message "
          f"model's choice is faster in the packet model at {better} and slower at {worse}.")
    print(f"Wall time of the {len(NETWORKS)} auto runs (all sizes): rank=estimate "
          f"{seconds['estimate']:.1f} s, rank=message {seconds['message']:.1f} s (this machine, "
          f"not a benchmark).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
