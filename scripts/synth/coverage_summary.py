#!/usr/bin/env python3
"""Markdown summary of a Verilator coverage file (scripts/coverage.sh): per RTL file and in total,
the line points (statements and branches, Verilator's v_line / v_branch) and the toggle points
(v_toggle: each bit of each signal 0->1 and 1->0) hit at least once.

  coverage_summary.py MERGED.dat [ANNOTATED_DIR]"""

import collections
import os
import re
import sys


def parse(path):
    """(file, kind) -> [hit, total]"""
    stats = collections.defaultdict(lambda: [0, 0])
    for line in open(path, encoding="latin-1"):
        if not line.startswith("C '"):
            continue
        body, count = line.rsplit("'", 1)
        fields = dict(kv.split("\x02", 1) for kv in body[3:].split("\x01") if "\x02" in kv)
        page = fields.get("page", "")
        kind = "toggle" if page.startswith("v_toggle") else \
            "line" if page.startswith(("v_line", "v_branch")) else "other"
        key = (os.path.basename(fields.get("f", "?")), kind)
        stats[key][1] += 1
        if int(count.strip()) > 0:
            stats[key][0] += 1
    return stats


def pct(hit, total):
    return "%d/%d (%.1f%%)" % (hit, total, 100.0 * hit / total) if total else "-"


def main():
    stats = parse(sys.argv[1])
    files = sorted({f for f, _ in stats})
    out = ["| file | line/branch points hit | toggle points hit |", "| --- | ---: | ---: |"]
    total = {"line": [0, 0], "toggle": [0, 0]}
    for f in files:
        row = []
        for kind in ("line", "toggle"):
            h, t = stats.get((f, kind), [0, 0])
            total[kind][0] += h
            total[kind][1] += t
            row.append(pct(h, t))
        out.append("| `%s` | %s | %s |" % (f, row[0], row[1]))
    out.append("| **total** | %s | %s |" % (pct(*total["line"]), pct(*total["toggle"])))
    if len(sys.argv) > 2 and os.path.isdir(sys.argv[2]):
        missed = []
        for name in sorted(os.listdir(sys.argv[2])):
            for n, text in enumerate(open(os.path.join(sys.argv[2], name), encoding="latin-1"), 1):
                if re.match(r"^%0+\s", text):
                    missed.append("%s:%d: %s" % (name, n, text[8:].strip()[:70]))
        out += ["", "Lines never hit (annotated sources): %d" % len(missed)]
        out += ["    " + m for m in missed[:40]]
    print("\n".join(out))


if __name__ == "__main__":
    main()
