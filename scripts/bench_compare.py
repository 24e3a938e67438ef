#!/usr/bin/env python3
"""Compares two builds over rounds of scripts/bench.sh (--json OUT), run alternately on one
machine: per case and round the CPU seconds of the whole run, before / after, the median of the
rounds' speed-ups and the speed-up between the medians of the rounds; with --pps SMALL LARGE,
per round and build, how many times more packets per CPU second case SMALL simulates than case
LARGE (issue 49's scaling target).
Rounds pair up in the order given: the n-th BEFORE file with the n-th AFTER file.

    scripts/bench_compare.py --before b1.json b2.json --after a1.json a2.json \\
        [--pps torus4x4-multitree-hw-1MiB torus16x16-multitree-hw-1MiB]
"""
import argparse
import json
import math
import statistics
import sys


FIELDS = ("cpu_s", "completion_cycles", "packets_per_cpu_s")


def load(path):
    """A bench JSON's cases by name, each checked for the fields compared here."""
    try:
        cases = json.load(open(path, encoding="utf-8"))
        by_name = {}
        for c in cases:
            name = c["case"]
            if name in by_name:
                sys.exit(f"bench_compare.py: {path}: case {name} appears twice")
            for field in FIELDS:
                value = c.get(field)
                if not isinstance(value, (int, float)) or math.isnan(value) or value <= 0:
                    sys.exit(f"bench_compare.py: {path}: case {name}: {field} is {value!r}, "
                             "not a positive number (a run too short to time?)")
            by_name[name] = c
        return by_name
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"bench_compare.py: {path}: {e!r}")


def case_of(rounds, path_list, name, round_index):
    try:
        return rounds[round_index][name]
    except KeyError:
        sys.exit(f"bench_compare.py: {path_list[round_index]}: no case {name}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", nargs="+", required=True, help="bench JSON per round")
    parser.add_argument("--after", nargs="+", required=True, help="bench JSON per round")
    parser.add_argument("--pps", nargs=2, metavar=("SMALL", "LARGE"),
                        help="cases whose packets per CPU second are compared")
    args = parser.parse_args()
    if len(args.before) != len(args.after):
        sys.exit(f"bench_compare.py: {len(args.before)} BEFORE files, {len(args.after)} AFTER")
    before = [load(p) for p in args.before]
    after = [load(p) for p in args.after]
    names = [n for n in before[0] if all(n in r for r in before + after)]
    left_out = sorted({n for r in before + after for n in r} - set(names))
    if left_out:
        print(f"not in every file, left out: {', '.join(left_out)}")
    print(f"{len(before)} rounds; CPU s of the whole run, before / after (speed-up)")
    for name in names:
        b = [r[name]["cpu_s"] for r in before]
        a = [r[name]["cpu_s"] for r in after]
        cycles = [sorted({r[name]["completion_cycles"] for r in side}) for side in (before, after)]
        rounds = ", ".join(f"{x:.2f} / {y:.2f} ({x / y:.2f}x)" for x, y in zip(b, a))
        per_round = statistics.median(x / y for x, y in zip(b, a))
        print(f"{name}: {rounds}; median per round {per_round:.2f}x; between the medians "
              f"{statistics.median(b):.2f} / {statistics.median(a):.2f} s = "
              f"{statistics.median(b) / statistics.median(a):.2f}x; cycles "
              f"{'/'.join(map(str, cycles[0]))} before, {'/'.join(map(str, cycles[1]))} after")
    if args.pps:
        small, large = args.pps
        for label, rounds, paths in (("before", before, args.before), ("after", after, args.after)):
            ratios = [case_of(rounds, paths, small, i)["packets_per_cpu_s"] /
                      case_of(rounds, paths, large, i)["packets_per_cpu_s"]
                      for i in range(len(rounds))]
            print(f"packets per CPU s, {small} / {large}, {label}: "
                  f"{', '.join(f'{r:.2f}x' for r in ratios)}; "
                  f"median {statistics.median(ratios):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
