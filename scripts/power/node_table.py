#!/usr/bin/env python3
"""The co-simulated scheduler's area, clock and power: measured in OSU 0.18 um and estimated at
7 nm, in one table (docs/energy.md, checked by scripts/docs_tables.py).

  node_table.py SYNTH.json POWER.json

SYNTH.json is scripts/synth.sh's figures of the configuration (area, fmax), POWER.json
scripts/power.sh's (energy per cycle with work and without, leakage); both must name the same
parameters. The 7 nm column applies Stillmaker and Baas's 180 nm -> 7 nm HP factors (Integration
58, 2017; docs/energy.md source 22): estimates from a teaching library, not a 7 nm synthesis.
Exit status: 0 done, 2 bad input. Standard library only.
"""

import json
import sys

# Stillmaker-Baas 180 nm -> 7 nm (HP, nominal Vdd): delay, energy per operation, power, area.
DELAY, ENERGY, POWER, AREA = 0.041, 0.00181, 0.00333, 0.0032


def rows(synth, power):
    """(metric, unit, 0.18 um value, 7 nm estimate, factor) of every line."""
    m = power["at_180nm"]
    fmax = synth["fmax_mhz"]
    return [
        ("area", "mm2", synth["area_mm2"], synth["area_mm2"] * AREA, AREA),
        ("fmax", "MHz", fmax, fmax / DELAY, 1 / DELAY),
        ("energy per cycle with work", "pJ", m["active_pj_per_cycle"],
         m["active_pj_per_cycle"] * ENERGY, ENERGY),
        ("energy per idle cycle (clock only)", "pJ", m["idle_pj_per_cycle"],
         m["idle_pj_per_cycle"] * ENERGY, ENERGY),
        ("leakage", "mW", m["leakage_mw"], m["leakage_mw"] * POWER, POWER),
        ("power at fmax with work every cycle", "mW", m["active_pj_per_cycle"] * fmax / 1e3,
         m["active_pj_per_cycle"] * ENERGY * fmax / DELAY / 1e3, ENERGY / DELAY),
    ]


def number(x):
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        synth = json.load(open(sys.argv[1], encoding="utf-8"))
        power = json.load(open(sys.argv[2], encoding="utf-8"))
        other = {k: v for k, v in power["parameters"].items() if synth["parameters"].get(k) != v}
        if other:
            raise ValueError(f"{sys.argv[2]}'s run had {other}, not {sys.argv[1]}'s parameters")
        table = rows(synth, power)
    except (OSError, ValueError, KeyError) as e:
        print(f"node_table.py: {e}", file=sys.stderr)
        return 2
    p = synth["parameters"]
    print(f"nic_sched with Nodes {p['Nodes']}, Ports {p['Ports']}, Depth {p['Depth']}, Window "
          f"{p['Window']}, Counters {p['Counters']} (the co-simulated build); activity of "
          f"{power['run']['algorithm']} at {power['run']['bytes']} B on "
          f"{power['run']['topology']}\n")
    print("| figure | unit | OSU 0.18 um (measured) | 7 nm (estimate) | factor |")
    print("|---|---|---:|---:|---:|")
    for name, unit, here, there, factor in table:
        print(f"| {name} | {unit} | {number(here)} | {number(there)} | {factor:.3g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
