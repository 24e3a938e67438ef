#!/usr/bin/env python3
"""Checks that the published figures of the NIC scheduler are of the signed-off configuration,
rtl/params/cosim.params: the synthesis and power reports in docs/synth (their `parameters`) and,
with --mtsim, the nic_sched build that mtsim was configured with and co-simulates
(`mtsim --version`). Prints each
difference (report, parameter, its value, the file's) and exits 1 when there is one.
  scripts/check_rtl_params.py [--mtsim build/bin/mtsim]"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PARAMS = ROOT / "rtl" / "params" / "cosim.params"
REPORTS = ["docs/synth/nic_sched_cosim.synth.json", "docs/synth/nic_sched_cosim.power.json"]


def read_params(path):
    """Name -> value of a parameter file (the format of rtl/params.cmake)."""
    values = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        kv = re.sub(r"\s", "", line.split("#", 1)[0])
        if not kv:
            continue
        m = re.fullmatch(r"([A-Z][A-Za-z]*)=([0-9]+)", kv)
        if not m:
            sys.exit(f"{path}:{n}: '{line}': want Name=integer")
        if m.group(1) in values:
            sys.exit(f"{path}:{n}: {m.group(1)} given twice")
        values[m.group(1)] = int(m.group(2))
    return values


def differences(where, have, want):
    return [f"{where}: {k} {have.get(k, 'missing')}, {PARAMS.name} {v}"
            for k, v in want.items() if have.get(k) != v] + \
           [f"{where}: {k} {have[k]} is not in {PARAMS.name}" for k in have if k not in want]


def version_params(mtsim):
    text = subprocess.run([mtsim, "--version"], check=True, capture_output=True, text=True).stdout
    m = re.search(r"nic_sched build \(what hardware-issue tables must fit\): (\S+) .* with (.*)",
                  text)
    if not m:
        return None, {}
    return m.group(1), {k: int(v) for k, v in re.findall(r"([A-Z][A-Za-z]*) ([0-9]+)", m.group(2))}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mtsim", help="also check the nic_sched build of this mtsim")
    args = parser.parse_args()
    want = read_params(PARAMS)
    problems = []
    for report in REPORTS:
        problems += differences(report, json.loads((ROOT / report).read_text())["parameters"], want)
    if args.mtsim:
        file, have = version_params(args.mtsim)
        if file is None:
            sys.exit("mtsim --version names no nic_sched build")
        elif file == PARAMS.name:
            problems += differences("mtsim --version", have, want)
        else:
            print(f"mtsim --version: a build of {file}, not the signed-off {PARAMS.name}: not "
                  "compared")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"{PARAMS.relative_to(ROOT)}: {len(want)} parameters, the same in "
          f"{len(REPORTS)} reports{' and mtsim --version' if args.mtsim else ''}")


if __name__ == "__main__":
    main()
