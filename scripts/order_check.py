#!/usr/bin/env python3
"""Order independence (issue 49): runs a fixed set of scenarios with the System's components
created in several orders (the scenario key `elaboration_order`: forward, reverse, shuffle:SEED;
reverse and odd seeds create the NICs before the routers) and requires identical results:
completion cycles, every node's finish cycle, every link's counts (bytes, utilisation) and every
other figure of a run but its wall time (packets, cross-flow waits, energy, host counts,
staging). The SystemC kernel runs the processes woken in one cycle in an order that follows their
creation; the hardware the model describes has no such order, so a result that moves with it is
a defect of the model (docs/timing_contract.md states the rules that keep it out). A further
"order", `every_cycle`, runs every router and NIC in every cycle while it has work: the
reference that the event-driven wake-ups must match exactly.

  order_check.py [--mtsim build/bin/mtsim] [--orders reverse,shuffle:1,shuffle:2,every_cycle]
                 [--quick] [--case NAME]... [--out DIR] [--jobs 2]

The set covers every topology family (torus, mesh, fat-tree, BiGraph, switch, ring, 3D torus),
both flow controls, both issue modes and the co-simulated RTL scheduler; --quick keeps one size
per case. Prints one line per run that differs (case, algorithm, size, what differs) and a
summary. Exit 0 every run identical in every order, 1 some differ, 2 bad input or a failed run.
Standard library only."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = "nic.issue=hardware"

# name -> (scenario, --set overrides, sizes, quick sizes)
CASES = {
    "paper-torus4x4": ("scenarios/paper/torus4x4.yaml", [], "32KiB,1MiB", "32KiB"),
    "paper-torus4x4-per-port": ("scenarios/paper/torus4x4.yaml",
                                ["nic.scheduler_any_port_grants=per_port"], "32KiB,1MiB",
                                "32KiB"),
    "paper-mesh4x4": ("scenarios/paper/mesh4x4.yaml", [], "32KiB,1MiB", "32KiB"),
    "fattree8": ("scenarios/ideal/fattree8.yaml", [], "32KiB", "32KiB"),
    "bigraph4x8": ("scenarios/ideal/bigraph4x8.yaml", [], "32KiB", "32KiB"),
    "default-hw-message": ("scenarios/default.yaml", [HW, "nic.flow_control=message"],
                           "64KiB,1MiB", "64KiB"),
    "default-hw-packet": ("scenarios/default.yaml", [HW, "nic.flow_control=packet"],
                          "64KiB", "64KiB"),
    "default-sw-cpu": ("scenarios/default.yaml", ["nic.issue=software", "host.preset=cpu_proxy"],
                       "64KiB", "64KiB"),
    "switch16": ("scenarios/default.yaml", ["topology=switch:nodes=16",
                                            "collective.algorithms=[ring,multitree_opt,dbtree]"],
                 "64KiB", "64KiB"),
    "ring8": ("scenarios/default.yaml", ["topology=ring:8", "collective.algorithms=[ring,dbtree]"],
              "64KiB", "64KiB"),
    "torus4x4x4": ("scenarios/beyond/torus4x4x4.yaml", [], "256KiB", "256KiB"),
    "planned-tables": ("scenarios/beyond/mesh4x4.yaml",
                       [HW, "nic.flow_control=message", "nic.scheduler_table_order=planned",
                        "collective.algorithms=[tree_packing,disjoint_rings]"],
                       "256KiB", "256KiB"),
    "cosim-rtl": ("scenarios/default.yaml", [HW, "nic.scheduler=rtl",
                                             "collective.algorithms=[multitree,ring]"],
                  "64KiB", "64KiB"),
}


def run(mtsim, case, order, sizes, out, jobs):
    scenario, sets, _, _ = CASES[case]
    path = os.path.join(out, "%s.%s.json" % (case, order.replace(":", "_")))
    cmd = [mtsim, "run", os.path.join(ROOT, scenario), "-j", str(jobs), "--json", path,
           "--set", "collective.sizes=[%s]" % sizes, "--set", "elaboration_order=" + order]
    for s in sets:
        cmd += ["--set", s]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0 or not os.path.exists(path):
        sys.stderr.write("order_check: %s failed (exit %d):\n%s%s"
                         % (" ".join(cmd), proc.returncode, proc.stdout[-2000:], proc.stderr))
        sys.exit(2)
    return json.load(open(path))["runs"]


def differences(base, other):
    """What differs between two results of one run."""
    what = []
    if base["completion_cycles"] != other["completion_cycles"]:
        what.append("completion %d -> %d cycles"
                    % (base["completion_cycles"], other["completion_cycles"]))
    if base["node_finish_cycles"] != other["node_finish_cycles"]:
        moved = sum(1 for a, b in zip(base["node_finish_cycles"], other["node_finish_cycles"])
                    if a != b)
        what.append("%d node finish cycles" % moved)
    if base["links"] != other["links"]:
        moved = sum(1 for a, b in zip(base["links"], other["links"]) if a != b)
        what.append("%d links' counts" % moved)
    # Everything else a run reports but its wall time (energy, host counts, waits, staging, ...).
    rest = sorted(k for k in base if k not in ("completion_cycles", "node_finish_cycles", "links",
                                               "wall_seconds", "completion_ns", "efficiency")
                  and base[k] != other.get(k))
    if rest:
        what.append("also " + ", ".join(rest))
    return what


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mtsim", default=os.path.join(ROOT, "build", "bin", "mtsim"))
    parser.add_argument("--orders", default="reverse,shuffle:1,shuffle:2,every_cycle",
                        help="orders compared with forward (comma-separated)")
    parser.add_argument("--quick", action="store_true", help="one size per case")
    parser.add_argument("--case", action="append", help="only these cases (repeatable)")
    parser.add_argument("--out", help="keep the results JSON here (default: a scratch folder)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not os.access(args.mtsim, os.X_OK):
        sys.exit("order_check: no mtsim at %s (build it, or give --mtsim)" % args.mtsim)
    cases = args.case or list(CASES)
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        print("order_check: unknown case %s (known: %s)" % (", ".join(unknown), ", ".join(CASES)),
              file=sys.stderr)
        return 2
    orders = [o for o in args.orders.split(",") if o]
    out = args.out or tempfile.mkdtemp(prefix="order_check.")
    os.makedirs(out, exist_ok=True)
    runs = differing = 0
    for case in cases:
        sizes = CASES[case][3 if args.quick else 2]
        base = run(args.mtsim, case, "forward", sizes, out, args.jobs)
        for order in orders:
            other = run(args.mtsim, case, order, sizes, out, args.jobs)
            for a, b in zip(base, other):
                runs += 1
                what = differences(a, b)
                if what:
                    differing += 1
                    print("%-20s %-12s %-28s %8d B: %s" % (case, order, a["algorithm"], a["bytes"],
                                                          ", ".join(what)))
    print("order_check: %d runs in %d orders besides forward, %d differ from forward"
          % (runs, len(orders), differing))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
