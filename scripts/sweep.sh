#!/usr/bin/env bash
# One command: install what is missing, build (Release, build/), run a sweep with one process per
# core and plot its results. Without arguments it regenerates the paper comparison and its
# figures in docs/plots/:
#   scripts/sweep.sh                                   # scenarios/sweeps/paper.yaml -> out/paper, docs/plots
#   scripts/sweep.sh SWEEP.yaml [OUT [PLOTS]] [-- extra `mtsim sweep` options, e.g. --resume,
#                                              or --overwrite to replace an earlier run in OUT]
# OUT defaults to out/<sweep file name>, PLOTS to OUT/plots (docs/plots for the paper sweep);
# MT_BUILD_DIR picks another build folder, as for scripts/build.sh; MT_MTSIM=PATH runs that mtsim
# binary instead and installs and builds nothing (only python3-matplotlib is then needed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sweep=$root/scenarios/sweeps/paper.yaml
out= plots=
[ $# -gt 0 ] && [ "$1" != -- ] && { sweep=$1; shift; }
[ $# -gt 0 ] && [ "$1" != -- ] && { out=$1; shift; }
[ $# -gt 0 ] && [ "$1" != -- ] && { plots=$1; shift; }
[ $# -gt 0 ] && [ "$1" = -- ] && shift
name=$(basename "$sweep" .yaml)
out=${out:-$root/out/$name}
if [ -z "$plots" ]; then
  if [ "$(cd "$(dirname "$sweep")" && pwd)/$name.yaml" = "$root/scenarios/sweeps/paper.yaml" ]; then
    plots=$root/docs/plots
  else
    plots=$out/plots
  fi
fi
if [ -n "${MT_MTSIM:-}" ]; then
  [ -x "$MT_MTSIM" ] || { echo "sweep.sh: MT_MTSIM=$MT_MTSIM is not an executable" >&2; exit 2; }
  mtsim=$MT_MTSIM
else
  "$root/scripts/setup.sh"
  "$root/scripts/build.sh"
  mtsim=${MT_BUILD_DIR:-$root/build}/bin/mtsim
fi
status=0
"$mtsim" sweep "$sweep" --jobs "$(nproc 2>/dev/null || echo 2)" --out "$out" "$@" || status=$?
[ "$status" -le 1 ] || exit "$status"   # bad input: nothing to plot
python3 "$root/scripts/plot.py" "$out" --out "$plots"
exit "$status"
