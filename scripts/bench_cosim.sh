#!/usr/bin/env bash
# Co-simulation cost: wall time of `mtsim run` with the Verilated RTL scheduler in every NIC
# (nic.scheduler=rtl) over the same run with the C++ golden scheduler (nic.scheduler=tlm), both
# with nic.issue=hardware, on the 4x4 torus 1 MiB MultiTree scenario. Best of N runs each; also
# checks that both give the same completion cycles. Target: ratio <= 2.
# --default: instead, every point of scenarios/default.yaml (each algorithm at 64 KiB, 1 MiB and
# 4 MiB) under hardware issue: per point the simulation's wall time (`wall_seconds`) with each
# scheduler, best of N, their ratio and whether the cycles agree, and the whole scenario's
# ratio (issue 48's targets: at most 1.5x for the scenario, 2x at every 64 KiB point). The runs
# of the two schedulers alternate (tlm, rtl, tlm, ...), so that a machine's drift hits both.
# Both parts run step-ordered tables (nic.scheduler_table_order step): the default, auto, would
# also simulate a planned table per point, which times the table compiler, not the co-simulation.
#
#   scripts/bench_cosim.sh [--runs N] [--build DIR] [--check] [--default [--json OUT]]
#     --build  build folder holding bin/mtsim (default build/, a Release build: scripts/build.sh)
#     --check  exit 1 when a ratio is above its target
#     --json   with --default: also write the figures to OUT (per point and the whole scenario)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MT_BUILD_DIR:-$root/build}"
runs=5
check=0
default=0
json_out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --check) check=1; shift ;;
    --default) default=1; shift ;;
    --json) json_out="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "bench_cosim.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mtsim="$build/bin/mtsim"
[ -z "$json_out" ] || [ "$default" = 1 ] || { echo "bench_cosim.sh: --json goes with --default" >&2; exit 2; }
[ -x "$mtsim" ] || { echo "bench_cosim.sh: $mtsim not built (scripts/build.sh)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$default" = 1 ]; then
  exec /usr/bin/python3 - "$mtsim" "$tmp" "$runs" "$check" "$root/scenarios/default.yaml" \
    "$json_out" <<'PY'
import json, subprocess, sys
mtsim, tmp, runs, check, scenario = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]
json_out = sys.argv[6]
best, cycles = {}, {}  # (mode, algorithm, bytes) -> best wall_seconds / completion cycles
for _ in range(runs):
    for mode in ("tlm", "rtl"):
        out = "%s/%s.json" % (tmp, mode)
        subprocess.run([mtsim, "run", scenario, "--set", "nic.issue=hardware", "--set",
                        "nic.scheduler_table_order=step", "--set",
                        "nic.scheduler=" + mode, "--json", out], check=True,
                       stdout=subprocess.DEVNULL)
        for run in json.load(open(out))["runs"]:
            if run.get("error"):
                sys.exit("bench_cosim: %s %s failed: %s" % (mode, run["algorithm"], run["error"]))
            key = (run["algorithm"], run["bytes"])
            best[(mode,) + key] = min(best.get((mode,) + key, float("inf")), run["wall_seconds"])
            cycles[(mode,) + key] = run["completion_cycles"]
points = sorted({k[1:] for k in best}, key=lambda k: (k[1], k[0]))
print("bench_cosim: scenarios/default.yaml, hardware issue, simulation wall time (s), best of %d" % runs)
print("%-22s %9s %9s %9s %7s  %s" % ("algorithm", "bytes", "tlm_s", "rtl_s", "ratio", "cycles"))
bad = False
for algorithm, size in points:
    t, r = best[("tlm", algorithm, size)], best[("rtl", algorithm, size)]
    same = cycles[("tlm", algorithm, size)] == cycles[("rtl", algorithm, size)]
    bad = bad or not same or (check and size <= 65536 and r > 2 * t)
    print("%-22s %9d %9.3f %9.3f %6.2fx  %s" % (algorithm, size, t, r, r / t,
                                               "identical" if same else "DIFFERENT"))
total = {m: sum(v for k, v in best.items() if k[0] == m) for m in ("tlm", "rtl")}
small = [best[("rtl",) + p] / best[("tlm",) + p] for p in points if p[1] <= 65536]
print("whole scenario: tlm %.2f s, rtl %.2f s: %.2fx (target <= 1.5x); 64 KiB points: %.2f-%.2fx "
      "(target <= 2x)" % (total["tlm"], total["rtl"], total["rtl"] / total["tlm"], min(small),
                          max(small)))
if json_out:
    version = subprocess.run([mtsim, "--version"], capture_output=True, text=True).stdout
    figures = {
        "mtsim": version.splitlines()[0] if version else "",
        "runs": runs,
        "unit": "seconds of simulation wall time (wall_seconds), best of runs",
        "points": [{"algorithm": a, "bytes": b, "tlm_s": best[("tlm", a, b)],
                    "rtl_s": best[("rtl", a, b)],
                    "cycles_identical": cycles[("tlm", a, b)] == cycles[("rtl", a, b)]}
                   for a, b in points],
        "whole": {"tlm_s": total["tlm"], "rtl_s": total["rtl"],
                  "ratio": total["rtl"] / total["tlm"]},
    }
    with open(json_out, "w", encoding="utf-8") as f:
        json.dump(figures, f, indent=1)
        f.write("\n")
sys.exit(1 if bad or (check and total["rtl"] > 1.5 * total["tlm"]) else 0)
PY
fi
cat > "$tmp/bench.yaml" <<YAML
name: bench_cosim
description: 4x4 torus, MultiTree, 1 MiB, hardware issue
topology: {kind: torus, dims: [4, 4], link_bytes_per_cycle: 16, link_latency_cycles: 150}
nic: {issue: hardware, scheduler_table_order: step}
collective: {algorithms: [multitree], sizes: [1MiB]}
YAML

/usr/bin/python3 - "$mtsim" "$tmp" "$runs" "$check" <<'PY'
import json, subprocess, sys, time
mtsim, tmp, runs, check = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
best, cycles = {}, {}
for mode in ("tlm", "rtl"):
    times = []
    for _ in range(runs):
        out = "%s/%s.json" % (tmp, mode)
        start = time.perf_counter()
        subprocess.run([mtsim, "run", tmp + "/bench.yaml", "--set", "nic.scheduler=" + mode,
                        "--json", out], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        run = json.load(open(out))["runs"][0]
        if run.get("error"):
            sys.exit("bench_cosim: %s run failed: %s" % (mode, run["error"]))
        cycles[mode] = (run["completion_cycles"], run["node_finish_cycles"])
    best[mode] = min(times)
ratio = best["rtl"] / best["tlm"]
same = cycles["tlm"] == cycles["rtl"]
print("bench_cosim: torus 4x4, multitree, 1 MiB, best of %d" % runs)
print("  tlm (C++ SchedulerModel)   %.3f s wall" % best["tlm"])
print("  rtl (Verilated nic_sched)  %.3f s wall" % best["rtl"])
print("  co-sim / TLM ratio         %.2fx (target <= 2x: %s)" % (ratio, "met" if ratio <= 2 else "NOT met"))
print("  completion cycles          tlm %d, rtl %d (%s)" % (cycles["tlm"][0], cycles["rtl"][0],
      "identical, node finish times too" if same else "DIFFERENT"))
if not same or (check and ratio > 2):
    sys.exit(1)
PY
