#!/usr/bin/env python3
"""Our cycles next to the authors' simulator (reference table kept in the repo), per row.

  fidelity.py [--reference docs/fidelity/reference.csv]
              [--deterministic docs/fidelity/reference_deterministic.csv]
              [--topology torus4x4]... [--size 32KiB]...
              [--label ring-1port]...
              [--mtsim build/bin/mtsim] [--jobs 2] [--tolerance 0.10] [--scenario-dir scenarios/paper]
              [--set key=value]... [--json OUT.json] [--markdown] [--mechanisms [--markdown]]

For every topology of the reference table (or those given with --topology; rows filtered by
--size and --label) it runs
`mtsim run <scenario-dir>/<topology>.yaml` at the reference sizes (or those given with --size),
then prints one row per (topology, algorithm label, size): the reference's cycles
(`allreduce_total` of the authors' BookSim2-based simulator, 1 GHz), the reference made
deterministic where --deterministic has that row (its MultiTree runs vary from run to run with
Python's set order; docs/fidelity.md), ours (completion cycles of the same
clock), and the deviation (ours / reference - 1, and ours / deterministic - 1). A row is within
the tolerance when its deviation from the deterministic figure is, where there is one (the
published figure of a varying row is one draw), else from the reference's. 2D ring rows outside
are marked as the reference's artefact (its figure is not a 2D ring all-reduce: see
scripts/ring2d_artefact.py). Rows whose label the scenario does not run are reported as missing.
Exit status: 0 when every compared row is within the tolerance, 1 when one is not (or a row is
missing), 2 on bad input or a failed mtsim run.
`--set` passes scenario overrides to mtsim (e.g. to compare the idealised model). --markdown
prints the rows as a Markdown table (docs/fidelity.md).

--mechanisms: which of the paper-compatible keys makes each row differ from the idealised
model. Per row it prints the reference, ours (paper-compatible), ours with every key at its
idealised default, and per key the share of our paper-compatible cycles that key accounts for:
(ours - ours with that one key idealised) / ours (leave one out; the shares need not add up, the
keys interact). --markdown prints that table as Markdown. Exit status 0 (2 on bad input).
Standard library only.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def parse_size(text):
    for unit, factor in UNITS.items():
        if text.endswith(unit):
            return int(text[: -len(unit)]) * factor
    raise ValueError(f"size {text!r} needs a KiB, MiB or GiB unit")


def size_text(n):
    return f"{n >> 20}MiB" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n >> 10}KiB"


def size_words(n):
    """The size as the fidelity table in docs/fidelity.md writes it: "32 KiB"."""
    text = size_text(n)
    return text[:-3] + " " + text[-3:]


def read_rows(path):
    """(topology, label, bytes) -> cycles of a `topology,label,size,cycles` CSV ('#' comments)."""
    rows = {}
    with open(path, newline="") as f:
        for line, row in enumerate(csv.DictReader(row for row in f if not row.startswith("#")), 2):
            try:
                rows[(row["topology"], row["label"], parse_size(row["size"]))] = int(row["cycles"])
            except (KeyError, ValueError, TypeError) as e:
                sys.exit(f"{path}: row {line}: {e}")
    return rows


def load_reference(path, deterministic_path=None):
    """Reference rows, each with the deterministic reference's figure where it has one."""
    det = read_rows(deterministic_path) if deterministic_path and os.path.isfile(
        deterministic_path) else {}
    return [{"topology": t, "label": l, "bytes": b, "cycles": c, "deterministic": det.get((t, l, b))}
            for (t, l, b), c in read_rows(path).items()]


# The keys the paper-compatible files set and their idealised defaults (docs/fidelity.md).
MECHANISMS = [("nic.reduction", "packet"), ("nic.port_binding", "route"),
              ("nic.tx_queue_packets", "0"), ("nic.step_barrier", "false"),
              ("nic.receive_port", "any"), ("nic.receive_vcs", "1"), ("router.tie_break", "plus"),
              ("router.turn_reservation", "message")]


