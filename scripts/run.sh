#!/usr/bin/env bash
# One command: install what is missing, build (Release, into build/) and run a scenario
# (default: scenarios/default.yaml). Extra arguments go to `mtsim run`, e.g.
#   scripts/run.sh scenarios/default.yaml --set collective.sizes=[16MiB] --json out.json
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
scenario=${1:-$root/scenarios/default.yaml}
[ $# -gt 0 ] && shift
exec "$root/build/bin/mtsim" run "$scenario" --jobs "$(nproc 2>/dev/null || echo 2)" "$@"
