#!/usr/bin/env bash
# Checks that every include of model/ follows the layers of the build (CMakeLists.txt: one
# library per folder, ARCHITECTURE.md): each folder may include only the folders listed for it
# below, SystemC/TLM only in the tlm folders, yaml-cpp only in config/, and nothing of model/
# includes the front ends (tb/). Prints every offending line (file:line: include) and exits 1
# when there is one.
#   scripts/check_layers.sh [ROOT]    (default: the repository holding this script)
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

# folder -> the folders of model/ its files may include (its own included), bottom layer first.
declare -A allowed=(
  [core]="core"
  [topology]="core topology"
  [collective]="core topology collective"
  [workload]="core workload"
  [data]="core topology collective data"
  [sched]="core topology collective sched"
  [params]="core topology collective workload data sched params"
  [config]="core topology collective workload data sched params config"
  [noc]="core topology collective params noc"
  [nic]="core topology collective data sched params noc nic"
  [sim]="core topology collective data sched params noc nic sim"
  [flow]="core topology collective data sched params noc sim flow"
  [run]="core topology collective workload data sched params noc nic sim flow run"
)
order="core topology collective workload data sched params config noc nic sim flow run"
tlm_folders=" noc nic sim "
status=0
checked=0

for folder in $(ls model); do
  [ -d "model/$folder" ] || continue
  if [ -z "${allowed[$folder]+set}" ]; then
    echo "model/$folder/: a folder the layer rules do not list (add it to scripts/check_layers.sh)"
    status=1
    continue
  fi
  mapfile -t files < <(find "model/$folder" -name '*.h' -o -name '*.cpp' | sort)
  [ ${#files[@]} -gt 0 ] || continue
  checked=$((checked + ${#files[@]}))
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    include=$(echo "$hit" | sed -E 's/^[^:]+:[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]+)[>"].*/\1/')
    why=""
    case $include in
      model/*)
        target=$(echo "$include" | cut -d/ -f2)
        case " ${allowed[$folder]} " in
          *" $target "*) ;;
          *) why="model/$folder/ may include only: ${allowed[$folder]}" ;;
        esac
        ;;
      tb/*) why="the model never includes a front end" ;;
      systemc | systemc.h | tlm | tlm.h | tlm_utils/* | sysc/*)
        case $tlm_folders in *" $folder "*) ;; *) why="SystemC/TLM only in noc/, nic/, sim/" ;; esac
        ;;
      yaml-cpp/*) [ "$folder" = config ] || why="yaml-cpp only in the loader (model/config/)" ;;
    esac
    if [ -n "$why" ]; then
      echo "$hit   <- $why"
      status=1
    fi
  done < <(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "${files[@]}")
done
# Nothing outside config/ and the front ends includes yaml-cpp (tests and fuzz may).
hits=$(grep -rHnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<yaml-cpp/' tb 2>/dev/null)
if [ -n "$hits" ]; then
  echo "$hits" | sed 's|$|   <- yaml-cpp only in the loader (model/config/)|'
  status=1
fi

if [ $status -eq 0 ]; then
  echo "layers: $checked files of model/ follow the folder rules ($order)"
fi
exit $status
