# What bench.sh and bench_schedule.sh share (sourced; bash; `root` set to the repository).
# bench_mtsim prints the mtsim binary to time: MT_BENCH_MTSIM when set (e.g. an older build),
# else build/bin/mtsim after scripts/setup.sh and scripts/build.sh (incremental: the binary
# timed is the sources' own, never a stale one).
bench_mtsim() {
  if [ -n "${MT_BENCH_MTSIM:-}" ]; then
    echo "$MT_BENCH_MTSIM"
    return
  fi
  "$root/scripts/setup.sh" >&2
  echo "building with scripts/build.sh (quiet; a first profile-guided build takes about" \
    "12 minutes)" >&2
  "$root/scripts/build.sh" >/dev/null
  echo "$root/build/bin/mtsim"
}

# jsonl_to_json IN OUT writes the JSON objects of IN, one per line, to OUT as one JSON list.
jsonl_to_json() {
  python3 -c 'import json, sys
print(json.dumps([json.loads(l) for l in open(sys.argv[1])], indent=1))' "$1" >"$2"
}
