#!/usr/bin/env bash
# ctest `synth` smoke test: synthesises a small nic_sched (DecisionLatency 2: the arrival input
# stages, generated from DecisionLatency 3 on, are not in it) into OUT_DIR and checks the result (scripts/synth/check_json.py), then that bad
# parameters are refused as bad input (exit 2, naming the parameter or the failed check).
#   smoke_test.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: smoke_test.sh OUT_DIR}
"$root/scripts/synth.sh" --out "$out" --name smoke --param Nodes=4 --param Ports=2 \
  --param Depth=4 --param Chunks=4 --param Flows=4 --param Steps=4 --param Counters=4 \
  --param MaxCount=3 --param ArrivalLanes=2 --param DecisionLatency=2
/usr/bin/python3 "$root/scripts/synth/check_json.py" "$out/smoke.json"
# Bad input: a parameter nic_sched does not have, an illegal set (DecisionLatency < 2).
expect_refusal() {
  local want=$1; shift
  local status=0 output
  output=$("$root/scripts/synth.sh" --out "$out/bad" "$@" 2>&1) || status=$?
  if [ "$status" != 2 ] || [[ "$output" != *"$want"* ]]; then
    echo "smoke_test.sh: synth.sh $* gave exit $status, want 2 and '$want':" >&2
    echo "$output" >&2
    exit 1
  fi
}
expect_refusal "nic_sched has no parameter Foo" --param Foo=3
expect_refusal "DecisionLatency=1: an illegal parameter set for nic_sched" --param DecisionLatency=1
# A zero count stops a submodule's elaboration first (a zero-width cast): the same rule is named.
expect_refusal "every count parameter must be at least 1 (the RTL's check CountsPositive_S" \
  --param Depth=0
expect_refusal "--param needs a value" --param
echo "smoke_test.sh: bad parameters refused"
