#!/usr/bin/env python3
"""Checks of the host study's and the power script's arithmetic (ctest scripts.*): each assert
compares with a figure derived by hand in its comment. Exit 0 and "ok" when every check holds."""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "power"))

import activity  # noqa: E402
import host_breakeven  # noqa: E402

# Crossover, linear between swept points: 0.9 at 10 ns and 1.3 at 20 ns reach 1 a quarter of
# the way, at 12.5 ns; already 1 at the first point: 0; never reached: None, printed "> max".
assert host_breakeven.crossover([0, 10, 20], [0.5, 0.9, 1.3]) == 12.5
assert host_breakeven.crossover([0, 10], [1.0, 2.0]) == 0.0
assert host_breakeven.crossover([0, 10], [0.2, 0.9]) is None
assert host_breakeven.fmt_cross(None, 3200) == "> 3200"


# Verilator toggle coverage: the clock left out, the other bits counted (10 + 6 toggles over 2
# bits), the input ports (names ending _i, at the top) also counted alone (10 over 1 bit).
def row(signal, hierarchy, count):
    return f"C '\x01page\x02v_toggle/nic_sched\x01o\x02{signal}\x01h\x02{hierarchy}' {count}\n"


with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
    f.write("# SystemC::Coverage-3\n" + row("clk_i", "TOP.nic_sched", 99) +
            row("arr_valid_i[0]", "TOP.nic_sched", 10) + row("q[1]", "TOP.nic_sched.u_x", 6))
try:
    assert activity.toggles(f.name) == (16, 2, 10, 1), activity.toggles(f.name)
finally:
    os.unlink(f.name)
print("ok")
