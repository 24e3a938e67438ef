#!/usr/bin/env python3
"""Checks that scenarios/README.md's key table is `mtsim keys --markdown` (the loader's own
declarations, model/config/scenario_keys.*): prints the difference and exits 1 when it is not.
  scripts/check_keys_doc.py --mtsim build/bin/mtsim [--write]   (--write: replace the table)"""
import argparse
import difflib
import pathlib
import subprocess
import sys

BEGIN = "<!-- keys: `mtsim keys --markdown` writes this table (scripts/check_keys_doc.py --write) -->"
END = "<!-- end of keys -->"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mtsim", required=True, help="the mtsim binary")
    parser.add_argument("--write", action="store_true", help="replace the README's table")
    args = parser.parse_args()
    readme = pathlib.Path(__file__).resolve().parent.parent / "scenarios" / "README.md"
    table = subprocess.run([args.mtsim, "keys", "--markdown"], check=True, capture_output=True,
                           text=True).stdout
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"{readme}: the markers of the key table are missing ({BEGIN} ... {END})")
    head, rest = text.split(BEGIN, 1)
    current, tail = rest.split(END, 1)
    wanted = "\n" + table
    if current == wanted:
        print(f"{readme.name}: the key table matches mtsim keys ({table.count(chr(10)) - 2} keys)")
        return
    if args.write:
        readme.write_text(head + BEGIN + wanted + END + tail)
        print(f"{readme}: key table rewritten")
        return
    sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), wanted.splitlines(True),
                                               "README.md", "mtsim keys --markdown"))
    sys.exit(f"{readme}: the key table differs from `mtsim keys --markdown` "
             "(scripts/check_keys_doc.py --mtsim MTSIM --write rewrites it)")


if __name__ == "__main__":
    main()
