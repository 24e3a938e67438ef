#!/usr/bin/env bash
# Configures and builds mtsim (Release) into build/ (or $MT_BUILD_DIR). Extra args go to cmake.
#
# Profile-guided: the Release build is compiled with a profile of a training run
# (<build>/pgo-profile/): an instrumented mtsim (<build>/pgo-gen/, mtsim only) simulates a short
# training set (every algorithm family, both NIC modes, torus, mesh, 3D torus and fat-tree, full
# and sampled data; about 30 s). Same cycles and results, 10-18% less wall time on 16-64 node
# networks, a few % at 144+ (docs/speed.md). The profile is taken again whenever a source under
# model/, tb/ or rtl/ (or a CMakeLists.txt) is newer than it: GCC stops with an error (not a named
# warning, so -Werror makes it fatal) when an edited function's callers still have profile counts
# for it. The instrumented build is incremental, so an edit costs the compile of its unity batch
# (8 files) twice plus the training.
#   MT_PGO=0 scripts/build.sh        builds without profile (e.g. MT_BUILD_DIR=build-dev MT_PGO=0)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MT_BUILD_DIR:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)
profile=$build/pgo-profile

# The training set: what the profile has seen is what gets optimised for.
train() {
  local mtsim=$1 paper=$root/scenarios/paper beyond=$root/scenarios/beyond
  local hw='{name: multitree, label: multitree-hw, nic: {issue: hardware, flow_control: message}}'
  "$mtsim" run "$root/scenarios/default.yaml" -j "$jobs" &&
    "$mtsim" run "$paper/torus4x4.yaml" -j "$jobs" --set "collective.algorithms=[$hw]" \
      --set 'collective.sizes=[1MiB]' &&
    "$mtsim" run "$paper/torus4x4.yaml" -j "$jobs" --set 'topology.dims=[8,8]' \
      --set "collective.algorithms=[$hw,tree_packing]" --set 'collective.sizes=[1MiB]' \
      --set 'collective.max_data_bytes=64KiB' &&
    "$mtsim" run "$paper/mesh4x4.yaml" -j "$jobs" --set 'collective.sizes=[256KiB]' &&
    "$mtsim" run "$beyond/fattree_k8.yaml" -j "$jobs" --set 'collective.sizes=[256KiB]' &&
    "$mtsim" run "$beyond/torus4x4x4.yaml" -j "$jobs" --set 'collective.sizes=[256KiB]' &&
    "$mtsim" schedule --topology torus:8x8x8 --algorithm tree_packing --bytes 1MiB
}

# A source newer than the profile (or no profile): take it again.
stale_profile() {
  [ ! -f "$profile/complete" ] ||
    [ -n "$(find "$root/model" "$root/tb" "$root/rtl" "$root/CMakeLists.txt" \
      -newer "$profile/complete" -print -quit)" ]
}

profile_args=()
if [ "${MT_PGO:-1}" != 0 ]; then
  if stale_profile; then
    echo "== profile-guided build: instrumented mtsim, training runs (after any source change) =="
    gen=$build/pgo-gen
    cmake -S "$root" -B "$gen" -DCMAKE_BUILD_TYPE=Release -DMT_BUILD_TESTS=OFF \
      -DMT_PROFILE=generate -DMT_PROFILE_DIR="$profile" >/dev/null
    cmake --build "$gen" -j "$jobs" --target mtsim
    rm -rf "$profile"
    mkdir -p "$profile"
    if train "$gen/bin/mtsim" >"$gen/training.log" 2>&1; then
      touch "$profile/complete"
    else
      # A failed training run leaves a partial profile: build with it, say so, retry next time.
      echo "build.sh: a training run failed (log: $gen/training.log); building with a partial profile" >&2
    fi
  fi
  profile_args=(-DMT_PROFILE=use -DMT_PROFILE_DIR="$profile")
elif [ -f "$build/CMakeCache.txt" ]; then
  profile_args=(-DMT_PROFILE=)
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${profile_args[@]}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
