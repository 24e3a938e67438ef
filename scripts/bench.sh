#!/usr/bin/env bash
# Simulator speed and memory benchmark (a benchmark, not a test): for each case prints the wall
# time of the whole mtsim run and of its simulation, the CPU time of the whole run, simulated
# packets per second (of simulation wall time and of whole-run CPU time) and the peak resident
# memory of the run.
#   scripts/bench.sh            every case except the 4096-node one (several minutes)
#   scripts/bench.sh --quick    only the first case
#   scripts/bench.sh --scale    only the pod-scale cases (torus 4x4 .. 32x32, 8x8x8 MultiTree)
#   scripts/bench.sh --pod      also the 16x16x16 torus (4096 nodes; tens of minutes)
#   scripts/bench.sh --message  only the message-granularity pod cases (docs/granularity.md;
#                               about 10 minutes and 12 GB: the 4096-node MultiTree among them)
#   scripts/bench.sh --json OUT.json ...   also writes every case's figures to OUT.json
#   scripts/bench.sh --max-nodes N ...     leaves out the cases with more than N nodes
#   MT_BENCH_MTSIM=PATH scripts/bench.sh   benchmarks another mtsim binary (e.g. an older build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/bench/common.sh"
mtsim=$(bench_mtsim)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

hw='{name: multitree, label: multitree-hw, nic: {issue: hardware, flow_control: message}}'
paper="$root/scenarios/paper/torus4x4.yaml"
# name | scenario | extra --set arguments (one per line after splitting on ';')
classic=(
  "torus4x4-multitree-64MiB|$root/scenarios/default.yaml|topology.dims=[4,4];collective.algorithms=[multitree];collective.sizes=[64MiB]"
  "torus8x8-ring-16MiB|$root/scenarios/default.yaml|topology.dims=[8,8];collective.algorithms=[ring];collective.sizes=[16MiB]"
  "mesh8x8-multitree-16MiB|$root/scenarios/default.yaml|topology.kind=mesh;topology.dims=[8,8];collective.algorithms=[multitree];collective.sizes=[16MiB]"
  "torus8x8-multitree-64MiB|$root/scenarios/default.yaml|topology.dims=[8,8];collective.algorithms=[multitree];collective.sizes=[64MiB]"
)
# Pod scale (issue 17): MultiTree on the co-designed NIC, 1 MiB, paper network: first as the paper
# file runs it (full data), then timing-only above 64 KiB (as scenarios/scale/) from 16 to 1024
# nodes and on the 8x8x8 torus.
scale=("torus4x4-multitree-hw-1MiB-full|$paper|collective.algorithms=[$hw];collective.sizes=[1MiB]")
for dims in 4,4 8,8 12,12 16,16 32,32; do
  scale+=("torus${dims/,/x}-multitree-hw-1MiB|$paper|topology.dims=[$dims];collective.algorithms=[$hw];collective.sizes=[1MiB];collective.max_data_bytes=64KiB")
done
scale+=("torus8x8x8-multitree-hw-1MiB|$paper|topology.dims=[8,8,8];collective.algorithms=[$hw];collective.sizes=[1MiB];collective.max_data_bytes=64KiB")
pod=("torus16x16x16-tree_packing-1MiB|$root/scenarios/scale/torus16x16x16.yaml|collective.algorithms=[tree_packing]")
# Pod scale on the message-granularity model (issue 50), 1 MiB, timing-only with sampled chunks.
# MultiTree at 4096 nodes builds 33.5 M messages, which the message model's memory budget (one
# per 512 B) admits on a machine of 16 GiB or more.
msg="$root/scenarios/scale"
message=(
  "torus16x16-multitree-1MiB-message|$msg/torus16x16.yaml|collective.algorithms=[multitree];granularity=message"
  "torus16x16x16-dbtree-1MiB-message|$msg/pod_torus16x16x16_message.yaml|collective.algorithms=[dbtree]"
  "torus16x16x16-tree_packing-1MiB-message|$msg/pod_torus16x16x16_message.yaml|collective.algorithms=[tree_packing]"
  "torus16x16x16-multitree-1MiB-message|$msg/pod_torus16x16x16_message.yaml|collective.algorithms=[multitree]"
  "torus32x32x16-dbtree-1MiB-message|$msg/pod_torus32x32x16_message.yaml|collective.algorithms=[dbtree]"
  "fattree-k46-multitree_opt-1MiB-message|$msg/pod_fattree_k46_message.yaml|collective.algorithms=[multitree_opt]"
)

