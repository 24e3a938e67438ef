#!/usr/bin/env python3
"""Plots of mtsim results (python3 + Debian's python3-matplotlib, nothing else).

  plot.py RESULTS [--out DIR]
      RESULTS is a sweep folder (its results.json), a sweep's results.json or results.csv, or
      the --json file of `mtsim run`. Writes, as PNG and SVG, one figure per metric with one
      panel per topology:
        allreduce_time   all-reduce completion time (us) vs size per algorithm, log-log
        algbw            algorithm bandwidth (size / time, GB/s) vs size
        speedup          speedup over ring (ring time / time at the same topology, size and
                         other sweep-axis values; the ring is the run labelled "ring", else one
                         whose schedule is the ring, such as the paper files' "ring-1port")
        efficiency       max(bandwidth bound, latency bound) / simulated time vs size
  plot.py --heatmap RESULTS.json --run INDEX [--out DIR]
      Per-link utilisation of run INDEX (0-based, in the file's "runs" list): on a 2D torus or
      mesh every node on its grid position with its four outgoing links coloured by utilisation,
      plus the source x destination utilisation matrix (any topology). Writes
      link_heatmap_<topology>_<algorithm>_<size>.png and .svg (e.g.
      link_heatmap_torus4x4_multitree_1MiB.png).

Runs that failed (non-empty error, or no completion) are left out and counted on stderr.
Exit status: 0 ok, 2 bad input.
"""

import argparse
import csv
import json
import math
import os
import re
import sys
import textwrap


def _import_matplotlib():
    """Imports matplotlib (Agg backend). A python3 without it (a pyenv or venv interpreter ahead
    of Debian's in PATH) re-runs this script with /usr/bin/python3, which python3-matplotlib
    serves."""
    try:
        import matplotlib
    except ImportError:
        system_python = "/usr/bin/python3"
        if (os.path.exists(system_python) and os.path.realpath(sys.executable)
                != os.path.realpath(system_python) and not os.environ.get("MT_PLOT_REEXEC")):
            os.environ["MT_PLOT_REEXEC"] = "1"
            os.execv(system_python, [system_python] + sys.argv)
        sys.exit("plot.py: matplotlib is missing: install python3-matplotlib (scripts/setup.sh)")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "mtsim"  # reproducible SVG ids
    import matplotlib.pyplot as plt
    return matplotlib, plt


matplotlib, plt = _import_matplotlib()
import numpy  # noqa: E402  (a dependency of matplotlib)
from matplotlib import colors as mcolors  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullLocator  # noqa: E402

REFERENCE = "ring"
# No creation date in the files: regenerated figures differ only when the results do.
SAVE_METADATA = {"png": {"Software": None}, "svg": {"Date": None}}
AXIS_KEYS_SHOWN_ELSEWHERE = {"topology", "collective.algorithms", "collective.sizes"}
# One colour and marker per algorithm, stable across figures.
STYLES = [("tab:blue", "o"), ("tab:orange", "s"), ("tab:green", "^"), ("tab:red", "D"),
          ("tab:purple", "v"), ("tab:brown", "P"), ("tab:pink", "X"), ("tab:gray", "*"),
          ("tab:olive", "<"), ("tab:cyan", ">")]


class InputError(Exception):
    pass


