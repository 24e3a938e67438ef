#!/usr/bin/env python3
"""Co-simulation equality check (ctest label `rtl`): runs `mtsim run` on the same scenario with
nic.scheduler=tlm (the C++ golden SchedulerModel) and nic.scheduler=rtl (the Verilated
rtl/nic_sched in every NIC), both with nic.issue=hardware, and requires identical completion
cycles and identical finish cycles of every node for every algorithm and size.

  cosim_check.py MTSIM_BIN TOPOLOGY_YAML [--algorithms a,b,...] [--sizes 64KiB,1MiB]
                [--nic "KEY: VALUE, ..."]
  cosim_check.py MTSIM_BIN TOPOLOGY_YAML --train WORKLOAD.yaml [--algorithms a,b,...]
  cosim_check.py MTSIM_BIN --scenario FILE.yaml [--set KEY=VALUE ...]

TOPOLOGY_YAML is the `topology:` mapping in flow style, e.g. "{kind: torus, dims: [4, 4]}".
--nic adds NIC keys (flow style, without braces) to both runs, e.g. "scheduler_early_request: true".
--train runs `mtsim train` instead (concurrent buckets with release times, rung on the RTL's
host doorbell) and requires identical iteration timelines (the whole JSON `runs`).
--scenario runs a scenario file as it is (its entries must all be of hardware issue, or made so
with --set), with the --set overrides (`mtsim run --set`) in both runs.
Exit 0 when equal, 1 on a difference or a failed run."""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(mtsim, scenario, scheduler, out, sets=()):
    cmd = [mtsim, "run", scenario, "--set", "nic.scheduler=" + scheduler, "--json", out,
           "-j", "2"]
    for kv in sets:
        cmd += ["--set", kv]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # mtsim exits 1 when a run of the scenario failed (its error is in the JSON, and the callers
    # compare it); any other status, or 1 with no failed run in the JSON (a crash, or a
    # sanitizer's abort, whose default status is 1 too, after the JSON was written), fails the
    # check even with the JSON there.
    runs = json.load(open(out))["runs"] if os.path.exists(out) else None
    failed_run = runs is not None and any(  # as mtsim's run_failed (model/sim/run_result.cpp)
        r.get("error") or (not r.get("data_verified") and r.get("data_mode") != "off")
        for r in runs)
    if runs is None or proc.returncode not in (0, 1) or (proc.returncode == 1) != failed_run:
        sys.exit("cosim_check: %s failed (exit %d):\n%s%s"
                 % (" ".join(cmd), proc.returncode, proc.stdout, proc.stderr))
    return runs


