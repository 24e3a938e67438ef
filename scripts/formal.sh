#!/usr/bin/env bash
# Formal proof of the NIC scheduler through its harness (rtl/formal/README.md): Yosys reads the RTL
# with -formal (the MT_ASSERT/MT_ASSUME/MT_COVER macros become immediate assert/assume/cover),
# flattens it and writes an AIGER model and an SMT-LIB2 model; ABC's PDR (yosys-abc) tries to prove
# every assertion for all depths (unbounded) under the assumptions (it finishes on the small
# configuration of rtl/formal/README.md in about 15 s; on the default harness it does not finish
# within 300 s: use --bound 12 there, as ctest does); a failure's witness is replayed by
# yosys-smtbmc (z3) on the SMT2 model, which names the failing assertion and writes a VCD trace.
# Cover runs: each cover point becomes a bad state that ABC's bmc3 must reach; the frame of the
# witness is reported (a cover never reached within --cover-frames is an error: vacuity check).
#
#   scripts/formal.sh [--top MODULE] [--dut MODULE] [--sources "GLOB..."] [--params FILE]
#                     [--param Name=value]...
#                     [--mode prove|cover|all] [--mutant NAME] [--expect-fail PROPERTY]
#                     [--timeout S] [--cover-frames N] [--covers REGEX] [--bound N] [--out DIR]
#                     [--name NAME]
#
#   --top          harness module (default nic_sched_formal)
#   --dut          module the harness instantiates (-DMT_FORMAL_DUT, default nic_sched)
#   --sources      source globs relative to the repository (default "rtl/*.sv rtl/formal/*.sv")
#   --params       harness parameters from FILE (Name=value lines: rtl/params/formal_small.params
#                  is the small proof configuration)
#   --param        harness parameter override (default config: Depth 8, Ports 2, Counters 4, ...;
#                  after --params: wins)
#   --mode         prove (default), cover, or all
#   --mutant       apply the mutant NAME of rtl/formal/mutants.txt to the copied sources
#   --expect-fail  the proof must fail, on an assertion whose name matches the regex PROPERTY
#                  (exit 0 then, 1 when it passes or fails elsewhere): the mutant test
#   --timeout      seconds per engine run (default 300)
#   --cover-frames bmc3 frame limit for covers (default 60)
#   --covers       only the covers whose name matches the regex REGEX (default: every cover)
#   --bound        bounded proof instead of pdr: ABC bmc3 to N frames (result "bounded")
#   --out          output folder (default build/formal)
#   --name         name of the report and folder (default: harness, mutant and mode, e.g.
#                  nic_sched_formal_cover)
#
# Writes DIR/<name>.json (result, engine, time, failing property and frame, cover frames) and
# DIR/<name>/ (sources, models, logs, trace.vcd on failure). Exit 0 proved (or failed as expected),
# 1 property failed / cover unreached / timeout, 2 bad arguments or missing tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=synth/params_file.sh
source "$root/scripts/synth/params_file.sh"
top=nic_sched_formal
dut=nic_sched
sources="rtl/*.sv rtl/formal/*.sv"
mode=prove
mutant=""
expect_fail=""
timeout_s=300
cover_frames=60
out="$root/build/formal"
name=""
params=()
file_params=()
bound=""
cover_re=""
usage() { sed -n '2,39p' "$0"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --top) top="$2"; shift 2 ;;
    --dut) dut="$2"; shift 2 ;;
    --sources) sources="$2"; shift 2 ;;
    --param) params+=("$2"); shift 2 ;;
    --params)
      params_read "$2" formal.sh
      shift 2 ;;
    --mode) mode="$2"; shift 2 ;;
    --mutant) mutant="$2"; shift 2 ;;
    --expect-fail) expect_fail="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --cover-frames) cover_frames="$2"; shift 2 ;;
    --covers) cover_re="$2"; shift 2 ;;
    --bound) bound="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "formal.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$mode" in prove|cover|all) ;; *) echo "formal.sh: --mode $mode: want prove, cover or all" >&2; exit 2 ;; esac
