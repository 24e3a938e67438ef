#!/usr/bin/env bash
# ctest `synth` smoke test of scripts/pnr.sh: places and routes a small configuration (2 nodes,
# 2 ports, 4 table entries, windows of 2, 2 counters; about 780 cells, 25-30 s: the flow is what
# is tested, the default configuration's figures come from scripts/pnr.sh) into OUT_DIR and checks
# the report: graywolf's reduced effort (--place-fast 2) recorded, every net routed, cells on the
# die at least the synthesised ones, utilisation in (0, 1], a positive post-route critical path
# ending in a named register, the slowest blocks after routing.
#   pnr_smoke_test.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: pnr_smoke_test.sh OUT_DIR}
"$root/scripts/pnr.sh" --out "$out" --name pnr_smoke --param Nodes=2 --param Ports=2 \
  --param Depth=4 --param Window=2 --param Chunks=2 --param Flows=2 --param Steps=2 \
  --param Counters=2 --param MaxCount=1 --param ArrivalLanes=1 --param DecisionLatency=2 \
  --param IndexBits=4 --place-fast 2
/usr/bin/python3 - "$out/pnr_smoke.pnr.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p, s = r["post_layout"], r["synthesis"]
errors = []
if r.get("place_fast") != 2:
    errors.append("placement effort %s recorded, --place-fast 2 given" % r.get("place_fast"))
if not p.get("hold"):
    errors.append("no post-route hold check")
if not p.get("slowest_blocks") or not p["critical_path_to_named"].startswith("register "):
    errors.append("no named post-route critical path or slowest blocks")
if p["failed_routes"] != 0:
    errors.append("%s failed routes" % p["failed_routes"])
if not 0 < p["utilisation"] <= 1:
    errors.append("utilisation %s" % p["utilisation"])
if p["cells"] < s["cells"]:
    errors.append("%d cells placed, %d synthesised" % (p["cells"], s["cells"]))
if not p["cell_area_mm2"] >= s["area_mm2"] * 0.99:
    errors.append("placed cell area %s < synthesised %s" % (p["cell_area_mm2"], s["area_mm2"]))
if not p["critical_path_ns"] > 0:
    errors.append("post-route critical path %s" % p["critical_path_ns"])
if errors:
    sys.exit("pnr smoke: " + "; ".join(errors))
print("pnr smoke: %d cells, utilisation %.2f, die %.4f mm2, post-route %.3f ns: ok"
      % (p["cells"], p["utilisation"], p["die_area_mm2"], p["critical_path_ns"]))
PY
