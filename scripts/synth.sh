#!/usr/bin/env bash
# Area and timing of the NIC scheduler RTL (rtl/nic_sched) in the OSU 0.18 um standard-cell
# library: Yosys 0.23 synthesis (synth, dfflibmap + abc on the liberty, stat -liberty) and
# OpenSTA static timing with a clock constraint. Figures are 0.18 um ESTIMATES (no placement,
# flop-based table storage), good for comparing configurations. High-fanout nets are buffered as a
# layout flow does it (qflow's blifFanout: the netlist scripts/pnr.sh places). The STA constraints
# are those of a block inside a chip: clock uncertainty, input and output delays as a fraction of
# the period (the logic outside the block uses the rest), inputs driven by a library buffer,
# outputs loaded, and net parasitics from a fanout-based wire-load model
# (scripts/synth/mt_wireload.lib; the library has none). scripts/pnr.sh gives the post-layout
# figures to compare with.
#
#   scripts/synth.sh [--top MODULE] [--sources "GLOB..."] [--params FILE] [--param Name=value]...
#                    [--clock-ns NS]
#                    [--uncertainty-ns NS] [--io-fraction F] [--driving-cell CELL]
#                    [--load-pf PF] [--wire-load on|off] [--static-inputs "PORT..."]
#                    [--fanout on|off] [--hierarchy flat|keep] [--out DIR] [--name CONFIG]
#
#   --top        top module (default nic_sched); --sources: RTL globs relative to the repository
#                (default "rtl/*.sv"; include dir rtl/include)
#   --params     the top's parameters from FILE (rtl/params/*.params: Name=value lines, '#'
#                comments); rtl/params/cosim.params is the signed-off configuration, the one
#                Verilated into mtsim; the report is then named nic_sched_<file's base name>
#   --param      top-module parameter override, Name=integer, repeatable (after --params: wins)
#                (nic_sched: Nodes, Ports, Depth, Window, Chunks, Flows, Steps, Counters,
#                MaxCount, ArrivalLanes,
#                DecisionLatency, IndexBits; the rules they must satisfy, e.g. 2^IndexBits >=
#                Depth + 1 + Ports x (Window + 1), are rtl/README.md's Parameters: an illegal set
#                stops at elaboration, exit 2)
#   --clock-ns   clock period constraint for STA, ns (default 5)
#   --uncertainty-ns  clock uncertainty (jitter + skew), ns (default 0.25)
#   --io-fraction     input and output delay as a fraction of the period (default 0.3)
#   --driving-cell    library cell driving every input (default BUFX2)
#   --load-pf         capacitance on every output, pF (default 0.05: about 5 gate inputs + wire)
#   --wire-load       on (default): mt_wireload.lib's model; off: pin capacitance only
#   --static-inputs   inputs held while the block runs (configuration): false paths (default
#                     "step_order_i shared_window_i"; rst_ni is timed: its release against the
#                     flops' recovery and removal times, as a synchronizer's output,
#                     rtl/mt_reset_sync.sv)
#   --fanout     on (default): buffer high-fanout nets and resize drivers (qflow's synthesize
#                step: blifFanout, iterated); off: ABC's netlist as it is (ABC does not buffer
#                flop outputs or inputs, so a field flop may drive hundreds of loads)
#   --hierarchy  flat (default): one flattened netlist; keep: modules mapped one by one (identical
#                instances once, no optimisation across them) for the area of every module
#                (scripts/synth/area_breakdown.py DIR/<config>.stat); take timing from flat runs
#   --out        output folder (default build/synth)
#   --name       config name (default: with --params alone the file's, else the top and the
#                parameters given, e.g. nic_sched_depth64)
#
# Writes DIR/<config>.json (area_um2, cells, flops, critical_path_ns, slack_ns, fmax_mhz,
# parameters, ...), DIR/<config>.txt (readable report), DIR/<config>.v (ABC's netlist),
# DIR/<config>.qflow/synthesis/<top>.rtlnopwr.v (buffered netlist, --fanout on) and the tool
# logs. Fails (exit 1) when synthesis infers a latch or leaves a cell unmapped to the library.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=synth/constraints.sh
source "$root/scripts/synth/constraints.sh"
# shellcheck source=synth/qflow.sh
source "$root/scripts/synth/qflow.sh"
# shellcheck source=synth/params_file.sh
source "$root/scripts/synth/params_file.sh"
liberty=${MT_LIBERTY:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
out="$root/build/synth"
clock_ns=5
uncertainty_ns=0.25
io_fraction=0.3
driving_cell=BUFX2
load_pf=0.05
wire_load=on
static_inputs="step_order_i shared_window_i"
fanout=on
hierarchy=flat
top=nic_sched
sources="rtl/*.sv"
name=""
params=()
file_params=()
params_name=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) ;;
    -*) [ $# -ge 2 ] || { echo "synth.sh: $1 needs a value (see --help)" >&2; exit 2; } ;;
  esac
  case "$1" in
    --param) params+=("$2"); shift 2 ;;
    --params)
      params_read "$2" synth.sh
      shift 2 ;;
    --clock-ns) clock_ns="$2"; shift 2 ;;
    --uncertainty-ns) uncertainty_ns="$2"; shift 2 ;;
    --io-fraction) io_fraction="$2"; shift 2 ;;
    --driving-cell) driving_cell="$2"; shift 2 ;;
    --load-pf) load_pf="$2"; shift 2 ;;
    --wire-load) wire_load="$2"; shift 2 ;;
    --static-inputs) static_inputs="$2"; shift 2 ;;
    --fanout) fanout="$2"; shift 2 ;;
    --hierarchy) hierarchy="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    --sources) sources="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    -h|--help) sed -n '2,52p' "$0"; exit 0 ;;
    *) echo "synth.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for tool in yosys sta; do
  command -v "$tool" >/dev/null || { echo "synth.sh: $tool not found (scripts/setup.sh)" >&2; exit 2; }
