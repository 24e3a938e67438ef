#!/usr/bin/env python3
"""The table of docs/beyond.md "The co-designed NIC on the bandwidth-optimal schedules": the best
schedule of each network (`scenarios/beyond/`) on the co-designed NIC (hardware issue, message flow
control, an issue window of 64 and a 2-packet transmit queue) at 16 and 64 MiB, in cycles with
the efficiency (bandwidth bound / cycles); the same without the transmit queue; and the same
schedule with packet flow control at 16 MiB (the 256/272 head cap; not for the last two rows:
tree_packing with a pipeline window of 512 on the 8x8 mesh, and disjoint_rings with one
sub-chunk per ring position on the 8x8 torus, whose tables fit the signed-off build); and what of
the nic_sched build mtsim was configured with (the signed-off rtl/params/cosim.params) the tables of the first two
columns need more of (their `table_misfit`: build < need), or "fit".

  ceiling_table.py [--mtsim build/bin/mtsim] [--out DIR] [--jobs 2]

Runs (or reuses in --out) one `mtsim run` per network and prints the Markdown table (about 15
minutes on two cores, most of it the 8x8 mesh at 64 MiB). Exit status: 0 done, 2 bad input or a
failed run. Standard library only.
"""

import argparse
import sys

import study_options

HW = "issue: hardware, flow_control: message, scheduler_window: 64"
# (network, scenario file, schedule entry, its name in the table, with a packet-flow-control run)
ROWS = [
    ("torus 4x4", "torus4x4", "name: disjoint_rings", "disjoint_rings", True),
    ("torus 8x8", "torus8x8", "name: disjoint_rings", "disjoint_rings", True),
    ("torus 4x4x4", "torus4x4x4", "name: disjoint_rings", "disjoint_rings", True),
    ("mesh 4x4", "mesh4x4", "name: tree_packing", "tree_packing", True),
    ("mesh 8x8", "mesh8x8", "name: tree_packing", "tree_packing", True),
    ("mesh 8x8", "mesh8x8", "name: tree_packing, params: {pipeline: 512}",
     "tree_packing, `pipeline: 512`", False),
    # Half the default pipeline: 256 chunks, so its tables fit the signed-off build's counters.
    ("torus 8x8", "torus8x8", "name: disjoint_rings, params: {pipeline: 1}",
     "disjoint_rings, `pipeline: 1`", False),
]
SIZES = {"16MiB": 16 << 20, "64MiB": 64 << 20}


def cell(run):
    return f"{run['completion_cycles']} ({run['efficiency']:.3f})"


def misfit_cell(runs):
    """What the tables of `runs` (16 and 64 MiB) lack of the build, once where both lack the
    same."""
    misfits = [r["table_misfit"] or "fit" for r in runs]
    return misfits[0] if misfits[0] == misfits[1] else " / ".join(misfits)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    study_options.add_run_options(parser)
    args = parser.parse_args()
    out = study_options.results_folder(args, "ceiling_table.py")
    if out is None:
        return 2
    lines = ["| network | schedule | 16 MiB cycles (eff) | 64 MiB cycles (eff) | without the "
             "transmit queue, 16 / 64 MiB (eff) | packet flow control, 16 MiB (eff) | "
             "fits the signed-off build? (build < need), 16 / 64 MiB |",
             "|---|---|---|---|---|---|---|"]
    try:
        for index, (network, scenario, entry, name, with_packet) in enumerate(ROWS):
            packet = f", {{{entry}, label: packet, nic: {{flow_control: packet}}}}" \
                if with_packet else ""
            entries = (f"{{{entry}, label: queue, nic: {{{HW}, tx_queue_packets: 2}}}}, "
                       f"{{{entry}, label: plain, nic: {{{HW}, tx_queue_packets: 0}}}}{packet}")
            runs = study_options.verified_runs(
                args.mtsim, f"scenarios/beyond/{scenario}.yaml", f"{out}/row{index}.json",
                args.jobs, [f"collective.algorithms=[{entries}]",
                            "collective.sizes=[16MiB,64MiB]"])
            queue_runs = [runs[(SIZES[s], "queue")] for s in ("16MiB", "64MiB")]
            queue = [cell(r) for r in queue_runs]
            plain = [runs[(SIZES[s], "plain")] for s in ("16MiB", "64MiB")]
            without = (f"{plain[0]['completion_cycles']} / {plain[1]['completion_cycles']} "
                       f"({plain[0]['efficiency']:.3f} / {plain[1]['efficiency']:.3f})")
            packet_cell = cell(runs[(SIZES["16MiB"], "packet")]) if packet else ""
            lines.append(f"| {network} | {name} | {queue[0]} | {queue[1]} | {without} | "
                         f"{packet_cell} | {misfit_cell(queue_runs)} |")
    except (RuntimeError, KeyError) as error:
        print(f"ceiling_table.py: {error}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