def size_label(nbytes):
    """64 KiB style label for a byte count."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= scale and nbytes % scale == 0:
            return f"{nbytes // scale} {unit}"
    return f"{int(nbytes)} B"


def load_runs(path):
    """The runs of a results file or sweep folder, as dicts with numeric fields converted."""
    if os.path.isdir(path):
        candidate = os.path.join(path, "results.json")
        if not os.path.exists(candidate):
            raise InputError(f"{path}: no results.json in this folder (is it a sweep's --out?)")
        path = candidate
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        runs = []
        for row in rows:
            if not row.get("algorithm"):
                continue  # a point that failed before producing runs
            run = dict(row)
            for key in ("nodes", "ports", "bytes", "completion_cycles", "steps"):
                run[key] = int(row[key]) if row.get(key) else 0
            for key in ("clock_ghz", "completion_ns", "bound_cycles", "efficiency"):
                run[key] = float(row[key]) if row.get(key) else 0.0
            run["axes"] = {k[len("axis."):]: v for k, v in row.items() if k.startswith("axis.")}
            runs.append(run)
        return runs
    try:
        with open(path) as f:
            doc = json.load(f)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}:{e.colno}: not JSON: {e.msg}")
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        raise InputError(f'{path}: expected a JSON object with a "runs" list')
    return doc["runs"]


def series_name(run):
    """Legend label: the algorithm, plus the values of sweep axes not plotted elsewhere."""
    extra = [f"{k}={v}" for k, v in sorted((run.get("axes") or {}).items())
             if k not in AXIS_KEYS_SHOWN_ELSEWHERE]
    return run["algorithm"] + (f" ({', '.join(extra)})" if extra else "")


def usable(run):
    return not run.get("error") and run.get("completion_cycles", 0) > 0


def group(runs):
    """{topology: {series: {bytes: run}}} of the usable runs, and how many were left out."""
    out, dropped = {}, 0
    for run in runs:
        if not usable(run):
            dropped += 1
            continue
        out.setdefault(run["topology"], {}).setdefault(series_name(run), {})[run["bytes"]] = run
    return out, dropped


def topology_title(topology, series):
    nodes = next(iter(next(iter(series.values())).values()))["nodes"]
    return f"{topology} ({nodes} nodes)"


def size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ticks = sorted(sizes)
    if len(ticks) > 8:  # keep labels readable: every other size
        ticks = ticks[::2] if ticks[-1] in ticks[::2] else ticks[1::2]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: size_label(int(round(v)))))
    ax.tick_params(axis="x", labelrotation=45)
    ax.set_xlabel("all-reduce size per node")


def style_of(name, names):
    return STYLES[names.index(name) % len(STYLES)] if name in names else STYLES[0]


def metric_figure(grouped, metric, ylabel, title, out_dir, stem, logy=False, hline=None,
                  ylim=None):
    topologies = sorted(grouped, key=lambda t: (next(iter(next(iter(grouped[t].values())).values()))["nodes"], t))
    all_names = []  # in the order the results list them (the sweep's axis order)
    for t in topologies:
        all_names += [name for name in grouped[t] if name not in all_names]
    cols = min(len(topologies), 3)
    rows = math.ceil(len(topologies) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.6 * cols, 4.6 * rows), squeeze=False)
    wrote_any = False
    for i, topology in enumerate(topologies):
        ax = axes[i // cols][i % cols]
        series = grouped[topology]
        sizes = set()
        for name in all_names:
            if name not in series:
                continue
            points = []
            for nbytes, run in sorted(series[name].items()):
                value = metric(run, series)
                if value is not None and value > 0:
                    points.append((nbytes, value))
            if not points:
                continue
            colour, marker = style_of(name, all_names)
            xs, ys = zip(*points)
            sizes.update(xs)
            ax.plot(xs, ys, marker=marker, color=colour, label=name, linewidth=1.6, markersize=5)
            wrote_any = True
        if sizes:
            size_axis(ax, sizes)
        if logy:  # plain numbers at 1-2-5 steps instead of 10^x labels
            ax.set_yscale("log")
            ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_minor_locator(NullLocator())
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        if hline is not None:
            ax.axhline(hline, color="black", linewidth=0.8, linestyle="--")
        if ylim is not None:
            ax.set_ylim(*ylim)
        ax.set_ylabel(ylabel)
        ax.set_title(topology_title(topology, series))
        ax.grid(True, which="major", alpha=0.35)
        ax.legend(fontsize=8)
    for j in range(len(topologies), rows * cols):
        axes[j // cols][j % cols].set_visible(False)
    if not wrote_any:
        plt.close(fig)
        return []
    # About 10 characters of a 13-point title per inch: wrap what a one-panel figure cannot hold.
    fig.suptitle(textwrap.fill(title, width=int(fig.get_figwidth() * 10)), fontsize=13)
    fig.tight_layout()
    written = []
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{stem}.{ext}")
        fig.savefig(path, dpi=130, metadata=SAVE_METADATA[ext])
        written.append(path)
    plt.close(fig)
    return written


def extra_axes(run):
    """The run's sweep-axis values other than topology, algorithm and size."""
    return tuple(sorted((k, v) for k, v in (run.get("axes") or {}).items()
                        if k not in AXIS_KEYS_SHOWN_ELSEWHERE))