for n in "timeout:$timeout_s" "cover-frames:$cover_frames" "bound:$bound"; do
  value=${n#*:}
  if [ -n "$value" ] && [[ ! "$value" =~ ^[1-9][0-9]*$ ]]; then
    echo "formal.sh: --${n%%:*} $value: want a positive integer" >&2; exit 2
  fi
done
if [ -n "$mutant" ] &&
   ! awk -F'\t' -v m="$mutant" '$1 == m { found = 1 } END { exit !found }' "$root/rtl/formal/mutants.txt"; then
  echo "formal.sh: --mutant $mutant: no such mutant in rtl/formal/mutants.txt" >&2; exit 2
fi
for tool in yosys yosys-abc yosys-smtbmc z3; do
  command -v "$tool" >/dev/null || { echo "formal.sh: $tool not found (scripts/setup.sh)" >&2; exit 2; }
done
params_merge
chparam=""
for p in "${params[@]+"${params[@]}"}"; do
  key=${p%%=*}; value=${p#*=}
  if [[ ! "$key" =~ ^[A-Z][A-Za-z]*$ || ! "$value" =~ ^[0-9]+$ ]]; then
    echo "formal.sh: bad --param '$p' (want Name=integer)" >&2; exit 2
  fi
  chparam+=" -chparam $key $value"
done
[ -n "$name" ] || name="${top}${mutant:+_$mutant}$([ "$mode" = prove ] || echo "_$mode")"
work="$out/$name"
rm -rf "$work"; mkdir -p "$work/src"

# Sources, copied (a mutant edits the copy only).
srcs=()
for g in $sources; do
  for f in "$root"/$g; do
    [ -f "$f" ] || { echo "formal.sh: --sources: no file matches $g" >&2; exit 2; }
    cp "$f" "$work/src/"; srcs+=("$work/src/$(basename "$f")")
  done
done
if [ -n "$mutant" ]; then
  /usr/bin/python3 - "$root/rtl/formal/mutants.txt" "$mutant" "$work/src" <<'PY'
import os, sys
table, name, src = sys.argv[1:]
for n, line in enumerate(open(table), 1):
    if line.startswith("#") or not line.strip():
        continue
    fields = line.rstrip("\n").split("\t")
    if len(fields) != 4:
        sys.exit("formal.sh: %s:%d: want name<TAB>file<TAB>text<TAB>replacement" % (table, n))
    if fields[0] != name:
        continue
    path = os.path.join(src, fields[1])
    text = open(path).read()
    if text.count(fields[2]) != 1:
        sys.exit("formal.sh: mutant %s: the text occurs %d times in %s (want 1)"
                 % (name, text.count(fields[2]), fields[1]))
    open(path, "w").write(text.replace(fields[2], fields[3]))
    sys.exit(0)
sys.exit("formal.sh: no mutant %s in %s" % (name, table))
PY
fi

# Yosys: the common front end. $1 = extra defines, $2 = model base name, $3 = extra commands.
model() {
  cat > "$work/$2.ys" <<YS
read_verilog -formal -sv -DMT_FORMAL_DUT=$dut $1 -I$root/rtl/include ${srcs[*]}
hierarchy -check -top $top$chparam
prep -flatten -top $top
memory_map
async2sync
setundef -undriven -anyseq
opt -full
techmap
opt -fast
abc -g AND -fast
dffunmap
aigmap
opt_clean
$3
YS
  if ! timeout "$timeout_s" yosys -q -l "$work/$2.yosys.log" -s "$work/$2.ys" >/dev/null; then
    if rule=$("$root/scripts/synth/param_rule.sh" "$work/$2.yosys.log") && [ -n "$rule" ]; then
      echo "formal.sh: --param ${params[*]}: an illegal parameter set: $rule" >&2
      exit 2
    fi
    echo "formal.sh: yosys failed, see $work/$2.yosys.log" >&2
    grep -E "ERROR" "$work/$2.yosys.log" >&2 || true
    exit 2
  fi
}

result=""; fail_prop=""; fail_frame=""; prove_s=""; covers_json="{}"
t0=$(date +%s.%N)

if [ "$mode" != cover ]; then
  model "" prove "chformal -cover -remove
tee -q -o $work/prove.stat stat
write_smt2 -wires $work/prove.smt2
write_aiger -zinit -map $work/prove.aim $work/prove.aig"
  grep -q '\$assert' "$work/prove.stat" || { echo "formal.sh: no assertion in $top" >&2; exit 2; }
  s=$(date +%s.%N)
  rc=0
  engine=pdr; [ -z "$bound" ] || engine="bmc3 -F $bound"
  timeout "$timeout_s" yosys-abc -c "read_aiger $work/prove.aig; fold; strash; $engine; write_cex -a $work/prove.aiw" \
    > "$work/prove.abc.log" 2>&1 || rc=$?
  prove_s=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $s }")
  if [ $rc -eq 124 ]; then
    result=timeout
  elif grep -q "^Property proved" "$work/prove.abc.log"; then
    result=proved
  elif [ -n "$bound" ] && grep -q "^No output asserted in" "$work/prove.abc.log"; then
    result=bounded
  elif grep -q "was asserted in frame" "$work/prove.abc.log"; then
    result=failed
    fail_frame=$(sed -n 's/.*was asserted in frame \([0-9]*\).*/\1/p' "$work/prove.abc.log" | head -1)
    # Replay the witness on the SMT2 model: names the assertion, writes the trace.
    timeout "$timeout_s" yosys-smtbmc -s z3 --noprogress --aig-noheader --dump-vcd "$work/trace.vcd" \
      --aig "$work/prove.aim:$work/prove.aiw" "$work/prove.smt2" > "$work/replay.log" 2>&1 || true
    # The failing assertions' names: the label (Name_A) of the MT_ASSERT at each reported line.
    fail_prop=$(grep "Assert failed in" "$work/replay.log" | while read -r l; do
      loc=$(echo "$l" | grep -oE '[A-Za-z0-9_]+\.sv:[0-9]+\$[0-9]+\)$' | sed 's/\$.*//')
      label=$(sed -n "${loc##*:}p" "$work/src/${loc%%:*}" 2>/dev/null | grep -oE 'MT_ASSERT\([A-Za-z0-9_]+' | sed 's/MT_ASSERT(//')
      echo "${label:-?} ($loc)"
    done | sort -u | paste -sd, - | sed 's/,/, /g')
  else
    echo "formal.sh: ABC gave no verdict, see $work/prove.abc.log" >&2; exit 1
  fi
fi

if [ "$mode" != prove ]; then
  # Per cover: a model where it is the only bad state (the others removed), then ABC bmc3.
  # Covers of the design and of this harness (another harness's file is read but not elaborated).
  cover_srcs=()
  for f in "${srcs[@]}"; do
    if grep -qE '^module [A-Za-z0-9_]+_formal\b' "$f" && ! grep -qE "^module $top\b" "$f"; then
      continue
    fi
    cover_srcs+=("$f")
  done
  covers=$(grep -nE '`MT_COVER\([A-Za-z0-9_]+' "${cover_srcs[@]}" | sed -E 's#^([^:]*):([0-9]+):.*MT_COVER\(([A-Za-z0-9_]+).*#\1:\2:\3#')
  if [ -n "$cover_re" ]; then
    covers=$(echo "$covers" | awk -F: -v re="^($cover_re)\$" '$3 ~ re')
  fi
  [ -n "$covers" ] || { echo "formal.sh: no MT_COVER${cover_re:+ matching $cover_re} in the sources" >&2; exit 2; }
  covers_json="{"
  while IFS=: read -r file line cname; do
    base=$(basename "$file")
    # Re-run the front end (design -save does not survive processes) with the per-cover tail.
    model "-DMT_FORMAL_COVERS" "cover_$cname.model" "select -set keep t:\$assert a:src=*$base:$line.* %i
delete t:\$assert @keep %d
select -assert-count 1 t:\$assert
write_aiger -zinit -map $work/cover_$cname.aim $work/cover_$cname.aig"
    rc=0
    timeout "$timeout_s" yosys-abc -c "read_aiger $work/cover_$cname.aig; fold; strash; bmc3 -F $cover_frames" \
      > "$work/cover_$cname.abc.log" 2>&1 || rc=$?
    frame=$(sed -n 's/.*was asserted in frame \([0-9]*\).*/\1/p' "$work/cover_$cname.abc.log" | head -1)
    if [ -z "$frame" ]; then
      echo "formal.sh: cover $cname not reached in $cover_frames frames (rc $rc), see $work/cover_$cname.abc.log" >&2
      frame=null; [ "$result" = failed ] || result=cover_unreached
    else
      echo "formal.sh: cover $cname reached at frame $frame"
    fi
    covers_json+="\"$cname\": $frame, "
  done <<< "$covers"
  covers_json="${covers_json%, }}"
  [ -n "$result" ] || result=covered
fi
total_s=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }")

