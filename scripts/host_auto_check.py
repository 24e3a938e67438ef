#!/usr/bin/env python3
"""Does `auto` pick as well as the best choice, on the host study's grid? (issue 46, docs/host.md)

  host_auto_check.py [--mtsim build/bin/mtsim] [--out DIR] [--jobs 2] [--tolerance 0.02]

For every host preset, network and size of scripts/host_breakeven.py (MultiTree, tree_packing,
disjoint_rings, ring; 32 KiB, 1 MiB, 16 MiB; 4x4 and 8x8 tori, 4x4 mesh; message flow
control), runs the `auto` algorithm with `nic.issue: auto` and compares its cycles with the
best of the study's combinations (each algorithm under hardware issue and under software issue
by that host). Prints one row per point and the worst ratio; a point where auto takes more than
(1 + tolerance) x the best fails. Results JSON are kept in --out and reused (share it with
host_breakeven.py and host_verdict.py). Exit status: 0 every point within the tolerance, 1 some
point is not, 2 bad input or a failed run. Standard library only.
"""

import argparse
import os
import sys
import tempfile

import host_breakeven as study
import host_verdict as verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mtsim", default=os.path.join(study.ROOT, "build/bin/mtsim"))
    parser.add_argument("--out", help="results JSON folder (default: a scratch folder)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tolerance", type=float, default=0.02)
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="host_auto_")
    os.makedirs(out, exist_ok=True)
    networks, sizes = list(study.NETWORKS), study.SIZES
    rows, worst, failed = [], 0.0, 0
    try:
        for net, name, sets in study.runs(networks, sizes):
            if name.endswith("_hw") or name.endswith("_message0") or \
                    any(name.endswith("_" + p) for p in study.PRESETS):
                study.simulate(args.mtsim, out, args.jobs, net, name, sets)
        for net in networks:
            hw = verdict.load(out, f"{net}_hw")
            for preset in verdict.PRESET_ORDER:
                sets = ["nic.flow_control=message", "collective.algorithms=[auto]",
                        f"collective.sizes=[{','.join(sizes)}]", "nic.issue=auto",
                        f"host.preset={preset}"]
                study.simulate(args.mtsim, out, args.jobs, net, f"{net}_auto_{preset}", sets)
                chosen = verdict.load(out, f"{net}_auto_{preset}")
                sw = verdict.load(out, f"{net}_{verdict.HOST_NAME.get(preset, preset)}")
                for size in sizes:
                    b = study.SIZE_BYTES[size]
                    h, s, a = verdict.fastest(hw, b), verdict.fastest(sw, b), chosen[(b, "auto")]
                    best, mode = min((h["completion_cycles"], f"{h['algorithm']} hardware"),
                                     (s["completion_cycles"], f"{s['algorithm']} software"))
                    ratio = a["completion_cycles"] / best
                    worst = max(worst, ratio)
                    ok = ratio <= 1 + args.tolerance
                    failed += not ok
                    rows.append(f"| {preset} | {net} | {size} | {a['completion_cycles']} | "
                                f"{a['schedule'].removeprefix('auto:')} {a['nic_issue']} | "
                                f"{best} | {mode} | {ratio:.3f} | {'ok' if ok else 'OVER'} |")
    except (RuntimeError, KeyError, ValueError, OSError) as e:
        print(f"host_auto_check.py: {e}", file=sys.stderr)
        return 2
    print("| host | network | size | auto (cycles) | auto chose | best (cycles) | best is | "
          "auto / best | within |")
    print("|---|---|---|---:|---|---:|---|---:|---|")
    print("\n".join(rows))
    print(f"\n{len(rows) - failed} of {len(rows)} points within {args.tolerance:.0%} of the best; "
          f"worst auto / best = {worst:.3f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
