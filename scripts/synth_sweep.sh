#!/usr/bin/env bash
# Area and fmax of nic_sched over node count x table depth (scripts/synth.sh per point), then a
# markdown table and a plot under docs/synth/ (scripts/synth/sweep_report.py). Figures are
# 0.18 um (OSU018) estimates; the reference point is the flop area of one router input port's
# buffers in the same library (4 VCs x 318 flits x 16 B), so the scheduler reads as a ratio.
#
#   scripts/synth_sweep.sh [--nodes "16 64 256"] [--depths "32 128"] [--clock-ns 5]
#                          [--out build/synth/sweep] [--docs docs/synth]
#
# Per point: Nodes=N, Depth=D, Ports=4 (2D torus), Chunks=N, Flows=N, Steps=2N (a ring's
# 2(N-1) steps fit), Counters=min(N+1, D) (MultiTree: one per tree + one), MaxCount=15.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nodes="16 64 256"
depths="32 128"
clock_ns=5
out="$root/build/synth/sweep"
docs="$root/docs/synth"
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes="$2"; shift 2 ;;
    --depths) depths="$2"; shift 2 ;;
    --clock-ns) clock_ns="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --docs) docs="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "synth_sweep.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out" "$docs"
results=()
for n in $nodes; do
  for d in $depths; do
    counters=$(( n + 1 < d ? n + 1 : d ))
    name="nodes${n}_depth${d}"
    echo "== $name ==" >&2
    "$root/scripts/synth.sh" --out "$out" --name "$name" --clock-ns "$clock_ns" \
      --param Nodes="$n" --param Depth="$d" --param Ports=4 --param Chunks="$n" \
      --param Flows="$n" --param Steps=$(( 2 * n )) --param Counters="$counters" \
      --param MaxCount=15 >&2
    results+=("$out/$name.json")
  done
done
/usr/bin/python3 "$root/scripts/synth/sweep_report.py" --docs "$docs" "${results[@]}"
