#!/usr/bin/env bash
# The NIC scheduler's power from its own gates, for the configuration that is co-simulated:
#   1. `mtsim run` co-simulates one point with the Verilated nic_sched in every NIC
#      (nic.scheduler: rtl, hardware issue, message flow control) and writes each node's pin
#      trace (--rtl-pin-trace: every clock's inputs and grants);
#   2. nic_sched_activity replays the traces into the same RTL and parameters verilated with
#      toggle coverage: the toggles of every signal bit over the run's clocks;
#   3. scripts/synth.sh synthesizes that configuration (the parameters the traces' header names)
#      into the OSU 0.18 um library, unless --netlist gives its buffered netlist;
#   4. scripts/power/activity.py turns the toggles into OpenSTA activities and reports the power
#      of a clocked cycle of the run and of an idle one (the clock alone), the leakage, and each
#      scaled to 7 nm (estimates): the figures energy.scheduler_* take (docs/energy.md).
#
#   scripts/power.sh [--mtsim BIN] [--activity-bin BIN] [--scenario FILE] [--set KEY=VALUE]...
#                    [--netlist NETLIST.v] [--clock-ns NS] [--out DIR] [--update-model]
#
#   defaults: build/bin/mtsim and build/bin/nic_sched_activity (built when missing: it is not in
#   the default build), scenarios/default.yaml with
#   MultiTree at 64 KiB (--set overrides come after, so --set collective.sizes=[1MiB] wins),
#   the netlist synthesized into DIR/synth, the clock of scripts/synth.sh (5 ns), DIR
#   build/power. Writes DIR/power.json and DIR/power.txt. Exit 0 done, 1 a tool failed, 2 bad
#   usage. Synthesis of the co-simulated configuration takes about 5 minutes. --update-model also
#   writes the figures into model/params/scheduler_power.h, the energy model's defaults (rebuild).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mtsim="$root/build/bin/mtsim"
activity_bin="$root/build/bin/nic_sched_activity"
scenario="$root/scenarios/default.yaml"
netlist=""
clock_ns=5
out="$root/build/power"
header_args=()
# One point: the table order pinned too (auto would simulate a step and a planned table, and
# a pin trace is of one run); MultiTree's step table, the order it is built in.
sets=(collective.algorithms=[multitree] collective.sizes=[64KiB] nic.issue=hardware
  nic.scheduler=rtl nic.flow_control=message nic.scheduler_table_order=step)
while [ $# -gt 0 ]; do
  case "$1" in
    --mtsim) mtsim=$2; shift 2 ;;
    --activity-bin) activity_bin=$2; shift 2 ;;
    --scenario) scenario=$2; shift 2 ;;
    --set) sets+=("$2"); shift 2 ;;
    --netlist) netlist=$2; shift 2 ;;
    --clock-ns) clock_ns=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --update-model) header_args=(--header "$root/model/params/scheduler_power.h"); shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "power.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$mtsim" ] || { echo "power.sh: $mtsim is not an executable (build it first)" >&2; exit 2; }
if [ ! -x "$activity_bin" ]; then
  # Not in the default build (its toggle-coverage C++ is large): built here, next to mtsim.
  build=$(dirname "$(dirname "$activity_bin")")
  echo "power.sh: building nic_sched_activity in $build (a few minutes, once)" >&2
  cmake --build "$build" --target nic_sched_activity -j "$(nproc 2>/dev/null || echo 2)" \
    > /dev/null || { echo "power.sh: cannot build $activity_bin" >&2; exit 2; }
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/pins" "$out/activity"
mkdir -p "$out/pins" "$out/activity"

set_args=()
for s in "${sets[@]}"; do set_args+=(--set "$s"); done
echo "power.sh: co-simulating ${sets[*]}" >&2
"$mtsim" run "$scenario" "${set_args[@]}" --json "$out/run.json" --rtl-pin-trace "$out/pins" \
  > "$out/run.txt" || { echo "power.sh: mtsim run failed (see $out/run.txt)" >&2; exit 1; }

traces=$(ls "$out"/pins/node*.pins | sort -V)
# shellcheck disable=SC2086
"$activity_bin" --out "$out/activity" $traces ||
  { echo "power.sh: the replay of the pin traces failed" >&2; exit 1; }

if [ -z "$netlist" ]; then
  # The configuration the traces came from: their header's parameters (pin widths left out).
  params=()
  for kv in $(head -1 "$(echo "$traces" | head -1)" | cut -d' ' -f3-); do
    case "$kv" in EntryBits=*|CounterBits=*) ;; *) params+=(--param "$kv") ;; esac
  done
  echo "power.sh: synthesizing ${params[*]}" >&2
  "$root/scripts/synth.sh" "${params[@]}" --clock-ns "$clock_ns" --name nic_sched_cosim \
    --out "$out/synth" > "$out/synth.txt" ||
    { echo "power.sh: synthesis failed (see $out/synth.txt)" >&2; exit 1; }
  netlist="$out/synth/nic_sched_cosim.qflow/synthesis/nic_sched.rtlnopwr.v"
fi
liberty=${MT_LIBERTY:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
/usr/bin/python3 "$root/scripts/power/activity.py" --activity "$out/activity" \
  --netlist "$netlist" --liberty "$liberty" --clock-ns "$clock_ns" --run "$out/run.json" \
  --out "$out" "${header_args[@]+"${header_args[@]}"}" || exit 1
