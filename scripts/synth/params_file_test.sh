#!/usr/bin/env bash
# ctest synth_params_file: the parameter-file functions synth.sh, pnr.sh and formal.sh share
# (scripts/synth/params_file.sh), without synthesis: a file's values with a --param winning, the
# report name a file gives and loses beside a --param, and the refusals (a bad line, a name given
# twice, a second file, a missing file), each with its exit status 2 and message.
#   params_file_test.sh SCRATCH_DIR
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: params_file_test.sh SCRATCH_DIR}
mkdir -p "$dir"
failures=0
check() {  # NAME WANT GOT
  if [ "$2" != "$3" ]; then
    echo "params_file_test: $1: want '$2', got '$3'" >&2
    failures=$((failures + 1))
  fi
}
# Runs a snippet with the functions loaded; prints its output and 'exit N'.
run() {
  bash -c "source '$root/scripts/synth/params_file.sh'; params=(); file_params=(); params_name='';
           $1" 2>&1
  echo "exit $?"
}
printf '# a comment\nNodes=4   # trailing comment\n\nDepth=8\n' > "$dir/small.params"
printf 'Depth=8\nDepth 8\n' > "$dir/bad.params"
printf 'Depth=8\nDepth=9\n' > "$dir/twice.params"

check "file alone" $'Nodes=4 Depth=8\nnic_sched_small\nexit 0' \
  "$(run "params_read $dir/small.params t; params_merge; echo \"\${params[*]}\"; config_name nic_sched")"
check "a --param wins and renames" $'Nodes=4 Depth=16\nnic_sched_nodes4_depth16\nexit 0' \
  "$(run "params=(Depth=16); params_read $dir/small.params t; params_merge; echo \"\${params[*]}\";
          config_name nic_sched")"
check "no file" $'nic_sched_depth16\nexit 0' \
  "$(run "params=(Depth=16); params_merge; config_name nic_sched")"
check "bad line" "t: $dir/bad.params:2: 'Depth 8': want Name=integer (an RTL parameter, e.g. Depth=32)
exit 2" "$(run "params_read $dir/bad.params t; echo not reached")"
check "name twice" "t: $dir/twice.params:2: Depth given twice
exit 2" "$(run "params_read $dir/twice.params t; echo not reached")"
check "second file" "t: --params given twice (one file; --param overrides a value)
exit 2" "$(run "params_read $dir/small.params t; params_read $dir/small.params t; echo not reached")"
check "missing file" "t: --params $dir/none.params: no such file
exit 2" "$(run "params_read $dir/none.params t; echo not reached")"

if [ $failures -gt 0 ]; then exit 1; fi
echo "params_file_test: 7 cases as expected"
