#!/usr/bin/env bash
# Simulator speed and memory benchmark (a benchmark, not a test): for each case prints the wall
# time of the simulation, simulated packets per second and the peak resident memory of the run.
#   scripts/bench.sh            all cases (a few minutes)
#   scripts/bench.sh --quick    only the small cases
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" >/dev/null
mtsim="$root/build/bin/mtsim"
base="$root/scenarios/default.yaml"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# name | topology dims | algorithm | size | extra --set
cases=(
  "torus4x4-multitree-1MiB|[4,4]|torus|multitree|1MiB"
  "torus4x4-multitree-64MiB|[4,4]|torus|multitree|64MiB"
  "torus8x8-ring-16MiB|[8,8]|torus|ring|16MiB"
  "mesh8x8-multitree-16MiB|[8,8]|mesh|multitree|16MiB"
  "torus8x8-multitree-64MiB|[8,8]|torus|multitree|64MiB"
)
[ "${1:-}" = "--quick" ] && cases=("${cases[0]}")

printf '%-28s %10s %10s %14s %12s %10s %8s\n' case wall_s sim_s packets pkts_per_s peak_MiB data
for c in "${cases[@]}"; do
  IFS='|' read -r name dims kind algo size <<<"$c"
  json="$out/$name.json"
  /usr/bin/time -f '%e %M' -o "$out/time" "$mtsim" run "$base" \
    --set topology.kind="$kind" --set topology.dims="$dims" \
    --set collective.algorithms="[$algo]" --set collective.sizes="[$size]" --json "$json" >/dev/null
  read -r wall rss_kib <"$out/time"
  python3 - "$json" "$name" "$wall" "$rss_kib" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
name, wall, rss = sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
sim = run["wall_seconds"]
pps = run["packets"] / sim if sim > 0 else float("nan")
print(f"{name:28s} {wall:10.2f} {sim:10.2f} {run['packets']:14d} {pps:12.0f} {rss/1024:10.1f} {run['data_mode']:>8s}")
PY
done
echo
echo "wall_s: whole mtsim process (schedule build + verify + simulation, max over its processes);"
echo "sim_s: simulation only; peak_MiB: largest resident set of any of its processes;"
echo "data: full = real data summed everywhere, sampled = timing-only with sampled chunks checked."
