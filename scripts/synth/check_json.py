#!/usr/bin/env python3
"""Checks a scripts/synth.sh result (ctest label `synth`): positive area and cell count, no
latches, no unmapped cells, a positive critical path whose flops are named by their registers,
hold checks and the reset's recovery and removal checks in the STA report, the slowest blocks
led by the critical path's, and
exactly the flops the RTL (scheduler v2) declares: ring (Depth x EntryBits, one-hot pointers, count, registered ready, fetch register
with its one-hot wait counter, index counter) + input stages (ready levels, open step, lanes),
counted-lane register and counters +
per port a window (valid bits, age matrix without its unused diagonal, Window x (entry, index,
remaining count, lane hits), mask, registered grant) + the minimum step register + the idle
flag's two busy bits + the error logic (write index, previous step and its valid bit, the
registered overflow bit per counter, per group of 16 counters whether one overflowed and the
lowest, the error information; of the 4-bit cause register 1 to 4 flops: a cause whose check is constant in a
configuration, a field its limit fills, leaves code bits constant that synthesis removes or
merges).

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
    step_bits = w(p["Steps"])
    entry = (1 + w(p["Ports"]) + w(p["Nodes"]) + w(p["Chunks"]) + w(p["Flows"]) + step_bits
             + 2 * counter_bits + count_bits)
    lanes, ports, latency = p["ArrivalLanes"] + 1, p["Ports"], p["DecisionLatency"]
    depth, window, index = p["Depth"], p["Window"], p["IndexBits"]
    hit_bits = max(1, clog2(lanes + 1))
    ring = (depth * entry + 2 * depth + clog2(depth + 1) + 1 + 1 + entry + p["Counters"]
            + 2 * index)  # one-hot pointers, ready, fetch register, one-hot counter, indices
    # Ready levels, the step barrier's open step (open_step_i) and the arrival lanes.
    inputs = ((latency - 1) * ports + (latency - 1) * step_bits
              + (latency - 1) * (lanes + lanes * counter_bits))
    counters = p["Counters"] * count_bits
    one_window = (window + window * (window - 1) + window * (entry + index + count_bits + hit_bits)
                  + clog2(latency + 1) + 1 + entry + index)
    group = min(p["Counters"], 16)  # the overflow encoder's groups: any + lowest in each
    groups = -(-p["Counters"] // group)
    errors = (index + step_bits + 1 + max(index, counter_bits) + p["Counters"]
              + groups * (1 + max(1, clog2(group))))
    watchdog = 16  # nic_sched_watchdog's count (WdogBits)
    return ring + inputs + counters + ports * one_window + step_bits + 2 + errors + watchdog


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
    # A flop at either end of the critical path is named by its register (its Q net's RTL name).
    for end in ("from", "to"):
        point = r["critical_path_" + end]
        if "flip-flop" in point and not r["critical_path_%s_named" % end].startswith("register "):
            errors.append("critical path %s a flop with no register name: %s" % (end, point))
    if not r.get("hold") or "slack_ns" not in r["hold"]:
        errors.append("no hold check in the STA report")
    reset = r.get("reset") or {}
    if reset.get("recovery_slack_ns") is None or reset.get("removal_slack_ns") is None:
        errors.append("no recovery or removal check of rst_ni in the STA report")
    # The slowest blocks come from every endpoint: the slowest is the critical path itself
    # (unless that is the reset's release or an input-to-output path, which they do not list).
    blocks = r.get("slowest_blocks") or []
    if not blocks:
        errors.append("no slowest blocks (the STA's endpoint lists)")
    elif (r["critical_path_group"] in ("reg2reg", "in2reg", "reg2out")
          and abs(blocks[0]["critical_path_ns"] - r["critical_path_ns"]) > 0.0015):
        errors.append("slowest block %s needs %s ns, the critical path %s ns"
                      % (blocks[0]["block"], blocks[0]["critical_path_ns"], r["critical_path_ns"]))
    want = expected_flops(r["parameters"])  # without the error cause's 1 to 4 flops
    if not want + 1 <= r["flops"] <= want + 4:
        errors.append("%d flops, the RTL declares %d to %d" % (r["flops"], want + 1, want + 4))
    if errors:
        sys.exit("check_json: %s: %s" % (sys.argv[1], "; ".join(errors)))
    print("check_json: %s: %.0f um2, %d cells, %d flops (as declared, %d of the error cause), "
          "fmax %.1f MHz: ok"
          % (r["config"], r["area_um2"], r["cells"], r["flops"], r["flops"] - want, r["fmax_mhz"]))


if __name__ == "__main__":
    main()
