#!/usr/bin/env python3
"""Turns the Yosys `stat -liberty` and OpenSTA logs of scripts/synth.sh into
<config>.json and a readable <config>.txt. Figures are 0.18 um (OSU018) estimates."""

import argparse
import json
import math
import re
import sys

FLOP_CELLS = ("DFFPOSX1", "DFFNEGX1", "DFFSR")


def clog2(n):
    return max(0, math.ceil(math.log2(n))) if n > 1 else 0


def rtl_defaults(path):
    """Parameter defaults of nic_sched (`parameter int unsigned Name = value`)."""
    text = open(path).read()
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"parameter\s+int\s+unsigned\s+(\w+)\s*=\s*(\d+)", text)}


def entry_bits(p):
    w = lambda n: max(1, clog2(n))
    return (1 + w(p["Ports"]) + w(p["Nodes"]) + w(p["Chunks"]) + w(p["Flows"]) + w(p["Steps"])
            + 2 * w(p["Counters"]) + max(1, clog2(p["MaxCount"] + 1)))


def flop_area(liberty, cell="DFFPOSX1"):
    text = open(liberty).read()
    m = re.search(r"cell\s*\(\s*%s\s*\)\s*\{\s*area\s*:\s*([0-9.]+)" % cell, text)
    return float(m.group(1)) if m else None


def path_group(start, end, to):
    """reset for a recovery or removal check (an asynchronous reset's release against a flop's
    clock), else in2reg, reg2reg, reg2out or in2out (`to` is "2reg" or "2out")."""
    if "recovery check" in end or "removal check" in end:
        return "reset"
    return ("in" if "port" in start else "reg") + to


def needed_period(slack_ns, clock_ns, io_share):
    """The shortest period a path reported with slack_ns at clock_ns needs, when io_share of the
    period is I/O delay (0 for register to register; the I/O delays shrink with the period)."""
    used_ns = clock_ns - slack_ns
    return (used_ns - io_share * clock_ns) / (1.0 - io_share) if io_share < 1.0 else used_ns


def parse_paths(sta, clock_ns, io_fraction):
    """Every reported path (one per report_checks group): its ends, slack and shortest period. A
    reg-to-reg path needs delay + setup + uncertainty; a path from an input or to an output also
    carries an I/O delay of io_fraction x period, which shrinks with the period."""
    paths = []
    for block in sta.split("Startpoint:")[1:]:
        start = block.splitlines()[0].strip()
        end = re.search(r"^Endpoint:\s*(.*)$", block, re.M)
        slack = re.search(r"^\s*(-?[0-9.]+)\s+slack\b", block, re.M)
        if not end or not slack:
            continue
        end = end.group(1)
        io_ends = sum(1 for point in (start, end) if "port" in point)
        critical_ns = needed_period(float(slack.group(1)), clock_ns, io_fraction * io_ends)
        group = path_group(start, end, "2" + ("out" if "port" in end else "reg"))
        paths.append({"group": group, "from": start, "to": end, "slack_ns": float(slack.group(1)),
                      "critical_path_ns": round(critical_ns, 3), "io_ends": io_ends})
    return paths


def flop_registers(netlist):
    """{flop instance: the net its Q drives} of a mapped netlist. A flop's output net keeps an RTL
    name through Yosys (the register's, or that of a port the register drives directly) and qflow
    flattens it ("u_window.rem_q[1]" in gen_port[3] becomes gen_port_3__u_window_rem_q_1_), so a
    path's ends can be found in the RTL."""
    registers = {}
    for m in re.finditer(r"^\s*(?:DFF\w*|LATCH)\s+(\\\S+|\w+)\s*\((.*?)\);", netlist,
                         re.M | re.S):
        q = re.search(r"\.Q\(\s*(\\\S+|[\w\[\]]+)\s*\)", m.group(2))
        if q:
            registers[m.group(1).lstrip("\\")] = q.group(1).lstrip("\\")
    return registers


def named(point, registers):
    """A path end as a designer looks for it: "register <its Q net> (flop <instance>)" for a flop,
    the port's name for a port."""
    instance = point.split()[0]
    if instance in registers:
        return "register %s (flop %s)" % (registers[instance], instance)
    return point


HOLD_MARK = "MT_HOLD_CHECKS"
ENDPOINTS_MARK = "MT_ENDPOINTS"


