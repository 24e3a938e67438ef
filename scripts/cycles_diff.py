#!/usr/bin/env python3
"""Compares the cycle fields of two sets of `mtsim run --json` results (a speed change must leave
every one of them identical).

    python3 scripts/cycles_diff.py BEFORE.json AFTER.json [MORE_BEFORE.json MORE_AFTER.json ...]

Runs are matched by (scenario, topology, algorithm label, bytes). Compared per run: completion
cycles, every node's finish cycle, packets, messages, steps, cross-flow waits, the staging
buffer's peak and the hardware tables' counters and entries (when both files have them: builds
before 2026-11-26 do not), the analytical
estimate, data check and error, and per directed link its bytes and utilisation (busy cycles /
completion), plus message issue/arrival cycles when both files have them (`--trace` runs).
Prints every difference and exits 1 if there is any, 0 when every field is identical.
"""
import json
import sys

FIELDS = ["completion_cycles", "node_finish_cycles", "packets", "messages", "steps",
          "cross_flow_waits", "estimate_cycles", "data_verified", "data_mode", "error",
          "message_issue_cycles", "message_arrival_cycles", "max_staged_bytes", "table_counters",
          "table_entries"]
# Compared only when both runs carry them (builds before 2026-11-26 do not).
NEWER_FIELDS = {"max_staged_bytes", "table_counters", "table_entries"}


def runs_of(path):
    with open(path) as f:
        doc = json.load(f)
    runs = {}
    for run in doc["runs"]:
        key = (run["scenario"], run["topology"], run["algorithm"], run["bytes"])
        if key in runs:
            sys.exit(f"{path}: run {key} appears twice")
        runs[key] = run
    return runs


def compare(before_path, after_path):
    before, after = runs_of(before_path), runs_of(after_path)
    problems = []
    for key in sorted(set(before) | set(after), key=str):
        if key not in after or key not in before:
            problems.append(f"{key}: only in {before_path if key in before else after_path}")
            continue
        a, b = before[key], after[key]
        for field in FIELDS:
            if field not in a and field not in b:
                continue
            if field in NEWER_FIELDS and (field not in a or field not in b):
                continue
            if a.get(field) != b.get(field):
                problems.append(f"{key}: {field} differs")
        links_a = [(l["link"], l["bytes"], l["utilization"]) for l in a["links"]]
        links_b = [(l["link"], l["bytes"], l["utilization"]) for l in b["links"]]
        if links_a != links_b:
            problems.append(f"{key}: per-link bytes or utilisation differ")
    return len(before), problems


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        sys.exit(__doc__)
    total, problems = 0, []
    for i in range(0, len(argv), 2):
        count, found = compare(argv[i], argv[i + 1])
        total += count
        problems += found
    for p in problems:
        print(p)
    print(f"{total} runs compared, {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