# Every idealisation keeps the paper NIC's step-ordered tables: without the step barrier the
# default table order (auto) would also try a planned table, a compile step of this model and
# not one of the paper's mechanisms (docs/beyond.md, Planned table order).
PAPER_TABLE_ORDER = ["nic.scheduler_table_order=step"]


# Labels whose reference figure is not the quantity the label names (docs/fidelity.md): the
# reference reports 2 x a run of four 1D rings for its 2D ring (scripts/ring2d_artefact.py).
ARTEFACT_LABELS = {"ring2d-4port"}


def run_mtsim(args, topology, sizes, extra_sets=()):
    scenario = os.path.join(args.scenario_dir, topology + ".yaml")
    if not os.path.isfile(scenario):
        print(f"fidelity.py: no scenario {scenario} for topology {topology}", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        cmd = [args.mtsim, "run", scenario, "-j", str(args.jobs), "--json", out,
               "--set", "collective.sizes=[" + ",".join(size_text(s) for s in sizes) + "]"]
        for override in list(args.set) + list(extra_sets):
            cmd += ["--set", override]
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0 or not os.path.exists(out):
            print(f"fidelity.py: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}",
                  file=sys.stderr)
            sys.exit(2)
        with open(out) as f:
            runs = json.load(f)["runs"]
    return {(r["algorithm"], r["bytes"]): r for r in runs}


def cycles_of(runs, row):
    run = runs.get((row["label"], row["bytes"]))
    return run["completion_cycles"] if run and not run.get("error") else None


def print_mechanisms(args, rows):
    keys = [k.split(".")[1] for k, _ in MECHANISMS]
    table = []
    for topology in dict.fromkeys(r["topology"] for r in rows):
        mine = [r for r in rows if r["topology"] == topology]
        sizes = sorted({r["bytes"] for r in mine})
        paper = run_mtsim(args, topology, sizes)
        ideal = run_mtsim(args, topology, sizes,
                          [f"{k}={v}" for k, v in MECHANISMS] + PAPER_TABLE_ORDER)
        without = [run_mtsim(args, topology, sizes, [f"{k}={v}"] + PAPER_TABLE_ORDER)
                   for k, v in MECHANISMS]
        for r in mine:
            ours = cycles_of(paper, r)
            shares = []
            for runs in without:
                other = cycles_of(runs, r)
                shares.append(None if ours is None or other is None else (ours - other) / ours)
            table.append((r, ours, cycles_of(ideal, r), shares))

    def pct(x):
        return "-" if x is None else f"{100 * x:+.0f}%"

    if args.markdown:
        print("| topology | algorithm | size | reference | ours | idealised | "
              + " | ".join(f"`{k}`" for k in keys) + " |")
        print("|---" * (6 + len(keys)) + "|")
        for r, ours, ideal, shares in table:
            print(f"| {r['topology']} | {r['label']} | {size_text(r['bytes'])} | {r['cycles']} | "
                  f"{ours if ours is not None else '-'} | {ideal if ideal is not None else '-'} | "
                  + " | ".join(pct(x) for x in shares) + " |")
    else:
        print(f"{'topology':<10} {'algorithm':<20} {'size':>7} {'reference':>10} {'ours':>8} "
              f"{'ideal':>8} " + " ".join(f"{k[:11]:>11}" for k in keys))
        for r, ours, ideal, shares in table:
            print(f"{r['topology']:<10} {r['label']:<20} {size_text(r['bytes']):>7} "
                  f"{r['cycles']:>10} {ours if ours is not None else '-':>8} "
                  f"{ideal if ideal is not None else '-':>8} "
                  + " ".join(f"{pct(x):>11}" for x in shares))
    print("  ours = paper-compatible, ideal = every key below at its idealised default; per key:"
          " (ours - ours with that key idealised) / ours")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default=os.path.join(ROOT, "docs/fidelity/reference.csv"))
    parser.add_argument("--deterministic",
                        default=os.path.join(ROOT, "docs/fidelity/reference_deterministic.csv"))
    parser.add_argument("--scenario-dir", default=os.path.join(ROOT, "scenarios/paper"))
    parser.add_argument("--mtsim", default=os.path.join(ROOT, "build/bin/mtsim"))
    parser.add_argument("--topology", action="append", default=[])
    parser.add_argument("--size", action="append", default=[])
    parser.add_argument("--label", action="append", default=[])
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tolerance", type=float, default=0.10)
    parser.add_argument("--json")
    parser.add_argument("--mechanisms", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    try:
        sizes = {parse_size(s) for s in args.size}
    except ValueError as e:
        parser.error(str(e))

    rows = [r for r in load_reference(args.reference, args.deterministic)
            if (not args.topology or r["topology"] in args.topology)
            and (not sizes or r["bytes"] in sizes)
            and (not args.label or r["label"] in args.label)]
    if not rows:
        print("fidelity.py: no reference row matches", file=sys.stderr)
        return 2
    if args.mechanisms:
        return print_mechanisms(args, rows)
    report = []
    for topology in dict.fromkeys(r["topology"] for r in rows):
        mine = [r for r in rows if r["topology"] == topology]
        ours = run_mtsim(args, topology, sorted({r["bytes"] for r in mine}))
        for r in mine:
            cycles = cycles_of(ours, r)
            judged = r["deterministic"] or r["cycles"]
            report.append(dict(
                r, ours=cycles,
                deviation=None if cycles is None else cycles / r["cycles"] - 1,
                deviation_deterministic=(None if cycles is None or not r["deterministic"]
                                         else cycles / r["deterministic"] - 1),
                within=cycles is not None and abs(cycles / judged - 1) <= args.tolerance))

    def pct(x):
        return "" if x is None else f"{100 * x:+.1f}%"

    if args.markdown:
        print("| topology | algorithm | size | reference | deterministic | ours | deviation | "
              "vs deterministic |")
        print("|---" * 8 + "|")
    else:
        print(f"{'topology':<10} {'algorithm':<20} {'size':>7} {'reference':>10} {'determ.':>8} "
              f"{'ours':>10} {'deviation':>9} {'vs determ.':>10}")
    worst = 0.0
    bad = artefacts = 0
    for r in report:
        flag = ""
        if r["ours"] is None:
            flag = "  <-- missing"
        elif not r["within"]:
            flag = "  <-- outside"
            if r["label"] in ARTEFACT_LABELS:
                flag += " (reference artefact: scripts/ring2d_artefact.py)"
                artefacts += 1
        else:
            worst = max(worst, abs(r["deviation_deterministic"] if r["deterministic"]
                                   else r["deviation"]))
        bad += not r["within"]
        ours = "missing" if r["ours"] is None else r["ours"]
        if args.markdown:
            note = "" if r["within"] else (" **outside**" + (" (artefact)" if "artefact" in flag
                                                             else ""))
            judged = "deviation_deterministic" if r["deterministic"] else "deviation"
            cells = [pct(r["deviation"]), pct(r["deviation_deterministic"])]
            cells[judged == "deviation_deterministic"] += note
            print(f"| {r['topology']} | {r['label']} | {size_words(r['bytes'])} | {r['cycles']} | "
                  f"{r['deterministic'] or '-'} | {ours} | {cells[0]} | {cells[1] or '-'} |")
            continue
        print(f"{r['topology']:<10} {r['label']:<20} {size_text(r['bytes']):>7} "
              f"{r['cycles']:>10} {r['deterministic'] or '-':>8} {ours:>10} "
              f"{pct(r['deviation']):>9} {pct(r['deviation_deterministic']):>10}{flag}")
    print(f"  reference = allreduce_total of the authors' simulator (cycles at 1 GHz); determ. = "
          f"the same with its set orders fixed (MultiTree rows that vary run to run); ours = "
          f"completion cycles; deviation = ours / reference - 1; judged against determ. where "
          f"given; tolerance +-{100 * args.tolerance:.0f}%")
    print(f"{len(report) - bad} of {len(report)} rows within tolerance"
          + (f" (largest deviation {100 * worst:.1f}%)" if len(report) > bad else "")
          + (f"; {artefacts} outside compare with the reference's 2D ring artefact"
             if artefacts else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tolerance": args.tolerance, "rows": report}, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
