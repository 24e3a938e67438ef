#!/usr/bin/env bash
# Co-simulation cost: wall time of `mtsim run` with the Verilated RTL scheduler in every NIC
# (nic.scheduler=rtl) over the same run with the C++ golden scheduler (nic.scheduler=tlm), both
# with nic.issue=hardware, on the 4x4 torus 1 MiB MultiTree scenario. Best of N runs each; also
# checks that both give the same completion cycles. Target: ratio <= 2.
#
#   scripts/bench_cosim.sh [--runs N] [--build DIR] [--check]
#     --build  build folder holding bin/mtsim (default build/, a Release build: scripts/build.sh)
#     --check  exit 1 when the ratio is above the target
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MT_BUILD_DIR:-$root/build}"
runs=5
check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "bench_cosim.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mtsim="$build/bin/mtsim"
[ -x "$mtsim" ] || { echo "bench_cosim.sh: $mtsim not built (scripts/build.sh)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/bench.yaml" <<YAML
name: bench_cosim
description: 4x4 torus, MultiTree, 1 MiB, hardware issue
topology: {kind: torus, dims: [4, 4], link_bytes_per_cycle: 16, link_latency_cycles: 150}
nic: {issue: hardware}
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
