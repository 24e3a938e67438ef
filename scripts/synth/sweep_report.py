#!/usr/bin/env python3
"""Markdown table and plot of a nic_sched synthesis sweep (scripts/synth_sweep.sh).

  sweep_report.py --docs DIR RESULT.json...

Writes DIR/README.md (table + reference point) and DIR/nic_sched_area_fmax.png/.svg (matplotlib,
Agg). The reference point: one router input port's buffers, 4 VCs x 318 flits x 16 B, two ways:
as DFFPOSX1 flops of the same OSU 0.18 um library (the flop area alone: no read mux), and as
SRAM (a 0.18 um 6T bit cell of SRAM_BITCELL_UM2 at SRAM_ARRAY_EFFICIENCY of the macro area)."""

import argparse
import json
import os
import sys

REF_VCS, REF_FLITS, REF_FLIT_BYTES = 4, 318, 16
# Typical 0.18 um foundry 6T SRAM bit cell, and the share of a macro's area that is bit cells
# (decoders, sense amplifiers, I/O take the rest). Assumptions, not a vendor's datasheet.
SRAM_BITCELL_UM2, SRAM_ARRAY_EFFICIENCY = 4.65, 0.6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", required=True)
    ap.add_argument("results", nargs="+")
    args = ap.parse_args()
    rows = [json.load(open(p)) for p in args.results]
    rows.sort(key=lambda r: (r["parameters"]["Nodes"], r["parameters"]["Depth"]))
    flop_um2 = rows[0]["flop_area_um2"]
    ref_bits = REF_VCS * REF_FLITS * REF_FLIT_BYTES * 8
    ref_um2 = ref_bits * flop_um2
    sram_um2 = ref_bits * SRAM_BITCELL_UM2 / SRAM_ARRAY_EFFICIENCY

    lines = [
        "# NIC scheduler area and timing (0.18 um estimates)",
        "",
        "**These are estimates in the OSU 0.18 um standard-cell library** (Yosys 0.23 synthesis "
        "with ABC delay mapping, buffering and sizing; OpenSTA with clock uncertainty, I/O "
        "delays as a fraction of the period, a driving cell, an output load and a fanout "
        "wire-load model, scripts/synth.sh --help; no placement or routing, scripts/pnr.sh for "
        "that; the schedule table is built from flops). They compare configurations; they are "
        "not sign-off figures.",
        "",
        "Reference point: one router input port's buffers, %d VCs x %d flits x %d B = %d bits, "
        "as %s-um2 DFFPOSX1 flops of the same library = **%.2f mm2** (flop area only, no read "
        "mux), or as SRAM = **%.2f mm2** (%.2f-um2 6T bit cells at %.0f%% array efficiency; "
        "a 2D-torus router has 5 such ports)." % (
            REF_VCS, REF_FLITS, REF_FLIT_BYTES, ref_bits, int(flop_um2), ref_um2 / 1e6,
            sram_um2 / 1e6, SRAM_BITCELL_UM2, 100 * SRAM_ARRAY_EFFICIENCY),
        "",
        "Parameters per point: Ports=4, Chunks=Flows=Nodes, Steps=2 x Nodes, "
        "Counters=min(Nodes+1, Depth), MaxCount=15, ArrivalLanes=4, DecisionLatency=1. "
        "Regenerate: `scripts/synth_sweep.sh`.",
        "",
        "| nodes | depth | entry bits | flops | cells | area (mm2) | table flops share | "
        "critical path (ns) | fmax (MHz) | area / router buffers (flops) | "
        "area / router buffers (SRAM) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        p = r["parameters"]
        table_share = r["table_bits"] * flop_um2 / r["area_um2"]
        lines.append("| %d | %d | %d | %d | %d | %.3f | %.0f%% | %.2f | %.0f | %.3f | %.2f |" % (
            p["Nodes"], p["Depth"], r["entry_bits"], r["flops"], r["cells"], r["area_mm2"],
            100 * table_share, r["critical_path_ns"], r["fmax_mhz"], r["area_um2"] / ref_um2,
            r["area_um2"] / sram_um2))
    lines += ["", "![area and fmax](nic_sched_area_fmax.png)", ""]
    os.makedirs(args.docs, exist_ok=True)
    with open(os.path.join(args.docs, "README.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("sweep_report: matplotlib missing, no plot (scripts/setup.sh)", file=sys.stderr)
        return
    fig, (ax_area, ax_fmax) = plt.subplots(1, 2, figsize=(10, 4))
    for n in sorted({r["parameters"]["Nodes"] for r in rows}):
        pts = [r for r in rows if r["parameters"]["Nodes"] == n]
        depth = [r["parameters"]["Depth"] for r in pts]
        ax_area.plot(depth, [r["area_mm2"] for r in pts], "o-", label="%d nodes" % n)
        ax_fmax.plot(depth, [r["fmax_mhz"] for r in pts], "o-", label="%d nodes" % n)
    ax_area.axhline(ref_um2 / 1e6, color="gray", ls="--", label="router input buffers (flops)")
    ax_area.axhline(sram_um2 / 1e6, color="gray", ls=":", label="router input buffers (SRAM)")
    for ax in (ax_area, ax_fmax):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("table depth (entries)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    ax_area.set_ylabel("area (mm2)")
    ax_area.set_yscale("log")
    ax_fmax.set_ylabel("fmax (MHz)")
    fig.suptitle("nic_sched, OSU 0.18 um estimates (Yosys + OpenSTA)")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(args.docs, "nic_sched_area_fmax." + ext), dpi=120)


if __name__ == "__main__":
    main()
