#!/usr/bin/env python3
"""The verdict tables of docs/verdict.md, "Should you build the scheduler?".

  host_verdict.py [--mtsim build/bin/mtsim] [--out DIR] [--jobs 2] [--rtl FIGURES.json]

Runs (or reuses in --out) the preset runs of scripts/host_breakeven.py (MultiTree,
tree_packing, disjoint_rings, ring; 32 KiB, 1 MiB, 16 MiB; 4x4 and 8x8 tori, 4x4 mesh; message
flow control) and prints one table per host preset: per network and size the fastest algorithm
under hardware issue and under software issue by that host, their cycles, the speedup, their
energy per all-reduce (the host's own energy is not counted) and whether the scheduler
configuration of --rtl (a scripts/pnr.sh or synth JSON: its parameters and figures, which must
be the nic_sched build mtsim was configured with, `mtsim --version`) holds the hardware
schedule's table in every parameter (the runs' `table_misfit`). With --rtl, hardware issue
is also simulated with the scheduler clocked at that configuration's fmax
(nic.scheduler_clock_ghz; the network stays at 1 GHz) and the speedup it leaves is a column.
Exit status: 0 done, 2 bad input or a failed run. Standard library only.
"""

import argparse
import json
import os
import sys

import check_rtl_params
import host_breakeven as study
import study_options

ROOT = study.ROOT
PRESET_ORDER = ["free"] + study.PRESETS
HOST_NAME = {"free": "message0"}


def load(out, name):
    """(bytes, algorithm) -> run, of one result file."""
    runs = json.load(open(os.path.join(out, name + ".json"), encoding="utf-8"))["runs"]
    return {(r["bytes"], r["algorithm"]): r for r in runs}


def fastest(runs, size):
    return min((runs[(size, a)] for a in study.ALGORITHMS), key=lambda r: r["completion_cycles"])


def rtl_summary(path):
    """The RTL configuration's line and its parameters."""
    figures = json.load(open(path, encoding="utf-8"))
    p = figures["parameters"]
    layout = figures.get("post_layout")  # scripts/pnr.sh's JSON, else scripts/synth.sh's
    area, fmax, where = ((layout["die_area_mm2"], layout["fmax_mhz"], "placed and routed")
                         if layout else (figures["area_mm2"], figures["fmax_mhz"],
                                         "synthesized (no placement)"))
    sizes = ", ".join(f"{name} {p[name]}" for name in ["Nodes", "Ports", "Depth", "Window"] +
                      TABLE_PARAMS[2:])
    line = (f"Scheduler: {figures['config']} ({sizes}), {where} in "
            f"{figures['library']}: {area:.3f} mm2, {fmax:.0f} MHz ({os.path.relpath(path, ROOT)})")
    return line, p


# The parameters that size a table (what a run's table_misfit is measured in).
TABLE_PARAMS = ["Nodes", "Ports", "Chunks", "Flows", "Steps", "Counters", "MaxCount"]


def check_same_build(mtsim, p):
    """Raises ValueError unless mtsim's nic_sched build has the table parameters of `p`: the
    runs' table_misfit is measured against that build, so it must be the one --rtl describes."""
    file, build = check_rtl_params.version_params(mtsim)
    differ = [f"{k} {p.get(k)} (mtsim's {file}: {build.get(k)})" for k in TABLE_PARAMS
              if p.get(k) != build.get(k)]
    if differ:
        raise ValueError("--rtl describes another nic_sched build than mtsim's: " +
                         ", ".join(differ))


def holds(p, run):
    """Whether the RTL configuration `p` (mtsim's build, check_same_build) holds `run`'s
    hardware schedule in every parameter, and if not what it lacks (build < need). A run
    without `table_misfit` (its tables not measured) is a KeyError: no row claims a fit."""
    if p is None:
        return ""
    misfit = run["table_misfit"]
    return " (fits)" if not misfit else f" (does not fit: {misfit})"


def fmax_name(net, rtl_figures):
    """The result name of hardware issue with the scheduler clocked at the RTL's fmax."""
    return f"{net}_hw_sched{rtl_figures['fmax_mhz']:.1f}MHz"


def tables(out, networks, sizes, rtl, rtl_figures):
    lines = []
    hw = {net: load(out, f"{net}_hw") for net in networks}
    slow = ({net: load(out, fmax_name(net, rtl_figures)) for net in networks}
            if rtl_figures else None)
    at_fmax = f" | speedup, scheduler at {rtl_figures['fmax_mhz']:.1f} MHz" if slow else ""
    for preset in PRESET_ORDER:
        lines += ["", f"Host `{preset}`:", "",
                  "| network | size | hardware issue: fastest | cycles | software issue: fastest | "
                  f"cycles | speedup{at_fmax} | energy hw (uJ) | energy sw (uJ) | "
                  "table counters needed; fits the build? |",
                  "|---|---|---|---:|---|---:|---:|" + ("---:|" if slow else "") + "---:|---:|---:|"]
        for net in networks:
            sw = load(out, f"{net}_{HOST_NAME.get(preset, preset)}")
            for size in sizes:
                b = study.SIZE_BYTES[size]
                h, s = fastest(hw[net], b), fastest(sw, b)
                slow_cell = (f"{s['completion_cycles'] / fastest(slow[net], b)['completion_cycles']:.2f}x | "
                             if slow else "")
                lines.append(
                    f"| {net} | {size} | {h['algorithm']} | {h['completion_cycles']} | "
                    f"{s['algorithm']} | {s['completion_cycles']} | "
                    f"{s['completion_cycles'] / h['completion_cycles']:.2f}x | {slow_cell}"
                    f"{h['energy']['total_pj'] / 1e6:.2f} | {s['energy']['total_pj'] / 1e6:.2f} | "
                    f"{h['table_counters']}{holds(rtl, h)} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    study_options.add_run_options(parser)
    parser.add_argument("--rtl", help="the scheduler configuration's synthesis or layout JSON")
    args = parser.parse_args()
    out = study_options.results_folder(args, "host_verdict.py")
    if out is None:
        return 2
    networks, sizes = list(study.NETWORKS), study.SIZES
    try:
        rtl_line, rtl = rtl_summary(args.rtl) if args.rtl else ("", None)
        if rtl:
            check_same_build(args.mtsim, rtl)
        for net, name, sets in study.runs(networks, sizes):
            if name.endswith("_hw") or name.endswith("_message0") or \
                    any(name.endswith("_" + p) for p in study.PRESETS):
                study.simulate(args.mtsim, out, args.jobs, net, name, sets)
        figures = json.load(open(args.rtl, encoding="utf-8")) if args.rtl else None
        if figures:  # hardware issue again, the scheduler on the configuration's own clock
            ghz = figures["fmax_mhz"] / 1000
            for net, name, sets in study.runs(networks, sizes):
                if name.endswith("_hw"):
                    study.simulate(args.mtsim, out, args.jobs, net, fmax_name(net, figures),
                                   sets + [f"nic.scheduler_clock_ghz={ghz}"])
        lines = tables(out, networks, sizes, rtl, figures)
    except (RuntimeError, KeyError, ValueError, OSError) as e:
        print(f"host_verdict.py: {e}", file=sys.stderr)
        return 2
    if rtl_line:
        print(rtl_line)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