def split_hold(sta):
    """The setup part of an OpenSTA log and its hold part (after sta_reports' mark, before the
    endpoint lists; empty in logs written before it)."""
    setup, _, hold = sta.partition(HOLD_MARK)
    return setup, hold.partition(ENDPOINTS_MARK)[0]


def block_name(point, registers):
    """The block an endpoint belongs to: its register's (or output port's) name without the bit
    index, generate and array indices as * (gen_port_3__u_window_rem_q_12_ ->
    gen_port_*__u_window_rem_q)."""
    instance = point.split("/")[0].split()[0]
    name = registers.get(instance, instance)
    name = re.sub(r"_\d+_$", "", name)
    return re.sub(r"\d+", "*", name)


def slowest_blocks(sta, registers, clock_ns, io_fraction, limit=12):
    """From sta_reports' endpoint lists: per block (block_name) and path group, the minimum
    period its worst endpoint needs (I/O delays scaled with the period, as parse_paths) and how
    many of its endpoints need more than clock_ns; the `limit` slowest, slowest first. Empty for
    a log without the lists."""
    blocks = {}
    for section in sta.split(ENDPOINTS_MARK + " ")[1:]:
        group = section.split(None, 1)[0]
        io_share = io_fraction if group != "reg2reg" else 0.0
        for m in re.finditer(r"^(\S+)(?: \(\w+\))?\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+)"
                             r"(?: \((?:VIOLATED|MET)\))?\s*$", section, re.M):
            need_ns = needed_period(float(m.group(4)), clock_ns, io_share)
            key = (block_name(m.group(1), registers), group)
            entry = blocks.setdefault(key, {"block": key[0], "group": group,
                                            "critical_path_ns": need_ns, "endpoints": 0,
                                            "endpoints_over_clock": 0})
            entry["critical_path_ns"] = max(entry["critical_path_ns"], need_ns)
            entry["endpoints"] += 1
            entry["endpoints_over_clock"] += need_ns > clock_ns
    ranked = sorted(blocks.values(), key=lambda b: -b["critical_path_ns"])[:limit]
    for b in ranked:
        b["critical_path_ns"] = round(b["critical_path_ns"], 3)
    return ranked


def slowest_blocks_text(blocks, clock_ns, what="slowest blocks"):
    """The readable report's lines of slowest_blocks() (none for an empty list)."""
    if not blocks:
        return []
    return (["  %s (minimum period the worst endpoint needs; endpoints needing more than %.3f ns "
             "/ all):" % (what, clock_ns)] +
            ["    %6.3f ns  %-7s %s (%d / %d)" % (b["critical_path_ns"], b["group"], b["block"],
                                                 b["endpoints_over_clock"], b["endpoints"])
             for b in blocks])


def parse_hold(sta, registers, only_group=None):
    """The worst hold check of the log (None without hold reports), of path group only_group when
    given (reset: the removal checks): its slack, group and ends."""
    worst = None
    for block in split_hold(sta)[1].split("Startpoint:")[1:]:
        start = block.splitlines()[0].strip()
        end = re.search(r"^Endpoint:\s*(.*)$", block, re.M)
        slack = re.search(r"^\s*(-?[0-9.]+)\s+slack\b", block, re.M)
        if not end or not slack:
            continue
        group = path_group(start, end.group(1), "2reg")
        if only_group and group != only_group:
            continue
        if worst is None or float(slack.group(1)) < worst["slack_ns"]:
            worst = {"slack_ns": float(slack.group(1)), "group": group,
                     "from_named": named(start, registers),
                     "to_named": named(end.group(1), registers)}
    return worst


def reset_checks(paths, sta, registers):
    """The worst recovery and removal slack of the reset's release, or None when untimed."""
    recovery = [p["slack_ns"] for p in paths if p["group"] == "reset"]
    removal = parse_hold(sta, registers, "reset")
    if not recovery and not removal:
        return None
    return {"recovery_slack_ns": min(recovery) if recovery else None,
            "removal_slack_ns": removal["slack_ns"] if removal else None}


