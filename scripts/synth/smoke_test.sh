#!/usr/bin/env bash
# ctest `synth` smoke test: synthesises a small nic_sched (DecisionLatency 2, so the input stages
# are in) into OUT_DIR and checks the result (scripts/synth/check_json.py).
#   smoke_test.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: smoke_test.sh OUT_DIR}
"$root/scripts/synth.sh" --out "$out" --name smoke --param Nodes=4 --param Ports=2 \
  --param Depth=4 --param Chunks=4 --param Flows=4 --param Steps=4 --param Counters=4 \
  --param MaxCount=3 --param ArrivalLanes=2 --param DecisionLatency=2
/usr/bin/python3 "$root/scripts/synth/check_json.py" "$out/smoke.json"
