#!/usr/bin/env python3
"""The tables of docs/beyond.md "Choosing the NIC mode": each schedule issued by a free host
(software issue, `host.preset: free`) under packet and under message flow control, and by the
co-designed NIC's scheduler (hardware issue, message flow control) with its ports requesting a
grant once they are free and `decision_latency_cycles` before (`nic.scheduler_early_request`,
the default), in cycles, with hardware issue's cycles over the free host's
under message flow control (issue 48's target: at most 1.00 in every row); then that ratio with
the early request for issue windows of WINDOWS entries (`nic.scheduler_window`); then the
hardware issue from step-ordered tables against tables planned in the order a free host issues
the schedule (`nic.scheduler_table_order: planned`; not on the paper torus, whose step barrier
issues steps in order); then tree_packing on the 8x8 mesh at 16 and 64 MiB as a fraction of the
bandwidth bound (issue 48's target: at least 0.98 with hardware issue); then tree_packing's
hardware issue from step and planned tables over the free host on five networks, with the
arrival counters each table needs and what it needs beyond mtsim's nic_sched build (the
signed-off rtl/params/cosim.params; the runs' `table_misfit`). The first two tables' hardware
issue is from step-ordered tables (`scheduler_table_order: step`); the last three add the
default, `auto` (both simulated, the faster kept, a planned table only where it fits the build
in every parameter).

  nic_mode_table.py [--mtsim build/bin/mtsim] [--out DIR] [--jobs 2] [--set KEY=VALUE]...

--set is applied to every run. Runs (or reuses in --out) one `mtsim run` per row group and
prints the five Markdown tables (about 7 minutes on two cores on 2026-12-06, most of it the
8x8 mesh). Exit status: 0 done, 2 bad input or a failed run. Standard library only.
"""

import argparse
import os
import sys

import study_options

BEYOND_TORUS = "scenarios/beyond/torus4x4.yaml"
BEYOND_MESH = "scenarios/beyond/mesh4x4.yaml"
PAPER_TORUS = "scenarios/paper/torus4x4.yaml"
BEYOND_MESH8 = "scenarios/beyond/mesh8x8.yaml"
# tree_packing with a planned table across networks (the fifth table).
NETWORKS = [("torus 8x8", "scenarios/beyond/torus8x8.yaml"),
            ("torus 4x4x4", "scenarios/beyond/torus4x4x4.yaml"),
            ("torus 4x4", BEYOND_TORUS), ("mesh 8x8", BEYOND_MESH8), ("mesh 4x4", BEYOND_MESH)]
NETWORK_SIZES = ["64KiB", "512KiB", "4MiB"]

# (network, scenario, algorithm entry without label, its name in the table, sizes)
ROWS = [
    ("torus 4x4", BEYOND_TORUS, "name: multitree_opt, params: {pipeline: 4}",
     "multitree_opt(pipeline=4)", ["32KiB"]),
    ("torus 4x4", BEYOND_TORUS, "name: disjoint_rings, params: {pipeline: 4}",
     "disjoint_rings(pipeline=4)", ["256KiB"]),
    ("torus 4x4", BEYOND_TORUS, "name: disjoint_rings, params: {pipeline: 2}",
     "disjoint_rings(pipeline=2)", ["1MiB", "16MiB"]),
    ("torus 4x4", BEYOND_TORUS, "name: multitree", "multitree", ["32KiB", "256KiB", "16MiB"]),
    ("mesh 4x4", BEYOND_MESH, "name: tree_packing", "tree_packing", ["256KiB", "1MiB"]),
    ("paper torus 4x4", PAPER_TORUS, "name: multitree", "multitree (4 ports)",
     ["32KiB", "256KiB", "1MiB"]),
]

# Column label -> NIC overrides.
# Hardware issue from step-ordered tables (the default, auto, would take a planned one where it
# is faster: the third and fifth tables set the two side by side).
HW_ISSUE = "issue: hardware, flow_control: message"
HW = f"{HW_ISSUE}, scheduler_table_order: step"
MODES = [
    ("sw-packet", "{issue: software, flow_control: packet}"),
    ("sw-message", "{issue: software, flow_control: message}"),
    ("hw-message", f"{{{HW}, scheduler_early_request: false}}"),
    ("hw-early", f"{{{HW}, scheduler_early_request: true}}"),
]
# The windows of the second table (the first has the default, 4).
WINDOWS = [4, 8, 16]
MODES += [(f"hw-early-w{w}", f"{{{HW}, scheduler_early_request: true, scheduler_window: {w}}}")
          for w in WINDOWS if w != 4]
# Tables in the order a free host issues the schedule (nic.scheduler_table_order: planned): not
# with the paper NIC's step barrier, which issues steps in order.
PLANNED = ("hw-planned",
           f"{{{HW_ISSUE}, scheduler_early_request: true, scheduler_table_order: planned}}")
# The default, auto: both tables simulated, the faster kept (a planned one only where it fits
# the nic_sched build, rtl/params/cosim.params, in every parameter).
AUTO = ("hw-auto", f"{{{HW_ISSUE}, scheduler_early_request: true, scheduler_table_order: auto}}")


def modes_for(scenario):
    """The NIC modes a row's scenario runs."""
    return MODES + ([] if scenario == PAPER_TORUS else [PLANNED, AUTO])


def modes_named(*labels):
    """The NIC modes of these labels, in MODES order, then the planned table's."""
    return [m for m in MODES if m[0] in labels] + [PLANNED]

SIZE_BYTES = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def size_bytes(size):
    return int(size[:-3]) * SIZE_BYTES[size[-3:]]


