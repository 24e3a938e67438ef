#!/usr/bin/env python3
"""A Markdown table of a scripts/bench.sh JSON (--json OUT), for the docs: one row per case with
its nodes, completion cycles, wall and CPU seconds of the whole run, the largest resident set of
any of its processes and the growth of the machine's used memory (both MiB; the latter sampled
every 0.5 s, so left empty for a run of under a second).

    scripts/bench_table.py docs/speed/bench_message_1944d17.json
"""
import json
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        cases = json.load(open(sys.argv[1], encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"bench_table.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    print("| case | nodes | cycles | wall s | CPU s | peak RSS MiB | machine memory used MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for c in cases:
        used = c.get("used_mib") if c["wall_s"] >= 1 else None
        print(f"| {c['case']} | {c['nodes']} | {c['completion_cycles']:,} | {c['wall_s']:.2f} | "
              f"{c['cpu_s']:.2f} | {c['peak_mib']:,.0f} | "
              f"{'' if used is None else f'{used:,}'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