done
[ -f "$liberty" ] || { echo "synth.sh: liberty $liberty not found (qflow-tech-osu018)" >&2; exit 2; }
# The STA constraints, checked before anything is synthesised.
check_number() {  # NAME VALUE CONDITION (awk, on v): the option's value must satisfy it
  awk -v v="$2" "BEGIN { exit !(v ~ /^([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ && ($3)) }" || {
    echo "synth.sh: $1 $2: want $4" >&2; exit 2; }
}
check_number --clock-ns "$clock_ns" "v > 0" "a period > 0 ns"
check_number --uncertainty-ns "$uncertainty_ns" "v < $clock_ns" "0 <= ns < the period"
check_number --io-fraction "$io_fraction" "v < 0.5" \
  "0 <= F < 0.5 (an input and an output delay of F x period each must leave some period)"
check_number --load-pf "$load_pf" "v >= 0" "a capacitance >= 0 pF"
awk -v c="$driving_cell" '{ gsub(/[ \t"]/, "") } $0 == "cell(" c "){" { found = 1 } END { exit !found }' \
  "$liberty" || {
  echo "synth.sh: --driving-cell $driving_cell: no such cell in $(basename "$liberty")" >&2; exit 2; }

params_merge  # the file's values, then the --param ones (which win)
[ -n "$name" ] || name=$(config_name "$top")
chparam=""
for p in "${params[@]+"${params[@]}"}"; do
  key=${p%%=*}; value=${p#*=}
  if [[ ! "$key" =~ ^[A-Z][A-Za-z]*$ || ! "$value" =~ ^[0-9]+$ ]]; then
    echo "synth.sh: bad --param '$p' (want Name=integer, the RTL's UpperCamelCase parameter" \
      "name, e.g. Depth=32)" >&2; exit 2
  fi
  chparam+=" -chparam $key $value"
done
mkdir -p "$out"
out=$(cd "$out" && pwd)  # qflow runs in its project folder: absolute paths only
base="$out/$name"
src_files=""
for g in $sources; do
  for f in "$root"/$g; do
    [ -f "$f" ] || { echo "synth.sh: --sources: no file matches $g" >&2; exit 2; }
    src_files+="$f "
  done
done
case "$wire_load" in on|off) ;; *) echo "synth.sh: --wire-load $wire_load: want on or off" >&2; exit 2 ;; esac
case "$fanout" in on|off) ;; *) echo "synth.sh: --fanout $fanout: want on or off" >&2; exit 2 ;; esac
case "$hierarchy" in
  flat) flatten=-flatten ;;
  keep) flatten="" ;;
  *) echo "synth.sh: --hierarchy $hierarchy: want flat or keep" >&2; exit 2 ;;
esac
if [ "$fanout" = on ] && [ "$hierarchy" = keep ]; then
  echo "synth.sh: --fanout on needs --hierarchy flat (qflow buffers one flat module)" >&2; exit 2
fi
if [ "$fanout" = on ]; then
  command -v qflow >/dev/null || { echo "synth.sh: qflow not found (scripts/setup.sh)" >&2; exit 2; }
fi

