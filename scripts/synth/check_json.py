#!/usr/bin/env python3
"""Checks a scripts/synth.sh result (ctest label `synth`): positive area and cell count, no
latches, no unmapped cells, a positive critical path, and exactly the flops the RTL declares:
table (Depth x EntryBits) + valid and issued bits (2 x Depth) + table size + per-port masks +
counters + seen ready levels + (DecisionLatency - 1) input stages.

  check_json.py RESULT.json"""

import json
import math
import sys


def clog2(n):
    return math.ceil(math.log2(n)) if n > 1 else 0


def expected_flops(p):
    w = lambda n: max(1, clog2(n))
    counter_bits = w(p["Counters"])
    count_bits = max(1, clog2(p["MaxCount"] + 1))
    entry = (1 + w(p["Ports"]) + w(p["Nodes"]) + w(p["Chunks"]) + w(p["Flows"]) + w(p["Steps"])
             + 2 * counter_bits + count_bits)
    lanes, ports, latency = p["ArrivalLanes"], p["Ports"], p["DecisionLatency"]
    return (p["Depth"] * entry + 2 * p["Depth"] + clog2(p["Depth"] + 1)
            + ports * clog2(latency + 1) + p["Counters"] * count_bits + ports
            + (latency - 1) * (lanes + lanes * counter_bits + ports))


def main():
    r = json.load(open(sys.argv[1]))
    errors = []
    if not r["area_um2"] > 0:
        errors.append("area %s um2 is not positive" % r["area_um2"])
    if not r["cells"] > 0:
        errors.append("no cells")
    if r["latches"] != 0:
        errors.append("%d latches" % r["latches"])
    if r["unmapped_cells"] != 0:
        errors.append("%d unmapped cells" % r["unmapped_cells"])
    if not r["critical_path_ns"] > 0:
        errors.append("critical path %s ns" % r["critical_path_ns"])
    want = expected_flops(r["parameters"])
    if r["flops"] != want:
        errors.append("%d flops, the RTL declares %d" % (r["flops"], want))
    if errors:
        sys.exit("check_json: %s: %s" % (sys.argv[1], "; ".join(errors)))
    print("check_json: %s: %.0f um2, %d cells, %d flops (as declared), fmax %.1f MHz: ok"
          % (r["config"], r["area_um2"], r["cells"], r["flops"], r["fmax_mhz"]))


if __name__ == "__main__":
    main()
