#!/usr/bin/env python3
"""Markdown tables of issue 9 ("beyond MultiTree") from simulator results.

  beyond_table.py RESULTS.json...            # efficiency per topology, size and schedule
  beyond_table.py --cycles RESULTS.json...   # completion cycles (efficiency) instead
  beyond_table.py --auto SWEEP_RESULTS.json  # auto against the best candidate, per size
  beyond_table.py --auto SWEEP_RESULTS.json --label auto-nic   # the entry labelled auto-nic

RESULTS.json: the --json output of `mtsim run scenarios/beyond/<topology>.yaml`. Efficiency is
max(bound_cycles, latency_bound_cycles) / completion_cycles (at most 256/272 = 0.941 where the
bandwidth bound rules, with 256-byte packets and 16-byte heads); the best of a row is bold, and
auto's column names the schedule it chose. --cycles prints "cycles (efficiency)" per cell, the
fastest bold.

SWEEP_RESULTS.json: results.json of `mtsim sweep scenarios/sweeps/auto.yaml` (or auto_nic.yaml).
Per topology and size: the fastest candidate (every entry whose label does not start with
"auto", in whatever NIC mode it ran), the auto entry's choice (and the NIC mode it chose, when
it chose one) and its cycles over the fastest (1.000 = as fast).
Standard library only.
"""

import json
import re
import sys


def size_text(b):
    if b >= 1 << 20:
        return f"{b >> 20} MiB"
    return f"{b >> 10} KiB"


def runs_of(path):
    data = json.load(open(path))
    runs = data["runs"] if isinstance(data, dict) else data
    out = []
    for r in runs:
        r = r.get("result", r)  # sweep records wrap the run
        if r.get("error"):
            print(f"{path}: {r.get('algorithm')} failed: {r['error']}", file=sys.stderr)
            continue
        out.append(r)
    return out


def chosen(run):
    """auto's choice as the schedule name says it: auto:<label> -> <label>."""
    s = run.get("schedule", "")
    return s.split(":", 1)[1] if s.startswith("auto:") else s


def efficiency_table(paths, cycles=False):
    rows, labels = [], []
    for path in paths:
        for r in runs_of(path):
            if r["algorithm"] not in labels:
                labels.append(r["algorithm"])
            rows.append(r)
    keys = []
    for r in rows:
        k = (r["topology"], r["bytes"])
        if k not in keys:
            keys.append(k)
    print("| topology | size | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for topology, size in keys:
        here = {r["algorithm"]: r for r in rows if (r["topology"], r["bytes"]) == (topology, size)}
        top = max(r["efficiency"] for r in here.values())
        cells = []
        for label in labels:
            r = here.get(label)
            if r is None:
                cells.append("n/a")
                continue
            text = f"{r['efficiency']:.3f}"
            if cycles:
                text = f"{r['completion_cycles']} ({text})"
            if r["efficiency"] >= top - 5e-4:
                text = f"**{text}**"
            if label == "auto":
                text += f" ({chosen(r)})"
            cells.append(text)
        print(f"| {topology} | {size_text(size)} | " + " | ".join(cells) + " |")


def nic_text(run):
    """The NIC mode an auto entry chose, shortened ("sw issue, msg FC"); empty if none."""
    choice = run.get("nic_choice") or ""
    if not choice:
        return ""
    issue = "hw" if choice.startswith("hardware") else "sw"
    # "..., packet flow control (tried both: ... with message)": the flow control kept comes first.
    flow = re.search(r"(packet|message) flow control", choice)
    return f" on {issue} issue, {'msg' if flow and flow.group(1) == 'message' else 'pkt'} FC"


def auto_table(path, label="auto"):
    rows = runs_of(path)
    keys = []
    for r in rows:
        k = (r["topology"], r["bytes"])
        if k not in keys:
            keys.append(k)
    print("| topology | size | fastest candidate | its cycles | auto chose | auto / fastest |")
    print("|---|---|---|---|---|---|")
    worst = 1.0
    for topology, size in keys:
        here = [r for r in rows if (r["topology"], r["bytes"]) == (topology, size)]
        auto = [r for r in here if r["algorithm"] == label]
        others = [r for r in here if not r["algorithm"].startswith("auto")]
        if not auto or not others:
            continue
        best = min(others, key=lambda r: r["completion_cycles"])
        ratio = auto[0]["completion_cycles"] / best["completion_cycles"]
        worst = max(worst, ratio)
        print(f"| {topology} | {size_text(size)} | {best['algorithm']} | "
              f"{best['completion_cycles']} | {chosen(auto[0])}{nic_text(auto[0])} | {ratio:.3f} |")
    print(f"\nworst {label} / fastest: {worst:.3f}")


def main(argv):
    if len(argv) in (2, 4) and argv[0] == "--auto":
        auto_table(argv[1], argv[3] if len(argv) == 4 and argv[2] == "--label" else "auto")
    elif len(argv) >= 2 and argv[0] == "--cycles":
        efficiency_table(argv[1:], cycles=True)
    elif argv and not argv[0].startswith("-"):
        efficiency_table(argv)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
