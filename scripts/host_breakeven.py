#!/usr/bin/env python3
"""Break-even of the NIC scheduler against a host that issues in software (docs/host.md).

  host_breakeven.py [--mtsim build/bin/mtsim] [--out DIR] [--jobs 2] [--plot docs/plots]
                    [--markdown] [--quick]

For MultiTree, tree_packing, disjoint_rings and ring at 32 KiB, 1 MiB and 16 MiB on the 4x4 and
8x8 tori and the 4x4 mesh (scenarios/beyond: one NIC port per link, message flow control on
both sides), it simulates hardware issue once and software issue while it sweeps one host figure
at a time from the free host: the host's time per message (host.message_ns, 0 to 3.2 us) and its
notification latency (host.notify_ns, 0 to 4 us); then each host preset as it is. It prints, per
network, size and algorithm, the speedup of hardware issue over the free host and over each
preset, and the crossovers: the smallest per-message cost and the smallest notification latency
at which hardware issue is at least as fast (linear between swept points; "0" when it already
is with a free host, "> max" when it never is in the range). "best" compares the fastest
algorithm of each side. --plot draws speedup against each swept figure (one panel per network
and size, one line per algorithm, the presets marked) into host_breakeven_{message,notify}.png
and .svg. Results JSON stay in --out (a run whose JSON is there is not repeated). About 25
minutes on two cores (the 8x8 torus at 16 MiB takes most); --quick runs 32 KiB and 1 MiB on
the 4x4 torus only. Exit status: 0 done, 2 bad input or a failed run. Standard library
(matplotlib for --plot).
"""

import argparse
import json
import os
import sys

import study_options

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NETWORKS = {"torus4x4": "scenarios/beyond/torus4x4.yaml",
            "torus8x8": "scenarios/beyond/torus8x8.yaml",
            "mesh4x4": "scenarios/beyond/mesh4x4.yaml"}
ALGORITHMS = ["multitree", "tree_packing", "disjoint_rings", "ring"]
SIZES = ["32KiB", "1MiB", "16MiB"]
SIZE_BYTES = {"32KiB": 32 << 10, "1MiB": 1 << 20, "16MiB": 16 << 20}
MESSAGE_NS = [0, 25, 50, 100, 200, 400, 800, 1600, 3200]
NOTIFY_NS = [0, 250, 500, 1000, 2000, 4000]
PRESETS = ["cpu_proxy", "gpu_initiated", "sequencer"]


def runs(networks, sizes):
    """(network, result name, --set overrides) of every mtsim run of the study."""
    common = ["nic.flow_control=message", f"collective.algorithms=[{','.join(ALGORITHMS)}]",
              f"collective.sizes=[{','.join(sizes)}]"]
    out = []
    for net in networks:
        out.append((net, f"{net}_hw", common + ["nic.issue=hardware"]))
        for ns in MESSAGE_NS:
            out.append((net, f"{net}_message{ns}",
                        common + ["nic.issue=software", "host.preset=free", f"host.message_ns={ns}"]))
        for ns in NOTIFY_NS[1:]:
            out.append((net, f"{net}_notify{ns}",
                        common + ["nic.issue=software", "host.preset=free", f"host.notify_ns={ns}"]))
        for preset in PRESETS:
            out.append((net, f"{net}_{preset}",
                        common + ["nic.issue=software", f"host.preset={preset}"]))
    return out


def simulate(mtsim, out, jobs, net, name, sets):
    """(bytes, algorithm) -> completion cycles of one result file (simulated unless there)."""
    runs = study_options.verified_runs(mtsim, NETWORKS[net], os.path.join(out, name + ".json"),
                                       jobs, sets)
    return {key: run["completion_cycles"] for key, run in runs.items()}


def preset_figures(out, net):
    """host preset -> (time per message in ns: its post, its doorbell share, over its contexts;
    notification latency in ns), as the preset runs' results report them."""
    figures = {}
    for preset in PRESETS:
        run = json.load(open(os.path.join(out, f"{net}_{preset}.json"), encoding="utf-8"))["runs"][0]
        h, ns = run["host"], 1 / run["clock_ghz"]
        per_message = h["message_cycles"] + h["doorbell_cycles"] / h["doorbell_batch"]
        figures[preset] = (per_message / h["contexts"] * ns, h["notify_cycles"] * ns)
    return figures


def crossover(xs, speedups):
    """Smallest x at which speedup reaches 1, linear between points; None if it never does."""
    if speedups[0] >= 1:
        return 0.0
    for i in range(1, len(xs)):
        if speedups[i] >= 1:
            a, b = speedups[i - 1], speedups[i]
            return xs[i - 1] + (1 - a) / (b - a) * (xs[i] - xs[i - 1])
    return None


def fmt_cross(x, top):
    return f"> {top}" if x is None else f"{x:.0f}"


def best(cycles, size):
    """(cycles, algorithm) of the fastest algorithm at `size`."""
    return min((cycles[(size, a)], a) for a in ALGORITHMS)


