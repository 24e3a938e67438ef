#!/usr/bin/env python3
"""Prints docs/schedule_files.md's table of the ecosystem MSCCL programs (tests/data/msccl/,
written by scripts/msccl_programs.py) against built-in schedules on the same network: runs
`mtsim run scenarios/msccl/<program>.yaml --json` for each program and writes completion cycles
(and whether every run's data was verified) as a markdown table.

Usage: scripts/msccl_table.py [MTSIM]   (default build/bin/mtsim)
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PROGRAMS = ["allpairs16", "hierarchical8", "relay4", "relay4x2"]
BUILT_IN = ["ring", "multitree", "dbtree", "halving_doubling"]


def main():
    # Absolute: the runs start in the scenario's folder (its relative program paths).
    mtsim = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                            os.path.join(ROOT, "build", "bin", "mtsim"))
    print("| program (network) | size | program | " + " | ".join(BUILT_IN) + " |")
    print("|---|---|---" + "|---" * len(BUILT_IN) + "|")
    for name in PROGRAMS:
        scenario = os.path.join(ROOT, "scenarios", "msccl", name + ".yaml")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            subprocess.run([mtsim, "run", scenario, "--json", out], check=True,
                           stdout=subprocess.DEVNULL, cwd=os.path.dirname(scenario))
            with open(out) as f:
                results = json.load(f)
        cycles = {}
        topology = results["runs"][0]["topology"]
        for run in results["runs"]:
            if not run["data_verified"]:
                sys.exit(f"{name}: {run['algorithm']} at {run['bytes']} B: data not verified")
            cycles[(run["bytes"], run["algorithm"])] = run["completion_cycles"]
        for size in sorted({size for size, _ in cycles}):
            row = [cycles[(size, name)]] + [cycles[(size, a)] for a in BUILT_IN]
            text = f"{size >> 20} MiB" if size >= 1 << 20 else f"{size >> 10} KiB"
            print(f"| {name} ({topology}) | {text} | " + " | ".join(str(c) for c in row) + " |")


if __name__ == "__main__":
    main()