def train(args, tmp, scenario):
    runs = {}
    for scheduler in ("tlm", "rtl"):
        out = os.path.join(tmp, scheduler + ".json")
        cmd = [args.mtsim, "train", args.train, "--scenario", scenario,
               "--set", "nic.scheduler=" + scheduler, "--json", out]
        for a in args.algorithms.split(","):
            cmd += ["-a", a]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0 or not os.path.exists(out):
            sys.exit("cosim_check: %s failed (exit %d):\n%s%s"
                     % (" ".join(cmd), proc.returncode, proc.stdout, proc.stderr))
        runs[scheduler] = json.load(open(out))["runs"]
    if runs["tlm"] != runs["rtl"] or not runs["tlm"]:
        print("cosim_check: train timelines differ:\ntlm %s\nrtl %s"
              % (json.dumps(runs["tlm"])[:2000], json.dumps(runs["rtl"])[:2000]))
        sys.exit(1)
    for r in runs["tlm"]:
        print("cosim_check: train %s: %s" % (r.get("algorithm", "?"), json.dumps(r)[:160]))
    print("cosim_check: %d train runs equal" % len(runs["tlm"]))
    sys.exit(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mtsim")
    ap.add_argument("topology", nargs="?", help="topology mapping (not with --scenario)")
    ap.add_argument("--scenario", help="a scenario file to run as it is, instead")
    ap.add_argument("--set", action="append", default=[], dest="sets",
                    help="KEY=VALUE overrides for both runs (with --scenario)")
    ap.add_argument("--algorithms", default="ring,ring_bi,ring2d,dbtree,halving_doubling,"
                    "multitree,multitree_opt,disjoint_rings,tree_packing,auto")
    ap.add_argument("--sizes", default="64KiB,1MiB")
    ap.add_argument("--train", help="workload YAML: compare `mtsim train` timelines instead")
    ap.add_argument("--nic", default="", help="more nic keys for both runs, e.g. "
                    "'scheduler_early_request: true'")
    args = ap.parse_args()

    if (args.scenario is None) == (args.topology is None):
        ap.error("give a topology or --scenario, not both")
    if args.scenario:
        with tempfile.TemporaryDirectory() as tmp:
            tlm = run(args.mtsim, args.scenario, "tlm", os.path.join(tmp, "tlm.json"), args.sets)
            rtl = run(args.mtsim, args.scenario, "rtl", os.path.join(tmp, "rtl.json"), args.sets)
        compare(tlm, rtl)
    with tempfile.TemporaryDirectory() as tmp:
        scenario = os.path.join(tmp, "cosim.yaml")
        with open(scenario, "w") as f:
            f.write("name: cosim\n")
            f.write("topology: %s\n" % args.topology)
            f.write("nic: {issue: hardware, flow_control: message%s}\n"
                    % (", " + args.nic if args.nic else ""))
            f.write("collective:\n  algorithms: [%s]\n  sizes: [%s]\n  verify_data: true\n"
                    % (args.algorithms, args.sizes))
        if args.train:
            train(args, tmp, scenario)
        tlm = run(args.mtsim, scenario, "tlm", os.path.join(tmp, "tlm.json"))
        rtl = run(args.mtsim, scenario, "rtl", os.path.join(tmp, "rtl.json"))
    compare(tlm, rtl)


def compare(tlm, rtl):
    """Exits 0 when every run of `tlm` equals its `rtl` run (cycles, node finish times)."""
    if len(tlm) != len(rtl) or not tlm:
        sys.exit("cosim_check: %d tlm runs, %d rtl runs" % (len(tlm), len(rtl)))
    failures = 0
    compared = 0
    for a, b in zip(tlm, rtl):
        what = "%s %d bytes" % (a["algorithm"], a["bytes"])
        if a.get("error") and "does not support" in a["error"] and a["error"] == b.get("error"):
            print("cosim_check: %s: skipped (%s)" % (what, a["error"]))
            continue
        problems = []
        # Each result says which scheduler issued: the C++ model, then the Verilated RTL.
        if (a.get("nic_scheduler"), b.get("nic_scheduler")) != ("tlm", "rtl"):
            problems.append("nic_scheduler: tlm run '%s', rtl run '%s'"
                            % (a.get("nic_scheduler"), b.get("nic_scheduler")))
        if a.get("error") or b.get("error"):
            problems.append("errors: tlm '%s', rtl '%s'" % (a.get("error"), b.get("error")))
        if a["completion_cycles"] != b["completion_cycles"] or a["completion_cycles"] <= 0:
            problems.append("completion cycles: tlm %d, rtl %d"
                            % (a["completion_cycles"], b["completion_cycles"]))
        fa, fb = a["node_finish_cycles"], b["node_finish_cycles"]
        if fa != fb or len(fa) != a["nodes"]:
            diff = [i for i in range(min(len(fa), len(fb))) if fa[i] != fb[i]]
            problems.append("node finish cycles differ (%d nodes, first node %s)"
                            % (len(diff), diff[0] if diff else "-"))
        if problems:
            failures += 1
            print("cosim_check: %s: MISMATCH: %s" % (what, "; ".join(problems)))
        else:
            compared += 1
            print("cosim_check: %s: %d cycles, %d node finish times equal"
                  % (what, a["completion_cycles"], len(fa)))
    print("cosim_check: %d runs equal, %d mismatches" % (compared, failures))
    sys.exit(1 if failures or compared == 0 else 0)


if __name__ == "__main__":
    main()
