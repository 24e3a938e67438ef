# Reads an RTL parameter file (rtl/params/*.params: one Name=value per line, '#' comments) for
# synth.sh, pnr.sh and formal.sh (sourced; bash). rtl/params.cmake reads the same format for the
# Verilated builds.
# params_file FILE CALLER prints each Name=value on a line; a line that is not one, a repeated
# name or a missing file stops the caller (exit 2) naming the file and line.
params_file() {
  local file=$1 caller=$2 line n=0 kv seen=" "
  [ -f "$file" ] || { echo "$caller: --params $file: no such file" >&2; exit 2; }
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    kv=$(echo "${line%%#*}" | tr -d ' \t\r')
    [ -n "$kv" ] || continue
    if [[ ! "$kv" =~ ^[A-Z][A-Za-z]*=[0-9]+$ ]]; then
      echo "$caller: $file:$n: '$line': want Name=integer (an RTL parameter, e.g. Depth=32)" >&2
      exit 2
    fi
    case "$seen" in *" ${kv%%=*} "*)
      echo "$caller: $file:$n: ${kv%%=*} given twice" >&2; exit 2 ;;
    esac
    seen+="${kv%%=*} "
    echo "$kv"
  done < "$file"
}

# params_file_name FILE: the configuration name a file gives a report: nic_sched_<its base name>
# (rtl/params/cosim.params: nic_sched_cosim).
params_file_name() {
  local base
  base=$(basename "$1")
  echo "nic_sched_${base%.params}"
}

# params_read FILE CALLER appends the file's Name=value entries to the caller's file_params array
# and sets its params_name (params_file_name); exit 2 on a bad file or a second --params.
params_read() {
  local listed kv
  if [ -n "${params_name:-}" ]; then
    echo "$2: --params given twice (one file; --param overrides a value)" >&2; exit 2
  fi
  listed=$(params_file "$1" "$2") || exit 2
  params_name=$(params_file_name "$1")
  while IFS= read -r kv; do [ -z "$kv" ] || file_params+=("$kv"); done <<< "$listed"
}

# params_merge: the caller's params array becomes its file_params (read with params_file) each
# left out where a --param in params names it, then params (a --param wins over the file); its
# params_name stays only when no --param came beside the file (else another configuration).
params_merge() {
  local kv p overridden merged=()
  [ ${#params[@]} -eq 0 ] || params_name=""
  for kv in "${file_params[@]+"${file_params[@]}"}"; do
    overridden=0
    for p in "${params[@]+"${params[@]}"}"; do [ "${p%%=*}" != "${kv%%=*}" ] || overridden=1; done
    [ $overridden -eq 1 ] || merged+=("$kv")
  done
  params=("${merged[@]+"${merged[@]}"}" "${params[@]+"${params[@]}"}")
}

# config_name TOP: the default report name after params_merge: the file's (params_name) when it
# is the whole configuration, else TOP and each parameter (nic_sched_nodes16_depth64).
config_name() {
  local p key config=$1
  if [ -n "${params_name:-}" ]; then echo "$params_name"; return; fi
  for p in "${params[@]+"${params[@]}"}"; do
    key=${p%%=*}; config+="_$(echo "${key}" | tr 'A-Z' 'a-z')${p#*=}"
  done
  echo "$config"
}
