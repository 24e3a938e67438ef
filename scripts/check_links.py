#!/usr/bin/env python3
"""Checks the Markdown files git knows (tracked or new, not ignored): every relative link's file
exists and every #anchor names a heading of its page (GitHub's rule: lower case, punctuation
dropped, spaces to hyphens). Exit 1 naming each broken link. Standard library only.

  check_links.py [REPO_DIR]
"""

import os
import re
import subprocess
import sys


def anchors(path, cache={}):
    if path not in cache:
        found, fence = set(), False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fence = not fence
            heading = re.match(r"^#{1,6} (.+)$", line.rstrip("\n"))
            if heading and not fence:
                text = re.sub(r"[^\w\- ]", "", heading.group(1).lower())
                found.add(text.replace(" ", "-"))
        cache[path] = found
    return cache[path]


def main(repo):
    os.chdir(repo)
    listed = subprocess.check_output(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"], text=True).split()
    broken = 0
    for page in (f for f in listed if f.endswith(".md") and os.path.exists(f)):
        text = open(page, encoding="utf-8").read()
        for link in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = link.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            line = text.count("\n", 0, link.start()) + 1
            if not os.path.exists(full):
                print(f"{page}:{line}: {target}: no such file")
                broken += 1
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                print(f"{page}:{line}: {target}: no heading #{anchor} in {full}")
                broken += 1
    print(f"links: {broken} broken" if broken else "links: every relative link resolves")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
