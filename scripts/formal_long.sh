#!/usr/bin/env bash
# The formal proofs too long for ctest (rtl/formal/README.md "Window 2, unbounded"): the main
# harness at Window 2 (rtl/params/formal_window2.params), every assertion proven unbounded by ABC
# pdr, the issue order (OldestFirst_A), the grant handshake (GrantHeld_A) and liveness
# (Progress_A, LiveBound 28) included: about 16 minutes on two busy cores. ctest runs the short
# checks of the same configuration (its youngest-first mutant).
#   scripts/formal_long.sh [--out DIR] [--timeout S]    (default build/formal-long, 3600 s)
# Exit 0 proved, 1 a property failed or the engine timed out, 2 bad arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/formal-long"
timeout_s=3600
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "formal_long.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
exec "$root/scripts/formal.sh" --params "$root/rtl/params/formal_window2.params" --mode prove \
  --timeout "$timeout_s" --name nic_sched_formal_window2 --out "$out"
