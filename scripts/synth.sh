#!/usr/bin/env bash
# Area and timing of the NIC scheduler RTL (rtl/nic_sched) in the OSU 0.18 um standard-cell
# library: Yosys 0.23 synthesis (synth, dfflibmap + abc on the liberty, stat -liberty) and
# OpenSTA static timing with a clock constraint. Figures are 0.18 um ESTIMATES (no placement,
# wire-load only from the liberty, flop-based table storage), good for comparing configurations.
#
#   scripts/synth.sh [--param Name=value]... [--clock-ns NS] [--out DIR] [--name CONFIG]
#
#   --param     nic_sched parameter override (Nodes, Ports, Depth, Chunks, Flows, Steps, Counters,
#               MaxCount, ArrivalLanes, DecisionLatency); repeatable
#   --clock-ns  clock period constraint for STA, ns (default 5)
#   --out       output folder (default build/synth)
#   --name      config name (default built from the parameters, e.g. nodes16_depth32)
#
# Writes DIR/<config>.json (area_um2, cells, flops, critical_path_ns, slack_ns, fmax_mhz,
# parameters, ...), DIR/<config>.txt (readable report), DIR/<config>.v (netlist) and the tool
# logs. Fails (exit 1) when synthesis infers a latch or leaves a cell unmapped to the library.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
liberty=${MT_LIBERTY:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
out="$root/build/synth"
clock_ns=5
name=""
params=()
while [ $# -gt 0 ]; do
  case "$1" in
    --param) params+=("$2"); shift 2 ;;
    --clock-ns) clock_ns="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "synth.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for tool in yosys sta; do
  command -v "$tool" >/dev/null || { echo "synth.sh: $tool not found (scripts/setup.sh)" >&2; exit 2; }
done
[ -f "$liberty" ] || { echo "synth.sh: liberty $liberty not found (qflow-tech-osu018)" >&2; exit 2; }

chparam=""
for p in "${params[@]+"${params[@]}"}"; do
  key=${p%%=*}; value=${p#*=}
  if [[ ! "$key" =~ ^[A-Z][A-Za-z]*$ || ! "$value" =~ ^[0-9]+$ ]]; then
    echo "synth.sh: bad --param '$p' (want Name=integer)" >&2; exit 2
  fi
  chparam+=" -chparam $key $value"
done
if [ -z "$name" ]; then
  name="nic_sched"
  for p in "${params[@]+"${params[@]}"}"; do
    key=${p%%=*}; name+="_$(echo "${key}" | tr 'A-Z' 'a-z')${p#*=}"
  done
fi
mkdir -p "$out"
base="$out/$name"
sources=$(ls "$root"/rtl/*.sv | tr "\n" " ")

# Synthesis. Latches and unmapped cells are checked on the mapped netlist. ABC maps for delay and
# then buffers high-fanout nets and sizes gates (without that, unbuffered fanout of the table's
# decode nets dominates every path).
delay_ps=$(awk "BEGIN { printf \"%d\", $clock_ns * 1000 }")
cat > "$base.ys" <<YS
read_verilog -sv -DSYNTHESIS -I$root/rtl/include $sources
hierarchy -check -top nic_sched$chparam
synth -top nic_sched -flatten
select -assert-none t:\$_DLATCH_* t:\$dlatch t:\$_SR_* t:\$dlatchsr
dfflibmap -liberty $liberty
abc -liberty $liberty -D $delay_ps -script +strash;ifraig;scorr;dc2;dretime;strash;&get,-n;&dch,-f;&nf,-D,$delay_ps;&put;buffer,-p;upsize,-D,$delay_ps;dnsize,-D,$delay_ps;stime,-p
opt_clean -purge
setundef -zero
splitnets -ports -format __
select -assert-none t:LATCH
select -assert-none t:\$*
tee -o $base.stat stat -liberty $liberty
write_verilog -noattr -noexpr -nohex -nodec -simple-lhs $base.v
YS
if ! yosys -q -l "$base.yosys.log" -s "$base.ys" >/dev/null; then
  echo "synth.sh: synthesis failed or found latches/unmapped cells, see $base.yosys.log" >&2
  grep -E "ERROR|Assertion" "$base.yosys.log" >&2 || true
  exit 1
fi

# Static timing: every register-to-register and I/O path against the clock.
cat > "$base.sta" <<STA
read_liberty $liberty
read_verilog $base.v
link_design nic_sched
create_clock -name clk -period $clock_ns [get_ports clk_i]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk_i]]
set_output_delay 0 -clock clk [all_outputs]
set_false_path -from [get_ports rst_ni]
report_checks -path_delay max -digits 3
report_worst_slack -digits 3
exit
STA
sta -no_splash -exit "$base.sta" > "$base.sta.log" 2>&1 || true
if ! grep -q "^worst slack" "$base.sta.log"; then
  echo "synth.sh: OpenSTA failed, see $base.sta.log" >&2
  exit 1
fi

/usr/bin/python3 "$root/scripts/synth/report.py" --name "$name" --stat "$base.stat" \
  --sta "$base.sta.log" --clock-ns "$clock_ns" --liberty "$liberty" \
  --params "${params[*]+"${params[*]}"}" --rtl "$root/rtl/nic_sched.sv" \
  --json "$base.json" --text "$base.txt"
cat "$base.txt"
