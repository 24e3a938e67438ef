#!/usr/bin/env bash
# Place and route of the NIC scheduler with Debian's qflow tools in the OSU 0.18 um library
# (qflow-tech-osu018): the netlist of scripts/synth.sh (same top, sources, parameters), qflow's
# fanout buffering (blifFanout), graywolf placement, qrouter detailed routing and qrouter's RC
# extraction (repaired by fix_rc.py, rc2dly -> SPEF), then OpenSTA on the routed netlist with the extracted parasitics
# and the same constraints as synth.sh (clock uncertainty, I/O delays, driving cell, output load;
# no wire-load model: the SPEF replaces it). Post-layout area, utilisation and post-route timing
# against the synthesis estimate.
#
#   scripts/pnr.sh [--top MODULE] [--sources "GLOB..."] [--params FILE] [--param Name=value]...
#                  [--clock-ns NS]
#                  [--uncertainty-ns NS] [--io-fraction F] [--driving-cell CELL] [--load-pf PF]
#                  [--static-inputs "PORT..."] [--timeout S] [--reuse-synth] [--out DIR]
#                  [--name CONFIG] [--place-fast N]
#
# The options are synth.sh's (its defaults; no --param or --params = the RTL's default
# configuration; --params rtl/params/cosim.params = the signed-off one, named nic_sched_cosim).
# --reuse-synth takes DIR/<config>.v and .json of an earlier run instead of synthesising again.
# --place-fast N divides graywolf's annealing moves per cell and temperature by N (its
# TWSC*fast parameter; default 1, its full effort): placement about N times faster, wire length
# and so post-route timing somewhat worse (the report records N). --timeout bounds qflow
# (default 7200 s). Writes DIR/<config>.pnr.json (post-layout figures and
# the synthesis estimate), DIR/<config>.pnr.txt, the qflow project in DIR/<config>.qflow/, and
# synth.sh's own outputs (default DIR build/pnr). Exit 1 when a step fails or routes stay open.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=synth/constraints.sh
source "$root/scripts/synth/constraints.sh"
# shellcheck source=synth/qflow.sh
source "$root/scripts/synth/qflow.sh"
# shellcheck source=synth/params_file.sh
source "$root/scripts/synth/params_file.sh"
tech=/usr/share/qflow/tech/osu018
liberty=$tech/osu018_stdcells.lib
top=nic_sched
out="$root/build/pnr"
name=""
timeout_s=7200
clock_ns=5
uncertainty_ns=0.25
io_fraction=0.3
driving_cell=BUFX2
load_pf=0.05
static_inputs="step_order_i shared_window_i"
synth_args=()
reuse_synth=0
place_fast=1
params_name=""
params=()
file_params=()
while [ $# -gt 0 ]; do
  case "$1" in
    --top) top="$2"; synth_args+=("$1" "$2"); shift 2 ;;
    --sources) synth_args+=("$1" "$2"); shift 2 ;;
    --param) params+=("$2"); shift 2 ;;
    --params) params_read "$2" pnr.sh; shift 2 ;;
    --clock-ns) clock_ns="$2"; synth_args+=("$1" "$2"); shift 2 ;;
    --uncertainty-ns) uncertainty_ns="$2"; synth_args+=("$1" "$2"); shift 2 ;;
    --io-fraction) io_fraction="$2"; synth_args+=("$1" "$2"); shift 2 ;;
    --driving-cell) driving_cell="$2"; synth_args+=("$1" "$2"); shift 2 ;;
    --load-pf) load_pf="$2"; synth_args+=("$1" "$2"); shift 2 ;;
    --static-inputs) static_inputs="$2"; synth_args+=("$1" "$2"); shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --reuse-synth) reuse_synth=1; shift ;;
    --place-fast) place_fast="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "pnr.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$place_fast" =~ ^[1-9][0-9]*$ ]] ||
  { echo "pnr.sh: --place-fast $place_fast: want a positive integer" >&2; exit 2; }
for tool in qflow graywolf qrouter sta yosys; do
  command -v "$tool" >/dev/null || { echo "pnr.sh: $tool not found (scripts/setup.sh)" >&2; exit 2; }
done
[ -f "$tech/osu018_stdcells.lef" ] || { echo "pnr.sh: $tech not found (qflow-tech-osu018)" >&2; exit 2; }
params_merge  # the file's values, then the --param ones (which win): synth.sh gets them all
for p in "${params[@]+"${params[@]}"}"; do synth_args+=(--param "$p"); done
[ -n "$name" ] || name=$(config_name "$top")
[ "$name" != "$top" ] || name="${top}_default"  # no parameter: the RTL's defaults
mkdir -p "$out"
out=$(cd "$out" && pwd)  # qflow runs in its project folder: absolute paths only
t0=$(date +%s)