/usr/bin/python3 - "$work.json" <<PY
import json, sys
r = {"top": "$top", "dut": "$dut", "sources": "$sources", "parameters": "${params[*]+"${params[*]}"}",
     "mode": "$mode", "mutant": "$mutant" or None, "result": "$result",
     "engine": ("yosys -formal, ABC bmc3 -F $bound (bounded proof)" if "$bound" else "yosys -formal, ABC pdr (unbounded proof)") + ", bmc3 (covers), yosys-smtbmc+z3 (replay)",
     "prove_time_s": float("${prove_s:-0}" or 0), "total_time_s": round(float("$total_s"), 2),
     "failed_property": "$fail_prop" or None,
     "failed_frame": int("$fail_frame") if "$fail_frame" else None,
     "cover_frames": json.loads('''$covers_json''')}
json.dump(r, open(sys.argv[1], "w"), indent=2)
PY
summary="formal.sh: $name: $result (prove ${prove_s:-n/a} s, total $total_s s)"
[ -n "$fail_prop" ] && summary+=", failed $fail_prop at frame $fail_frame"
echo "$summary"

if [ -n "$expect_fail" ]; then
  if [ "$result" = failed ] && echo "$fail_prop" | grep -qE "$expect_fail"; then
    echo "formal.sh: failed as expected ($expect_fail)"; exit 0
  fi
  echo "formal.sh: expected a failure of $expect_fail, got $result ${fail_prop}" >&2; exit 1
fi
case "$result" in proved|bounded|covered) exit 0 ;; *) exit 1 ;; esac
