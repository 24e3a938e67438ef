#!/usr/bin/env bash
# Times `mtsim schedule` (build, verify and analyse one schedule, no simulation) and its exports,
# so the schedule-side figures of docs/granularity.md and docs/reliability.md come from a script:
#   scripts/bench_schedule.sh [--quick | --pod] [--json OUT.json]
# Default cases (about fifteen seconds in all): MultiTree on the 16x16 torus as text and as MSCCL
# XML, and on the 1024-node 32x32 torus as text and as one node's packed table (memh: the
# co-designed NIC's table packer runs for every node, as a hardware-issue run's set-up does);
# --quick the 16x16 text one only. --pod adds the pod-size ones (minutes each, up to 11 GB): MultiTree on the 4096-node
# 16x16x16 torus and on the 1058-endpoint fat-tree (k = 46, 782,881,383 dependencies). Per case:
# wall and CPU seconds, peak resident memory, the schedule's messages and dependencies (its first
# line) and the output's size. MT_BENCH_MTSIM names the binary (default: build/bin/mtsim, brought
# up to date by scripts/build.sh first).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/bench/common.sh"
pod=0
quick=0
json_out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pod) pod=1; shift ;;
    --quick) quick=1; shift ;;
    --json) json_out="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "bench_schedule.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
mtsim=$(bench_mtsim)
[ -x "$mtsim" ] || { echo "bench_schedule.sh: no mtsim at $mtsim" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# name | topology | algorithm | format
cases=(
  "torus16x16-multitree-text|torus:16x16|multitree|text"
  "torus16x16-multitree-msccl|torus:16x16|multitree|msccl"
  "torus32x32-multitree-text|torus:32x32|multitree|text"
  "torus32x32-multitree-memh|torus:32x32|multitree|memh"
)
[ "$quick" -eq 1 ] && cases=("${cases[0]}")
if [ "$pod" -eq 1 ]; then
  cases+=(
    "torus16x16x16-multitree-text|torus:16x16x16|multitree|text"
    "fattree-k46-multitree-text|fattree:k=46,levels=2|multitree|text"
  )
fi

printf '%-36s %9s %9s %9s %12s %15s %12s\n' case wall_s cpu_s peak_MiB messages dependencies \
  output_B
for c in "${cases[@]}"; do
  IFS='|' read -r name topology algorithm format <<<"$c"
  status=0
  node=()
  [ "$format" = memh ] && node=(--node 0)
  /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$mtsim" schedule -t "$topology" \
    -a "$algorithm" -f "$format" "${node[@]}" >"$out/output" 2>"$out/stderr" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "bench_schedule.sh: $name: mtsim schedule exited $status:" >&2
    tail -5 "$out/stderr" >&2
    exit 1
  fi
  read -r wall user sys rss_kib < <(tail -1 "$out/time")
  # Messages and dependencies: the text summary's first line; for an export, a text run's.
  if [ "$format" = text ]; then
    head -1 "$out/output" >"$out/first"
  else
    "$mtsim" schedule -t "$topology" -a "$algorithm" | head -1 >"$out/first"
  fi
  python3 - "$name" "$topology" "$algorithm" "$format" "$wall" "$user" "$sys" "$rss_kib" \
    "$(stat -c %s "$out/output")" "$out/first" "$out/all.jsonl" <<'PY'
import json, re, sys
name, topology, algorithm, fmt = sys.argv[1:5]
wall, user, sys_s = (float(x) for x in sys.argv[5:8])
rss_kib, size = int(sys.argv[8]), int(sys.argv[9])
first = open(sys.argv[10]).read()
m = re.search(r"([\d,]+) messages \(([\d,]+) dependencies in all\)", first)
if not m:
    sys.exit(f"bench_schedule.sh: {name}: no message and dependency counts in: {first.strip()}")
messages, deps = (int(g.replace(",", "")) for g in m.groups())
print(f"{name:36s} {wall:9.2f} {user + sys_s:9.2f} {rss_kib / 1024:9.1f} {messages:12,d} "
      f"{deps:15,d} {size:12,d}")
with open(sys.argv[11], "a") as f:
    f.write(json.dumps({"case": name, "topology": topology, "algorithm": algorithm,
                        "format": fmt, "wall_s": wall, "cpu_s": user + sys_s,
                        "peak_mib": rss_kib / 1024, "messages": messages,
                        "dependencies": deps, "output_bytes": size}) + "\n")
PY
done
if [ -n "$json_out" ]; then
  jsonl_to_json "$out/all.jsonl" "$json_out"
fi
echo
echo "wall_s, cpu_s: the whole mtsim schedule run (build, verify, analysis, output);"
echo "peak_MiB: its largest resident set; messages, dependencies: the schedule's (first line of"
echo "  the text summary); output_B: bytes written (the summary, or the export)."
