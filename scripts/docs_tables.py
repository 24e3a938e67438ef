#!/usr/bin/env python3
"""Regenerates the documentation's result tables and compares them with the pages, row by row.

  docs_tables.py [--list] [--only NAME]... [--mtsim build/bin/mtsim] [--jobs 2] [--out DIR]
                 [--write]

Each table below names its page, the first line of the table there (its header) and the
commands that produce it: `mtsim` runs that write results JSON into DIR (default a scratch
folder), then the script that prints the table (scripts/paper_table.py, beyond_table.py,
fidelity.py, nic_mode_table.py, ceiling_table.py, ...). Every row the regeneration prints must stand in the page's
table, to the character, and in the same order; a row that differs is printed with the page's
version. Figures measured once and never re-run drift when the model changes legitimately;
this is the check. It simulates for real: every table took 68 minutes on two cores on
2026-12-06 (beside a test run; 45 on 2026-12-04, before hardware-issue points tried both table
orders by default), the longest beyond, ceiling and breakeven. Exit status: 0 every table reproduced, 1 some row
differs, 2 bad input or a failed run. --write puts the regenerated tables into the pages in place
of the old ones (for a change that moves figures legitimately; the text around them is yours to
check) and exits 0. Standard library only.
"""

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ideal(topology, sizes):
    return (f"{topology}.json", ["run", f"scenarios/ideal/{topology}.yaml", "--set",
                                 f"collective.sizes=[{sizes}]"])


def beyond(topology):
    return (f"{topology}.json", ["run", f"scenarios/beyond/{topology}.yaml", "--set",
                                 "collective.sizes=[16MiB,64MiB]"])


PAPER_SMALL = ["torus4x4", "mesh4x4", "bigraph4x8", "fattree8"]
PAPER_LARGE = ["torus8x8", "mesh8x8"]
PAPER_ORDER = ["torus4x4", "mesh4x4", "torus8x8", "mesh8x8", "bigraph4x8", "fattree8"]
BEYOND_ORDER = ["torus4x4", "mesh4x4", "torus8x8", "mesh8x8", "bigraph_m4_n8", "fattree_k8"]

# The scheduler configuration the verdict prices: the Verilated build co-simulated in the model
# (rtl/params/cosim.params), synthesized by scripts/synth.sh --params rtl/params/cosim.params.
RTL_FIGURES = "docs/synth/nic_sched_cosim.synth.json"
# Its power at a co-simulated run's switching activity (scripts/power.sh).
RTL_POWER = "docs/synth/nic_sched_cosim.power.json"

# name -> (page, header line of the table, mtsim runs (result file, arguments), table command).
# In the table command, {out} is the results folder and {mtsim} the binary.
TABLES = {
    "paper": (
        "docs/paper_comparison.md",
        "| topology | size | multitree-hw cycles | eff |",
        [ideal(t, "32KiB,1MiB,16MiB") for t in PAPER_SMALL] +
        [ideal(t, "32KiB,1MiB,8MiB") for t in PAPER_LARGE],
        ["scripts/paper_table.py"] + [f"{{out}}/{t}.json" for t in PAPER_ORDER],
    ),
    "beyond": (
        "docs/beyond.md",
        "| topology | size | ring | multitree | multitree_opt-p4 |",
        [beyond(t) for t in BEYOND_ORDER],
        ["scripts/beyond_table.py"] + [f"{{out}}/{t}.json" for t in BEYOND_ORDER],
    ),
    "ceiling": (
        "docs/beyond.md",
        "| network | schedule | 16 MiB cycles (eff) | 64 MiB cycles (eff) |",
        [],
        ["scripts/ceiling_table.py", "--mtsim", "{mtsim}", "--out", "{out}/ceiling"],
    ),
    "nic_mode": (
        "docs/beyond.md",
        "| network | schedule | size | software issue, packet FC |",
        [],
        ["scripts/nic_mode_table.py", "--mtsim", "{mtsim}", "--out", "{out}/nic_mode"],
    ),
    "breakeven": (
        "docs/host.md",
        "| network | size | algorithm | hardware issue (cycles) |",
        [],
        ["scripts/host_breakeven.py", "--mtsim", "{mtsim}", "--out", "{out}/host", "--markdown"],
    ),
    "verdict": (
        "docs/verdict.md",
        "| network | size | hardware issue: fastest |",
        [],
        ["scripts/host_verdict.py", "--mtsim", "{mtsim}", "--out", "{out}/host", "--rtl",
         RTL_FIGURES],
    ),
    "auto_check": (
        "docs/host.md",
        "| host | network | size | auto (cycles) |",
        [],
        ["scripts/host_auto_check.py", "--mtsim", "{mtsim}", "--out", "{out}/host"],
    ),
    "energy": (
        "docs/energy.md",
        "| network | size | ring-1port (uJ) |",
        [],
        ["scripts/energy_findings.py", "--mtsim", "{mtsim}", "--out", "{out}/energy", "--markdown"],
    ),
    "scheduler_power": (
        "docs/energy.md",
        "| figure | unit | OSU 0.18 um (measured) |",
        [],
        ["scripts/power/node_table.py", RTL_FIGURES, RTL_POWER],
    ),
    "msccl": (
        "docs/schedule_files.md",
        "| program (network) | size | program | ring | multitree | dbtree | halving_doubling |",
        [],
        ["scripts/msccl_table.py", "{mtsim}"],
    ),
    "auto_rank": (
        "docs/granularity.md",
        "| network | size | auto by estimate | cycles |",
        [],
        ["scripts/auto_rank_check.py", "--mtsim", "{mtsim}", "--out", "{out}/auto_rank"],
    ),
    "mechanisms": (
        "docs/fidelity.md",
        "| topology | algorithm | size | reference | ours | idealised |",
        [],
        ["scripts/fidelity.py", "--mtsim", "{mtsim}", "--mechanisms", "--markdown"],
    ),
    "fidelity": (
        "docs/fidelity.md",
        "| topology | algorithm | size | reference | deterministic |",
        [],
        ["scripts/fidelity.py", "--mtsim", "{mtsim}", "--markdown"],
    ),
}

