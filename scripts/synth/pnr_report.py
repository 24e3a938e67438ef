#!/usr/bin/env python3
"""Post-layout report of scripts/pnr.sh: area and utilisation from the placed DEF and the LEF cell
sizes, routing result from qrouter's log, post-route timing from OpenSTA with the extracted SPEF,
side by side with the synthesis estimate (scripts/synth.sh's JSON)."""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (flop_registers, named, parse_hold, parse_paths, parse_sta,  # noqa: E402
                    reset_checks, slowest_blocks, slowest_blocks_text, split_hold)


def lef_sizes(path):
    """Cell name -> (width, height) in um."""
    sizes, cell = {}, None
    for line in open(path):
        m = re.match(r"\s*MACRO\s+(\S+)", line)
        if m:
            cell = m.group(1)
        m = re.match(r"\s*SIZE\s+([0-9.]+)\s+BY\s+([0-9.]+)", line)
        if m and cell:
            sizes[cell] = (float(m.group(1)), float(m.group(2)))
    return sizes


def def_layout(path, sizes):
    text = open(path).read()
    unit = float(re.search(r"UNITS DISTANCE MICRONS\s+(\d+)", text).group(1))
    die = [float(v) / unit for v in
           re.search(r"DIEAREA\s*\(\s*(-?\d+)\s+(-?\d+)\s*\)\s*\(\s*(-?\d+)\s+(-?\d+)\s*\)",
                     text).groups()]
    comps = re.search(r"^COMPONENTS.*?^END COMPONENTS", text, re.M | re.S).group(0)
    cell_um2 = fill_um2 = 0.0
    cells = fills = 0
    xmin = ymin = float("inf")
    xmax = ymax = float("-inf")
    for m in re.finditer(r"^-\s+(\S+)\s+(\S+)\s+\+\s+(?:PLACED|FIXED)\s+\(\s*(-?\d+)\s+(-?\d+)\s*\)",
                         comps, re.M):
        macro = m.group(2)
        if macro not in sizes:
            sys.exit("pnr_report.py: cell %s of %s not in the LEF" % (macro, path))
        w, h = sizes[macro]
        x, y = float(m.group(3)) / unit, float(m.group(4)) / unit
        xmin, ymin = min(xmin, x), min(ymin, y)
        xmax, ymax = max(xmax, x + w), max(ymax, y + h)
        if macro.startswith("FILL"):
            fill_um2 += w * h
            fills += 1
        else:
            cell_um2 += w * h
            cells += 1
    return {
        "die_um2": (die[2] - die[0]) * (die[3] - die[1]),
        "die_um": [die[2] - die[0], die[3] - die[1]],
        "core_um2": (xmax - xmin) * (ymax - ymin),
        "cell_um2": cell_um2,
        "cells": cells,
        "fill_cells": fills,
    }


