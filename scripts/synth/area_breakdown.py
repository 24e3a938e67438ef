#!/usr/bin/env python3
"""Area per module of a `scripts/synth.sh --hierarchy keep` result, from its Yosys `stat -liberty`
(DIR/<config>.stat): every module's own cells (submodule instances not included) times its
instance count in the design, as a markdown table (module, instances, flops, area, share).

  area_breakdown.py CONFIG.stat"""

import re
import sys


def short(name):
    """nic_sched_window from $paramod$<hash>\\nic_sched_window or $paramod\\nic_sched_pick\\W=..."""
    name = name.lstrip("\\")
    if name.startswith("$paramod"):
        name = name.split("\\")[1]
    return name


def main():
    text = open(sys.argv[1]).read()
    own = {}
    for m in re.finditer(r"^=== (.+?) ===\n(.*?)(?=^=== |\Z)", text, re.M | re.S):
        name, body = m.group(1), m.group(2)
        if name == "design hierarchy":
            continue
        area = re.search(r"Chip area for module '.*?':\s*([0-9.]+)", body)
        flops = sum(int(n) for n in re.findall(r"^\s+DFF\w+\s+(\d+)\s*$", body, re.M))
        own[name] = (float(area.group(1)) if area else 0.0, flops)
    hier = text.split("=== design hierarchy ===", 1)
    if len(hier) < 2:
        sys.exit("area_breakdown.py: no design hierarchy in " + sys.argv[1])
    count, stack = {}, []
    for line in hier[1].splitlines():
        m = re.match(r"^(\s+)(\S+)\s+(\d+)\s*$", line)
        if not m:
            if stack and line.strip().startswith("Number of"):
                break
            continue
        depth = len(m.group(1)) // 2
        stack = stack[:depth - 1]
        mult = (stack[-1][1] if stack else 1) * int(m.group(3))
        stack.append((m.group(2), mult))
        count[m.group(2)] = count.get(m.group(2), 0) + mult
    rows = []
    for name, n in count.items():
        key = name if name in own else "\\" + name
        area, flops = own.get(key, own.get(name, (0.0, 0)))
        rows.append((short(name), n, flops * n, area * n))
    total = sum(r[3] for r in rows)
    print("| module | instances | flops | area (mm2) | share |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, n, flops, area in sorted(rows, key=lambda r: -r[3]):
        print("| `%s` | %d | %d | %.3f | %.0f%% |" % (name, n, flops, area / 1e6, 100 * area / total))
    print("| total | | %d | %.3f | |" % (sum(r[2] for r in rows), total / 1e6))


if __name__ == "__main__":
    main()
