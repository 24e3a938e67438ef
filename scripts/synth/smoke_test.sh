#!/usr/bin/env bash
# ctest `synth` smoke test: synthesises a small nic_sched (rtl/params/synth_smoke.params) into
# OUT_DIR and checks the result (scripts/synth/check_json.py), then that bad parameters and
# parameter files are refused as bad input (exit 2, naming the parameter, line or failed check).
#   smoke_test.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: smoke_test.sh OUT_DIR}
"$root/scripts/synth.sh" --out "$out" --name smoke --params "$root/rtl/params/synth_smoke.params"
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
mkdir -p "$out/bad"
printf 'Depth=4\nDepth 4\n' > "$out/bad/line2.params"
expect_refusal "$out/bad/line2.params:2: 'Depth 4': want Name=integer" \
  --params "$out/bad/line2.params"
printf 'Depth=4\nDepth=8\n' > "$out/bad/twice.params"
expect_refusal "$out/bad/twice.params:2: Depth given twice" --params "$out/bad/twice.params"
echo "smoke_test.sh: bad parameters refused"