def main():
    ap = argparse.ArgumentParser()
    for a in ("--name", "--synth-json", "--def", "--lef", "--route-log", "--sta", "--json",
              "--text"):
        ap.add_argument(a, required=True)
    ap.add_argument("--clock-ns", type=float, required=True)
    ap.add_argument("--io-fraction", type=float, required=True)
    ap.add_argument("--synth-seconds", type=int, default=0)
    ap.add_argument("--pnr-seconds", type=int, default=0)
    ap.add_argument("--place-fast", type=int, default=1)
    ap.add_argument("--netlist", default="", help="the routed netlist: names the paths' flops")
    args = ap.parse_args()

    synth = json.load(open(args.synth_json))
    layout = def_layout(getattr(args, "def"), lef_sizes(args.lef))
    route = open(args.route_log).read()
    if "Final: No failed routes" in route:
        failed = 0
    else:
        m = re.findall(r"Final: Failed net routes:\s*(\d+)", route)
        failed = int(m[-1]) if m else None
    sta_log = open(args.sta).read()
    slack, critical, start, end, io_ends = parse_sta(sta_log, args.clock_ns, args.io_fraction,
                                                     args.sta)
    fmax = round(1000.0 / critical, 1) if critical > 0 else None
    registers = flop_registers(open(args.netlist).read()) if args.netlist else {}
    post = {
        "die_area_mm2": round(layout["die_um2"] / 1e6, 4),
        "die_um": [round(v, 1) for v in layout["die_um"]],
        "core_area_mm2": round(layout["core_um2"] / 1e6, 4),
        "cell_area_mm2": round(layout["cell_um2"] / 1e6, 4),
        "utilisation": round(layout["cell_um2"] / layout["core_um2"], 3),
        "cells": layout["cells"],
        "fill_cells": layout["fill_cells"],
        "failed_routes": failed,
        "slack_ns": slack,
        "critical_path_ns": round(critical, 3),
        "fmax_mhz": fmax,
        "critical_path_from": start,
        "critical_path_to": end,
        "critical_path_from_named": named(start, registers),
        "critical_path_to_named": named(end, registers),
        # Hold with the extracted RC (ideal clock: qflow builds no clock tree), None in a log
        # written before the hold reports.
        "hold": parse_hold(sta_log, registers),
        # The reset's release against recovery and removal, with the extracted RC.
        "reset": reset_checks(parse_paths(split_hold(sta_log)[0], args.clock_ns,
                                          args.io_fraction), sta_log, registers),
        # Where the time goes after routing (as scripts/synth.sh's list).
        "slowest_blocks": slowest_blocks(sta_log, registers, args.clock_ns, args.io_fraction),
    }
    result = {
        "config": args.name,
        "library": synth["library"],
        "flow": "scripts/synth.sh netlist -> qflow (blifFanout, graywolf, qrouter, rc2dly SPEF) "
                "-> OpenSTA with the SPEF",
        "parameters": synth["parameters"],
        "sta": synth.get("sta"),
        "synthesis": {k: synth[k] for k in ("area_mm2", "cells", "flops", "critical_path_ns",
                                             "fmax_mhz")},
        "post_layout": post,
        "die_over_synth_area": round(post["die_area_mm2"] / synth["area_mm2"], 3),
        "cell_area_over_synth": round(post["cell_area_mm2"] / synth["area_mm2"], 3),
        "post_route_over_synth_critical_path": round(post["critical_path_ns"]
                                                     / synth["critical_path_ns"], 3),
        "seconds": {"synthesis": args.synth_seconds, "place_route": args.pnr_seconds},
        # graywolf's TWSC*fast (pnr.sh --place-fast): 1 is its full annealing effort.
        "place_fast": args.place_fast,
    }
    with open(args.json, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    lines = [
        "%s place and route report: %s (OSU 0.18 um, qflow graywolf + qrouter)" % (
            synth.get("top", "nic_sched"), args.name),
        "  synthesis: %.4f mm2 cells, critical path %.3f ns (fmax %.1f MHz, wire-load model)" % (
            synth["area_mm2"], synth["critical_path_ns"], synth["fmax_mhz"] or 0),
        "  layout: die %.4f mm2 (%.0f x %.0f um), core %.4f mm2, cells %.4f mm2 (%d cells, "
        "after fanout buffering), utilisation %.1f%%, failed routes %s" % (
            post["die_area_mm2"], post["die_um"][0], post["die_um"][1], post["core_area_mm2"],
            post["cell_area_mm2"], post["cells"], 100 * post["utilisation"], failed),
        "  post-route: worst slack %.3f ns at %.3f ns, critical path %.3f ns -> fmax %.1f MHz "
        "(%.2fx the synthesis estimate's path)" % (
            slack, args.clock_ns, critical, fmax or 0,
            result["post_route_over_synth_critical_path"]),
        "  critical path: %s -> %s" % (post["critical_path_from_named"],
                                        post["critical_path_to_named"]),
    ] + ([
        "  hold (ideal clock): worst slack %.3f ns (%s), %s -> %s" % (
            post["hold"]["slack_ns"], post["hold"]["group"], post["hold"]["from_named"],
            post["hold"]["to_named"])] if post["hold"] else []) + [
        "  die / synthesis area: %.2fx; time: synthesis %d s, place and route %d s%s" % (
            result["die_over_synth_area"], args.synth_seconds, args.pnr_seconds,
            "" if args.place_fast == 1 else
            " (placement effort 1/%d: --place-fast %d)" % (args.place_fast, args.place_fast)),
    ]
    lines += slowest_blocks_text(post["slowest_blocks"] if registers else [], args.clock_ns,
                                 "slowest blocks after routing")
    with open(args.text, "w") as f:
        f.write("\n".join(lines) + "\n")
    if failed != 0:
        sys.exit("pnr_report.py: %s failed routes (see %s)" % (failed, args.route_log))


if __name__ == "__main__":
    main()