def parse_sta(sta, clock_ns, io_fraction, where):
    """Worst slack, and of the reported paths the one needing the longest period: that period,
    its ends and how many are ports (the worst-slack path is not always the one that limits fmax:
    the I/O delays scale with the period)."""
    sta = split_hold(sta)[0]
    slack = re.search(r"^worst slack\s+(-?[0-9.]+)", sta, re.M)
    paths = parse_paths(sta, clock_ns, io_fraction)
    if not slack or not paths:
        sys.exit("report.py: no worst slack or no path in " + where)
    worst = max(paths, key=lambda p: p["critical_path_ns"])
    return (float(slack.group(1)), worst["critical_path_ns"], worst["from"], worst["to"],
            worst["io_ends"])


def main():
    ap = argparse.ArgumentParser()
    for a in ("--name", "--stat", "--sta", "--liberty", "--params", "--rtl", "--json", "--text"):
        ap.add_argument(a, required=True)
    ap.add_argument("--clock-ns", type=float, required=True)
    ap.add_argument("--top", default="nic_sched")
    ap.add_argument("--uncertainty-ns", type=float, default=0.0)
    ap.add_argument("--io-fraction", type=float, default=0.0)
    ap.add_argument("--driving-cell", default="")
    ap.add_argument("--load-pf", type=float, default=0.0)
    ap.add_argument("--wire-load", default="off")
    ap.add_argument("--fanout", default="off")
    ap.add_argument("--hierarchy", default="flat")
    ap.add_argument("--netlist", default="", help="the netlist STA read: names the path's flops")
    args = ap.parse_args()

    params = rtl_defaults(args.rtl)
    for item in args.params.split():
        key, value = item.split("=", 1)
        params[key] = int(value)

    stat = open(args.stat).read()
    # With --hierarchy keep the top's own cells come first; the design total is "top module".
    area = (re.search(r"Chip area for top module '\\?%s':\s*([0-9.]+)" % re.escape(args.top), stat)
            or re.search(r"Chip area for module '\\?%s':\s*([0-9.]+)" % re.escape(args.top), stat))
    cells = re.findall(r"Number of cells:\s*(\d+)", stat)
    if not area or not cells:
        sys.exit("report.py: no area / cell count in " + args.stat)
    types = {m.group(1): int(m.group(2))
             for m in re.finditer(r"^\s+(\w+)\s+(\d+)\s*$", stat, re.M)}
    flops = sum(types.get(c, 0) for c in FLOP_CELLS)
    latches = types.get("LATCH", 0)
    unmapped = sum(v for k, v in types.items() if k.startswith("$"))

    slack_ns, critical_ns, startpoint, endpoint, io_ends = parse_sta(
        open(args.sta).read(), args.clock_ns, args.io_fraction, args.sta)
    sta_log = open(args.sta).read()
    paths = parse_paths(split_hold(sta_log)[0], args.clock_ns, args.io_fraction)
    slack_group = min(paths, key=lambda p: p["slack_ns"])["group"]
    period_group = max(paths, key=lambda p: p["critical_path_ns"])["group"]
    # Modules mapped one by one and unbuffered: paths across module ports are timed without the
    # logic ABC would merge there, so the figure is not the design's (its area is).
    timing_valid = args.hierarchy == "flat"

    registers = flop_registers(open(args.netlist).read()) if args.netlist else {}
    ff_area = flop_area(args.liberty)
    bits = entry_bits(params)
    result = {
        "config": args.name,
        "library": "OSU 0.18um (osu018_stdcells.lib)",
        "estimate_note": "0.18 um estimates: Yosys+ABC mapping, OpenSTA with clock "
                         "uncertainty, I/O delays, driving cell, output load and a fanout "
                         "wire-load model; no placement or routing",
        "top": args.top,
        "sta": {"uncertainty_ns": args.uncertainty_ns, "io_fraction": args.io_fraction,
                "driving_cell": args.driving_cell, "output_load_pf": args.load_pf,
                "wire_load": "mt_osu018_est (scripts/synth/mt_wireload.lib)"
                             if args.wire_load == "on" else "none",
                "fanout_buffering": "qflow blifFanout" if args.fanout == "on" else "none",
                "hierarchy": args.hierarchy},
        "parameters": params,
        "entry_bits": bits,
        "table_bits": bits * params["Depth"],
        "area_um2": float(area.group(1)),
        "area_mm2": float(area.group(1)) / 1e6,
        "cells": int(cells[-1]),
        "flops": flops,
        "latches": latches,
        "unmapped_cells": unmapped,
        "clock_ns": args.clock_ns,
        "timing_valid": timing_valid,
        "slack_ns": slack_ns,
        "slack_group": slack_group,
        "critical_path_ns": round(critical_ns, 3),
        "critical_path_group": period_group,
        "critical_path_io_ends": io_ends,
        "fmax_mhz": round(1000.0 / critical_ns, 1) if critical_ns > 0 and timing_valid else None,
        "critical_path_from": startpoint,
        "critical_path_to": endpoint,
        "critical_path_from_named": named(startpoint, registers),
        "critical_path_to_named": named(endpoint, registers),
        "path_groups": {p["group"]: {"critical_path_ns": p["critical_path_ns"], "from": p["from"],
                                     "to": p["to"], "from_named": named(p["from"], registers),
                                     "to_named": named(p["to"], registers)}
                        for p in paths},
        "flop_area_um2": ff_area,
        # Hold: the shortest path into a register against its hold time + the uncertainty, with
        # an ideal clock (no clock tree): a negative slack asks for hold buffers in layout.
        "hold": parse_hold(sta_log, registers),
        # The asynchronous reset's release (recovery: before the clock edge, removal: after it),
        # null when the reset is a static input (untimed) or the design has none.
        "reset": reset_checks(paths, sta_log, registers),
        # Where the time goes: the slowest blocks by the period their worst endpoint needs.
        "slowest_blocks": slowest_blocks(sta_log, registers, args.clock_ns, args.io_fraction),
    }
    with open(args.json, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")

    lines = [
        "%s synthesis report: %s" % (args.top, args.name),
        "  ** 0.18 um ESTIMATES (OSU018 standard cells, Yosys 0.23 + ABC, OpenSTA with a wire-load "
        "model, no place and route) **",
        "  parameters: " + ", ".join("%s=%d" % kv for kv in sorted(params.items())),
        "  entry: %d bits, table: %d bits in flops" % (bits, bits * params["Depth"]),
        "  area: %.0f um2 (%.3f mm2), %d cells, %d flops, %d latches, %d unmapped cells"
        % (result["area_um2"], result["area_mm2"], result["cells"], flops, latches, unmapped),
        ("  timing: clock %.3f ns, worst slack %.3f ns (a %s path); minimum period %.3f ns (the "
         "%s path's delay + setup + uncertainty%s) -> fmax %.1f MHz"
         % (args.clock_ns, slack_ns, slack_group, critical_ns, period_group,
            ", its I/O delays scaled with the period" if io_ends else "", result["fmax_mhz"]))
        if timing_valid else
        "  timing: NOT VALID with --hierarchy keep (modules mapped one by one, unbuffered: paths "
        "across module ports are mis-timed); take fmax from a flat run (the area above holds)",
        "  STA: uncertainty %.3f ns, I/O delays %.0f%% of the period, inputs driven by %s, "
        "outputs %.3f pF, wire load %s, fanout buffering %s, hierarchy %s"
        % (args.uncertainty_ns, 100 * args.io_fraction, args.driving_cell, args.load_pf,
           args.wire_load, args.fanout, args.hierarchy),
        "  critical path: %s -> %s" % (result["critical_path_from_named"],
                                        result["critical_path_to_named"]),
        "  per path group (minimum period each needs): " + ", ".join(
            "%s %.3f ns" % (g, v["critical_path_ns"]) for g, v in sorted(result["path_groups"].items())),
    ] + ["    %s: %s -> %s" % (g, v["from_named"].split(" (")[0], v["to_named"].split(" (")[0])
         for g, v in sorted(result["path_groups"].items())]
    hold = result["hold"]
    if hold:
        lines.append("  hold (ideal clock, uncertainty %.3f ns): worst slack %.3f ns (%s), %s -> %s%s"
                     % (args.uncertainty_ns, hold["slack_ns"], hold["group"],
                        hold["from_named"].split(" (")[0], hold["to_named"].split(" (")[0],
                        "" if hold["slack_ns"] >= 0 else ": VIOLATED, hold buffers needed"))
    reset = result["reset"]
    if reset:
        lines.append("  reset release (rst_ni as a synchronizer's output): recovery slack %s ns, "
                     "removal slack %s ns"
                     % (reset["recovery_slack_ns"], reset["removal_slack_ns"]))
    lines += slowest_blocks_text(result["slowest_blocks"], args.clock_ns)
    with open(args.text, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