def reference_times(runs):
    """{(topology, other axes, bytes): completion_ns} of the ring runs: a run labelled "ring", else
    one whose schedule is the ring under another label (e.g. the paper files' "ring-1port")."""
    times = {}
    for exact in (True, False):
        for run in runs:
            if not usable(run):
                continue
            label = run["algorithm"]
            if exact and label != REFERENCE:
                continue
            if not exact and (run.get("schedule") != REFERENCE or label.startswith("auto")):
                continue
            times.setdefault((run["topology"], extra_axes(run), run["bytes"]), run["completion_ns"])
    return times


def plot_sweep(runs, out_dir, source):
    if runs and not any("completion_cycles" in run for run in runs):
        raise InputError(f"{source}: no run has completion_cycles: not results of `mtsim run` or "
                         "`mtsim sweep` (scripts/train_table.py tabulates `mtsim train` results)")
    grouped, dropped = group(runs)
    if not grouped:
        raise InputError("no successful runs to plot")
    if dropped:
        print(f"plot.py: left out {dropped} failed runs", file=sys.stderr)
    clock = {run.get("clock_ghz", 1.0) for t in grouped.values() for s in t.values() for run in s.values()}
    clock_text = ", ".join(f"{c:g}" for c in sorted(clock))
    written = []
    written += metric_figure(
        grouped, lambda r, s: r["completion_ns"] / 1000.0, "all-reduce time (µs)",
        f"All-reduce completion time vs size (network clock {clock_text} GHz)", out_dir,
        "allreduce_time", logy=True)
    written += metric_figure(
        grouped, lambda r, s: r["bytes"] / r["completion_ns"], "algorithm bandwidth (GB/s)",
        "Algorithm bandwidth: size per node / all-reduce time", out_dir, "algbw")
    refs = reference_times(runs)
    if refs:
        def speedup(run, _series):
            ref = refs.get((run["topology"], extra_axes(run), run["bytes"]))
            return ref / run["completion_ns"] if ref else None
        written += metric_figure(
            grouped, speedup, f"speedup over {REFERENCE} (×)",
            f"Speedup over {REFERENCE} (same topology, size and other sweep values)",
            out_dir, "speedup", hline=1.0)
    else:
        print(f"plot.py: no '{REFERENCE}' runs: no speedup figure", file=sys.stderr)
    written += metric_figure(
        grouped, lambda r, s: r.get("efficiency") or None,
        "efficiency (bound / simulated time)",
        "Efficiency: max(bandwidth, latency lower bound) / simulated time",
        out_dir, "efficiency", ylim=(0, 1.05))
    return written


