#!/usr/bin/env bash
# Checks that the includes of model/ follow the layers of the build (CMakeLists.txt, DESIGN.md):
#   core   (core/ topology/ collective/ workload/, nic/ but the Nic): no SystemC, no yaml-cpp,
#          nothing from noc/, sim/, run/, config/ or tb/
#   config (config/): the only files that include yaml-cpp
#   tlm    (noc/, the Nic: nic/nic.h, nic/nic.cpp, nic/nic_*.cpp, sim/): nothing from run/ or tb/
#   run    (run/): nothing from tb/
#   tlm and run take configuration as plain structs (config/*_config.h, config_error.h) and the
#   rules over them (config/nic_rules.h), never the loaders (the front ends load files)
# Prints every offending line (file:line: include) and exits 1 when there is one.
#   scripts/check_layers.sh [ROOT]    (default: the repository holding this script)
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
status=0

# offending INCLUDE_REGEX FILE... : prints the files' #include lines matching the regex
offending() {
  local pattern=$1 why=$2
  shift 2
  [ $# -gt 0 ] || return 0
  local hits
  hits=$(grep -HnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pattern)" "$@")
  if [ -n "$hits" ]; then
    echo "$hits" | sed "s|\$|   <- $why|"
    status=1
  fi
}

mapfile -t core < <(find model/core model/topology model/collective model/workload model/nic \
  -name '*.h' -o -name '*.cpp' | grep -vE '^model/nic/nic(_[a-z0-9_]+)?\.(h|cpp)$' | sort)
mapfile -t tlm < <(find model/noc model/sim -name '*.h' -o -name '*.cpp' | sort;
                   find model/nic -regex 'model/nic/nic\(_[a-z0-9_]+\)?\.\(h\|cpp\)' | sort)
mapfile -t run < <(find model/run -name '*.h' -o -name '*.cpp' 2>/dev/null | sort)
mapfile -t all < <(find model tb -name '*.h' -o -name '*.cpp' | sort)

offending 'systemc|tlm|tlm_utils/|yaml-cpp/|model/(noc|sim|run|config)/|model/nic/nic\.h|tb/' \
  "core: no SystemC, yaml-cpp, TLM model, loader, run layer or front end" "${core[@]}"
offending 'model/run/|tb/' "tlm: no run layer or front end" "${tlm[@]}"
offending 'tb/' "run: no front end" "${run[@]}"
# Of config/, only the allowed headers: a new loader header is refused without being listed.
hits=$(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"model/config/' "${tlm[@]}" "${run[@]}" |
  grep -vE '"model/config/([a-z_]+_config|config_error|nic_rules)\.h"')
if [ -n "$hits" ]; then
  echo "$hits" | sed 's|$|   <- tlm and run: configuration as plain structs and their rules, not the loaders|'
  status=1
fi
yaml=()
for f in "${all[@]}"; do
  case $f in model/config/*) ;; *) yaml+=("$f") ;; esac
done
offending 'yaml-cpp/' "yaml-cpp only in the loader (model/config/)" "${yaml[@]}"

if [ $status -eq 0 ]; then
  echo "layers: ${#core[@]} core, ${#tlm[@]} tlm, ${#run[@]} run files follow the layer rules"
fi
exit $status
