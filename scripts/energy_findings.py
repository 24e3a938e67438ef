#!/usr/bin/env python3
"""Energy findings of docs/energy.md: what each all-reduce costs, in joules and in time.

  energy_findings.py [--mtsim build/bin/mtsim] [--out DIR] [--jobs 2] [--plot docs/plots]
                     [--markdown]

Runs (or reuses in --out) the paper's 4x4 torus, 4x4 mesh and 8x8 torus (scenarios/paper: ring
and double binary tree on one NIC port, the 2D ring and MultiTree on four; MultiTree on the
co-designed NIC with message flow control (multitree-hw), the same NIC with packet flow control
(multitree-hw-packet) and issued by the host (multitree-sw, packet flow control)) at 32 KiB,
1 MiB and 16 MiB with the default energy preset (board links), and prints three tables:
  1. energy per all-reduce of every algorithm (uJ, and pJ per byte reduced for the cheapest),
  2. what message flow control saves over packet flow control (multitree-hw against
     multitree-hw-packet: energy, link bits, router buffer writes, time),
  3. the scheduler's share of the NIC's energy and of the total (multitree-hw).
--plot draws energy against time, one point per algorithm and NIC mode, one panel per network
and size (energy_vs_time.png and .svg). Above 1 MiB the runs are timing runs with sampled data
(the scenarios' max_data_bytes); every run's data must verify. About 10 minutes on two cores.
Exit status: 0 done, 2 bad input or a failed run. Standard library (matplotlib for --plot).
"""

import argparse
import os
import sys

import study_options

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETWORKS = {"torus4x4": "scenarios/paper/torus4x4.yaml",
            "mesh4x4": "scenarios/paper/mesh4x4.yaml",
            "torus8x8": "scenarios/paper/torus8x8.yaml"}
SIZES = {"32KiB": 32 << 10, "1MiB": 1 << 20, "16MiB": 16 << 20}
ALGORITHMS = ["ring-1port", "dbtree-1port", "ring2d-4port", "multitree-hw",
              "multitree-hw-packet", "multitree-sw"]
MESSAGE, PACKET = "multitree-hw", "multitree-hw-packet"


def simulate(mtsim, out, jobs, net):
    """(bytes, label) -> run of one network, simulated unless its JSON is in `out`."""
    path = os.path.join(out, f"{net}.json")
    runs = study_options.verified_runs(mtsim, NETWORKS[net], path, jobs,
                                       [f"collective.sizes=[{','.join(SIZES)}]"])
    missing = [(s, a) for s in SIZES.values() for a in ALGORITHMS if (s, a) not in runs]
    if missing:
        raise RuntimeError(f"{path}: no run of {missing[0][1]} at {missing[0][0]} B")
    return runs


def uj(run):
    return run["energy"]["total_pj"] / 1e6


def us(run):
    return run["completion_cycles"] / run["clock_ghz"] / 1e3


def table(results, columns, align, cells):
    """Markdown lines: one row per network and size, `cells(runs, bytes)` after those two."""
    lines = ["| network | size | " + " | ".join(columns) + " |", "|---|---|" + align]
    for net, runs in results.items():
        for size, b in SIZES.items():
            lines.append(f"| {net} | {size} | " + " | ".join(cells(runs, b)) + " |")
    return lines


def energy_table(results):
    def cells(runs, b):
        row = [runs[(b, a)] for a in ALGORITHMS]
        low = min(row, key=uj)
        e = low["energy"]
        return [f"{uj(r):.1f}" for r in row] + [
            low["algorithm"], f"{e['pj_per_byte']:.1f}",
            f"{100 * e['static_pj'] / e['total_pj']:.0f}%"]
    return table(results, [f"{a} (uJ)" for a in ALGORITHMS] +
                 ["cheapest", "its pJ/B", "its static share"],
                 "---:|" * len(ALGORITHMS) + "---|---:|---:|", cells)


def flow_control_table(results):
    def saved(x, y):
        return f"{100 * (1 - x / y):.1f}%"

    def cells(runs, b):
        m, p = runs[(b, MESSAGE)], runs[(b, PACKET)]
        cm, cp = m["energy"]["counts"], p["energy"]["counts"]
        return [f"{uj(m):.1f}", f"{uj(p):.1f}", saved(uj(m), uj(p)),
                saved(cm["link_bits"], cp["link_bits"]),
                saved(cm["router_buffer_writes"], cp["router_buffer_writes"]),
                f"{us(m):.2f} / {us(p):.2f}"]
    return table(results, ["message flow control (uJ)", "packet flow control (uJ)", "saved",
                           "link bits saved", "router buffer writes saved",
                           "time (message / packet, us)"], "---:|---:|---:|---:|---:|---|", cells)


def scheduler_table(results):
    def cells(runs, b):
        e = runs[(b, MESSAGE)]["energy"]
        c = e["counts"]
        cycles = c["scheduler_active_cycles"] + c["scheduler_idle_cycles"]
        return [f"{e['scheduler_pj'] / 1e6:.3f}", f"{e['nic_pj'] / 1e6:.1f}",
                f"{100 * e['scheduler_pj'] / e['nic_pj']:.2f}%",
                f"{100 * e['scheduler_pj'] / e['total_pj']:.2f}%",
                f"{100 * c['scheduler_active_cycles'] / max(cycles, 1):.1f}%"]
    return table(results, ["scheduler (uJ)", "NIC (uJ)", "scheduler's share of the NIC",
                           "of the total", "scheduler busy cycles"], "---:|---:|---:|---:|---:|",
                 cells)


def plot(results, folder):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(results), len(SIZES), figsize=(4 * len(SIZES),
                                                                 3.3 * len(results)))
    markers = dict(zip(ALGORITHMS, "osD^vx"))
    for i, (net, runs) in enumerate(results.items()):
        for j, (size, b) in enumerate(SIZES.items()):
            ax = axes[i][j]
            for a in ALGORITHMS:
                r = runs[(b, a)]
                ax.scatter(us(r), uj(r), marker=markers[a], label=a)
            ax.set_title(f"{net}, {size}", fontsize=10)
            ax.set_xlabel("all-reduce time (us)")
            ax.set_ylabel("energy (uJ)")
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Energy against time per all-reduce (board links, 7 nm logic; "
                 "scripts/energy_findings.py)", fontsize=10)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(folder, f"energy_vs_time.{ext}"), dpi=110)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    study_options.add_run_options(p)
    p.add_argument("--plot", help="folder for energy_vs_time.png and .svg")
    p.add_argument("--markdown", action="store_true", help="print the tables only")
    a = p.parse_args()
    out = study_options.results_folder(a, "energy_findings.py")
    if out is None:
        return 2
    try:
        results = {net: simulate(a.mtsim, out, a.jobs, net) for net in NETWORKS}
    except (OSError, ValueError, KeyError, RuntimeError) as e:
        print(f"energy_findings.py: {e}", file=sys.stderr)
        return 2
    sections = [("Energy per all-reduce", energy_table(results)),
                ("Message against packet flow control (MultiTree, co-designed NIC)",
                 flow_control_table(results)),
                ("The scheduler's share (multitree-hw)", scheduler_table(results))]
    for title, lines in sections:
        if not a.markdown:
            print(f"\n{title}:\n")
        print("\n".join(lines))
        print()
    if a.plot:
        plot(results, a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
