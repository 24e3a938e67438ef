#!/usr/bin/env bash
# Integration test (ctest "slurm: ..."): a small `mtsim sweep --emit-slurm` job array submitted to
# a real one-machine Slurm (scripts/slurm_local.sh), merged with --merge, must give every point
# the same result as the same sweep run locally. Exit 77 (ctest SKIP_RETURN_CODE) with a loud
# message when the Slurm daemons cannot start on this machine; the daemons are always stopped.
#   tests/slurm/slurm_sweep.sh MTSIM_BINARY
set -uo pipefail
mtsim=${1:?usage: $0 MTSIM_BINARY}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d -t mtsim-slurm.XXXXXX)
cluster=$work/cluster
# Ports of our own (not Slurm's 6817/6818), so two test runs on one machine do not meet.
export MT_SLURM_PORT=${MT_SLURM_PORT:-$((20000 + ($$ % 10000) * 2))}

cleanup() {
  [ -n "${job:-}" ] && scancel "$job" >/dev/null 2>&1
  "$root/scripts/slurm_local.sh" stop "$cluster" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

if ! "$root/scripts/slurm_local.sh" start "$cluster" > "$work/start.log" 2>&1; then
  cat "$work/start.log"
  echo "################################################################################"
  echo "SKIPPED: the local Slurm daemons (munged, slurmctld, slurmd) could not start here;"
  echo "the Slurm job array of mtsim sweep --emit-slurm was NOT tested (reason above)."
  echo "################################################################################"
  exit 77
fi
export SLURM_CONF=$cluster/slurm.conf

cat > "$work/base.yaml" <<'YAML'
topology: ring:4
collective:
  algorithms: [ring]
  sizes: [4KiB]
YAML
cat > "$work/sweep.yaml" <<'YAML'
name: slurm-check
scenario: base.yaml
axes:
  - key: collective.algorithms
    values: [ring, multitree, {name: dbtree, label: dbt}]
  - key: collective.sizes
    values: [4KiB, 16KiB]
YAML

"$mtsim" sweep "$work/sweep.yaml" --emit-slurm --out "$work/slurm" \
  --slurm-option=--partition=local > "$work/emit.log" 2>&1 \
  || { cat "$work/emit.log"; echo "FAILED: --emit-slurm"; exit 1; }
job=$(sbatch --parsable "$work/slurm/sweep.slurm" 2>&1) \
  || { echo "$job"; echo "FAILED: sbatch refused the job array"; exit 1; }
job=${job%%;*}
echo "submitted job array $job (6 tasks)"
deadline=$((SECONDS + 180))
while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
  if [ $SECONDS -ge $deadline ]; then
    squeue -j "$job"
    echo "FAILED: job array $job did not finish within 180 s"
    exit 1
  fi
  sleep 1
done

"$mtsim" sweep "$work/sweep.yaml" --merge --out "$work/slurm" > "$work/merge.log" 2>&1 \
  || { cat "$work/merge.log"; echo "FAILED: --merge (points missing or failed)"; exit 1; }
"$mtsim" sweep "$work/sweep.yaml" -j 2 --out "$work/local" > "$work/local.log" 2>&1 \
  || { cat "$work/local.log"; echo "FAILED: the local sweep"; exit 1; }

python3 - "$work/slurm/results.json" "$work/local/results.json" <<'PY'
import json, sys
slurm, local = (json.load(open(p)) for p in sys.argv[1:3])
def runs(d):  # host timings differ between runs; everything simulated must not
    return {r["point_key"]: {k: v for k, v in r.items() if k != "wall_seconds"} for r in d["runs"]}
a, b = runs(slurm), runs(local)
assert slurm["points_finished"] == 6 and slurm["points_failed"] == 0, slurm["points_finished"]
assert sorted(a) == sorted(b) and len(a) == 6, (sorted(a), sorted(b))
for key in sorted(a):
    assert a[key] == b[key], f"point {key}: Slurm and local results differ"
    assert a[key]["data_verified"] is True, key
    print(f"  {key}: {a[key]['completion_cycles']} cycles on Slurm and locally")
print("OK: 6 points, Slurm results equal the local sweep's")
PY