def torus_dims(topology):
    """(X, Y) of a 2D torus/mesh spec string such as "torus:4x4", else None."""
    kind, _, params = topology.partition(":")
    if kind not in ("torus", "mesh"):
        return None
    parts = params.split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def plot_heatmap(path, index, out_dir):
    runs = load_runs(path)
    if not 0 <= index < len(runs):
        raise InputError(f"--run {index}: {path} has {len(runs)} runs (0..{len(runs) - 1})")
    run = runs[index]
    links = run.get("links") or []
    if not links:
        raise InputError(f"run {index} has no per-link statistics (a CSV has none: use the JSON)")
    cmap = plt.get_cmap("viridis")
    # Utilisation is a fraction of the run: one fixed 0..1 scale keeps heatmaps comparable.
    norm = mcolors.Normalize(vmin=0.0, vmax=max(1.0, max(l["utilization"] for l in links)))
    dims = torus_dims(run["topology"])
    panels = 2 if dims else 1
    fig, axes = plt.subplots(1, panels, figsize=(6.4 * panels, 6.0), squeeze=False)
    axes = axes[0]

    if dims:
        ax = axes[0]
        xs, ys = dims
        gap = 0.5  # node half-size is 0.18; links start at the node edge
        for node in range(xs * ys):
            x, y = node % xs, node // xs
            ax.add_patch(plt.Rectangle((x - 0.18, y - 0.18), 0.36, 0.36, facecolor="white",
                                       edgecolor="black", zorder=3))
            ax.text(x, y, str(node), ha="center", va="center", fontsize=7 if xs > 6 else 9, zorder=4)
        for link in links:
            src, dst = link["src"], link["dst"]
            if src >= xs * ys or dst >= xs * ys:
                continue
            sx, sy, dx, dy = src % xs, src // xs, dst % xs, dst // xs
            step_x, step_y = dx - sx, dy - sy
            if abs(step_x) > 1:  # wrap-around link of the torus: drawn leaving the grid
                step_x = -1 if step_x > 0 else 1
            if abs(step_y) > 1:
                step_y = -1 if step_y > 0 else 1
            # Each directed link is an arrow from the source toward the destination, shifted to
            # its right so the two directions between neighbours sit side by side.
            off_x, off_y = -step_y * 0.09, step_x * 0.09
            start = (sx + step_x * 0.2 + off_x, sy + step_y * 0.2 + off_y)
            end = (sx + step_x * (1 - 0.2) + off_x, sy + step_y * (1 - 0.2) + off_y)
            if (sx + step_x, sy + step_y) != (dx, dy):  # wrap: a shorter stub off the edge
                end = (sx + step_x * gap + off_x, sy + step_y * gap + off_y)
            ax.annotate("", xy=end, xytext=start, zorder=2,
                        arrowprops=dict(arrowstyle="-|>", color=cmap(norm(link["utilization"])),
                                        lw=3.2, mutation_scale=10, shrinkA=0, shrinkB=0))
        ax.set_xlim(-0.8, xs - 0.2)
        ax.set_ylim(ys - 0.2, -0.8)  # y grows downward: node 0 top-left
        ax.set_aspect("equal")
        ax.set_xticks(range(xs))
        ax.set_yticks(range(ys))
        ax.set_xlabel("x (node id = x + X·y)")
        ax.set_ylabel("y")
        ax.set_title("directed links on the grid (wrap-around links as stubs)", fontsize=10)
        fig.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, fraction=0.046,
                     pad=0.04, label="link utilisation (busy cycles / completion cycles)")

    ax = axes[-1]
    vertices = 1 + max(max(l["src"], l["dst"]) for l in links)
    matrix = [[float("nan")] * vertices for _ in range(vertices)]
    for link in links:
        matrix[link["src"]][link["dst"]] = link["utilization"]
    masked = numpy.ma.masked_invalid(numpy.array(matrix))
    cmap_bad = cmap.copy()
    cmap_bad.set_bad("#eeeeee")
    image = ax.imshow(masked, cmap=cmap_bad, norm=norm, interpolation="nearest")
    nodes = run.get("nodes") or vertices
    ax.set_xlabel("destination vertex" + (f" (endpoints 0-{nodes - 1}, switches from {nodes})"
                                          if vertices > nodes else ""))
    ax.set_ylabel("source vertex")
    if vertices > nodes:  # switches: a line between endpoints and switches
        for at in (ax.axhline, ax.axvline):
            at(nodes - 0.5, color="black", linewidth=0.8)
    ax.set_title("utilisation matrix (grey: no link)", fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04,
                 label="link utilisation (busy cycles / completion cycles)")

    title = (f"Link utilisation: {run['algorithm']}, {size_label(run['bytes'])} per node on "
             f"{run['topology']} — {run['completion_cycles']} cycles "
             f"({run['completion_ns'] / 1000:.1f} µs)")
    fig.suptitle(textwrap.fill(title, width=int(fig.get_figwidth() * 9)), fontsize=12)
    fig.tight_layout()
    stem = "_".join(re.sub(r"[^A-Za-z0-9.-]+", "", part) for part in
                    (run["topology"], run["algorithm"], size_label(run["bytes"])))
    written = []
    for ext in ("png", "svg"):
        out = os.path.join(out_dir, f"link_heatmap_{stem}.{ext}")
        fig.savefig(out, dpi=130, metadata=SAVE_METADATA[ext])
        written.append(out)
    plt.close(fig)
    return written


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("results", nargs="?", help="sweep folder, results.json/.csv or run JSON")
    parser.add_argument("--out", default="plots", help="output folder (default: plots)")
    parser.add_argument("--heatmap", metavar="RESULTS.json", help="per-link utilisation of one run")
    parser.add_argument("--run", type=int, default=0, metavar="INDEX",
                        help="with --heatmap: index of the run in the file's runs list "
                             "(default 0, the first)")
    args = parser.parse_args(argv)
    if not args.results and not args.heatmap:
        parser.print_usage(sys.stderr)
        print("plot.py: give RESULTS or --heatmap RESULTS.json", file=sys.stderr)
        return 2
    try:
        os.makedirs(args.out, exist_ok=True)
        written = []
        if args.results:
            written += plot_sweep(load_runs(args.results), args.out, args.results)
        if args.heatmap:
            written += plot_heatmap(args.heatmap, args.run, args.out)
    except InputError as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