def row_runs(args, out, index, row):
    network, scenario, entry, name, sizes = row
    entries = ", ".join(f"{{{entry}, label: {label}, nic: {nic}}}"
                        for label, nic in modes_for(scenario))
    sets = [f"collective.algorithms=[{entries}]", f"collective.sizes=[{','.join(sizes)}]",
            "host.preset=free"] + args.set
    path = os.path.join(out, f"row{index}.json")
    return study_options.verified_runs(args.mtsim, scenario, path, args.jobs, sets)


def bound_table(args, out):
    """Markdown lines: tree_packing on the 8x8 mesh, efficiency per NIC mode."""
    modes = modes_named("sw-message", "hw-message", "hw-early")
    entries = ", ".join(f"{{name: tree_packing, label: {label}, nic: {nic}}}"
                        for label, nic in modes)
    sizes = ["16MiB", "64MiB"]
    sets = [f"collective.algorithms=[{entries}]", f"collective.sizes=[{','.join(sizes)}]",
            "host.preset=free"] + args.set
    runs = study_options.verified_runs(args.mtsim, BEYOND_MESH8, os.path.join(out, "mesh8x8.json"),
                                       args.jobs, sets)
    lines = ["| network | schedule | size | software issue, message FC | hardware issue, message FC "
             "| hardware, early request | hardware, planned table |",
             "|---|---|---|---:|---:|---:|---:|"]
    for size in sizes:
        cells = [f"{runs[(size_bytes(size), label)]['efficiency']:.3f}" for label, _ in modes]
        lines.append(f"| mesh 8x8 | tree_packing | {size[:-3]} {size[-3:]} | " +
                     " | ".join(cells) + " |")
    return lines


def networks_table(args, out):
    """Markdown lines: tree_packing's hardware issue from step and planned tables over the free
    host's cycles, per network and size."""
    modes = modes_named("sw-message", "hw-early") + [AUTO]
    entries = ", ".join(f"{{name: tree_packing, label: {label}, nic: {nic}}}"
                        for label, nic in modes)
    lines = ["| network | size | free host, message FC | step table / free host "
             "| planned table / free host | counters, step table | counters, planned table "
             "| default (auto) / free host |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for index, (network, scenario) in enumerate(NETWORKS):
        sets = [f"collective.algorithms=[{entries}]",
                f"collective.sizes=[{','.join(NETWORK_SIZES)}]", "host.preset=free"] + args.set
        runs = study_options.verified_runs(args.mtsim, scenario,
                                           os.path.join(out, f"network{index}.json"), args.jobs,
                                           sets)
        for size in NETWORK_SIZES:
            cycles = {label: runs[(size_bytes(size), label)]["completion_cycles"]
                      for label, _ in modes}
            # Counters, and what of the nic_sched build (rtl/params/cosim.params) a table lacks.
            cells = [f"{r['table_counters']}" + (f" ({r['table_misfit']})" if r["table_misfit"]
                                                  else "")
                     for r in (runs[(size_bytes(size), label)]
                               for label in ("hw-early", "hw-planned"))]
            free = cycles["sw-message"]
            lines.append(f"| {network} | {size[:-3]} {size[-3:]} | {free} | "
                         f"{cycles['hw-early'] / free:.3f} | {cycles['hw-planned'] / free:.3f} | "
                         + " | ".join(cells) + f" | {cycles['hw-auto'] / free:.3f} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    study_options.add_run_options(parser)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a scenario override for every run")
    args = parser.parse_args()
    out = study_options.results_folder(args, "nic_mode_table.py")
    if out is None:
        return 2
    cycles_table = [
        "| network | schedule | size | software issue, packet FC | software issue, message FC "
        "| hardware issue, message FC | hardware, early request | hardware / software "
        "| early request / software |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    planned_table = ["| network | schedule | size | free host, message FC | hardware, step table "
                     "| hardware, planned table | step / free host | planned / free host "
                     "| default (auto) / free host |",
                     "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    window_table = ["| network | schedule | size | " +
                    " | ".join(f"window {w}" for w in WINDOWS) + " |",
                    "|---|---|---|" + "---:|" * len(WINDOWS)]
    try:
        for index, row in enumerate(ROWS):
            runs = row_runs(args, out, index, row)
            network, _, _, name, sizes = row
            for size in sizes:
                cycles = {label: runs[(size_bytes(size), label)]["completion_cycles"]
                          for label, _ in modes_for(row[1])}
                shown = [cycles[label] for label in
                         ("sw-packet", "sw-message", "hw-message", "hw-early")]
                cells = [f"**{c}**" if c == min(shown) else str(c) for c in shown]
                free = cycles["sw-message"]
                where = f"| {network} | {name} | {size[:-3]} {size[-3:]} | "
                cycles_table.append(where + " | ".join(cells) +
                                    f" | {cycles['hw-message'] / free:.3f}"
                                    f" | {cycles['hw-early'] / free:.3f} |")
                ratios = [cycles["hw-early" if w == 4 else f"hw-early-w{w}"] / free
                          for w in WINDOWS]
                window_table.append(where + " | ".join(f"{r:.3f}" for r in ratios) + " |")
                if "hw-planned" in cycles:
                    step, planned = cycles["hw-early"], cycles["hw-planned"]
                    planned_table.append(where + f"{free} | {step} | {planned} | "
                                         f"{step / free:.3f} | {planned / free:.3f} | "
                                         f"{cycles['hw-auto'] / free:.3f} |")
        bounds = bound_table(args, out)
        networks = networks_table(args, out)
    except (RuntimeError, KeyError) as error:
        print(f"nic_mode_table.py: {error}", file=sys.stderr)
        return 2
    print("\n".join(cycles_table))
    print()
    print("\n".join(window_table))
    print()
    print("\n".join(planned_table))
    print()
    print("\n".join(bounds))
    print()
    print("\n".join(networks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