# 1. Synthesis (the estimate and the netlist), exactly as scripts/synth.sh.
if [ "$reuse_synth" = 1 ] && [ -s "$out/$name.v" ] && [ -s "$out/$name.json" ]; then
  echo "pnr.sh: reusing $out/$name.v and $name.json" >&2
else
  "$root/scripts/synth.sh" --out "$out" --name "$name" "${synth_args[@]+"${synth_args[@]}"}" >/dev/null
fi
t_synth=$(( $(date +%s) - t0 ))

# 2. qflow project: our mapped netlist enters through a user yosys script (BLIF out).
proj="$out/$name.qflow"
qflow_project "$proj" "$top" "$out/$name.v" "$liberty"
if [ "$place_fast" != 1 ]; then
  # qflow keeps a project's own .par (newer than the technology's): graywolf reads TWSC*fast.
  { cat "$tech/osu018.par"; printf '\nTWSC*fast : %s\n' "$place_fast"; } > "$proj/layout/$top.par"
fi
s=$(date +%s)
if ! (cd "$proj" && timeout "$timeout_s" qflow -T osu018 synthesize place route backanno "$top") \
    > "$proj/qflow.log" 2>&1; then
  echo "pnr.sh: qflow failed or timed out, see $proj/qflow.log and $proj/log/" >&2; exit 1
fi
t_pnr=$(( $(date +%s) - s ))
def="$proj/layout/$top.def"
spef="$proj/synthesis/$top.spef"
netlist="$proj/synthesis/$top.rtlnopwr.v"
for f in "$def" "$spef" "$netlist"; do
  [ -s "$f" ] || { echo "pnr.sh: qflow produced no $f, see $proj/log/" >&2; exit 1; }
done

# 3. Post-route STA: routed netlist + extracted parasitics, synth.sh's constraints. qflow's own
# SPEF comes from rc2dly, which stops at the few nets qrouter's extraction leaves broken and
# crashes on some net names: repair the RC file and convert it again (fix_rc.py says what).
mkdir -p "$proj/rc"
/usr/bin/python3 "$root/scripts/synth/fix_rc.py" "$netlist" "$liberty" "$proj/layout/$top.rc" \
  "$proj/rc/$top.rc" 2> "$proj/rc/fix_rc.log"
# rc2dly names the design after the RC file's path: run it beside the file.
(cd "$proj/rc" && /usr/lib/qflow/bin/rc2dly -D : -r "$top.rc" -l "$liberty" -d "$top.spef") \
  > "$proj/rc/rc2dly.log" 2>&1 || { echo "pnr.sh: rc2dly failed, see $proj/rc/rc2dly.log" >&2; exit 1; }
spef="$proj/rc/$top.spef"
/usr/bin/python3 "$root/scripts/synth/fix_spef.py" "$spef" "$proj/post_route.spef"
spef="$proj/post_route.spef"
io_ns=$(awk "BEGIN { printf \"%.4f\", $clock_ns * $io_fraction }")
cat > "$proj/post_route.sta" <<STA
read_liberty $liberty
read_verilog $netlist
link_design $top
read_spef $spef
$(block_constraints)
$(sta_reports)
exit
STA
sta -no_splash -exit "$proj/post_route.sta" > "$proj/post_route.sta.log" 2>&1 || true
if ! grep -q "^worst slack" "$proj/post_route.sta.log" || grep -q "^Error" "$proj/post_route.sta.log" \
    || grep -q "spef.*not found" "$proj/post_route.sta.log"; then
  echo "pnr.sh: post-route OpenSTA failed, see $proj/post_route.sta.log" >&2; exit 1
fi

/usr/bin/python3 "$root/scripts/synth/pnr_report.py" --name "$name" --synth-json "$out/$name.json" \
  --def "$def" --lef "$tech/osu018_stdcells.lef" --route-log "$proj/log/route.log" \
  --sta "$proj/post_route.sta.log" --clock-ns "$clock_ns" --io-fraction "$io_fraction" \
  --synth-seconds "$t_synth" --pnr-seconds "$t_pnr" --place-fast "$place_fast" \
  --netlist "$netlist" \
  --json "$out/$name.pnr.json" --text "$out/$name.pnr.txt"
cat "$out/$name.pnr.txt"