def table(results, networks, sizes):
    """The crossover table, Markdown lines."""
    lines = ["| network | size | algorithm | hardware issue (cycles) | free host (cycles) | "
             "speedup vs free | " + " | ".join(f"vs {p}" for p in PRESETS) +
             " | break-even message (ns) | break-even notify (ns) |",
             "|---|---|---|---:|---:|---:|" + "---:|" * len(PRESETS) + "---:|---:|"]
    for net in networks:
        for size in sizes:
            b = SIZE_BYTES[size]
            for algorithm in ALGORITHMS + ["best"]:
                def at(name):
                    c = results[(net, name)]
                    return best(c, b)[0] if algorithm == "best" else c[(b, algorithm)]
                hw = at("hw")
                label = algorithm
                if algorithm == "best":
                    label = f"best ({best(results[(net, 'hw')], b)[1]} / " \
                            f"{best(results[(net, 'message0')], b)[1]})"
                msg = [at(f"message{ns}") / hw for ns in MESSAGE_NS]
                notify = [msg[0]] + [at(f"notify{ns}") / hw for ns in NOTIFY_NS[1:]]
                presets = " | ".join(f"{at(p) / hw:.3f}" for p in PRESETS)
                lines.append(f"| {net} | {size} | {label} | {hw} | {at('message0')} | "
                             f"{msg[0]:.3f} | {presets} | "
                             f"{fmt_cross(crossover(MESSAGE_NS, msg), MESSAGE_NS[-1])} | "
                             f"{fmt_cross(crossover(NOTIFY_NS, notify), NOTIFY_NS[-1])} |")
    return lines


def plot(results, networks, sizes, figures, folder):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for swept, xs, title in (("message", MESSAGE_NS, "host time per message (ns)"),
                             ("notify", NOTIFY_NS, "host notification latency (ns)")):
        fig, axes = plt.subplots(len(networks), len(sizes), figsize=(4 * len(sizes),
                                                                      3 * len(networks)),
                                 squeeze=False, sharex=True)
        for r, net in enumerate(networks):
            hw = results[(net, "hw")]
            for c, size in enumerate(sizes):
                ax, b = axes[r][c], SIZE_BYTES[size]
                for algorithm in ALGORITHMS:
                    ys = [results[(net, f"{swept}{x}" if x else "message0")][(b, algorithm)] /
                          hw[(b, algorithm)] for x in xs]
                    ax.plot(xs, ys, marker="o", markersize=3, label=algorithm)
                ax.axhline(1, color="black", linewidth=0.8)
                for preset, (per_message, notify) in figures.items():
                    x = per_message if swept == "message" else notify
                    ax.axvline(x, color="grey", linestyle=":", linewidth=0.8)
                    ax.annotate(preset, (x, ax.get_ylim()[1]), rotation=90, fontsize=6,
                                va="top", ha="right", color="grey")
                ax.set_xscale("symlog", linthresh=25)
                ax.set_yscale("log")
                ax.set_title(f"{net}, {size}", fontsize=9)
                if c == 0:
                    ax.set_ylabel("hardware issue speedup")
                if r == len(networks) - 1:
                    ax.set_xlabel(title)
        axes[0][0].legend(fontsize=7)
        fig.suptitle("Speedup of the NIC scheduler over software issue (message flow control; "
                     "above 1 the scheduler wins)", fontsize=10)
        fig.tight_layout()
        for ext in ("png", "svg"):
            fig.savefig(os.path.join(folder, f"host_breakeven_{swept}.{ext}"), dpi=110)
        plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    study_options.add_run_options(parser)
    parser.add_argument("--plot", help="folder for the plots")
    parser.add_argument("--markdown", action="store_true", help="print only the table")
    parser.add_argument("--quick", action="store_true", help="4x4 torus, 32 KiB and 1 MiB")
    args = parser.parse_args()
    out = study_options.results_folder(args, "host_breakeven.py")
    if out is None:
        return 2
    networks = ["torus4x4"] if args.quick else list(NETWORKS)
    sizes = SIZES[:2] if args.quick else SIZES
    results = {}
    try:
        for net, name, sets in runs(networks, sizes):
            results[(net, name[len(net) + 1:])] = simulate(args.mtsim, out, args.jobs, net, name,
                                                           sets)
        figures = preset_figures(out, networks[0])
    except (RuntimeError, KeyError, ValueError) as e:
        print(f"host_breakeven.py: {e}", file=sys.stderr)
        return 2
    if not args.markdown:
        print("Speedup = software-issue cycles / hardware-issue cycles (above 1: the scheduler "
              "wins); presets at (per-message ns incl. doorbell share / contexts, notify ns): " +
              ", ".join(f"{p} ({m:.0f}, {n:.0f})" for p, (m, n) in figures.items()) + "\n")
    print("\n".join(table(results, networks, sizes)))
    if args.plot:
        plot(results, networks, sizes, figures, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