# Exit statuses of a table command that mean a printed result, besides 0: fidelity.py exits 1
# when a row is outside its tolerance (the reference's 2D ring artefact rows always are), which
# its table marks in the row; it exits 1 too when a row is missing (its cell reads "missing"),
# which stays an error.
RESULT_STATUSES = {"fidelity": {0, 1}}


def page_tables(page):
    """The page's tables: lists of their '|' lines, in page order."""
    tables, current = [], []
    for line in open(os.path.join(ROOT, page), encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def printed_tables(text):
    """The Markdown tables in a script's output, as page_tables() reads a page."""
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables


def compare(name, page, header, regenerated):
    """Rows of `regenerated` that the page's tables do not hold: (row, page's row or None)."""
    mine = page_tables(page)
    first = next((i for i, t in enumerate(mine) if t[0].startswith(header)), None)
    if first is None:
        return [(f"{page}: no table starts with {header!r}", None)]
    differences = []
    for k, table in enumerate(regenerated):
        theirs = mine[first + k] if first + k < len(mine) else []
        for i, row in enumerate(table):
            there = theirs[i] if i < len(theirs) else None
            if row != there:
                differences.append((row, there))
        if len(theirs) > len(table):
            differences += [(None, row) for row in theirs[len(table):]]
    return differences


def write_tables(page, header, regenerated):
    """Replaces the page's table starting with `header`, and the tables after it, by
    `regenerated` (one page table per regenerated table)."""
    path = os.path.join(ROOT, page)
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, start = [], None  # [first, end) line ranges of the tables
    for i, line in enumerate(lines + [""]):
        if line.startswith("|") and start is None:
            start = i
        elif not line.startswith("|") and start is not None:
            blocks.append((start, i))
            start = None
    first = next((k for k, (a, _) in enumerate(blocks) if lines[a].startswith(header)), None)
    if first is None or first + len(regenerated) > len(blocks):
        return False
    for k in reversed(range(len(regenerated))):
        a, b = blocks[first + k]
        lines[a:b] = regenerated[k]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="list the tables and exit")
    parser.add_argument("--only", action="append", default=[], help="check only this table")
    parser.add_argument("--mtsim", default=os.path.join(ROOT, "build/bin/mtsim"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", help="keep the results JSON here (default: a scratch folder)")
    parser.add_argument("--write", action="store_true",
                        help="write the regenerated tables into the pages instead of comparing")
    args = parser.parse_args()
    if args.list:
        for name, (page, header, runs, _) in TABLES.items():
            print(f"{name}: {page}, table {header!r}, {len(runs)} mtsim runs")
        return 0
    unknown = [n for n in args.only if n not in TABLES]
    if unknown:
        print(f"docs_tables.py: unknown table {unknown[0]!r} (known: {', '.join(TABLES)})",
              file=sys.stderr)
        return 2
    if not os.access(args.mtsim, os.X_OK):
        print(f"docs_tables.py: {args.mtsim} is not an executable mtsim (--mtsim)", file=sys.stderr)
        return 2
    out = args.out or tempfile.mkdtemp(prefix="docs_tables_")
    os.makedirs(out, exist_ok=True)
    status = 0
    for name in args.only or list(TABLES):
        page, header, runs, table_command = TABLES[name]
        for result, run in runs:
            command = [args.mtsim] + run + ["-j", str(args.jobs), "--json",
                                            os.path.join(out, result)]
            print(f"== {name}: {' '.join(command)}", flush=True)
            if subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL).returncode != 0:
                print(f"docs_tables.py: {name}: mtsim failed: {' '.join(command)}", file=sys.stderr)
                return 2
        command = [sys.executable] + [a.format(out=out, mtsim=args.mtsim) for a in table_command]
        printed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        # A table cut short must never reach a page.
        if (printed.returncode not in RESULT_STATUSES.get(name, {0}) or
                (printed.returncode != 0 and "| missing |" in printed.stdout)):
            print(f"docs_tables.py: {name}: {' '.join(command)} failed:\n{printed.stderr}",
                  file=sys.stderr)
            return 2
        tables = printed_tables(printed.stdout)
        if not tables:
            print(f"docs_tables.py: {name}: {' '.join(command)} printed no table:\n"
                  f"{printed.stderr}", file=sys.stderr)
            return 2
        differences = compare(name, page, header, tables)
        rows = sum(len(t) for t in tables)
        if args.write:
            if not write_tables(page, header, tables):
                print(f"docs_tables.py: {name}: {page} has no table starting with {header!r} "
                      f"and {len(tables) - 1} after it", file=sys.stderr)
                return 2
            print(f"{name}: wrote {rows} rows into {page} ({len(differences)} changed)")
            continue
        if differences:
            status = 1
            print(f"{name}: {len(differences)} of {rows} rows differ from {page}:")
            for row, there in differences:
                print(f"  now:  {row}\n  page: {there}")
        else:
            print(f"{name}: all {rows} rows of {page} reproduced")
    return status


if __name__ == "__main__":
    sys.exit(main())
