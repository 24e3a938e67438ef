#!/usr/bin/env python3
"""A point process's own cache behaviour, counted exactly (docs/speed.md "Profiling on this
machine"): runs `mtsim run` under cachegrind, subtracts the parent's counts from the point
process's (its file holds the parent's up to the fork) and prints the totals and the functions
with the most estimated cycles (instructions + 10 x first-level misses + 100 x last-level
misses, cachegrind's own rough weights). The counts are the same in every run, where this
machine's wall times move by up to 2x: compare two builds with it.

  scripts/cachegrind_point.py [--ll BYTES] [--top N] MTSIM SCENARIO.yaml [mtsim run options]

e.g. scripts/cachegrind_point.py build/bin/mtsim scenarios/scale/pod_torus16x16x16_message.yaml
       --set 'collective.algorithms=[multitree]' --set 'topology.dims=[8,8,8]'
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

EVENTS = ("Ir", "D1mr", "D1mw", "DLmr", "DLmw")


def read_counts(path):
    """(events, {function: counts}) of one cachegrind output file."""
    events, functions, current = None, {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fn="):
                current = functions.setdefault(line[3:].strip(), [0] * len(events))
            elif current is not None and line[:1].isdigit():
                for i, value in enumerate(line.split()[1:]):
                    current[i] += int(value)
    if events is None:
        sys.exit(f"cachegrind_point: {path}: no events line (not a cachegrind file)")
    return events, functions


def estimate(counts, at):
    misses1 = counts[at["D1mr"]] + counts[at["D1mw"]]
    misses_last = counts[at["DLmr"]] + counts[at["DLmw"]]
    return counts[at["Ir"]] + 10 * misses1 + 100 * misses_last


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip())
    parser.add_argument("--ll", type=int, default=32 << 20,
                        help="last-level cache size in bytes (this CPU reports a wrong one)")
    parser.add_argument("--top", type=int, default=15, help="functions listed")
    parser.add_argument("mtsim")
    parser.add_argument("scenario")
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, MT_HUGE_PAGES="0")  # mtsim restarts itself otherwise
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--LL={args.ll},16,64",
                   f"--cachegrind-out-file={work}/cg.%p", os.path.abspath(args.mtsim), "run",
                   args.scenario, *args.rest]
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        files = sorted(glob.glob(f"{work}/cg.*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            sys.exit(f"cachegrind_point: the run failed (exit {done.returncode}):\n{tail}")
        if len(files) != 2:
            sys.exit(f"cachegrind_point: {len(files) - 1} point processes; run one point (one "
                     "algorithm at one size, e.g. --set 'collective.algorithms=[multitree]')")
        events, parent = read_counts(files[0])
        _, point = read_counts(files[1])
    missing = [e for e in EVENTS if e not in events]
    if missing:
        sys.exit(f"cachegrind_point: events {missing} not counted (--cache-sim=yes?)")
    at = {e: i for i, e in enumerate(events)}
    own = {name: [c - p for c, p in zip(counts, parent.get(name, [0] * len(counts)))]
           for name, counts in point.items()}
    total = [sum(counts[i] for counts in own.values()) for i in range(len(events))]
    print(f"point process: {total[at['Ir']] / 1e6:.1f} M instructions, "
          f"{(total[at['D1mr']] + total[at['D1mw']]) / 1e6:.2f} M first-level misses, "
          f"{(total[at['DLmr']] + total[at['DLmw']]) / 1e6:.2f} M last-level misses "
          f"({args.ll} B), {estimate(total, at) / 1e6:.1f} M estimated cycles")
    ranked = sorted(own.items(), key=lambda item: -estimate(item[1], at))
    for name, counts in ranked[:args.top]:
        print(f"{estimate(counts, at) / 1e6:10.1f} M est {counts[at['Ir']] / 1e6:9.1f} M instr "
              f"{(counts[at['DLmr']] + counts[at['DLmw']]) / 1e6:7.2f} M LL miss  {name[:90]}")


if __name__ == "__main__":
    main()
