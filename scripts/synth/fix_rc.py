#!/usr/bin/env python3
"""Repairs the few nets of qrouter's RC extraction (layout/<top>.rc) that rc2dly cannot read, so
that the SPEF it writes covers every net: qrouter sometimes names a receiver pin `ERROR` or leaves
one out of a net's tree (3 of 15,007 nets of the default configuration), and rc2dly then stops at
that net ("only had 2 receivers in delay file, but expected a fanout of 3"), truncating the SPEF.
Each `ERROR` becomes the receiver the netlist has and the tree lacks (the wire segment qrouter
measured leads to it); a receiver still missing joins the driver with no wire (its RC is
under-estimated). And rc2dly (qflow 1.3.17) corrupts its heap on a net name of 24, 40, 56, ...
characters (8 mod 16: an off-by-one allocation), aborting with a truncated SPEF: such names get a
trailing `~` here, which fix_spef.py removes again. Prints one line per repaired net to stderr.

  fix_rc.py NETLIST.v LIBERTY.lib IN.rc OUT.rc"""

import collections
import re
import sys

CELL = re.compile(r"^\s*cell\s*\(\s*\"?([\w$]+)\"?\s*\)")
PIN = re.compile(r"^\s*pin\s*\(\s*\"?([\w$]+)\"?\s*\)")
DIRECTION = re.compile(r"^\s*direction\s*:\s*(\w+)")
INSTANCE = re.compile(r"^\s*([\w$]+)\s+([\w$\\\[\].]+)\s*\((.*)\)\s*;\s*$")
CONNECTION = re.compile(r"\.([\w$]+)\(\s*([^()\s]+)\s*\)")
RC_PIN = re.compile(r"[^\s(),]+/[^\s(),]+")


def input_pins(liberty):
    """cell -> its input pin names."""
    inputs, cell, pin = collections.defaultdict(set), None, None
    for line in open(liberty):
        if m := CELL.match(line):
            cell, pin = m.group(1), None
        elif m := PIN.match(line):
            pin = m.group(1)
        elif (m := DIRECTION.match(line)) and cell and pin and m.group(1) == "input":
            inputs[cell].add(pin)
    return inputs


def receivers(netlist, inputs):
    """net -> the instance/pin names of the cell inputs it drives."""
    nets = collections.defaultdict(set)
    for line in open(netlist):
        m = INSTANCE.match(line)
        if not m or m.group(1) not in inputs:
            continue
        cell, name = m.group(1), m.group(2)
        for pin, net in CONNECTION.findall(m.group(3)):
            if pin in inputs[cell]:
                nets[net].add(f"{name}/{pin}")
    return nets


def main():
    netlist, liberty, src, dst = sys.argv[1:5]
    nets = receivers(netlist, input_pins(liberty))
    out = []
    for line in open(src):
        fields = line.split(None, 4)
        if len(fields) == 5 and fields[3].isdigit():
            net, fanout, tree = fields[0], int(fields[3]), fields[4]
            listed = set(RC_PIN.findall(tree))
            errors = tree.count("ERROR")
            if errors or len(listed) != fanout:
                missing = sorted(nets.get(net, set()) - listed)
                for pin in missing[:errors]:
                    tree = tree.replace("ERROR", pin, 1)
                extra = missing[errors:]
                tree = tree.rstrip() + "".join(f" , ( 0 0 {pin} )" for pin in extra) + " \n"
                print(f"fix_rc.py: net {net}: {errors} ERROR pin(s) named, {len(extra)} receiver(s) "
                      f"added without wire ({', '.join(missing) or 'none found'})", file=sys.stderr)
                line = " ".join(fields[:4]) + " " + tree
        if len(fields) >= 4 and len(fields[0]) >= 24 and len(fields[0]) % 16 == 8:
            line = fields[0] + "~" + line[len(fields[0]):]
        out.append(line)
    open(dst, "w").write("".join(out))


if __name__ == "__main__":
    main()
