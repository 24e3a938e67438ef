#!/usr/bin/env python3
"""Efficiency against message size, per flow-control mode (issue 16's trade-off plot).

  plot_message_size.py RESULTS [--out DIR] [--table]

RESULTS: a sweep folder or its results.json (or an `mtsim run --json` file) whose runs are labelled
"<mode>-p<pipeline>" (scenarios/sweeps/message_size.yaml: mode is "packet" or "message"). A
run's mean message size is its payload over its messages: 2(N-1) x size / messages, exact for
the bandwidth-optimal schedules the sweep runs (every chunk crosses 2(N-1) links once). "packet"
runs are the baseline NIC's, "message" runs the co-designed NIC's (the sweep file says which
issue mode and flow control each uses). Writes
message_size.png and .svg to DIR (default docs/plots): one panel per all-reduce size, efficiency
(max(bandwidth bound, latency bound) / cycles) against the mean message size in bytes, one line
per mode. --table prints the figures as a markdown table instead. Exit status: 0 ok, 2 bad input.
"""

import argparse
import os
import textwrap
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot as mtplot  # noqa: E402  (matplotlib, the results reader and the size labels)

LABEL = re.compile(r"^(packet|message)-p(\d+)$")
NAMES = {"packet": "baseline NIC (software issue, packet flow control)",
         "message": "co-designed NIC (hardware issue, message flow control)"}


def load(path):
    try:
        runs = mtplot.load_runs(path)
    except mtplot.InputError as e:
        print(f"plot_message_size.py: {e}", file=sys.stderr)
        sys.exit(2)
    rows = []
    for run in runs:
        m = LABEL.match(run.get("algorithm", ""))
        if not m or run.get("error") or not run.get("messages"):
            continue
        n = run["nodes"]
        rows.append({"mode": m.group(1), "pipeline": int(m.group(2)), "bytes": run["bytes"],
                     "message_bytes": 2 * (n - 1) * run["bytes"] / run["messages"],
                     "efficiency": run["efficiency"], "cycles": run["completion_cycles"]})
    if not rows:
        print(f"plot_message_size.py: {path}: no runs labelled packet-pN or message-pN",
              file=sys.stderr)
        sys.exit(2)
    return rows


def table(rows):
    print("| size | pipeline | message bytes | baseline NIC: cycles (eff) "
          "| co-designed NIC: cycles (eff) |")
    print("|---|---:|---:|---:|---:|")
    key = {(r["bytes"], r["pipeline"], r["mode"]): r for r in rows}
    for size, p in sorted({(r["bytes"], r["pipeline"]) for r in rows}):
        cells = []
        for mode in ("packet", "message"):
            r = key.get((size, p, mode))
            cells.append(f"{r['cycles']} ({r['efficiency']:.3f})" if r else "-")
        mb = key.get((size, p, "packet")) or key.get((size, p, "message"))
        print(f"| {mtplot.size_label(size)} | {p} | {mb['message_bytes']:.0f} | {cells[0]} | {cells[1]} |")


def plot(rows, out):
    plt = mtplot.plt
    sizes = sorted({r["bytes"] for r in rows})
    fig, axes = plt.subplots(1, len(sizes), figsize=(4.2 * len(sizes), 3.6), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        for mode, style in (("packet", "o-"), ("message", "s-")):
            name = NAMES[mode]
            pts = sorted((r["message_bytes"], r["efficiency"]) for r in rows
                         if r["bytes"] == size and r["mode"] == mode)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                        label=name)
        ax.axhline(256 / 272, color="grey", linestyle=":", linewidth=1,
                   label="packet-head ceiling 256/272")
        ax.set_xscale("log", base=2)
        ax.set_title(f"all-reduce {mtplot.size_label(size)} per node")
        ax.set_xlabel("mean message size (bytes)")
        ax.set_ylabel("efficiency (bound / cycles)")
        # From 0.5, or lower when a point is lower: no point is ever cut off.
        lowest = min(r["efficiency"] for r in rows if r["bytes"] == size)
        ax.set_ylim(max(0.0, min(0.5, lowest - 0.05)), 1.02)
        ax.grid(True, alpha=0.3)
    # One legend under the panels, where no data is.
    handles, labels = axes[0][0].get_legend_handles_labels()
    columns = 3 if len(sizes) >= 3 else 2  # three entries fit one row from three panels on
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=columns)
    title = ("Efficiency against message size: packet vs message flow control "
             "(efficiency = max(bandwidth, latency bound) / cycles)")
    fig.suptitle(textwrap.fill(title, width=int(fig.get_figwidth() * 12)), fontsize=10)
    fig.tight_layout(rect=(0, 0.08 if columns == 3 else 0.14, 1, 1))
    os.makedirs(out, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"message_size.{ext}"), dpi=110,
                    metadata=mtplot.SAVE_METADATA[ext])
    print(f"wrote {os.path.join(out, 'message_size.png')} and .svg")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--out", default="docs/plots")
    ap.add_argument("--table", action="store_true")
    args = ap.parse_args()
    rows = load(args.results)
    if args.table:
        table(rows)
    else:
        plot(rows, args.out)


if __name__ == "__main__":
    main()
