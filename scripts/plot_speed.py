#!/usr/bin/env python3
"""Simulator speed against network size from `scripts/bench.sh --json` files.

    python3 scripts/plot_speed.py AFTER.json [--before BEFORE.json] [--issue-table]
                                  [--instructions docs/speed_scale_instructions.json]
                                  [--out docs/speed_scale.png]

Plots simulated packets per CPU second of the whole `mtsim run` against the number of nodes for
the MultiTree co-designed-NIC 1 MiB cases (`torus*-multitree-hw-1MiB`, timing-only), one line per
file (before / after an optimisation). --issue-table adds the figures of issue 17's table
(before the optimisation: packets per second of simulation wall time on the idle machine).
--targets marks issue 17's speed targets (1 M packets per second at 16 nodes; at 256 and 1024
nodes within 2x of the 16-node figure of AFTER). --instructions adds a second panel: callgrind
instructions per simulated packet (whole point process and sc_start alone) before and after,
from a JSON list of
{nodes, packets, before_instructions, after_instructions, before_sim_instructions,
after_sim_instructions}.
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def points(path):
    cases = json.load(open(path))
    pts = sorted((c["nodes"], c["packets_per_cpu_s"], c["case"]) for c in cases
                 if "multitree-hw-1MiB" in c["case"] and not c["case"].endswith("-full"))
    return pts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("after")
    ap.add_argument("--before")
    ap.add_argument("--issue-table", action="store_true")
    ap.add_argument("--targets", action="store_true")
    ap.add_argument("--instructions")
    ap.add_argument("--out", default="docs/speed_scale.png")
    ap.add_argument("--before-label", default="before issue 17")
    ap.add_argument("--after-label", default="this version")
    ap.add_argument("--machine", default="loaded machine", help="how loaded the machine was")
    a = ap.parse_args()
    if a.instructions:
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11.5, 4.2))
        rows = sorted(json.load(open(a.instructions)), key=lambda r: r["nodes"])
        nodes = [r["nodes"] for r in rows]
        for key, label, style in [("before_instructions", "before: whole run", "s--"),
                                  ("after_instructions", "after: whole run", "o-"),
                                  ("before_sim_instructions", "before: simulation only", "s:"),
                                  ("after_sim_instructions", "after: simulation only", "o-.")]:
            ax2.plot(nodes, [r[key] / r["packets"] / 1e3 for r in rows], style, label=label)
        ax2.set_xscale("log", base=2)
        ax2.set_xlabel("nodes (2D torus, one packet per message)")
        ax2.set_ylabel("instructions per packet (thousands, callgrind)")
        ax2.set_title("cost per packet (load-independent)")
        ax2.set_ylim(bottom=0)
        ax2.grid(True, alpha=0.3)
        ax2.legend(fontsize=8)
    else:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
    series = [(a.after, a.after_label, "o-")]
    if a.before:
        series.insert(0, (a.before, a.before_label, "s--"))
    if a.issue_table:
        issue = [(16, 580e3), (64, 214e3), (144, 84e3), (256, 71e3)]
        ax.plot([p[0] for p in issue], [p[1] / 1e6 for p in issue], "x:",
                label="before: issue 17 table (per wall second, idle machine)")
    for path, label, style in series:
        pts = points(path)
        ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], style, label=label)
        for n, pps, case in pts:
            if "x8x8" in case:
                ax.annotate("8x8x8", (n, pps / 1e6), textcoords="offset points", xytext=(4, 4),
                            fontsize=8)
    if a.targets:
        sixteen = [p[1] for p in points(a.after) if p[0] == 16]
        ax.plot([16], [1.0], "*", color="tab:red", markersize=10, label="target at 16 nodes")
        if sixteen:
            ax.plot([256, 1024], [sixteen[0] / 2e6] * 2, "-", color="tab:red", linewidth=3,
                    alpha=0.5, label="target: half the 16-node figure")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nodes (torus; 512 = 8x8x8, others 2D)")
    ax.set_ylabel("simulated packets per CPU second (millions)")
    ax.set_title(f"MultiTree, co-designed NIC, 1 MiB ({a.machine})")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(a.out)


if __name__ == "__main__":
    main()
