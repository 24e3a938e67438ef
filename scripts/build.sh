#!/usr/bin/env bash
# Configures and builds mtsim (Release) into build/ (or $MT_BUILD_DIR). Extra args go to cmake.
#
# Profile-guided: the first build of a build folder first builds an instrumented mtsim
# (<build>/pgo-gen/, mtsim only), runs it on a short training set (every algorithm family, both
# NIC modes, torus, mesh, 3D torus and fat-tree, full and sampled data; about a minute) and then
# compiles the Release build with that profile (<build>/pgo-profile/). Same cycles and results,
# 10-18% less wall time on 16-64 node networks, ~3% at 144+ (README "Speed"). Later builds reuse
# the profile; a source edited since is compiled without its part of it.
#   MT_PGO=0 scripts/build.sh        builds without profile (and leaves an existing one alone)
#   rm -rf build/pgo-profile         takes a new profile at the next build
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

profile_args=()
if [ "${MT_PGO:-1}" != 0 ]; then
  if [ ! -f "$profile/complete" ]; then
    echo "== profile-guided build: instrumented mtsim, training runs (once per build folder) =="
    gen=$build/pgo-gen
    rm -rf "$profile"
    cmake -S "$root" -B "$gen" -DCMAKE_BUILD_TYPE=Release -DMT_BUILD_TESTS=OFF \
      -DMT_PROFILE=generate -DMT_PROFILE_DIR="$profile" >/dev/null
    cmake --build "$gen" -j "$jobs" --target mtsim
    if train "$gen/bin/mtsim" >"$gen/training.log" 2>&1; then
      touch "$profile/complete"
    else
      # A broken training run leaves a partial profile: build with it, say so, retry next time.
      echo "build.sh: a training run failed (log: $gen/training.log); building with a partial profile" >&2
    fi
    # Objects compiled before (with an older profile or none) do not depend on it in CMake's eyes.
    if [ -f "$build/CMakeCache.txt" ]; then cmake --build "$build" --target clean; fi
  fi
  profile_args=(-DMT_PROFILE=use -DMT_PROFILE_DIR="$profile")
elif [ -f "$build/CMakeCache.txt" ]; then
  profile_args=(-DMT_PROFILE=)
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${profile_args[@]}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