json_out=""
max_nodes=0
cases=("${scale[@]}" "${classic[@]}")
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) cases=("${scale[0]}") ;;
    --scale) cases=("${scale[@]}") ;;
    --pod) cases+=("${pod[@]}") ;;
    --message) cases=("${message[@]}") ;;
    --json) json_out=$2; shift ;;
    --max-nodes) max_nodes=$2; shift ;;
    *) echo "usage: scripts/bench.sh [--quick|--scale|--message] [--pod] [--json OUT.json] [--max-nodes N]" >&2
       exit 2 ;;
  esac
  shift
done

# The machine's used memory (MemTotal - MemAvailable, MiB): a point's process shares the pages of
# the schedule its parent built (fork), so the largest resident set undercounts the two together.
used_mib() { awk '/MemTotal/{t=$2} /MemAvailable/{a=$2} END{print int((t-a)/1024)}' /proc/meminfo; }

printf '%-40s %6s %8s %8s %8s %12s %10s %10s %9s %9s %8s\n' case nodes wall_s sim_s cpu_s packets \
  pkts_per_s pkts_cpu_s peak_MiB used_MiB data
for c in "${cases[@]}"; do
  IFS='|' read -r name scenario sets <<<"$c"
  if [ "$max_nodes" -gt 0 ]; then
    # The case name starts with its network, e.g. torus16x16x16 or mesh8x8.
    nodes=$(grep -oE '^[a-z]+[0-9]+(x[0-9]+)*' <<<"$name" | tr -dc '0-9x' | tr 'x' '*' || true)
    [ -n "$nodes" ] && [ "$((nodes))" -gt "$max_nodes" ] && continue
  fi
  args=()
  IFS=';' read -r -a kv <<<"$sets"
  for s in "${kv[@]}"; do args+=(--set "$s"); done
  json="$out/$name.json"
  used_before=$(used_mib)
  (peak=0; while :; do u=$(used_mib); [ "$u" -gt "$peak" ] && peak=$u && echo "$peak" >"$out/used"
    sleep 0.5; done) &
  sampler=$!
  /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$mtsim" run "$scenario" \
    "${args[@]}" --json "$json" >/dev/null
  kill "$sampler"; wait "$sampler" 2>/dev/null || true
  used_peak=$(cat "$out/used"); rm -f "$out/used"
  read -r wall user sys rss_kib <"$out/time"
  python3 - "$json" "$name" "$wall" "$user" "$sys" "$rss_kib" "$out/all.jsonl" \
    "$((used_peak - used_before))" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
name, wall, user, sys_s, rss = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
used = int(sys.argv[8])
sim, cpu = run["wall_seconds"], user + sys_s
pps = run["packets"] / sim if sim > 0 else float("nan")
ppc = run["packets"] / cpu if cpu > 0 else float("nan")
print(f"{name:40s} {run['nodes']:6d} {wall:8.2f} {sim:8.2f} {cpu:8.2f} {run['packets']:12d} {pps:10.0f} {ppc:10.0f} {rss/1024:9.1f} {used:9d} {run['data_mode']:>8s}")
with open(sys.argv[7], "a") as f:
    f.write(json.dumps({"case": name, "nodes": run["nodes"], "wall_s": wall, "sim_s": sim,
                        "cpu_s": cpu, "packets": run["packets"], "packets_per_s": pps,
                        "packets_per_cpu_s": ppc, "peak_mib": rss / 1024, "used_mib": used,
                        "granularity": run["granularity"], "algorithm": run["algorithm"],
                        "completion_cycles": run["completion_cycles"],
                        "data_mode": run["data_mode"]}) + "\n")
PY
done
if [ -n "$json_out" ]; then
  jsonl_to_json "$out/all.jsonl" "$json_out"
fi
echo
echo "wall_s: whole mtsim run (schedule build + verify + simulation, max over its processes);"
echo "sim_s: simulation only (System construction, table packing, sc_start, data check);"
echo "cpu_s: user + system CPU time of the whole run; pkts_per_s = packets / sim_s,"
echo "pkts_cpu_s = packets / cpu_s (the figure to compare on a loaded machine);"
echo "peak_MiB: largest resident set of any of its processes;"
echo "used_MiB: growth of the machine's used memory during the run (every process, shared pages"
echo "  once; sampled every 0.5 s, other jobs included);"
echo "data: full = real data summed everywhere, sampled = timing-only with sampled chunks checked."
