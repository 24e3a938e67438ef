#!/usr/bin/env python3
"""Makes qflow's SPEF (rc2dly -D : from qrouter's RC extraction) readable by OpenSTA: rc2dly names
internal nodes `<net>_<k>` where SPEF wants `*<net>:<k>`, and writes capacitances in pF under a
`*C_UNIT 1 FF` header (the pin loads it lists are the liberty's pF values), and keeps the
brackets of generate-block names (`gen_port[0]_u`) in its name map where the netlist has
`gen_port_0__u`, drops the `~` fix_rc.py appended to names rc2dly cannot hold, and turns `$ < > .` in names
into `_` as qflow's vesta.sh does (the netlist's spelling).

  fix_spef.py IN.spef OUT.spef"""

import re
import sys

NODE = re.compile(r"(?<![\w*:])(\d+)_(\d+)(?![\w.])")
MAPPED = re.compile(r"^\*\d+ ")
BRACKET = re.compile(r"\[(\d+)\]")


def main():
    src, dst = sys.argv[1:3]
    out, section = [], None
    for line in open(src):
        if MAPPED.match(line):
            line = BRACKET.sub(r"_\1_", line).replace("~\n", "\n")
            # as qflow's vesta.sh does: the netlist has `_` for these
            line = line[:1] + re.sub(r"[$<>.]", "_", line[1:])
        elif line.startswith("*C_UNIT"):
            line = "*C_UNIT 1 PF\n"
        elif line.startswith(("*CAP", "*RES", "*CONN", "*END", "*D_NET")):
            section = line.split()[0]
        elif section in ("*CAP", "*RES") and line[:1].isdigit():
            fields = line.split()
            # index node [node] value: rename internal nodes, keep the index and the value
            fields[1:-1] = [NODE.sub(r"*\1:\2", f) for f in fields[1:-1]]
            line = " ".join(fields) + "\n"
        out.append(line)
    open(dst, "w").write("".join(out))


if __name__ == "__main__":
    main()