# Synthesis. Latches and unmapped cells are checked on the mapped netlist. ABC maps for delay and
# then buffers high-fanout nets and sizes gates (without that, unbuffered fanout of the table's
# decode nets dominates every path).
delay_ps=$(awk "BEGIN { printf \"%d\", $clock_ns * 1000 }")
cat > "$base.ys" <<YS
read_verilog -sv -DSYNTHESIS -I$root/rtl/include $src_files
hierarchy -check -top $top$chparam
synth -top $top $flatten
select -assert-none t:\$_DLATCH_* t:\$dlatch t:\$_SR_* t:\$dlatchsr
dfflibmap -liberty $liberty
abc -liberty $liberty -D $delay_ps -script +strash;ifraig;scorr;dc2;dretime;strash;&get,-n;&dch,-f;&nf,-D,$delay_ps;&put;buffer,-p;upsize,-D,$delay_ps;dnsize,-D,$delay_ps;stime,-p
opt_clean -purge
setundef -zero
splitnets -ports -format __
select -assert-none t:LATCH
select -assert-none t:\$* t:\$paramod* %d
tee -o $base.abc.stat stat -liberty $liberty
write_verilog -noattr -noexpr -nohex -nodec -simple-lhs $base.v
YS
if ! yosys -q -l "$base.yosys.log" -s "$base.ys" >/dev/null 2>&1; then
  # Bad input first (exit 2): a parameter the top does not have, or an illegal set.
  if unknown=$(grep -o "Can't find object for defparam \`[^\`']*" "$base.yosys.log"); then
    echo "synth.sh: --param: $top has no parameter ${unknown##*\`} (see --help)" >&2
    exit 2
  fi
  if rule=$("$root/scripts/synth/param_rule.sh" "$base.yosys.log") && [ -n "$rule" ]; then
    echo "synth.sh: --param ${params[*]}: an illegal parameter set for $top: $rule" >&2
    exit 2
  fi
  echo "synth.sh: synthesis failed or found latches/unmapped cells, see $base.yosys.log" >&2
  grep -E "ERROR|Assertion" "$base.yosys.log" >&2 || true
  exit 1
fi

# Fanout buffering and driver sizing: qflow's synthesize step on the mapped netlist. The area and
# the timing below are those of the buffered netlist.
netlist="$base.v"
if [ "$fanout" = on ]; then
  qflow_project "$base.qflow" "$top" "$base.v" "$liberty"
  if ! (cd "$base.qflow" && qflow -T osu018 synthesize "$top") > "$base.fanout.log" 2>&1 ||
      [ ! -s "$base.qflow/synthesis/$top.rtlnopwr.v" ]; then
    echo "synth.sh: fanout buffering (qflow synthesize) failed, see $base.fanout.log and" \
         "$base.qflow/log/synth.log" >&2
    exit 1
  fi
  netlist="$base.qflow/synthesis/$top.rtlnopwr.v"
  cat > "$base.stat.ys" <<YS
read_liberty -lib $liberty
read_blif $base.qflow/synthesis/$top.blif
hierarchy -check -top $top
tee -o $base.stat stat -liberty $liberty
YS
  yosys -q -l "$base.stat.log" -s "$base.stat.ys" >/dev/null
else
  cp "$base.abc.stat" "$base.stat"
fi

# Static timing: every register-to-register and I/O path against the clock, with the block's
# environment (uncertainty, I/O delays, driver, load) and wire-load parasitics.
io_ns=$(awk "BEGIN { printf \"%.4f\", $clock_ns * $io_fraction }")
wl_lib=""
wl_cmds=""
if [ "$wire_load" = on ]; then
  wl_lib="read_liberty $root/scripts/synth/mt_wireload.lib"
  wl_cmds="set_wire_load_mode top
set_wire_load_model -name mt_osu018_est -library mt_wireload"
fi
cat > "$base.sta" <<STA
read_liberty $liberty
$wl_lib
read_verilog $netlist
link_design $top
$wl_cmds
$(block_constraints)
$(sta_reports)
exit
STA
sta -no_splash -exit "$base.sta" > "$base.sta.log" 2>&1 || true
if ! grep -q "^worst slack" "$base.sta.log" || grep -q "^Error" "$base.sta.log"; then
  echo "synth.sh: OpenSTA failed, see $base.sta.log" >&2
  exit 1
fi

/usr/bin/python3 "$root/scripts/synth/report.py" --name "$name" --stat "$base.stat" \
  --sta "$base.sta.log" --clock-ns "$clock_ns" --liberty "$liberty" --top "$top" \
  --uncertainty-ns "$uncertainty_ns" --io-fraction "$io_fraction" --driving-cell "$driving_cell" \
  --load-pf "$load_pf" --wire-load "$wire_load" --fanout "$fanout" --hierarchy "$hierarchy" \
  --params "${params[*]+"${params[*]}"}" --rtl "$(echo $src_files | tr ' ' '\n' | grep -E "/$top\.s?v$" | head -1)" \
  --netlist "$netlist" --json "$base.json" --text "$base.txt"
cat "$base.txt"
