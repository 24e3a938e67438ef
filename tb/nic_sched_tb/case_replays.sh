#!/usr/bin/env bash
# ctest rtl_tb_case_replays: each nic_sched_tb case's stimulus comes from its own generator, so
# `--case K` runs case K exactly as it runs among the others and a reported mismatch can be
# replayed (and traced) alone:
#   1. the cycles compared by a full run equal the sum over its cases run one by one (the random
#      tables and the error cases after them, until --case K is refused as past the last);
#   2. the mismatch a full run reports in case K is the one `--case K` reports.
#   case_replays.sh NIC_SCHED_TB
set -uo pipefail
tb=$1
cycles() { "$tb" "$@" | sed -n 's/.* \([0-9]*\) cycles compared.*/\1/p'; }
full=$(cycles --no-real --seed 2 --random 4)
sum=0
k=0
while "$tb" --no-real --seed 2 --random 4 --case "$k" >/dev/null 2>&1; do
  sum=$((sum + $(cycles --no-real --seed 2 --random 4 --case "$k")))
  k=$((k + 1))
done
[ "$k" -gt 4 ] || { echo "case_replays.sh: only $k cases ran alone"; exit 1; }
echo "4 random tables and $((k - 4)) error cases: $full cycles compared in one run, $sum case by case"
[ -n "$full" ] && [ "$full" -gt 0 ] && [ "$full" = "$sum" ] || exit 1

# A deliberately wrong golden model (latency 2 against the latency-3 build): its first mismatch.
mismatch() {
  "$tb" --no-real --seed 5 --random 50 --model-latency 2 "$@" 2>&1 |
    grep -o 'MISMATCH in case [0-9]*: [^(]*' | head -1
}
first=$(mismatch)
[ -n "$first" ] || { echo "case_replays.sh: the full run reported no mismatch"; exit 1; }
k=$(echo "$first" | sed 's/^MISMATCH in case \([0-9]*\):.*/\1/')
alone=$(mismatch --case "$k")
echo "full run: $first"
echo "case $k:   $alone"
[ "$first" = "$alone" ] || { echo "case_replays.sh: case $k alone differs"; exit 1; }
