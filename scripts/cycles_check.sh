#!/usr/bin/env bash
# Runs a fixed set of scenarios with one mtsim binary and writes their results JSON, so that two
# builds can be compared field by field with scripts/cycles_diff.py (a speed change must leave
# every cycle count identical):
#   scripts/cycles_check.sh OLD_MTSIM out/before && scripts/cycles_check.sh build/bin/mtsim out/after
#   for f in out/before/*.json; do echo $f out/after/${f##*/}; done | xargs python3 scripts/cycles_diff.py
# The set: scenarios/default.yaml; the paper's 4x4 torus at 32 KiB, 1 MiB, 4 MiB; its 4x4 mesh at
# 32 KiB, 1 MiB; fat-tree k=8 and BiGraph 4x8 at 32 KiB; MultiTree (co-designed and baseline NIC)
# and the 2D ring on the 8x8 torus at 1 MiB; MultiTree on the co-designed NIC on a 16x16 torus at
# 1 MiB (71 runs; the 16x16 one takes the longest).
# --hosts adds both granularities under every host preset, both flow controls and hardware issue
# on the message model (scenarios default, beyond/mesh4x4, beyond/fattree_k8, beyond/torus4x4x4
# at 32 KiB and 1 MiB: 72 more result files, 1,080 runs, about 10 minutes): the check of a change
# to the host model or the message model.
set -euo pipefail
hosts=0
if [ "${1:-}" = --hosts ]; then hosts=1; shift; fi
[ $# -eq 2 ] || { echo "usage: scripts/cycles_check.sh [--hosts] MTSIM OUT_DIR" >&2; exit 2; }
m=$(realpath "$1")
o=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$o"
o=$(realpath "$o")
cd "$root"
hw='{name: multitree, label: multitree-hw, ports: 4, nic: {issue: hardware, flow_control: message}}'
sw='{name: multitree, label: multitree-sw, ports: 4}'
"$m" run scenarios/default.yaml -j 2 --json "$o/default.json" >/dev/null
"$m" run scenarios/paper/torus4x4.yaml --set 'collective.sizes=[32KiB,1MiB,4MiB]' -j 2 \
  --json "$o/torus4x4.json" >/dev/null
"$m" run scenarios/paper/mesh4x4.yaml --set 'collective.sizes=[32KiB,1MiB]' -j 2 \
  --json "$o/mesh4x4.json" >/dev/null
"$m" run scenarios/ideal/fattree8.yaml --set 'collective.sizes=[32KiB]' -j 2 \
  --json "$o/fattree8.json" >/dev/null
"$m" run scenarios/ideal/bigraph4x8.yaml --set 'collective.sizes=[32KiB]' -j 2 \
  --json "$o/bigraph4x8.json" >/dev/null
"$m" run scenarios/paper/torus8x8.yaml --set "collective.algorithms=[$hw, $sw, ring2d]" \
  --set 'collective.sizes=[1MiB]' -j 2 --json "$o/torus8x8.json" >/dev/null
"$m" run scenarios/paper/torus8x8.yaml --set "collective.algorithms=[$hw]" \
  --set 'topology.dims=[16,16]' --set 'collective.sizes=[1MiB]' --json "$o/torus16x16.json" >/dev/null
if [ "$hosts" -eq 1 ]; then
  sizes='collective.sizes=[32KiB,1MiB]'
  for sc in default beyond/mesh4x4 beyond/fattree_k8 beyond/torus4x4x4; do
    name=${sc//\//_}
    for host in free cpu_proxy gpu_initiated sequencer; do
      for g in message packet; do
        for fc in packet message; do
          "$m" run "scenarios/$sc.yaml" --set "host.preset=$host" --set "granularity=$g" \
            --set "nic.flow_control=$fc" --set nic.issue=software --set "$sizes" -j 2 \
            --json "$o/hosts_${name}_${host}_${g}_${fc}.json" >/dev/null
        done
      done
    done
    for fc in packet message; do
      "$m" run "scenarios/$sc.yaml" --set granularity=message --set nic.issue=hardware \
        --set "nic.flow_control=$fc" --set "$sizes" -j 2 \
        --json "$o/hosts_${name}_hw_message_${fc}.json" >/dev/null
    done
  done
fi
echo "$o: $(ls "$o" | wc -l) result files"
