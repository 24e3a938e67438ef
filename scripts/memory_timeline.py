#!/usr/bin/env python3
"""Runs a command and prints, for it and every process it starts, when the process ran and its
largest memory: resident set, private (Private_Dirty) and shared pages, MiB, sampled from
/proc/PID/smaps_rollup every --period seconds (0.5 by default). A forked mtsim point process
shows the schedule it shares with its parent as shared pages.

  scripts/memory_timeline.py -- build/bin/mtsim run SCENARIO.yaml --set ...

Sampling misses a peak shorter than the period; the times are seconds from the command's start.
"""
import argparse
import os
import subprocess
import sys
import time


def children(pid):
    """Every descendant of `pid` (from /proc/*/stat's parent field)."""
    parent_of = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        parent_of[int(name)] = int(stat[stat.rfind(")") + 2 :].split()[1])
    found, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        for child, parent in parent_of.items():
            if parent == p:
                found.append(child)
                frontier.append(child)
    return found


def memory(pid):
    """(resident, private, shared) MiB of `pid`, or None once it has ended."""
    fields = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key, _, rest = line.partition(":")
                parts = rest.split()
                if parts and parts[-1] == "kB":
                    fields[key] = int(parts[0])
    except OSError:
        return None
    if "Rss" not in fields:
        return None
    shared = fields.get("Shared_Clean", 0) + fields.get("Shared_Dirty", 0)
    return fields["Rss"] / 1024, fields.get("Private_Dirty", 0) / 1024, shared / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--period", type=float, default=0.5, help="seconds between samples")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ARGS...")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.period <= 0:
        parser.error("expected a positive --period and a command after --")
    start = time.monotonic()
    proc = subprocess.Popen(command)
    seen = {}  # pid -> [first, last, rss, private, shared]
    while proc.poll() is None:
        now = time.monotonic() - start
        for pid in [proc.pid] + children(proc.pid):
            m = memory(pid)
            if m is None:
                continue
            r = seen.setdefault(pid, [now, now, 0.0, 0.0, 0.0])
            r[1] = now
            for i in range(3):
                r[2 + i] = max(r[2 + i], m[i])
        time.sleep(args.period)
    total = time.monotonic() - start
    print(f"{' '.join(command[:2])}: exit {proc.returncode}, {total:.1f} s", file=sys.stderr)
    header = "pid      from_s    to_s  peak_rss_MiB  peak_private_MiB  peak_shared_MiB"
    print(header, file=sys.stderr)
    for pid, (first, last, rss, private, shared) in sorted(seen.items(), key=lambda x: x[1][0]):
        print(f"{pid:<8} {first:7.1f} {last:7.1f} {rss:13.0f} {private:17.0f} {shared:16.0f}",
              file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
