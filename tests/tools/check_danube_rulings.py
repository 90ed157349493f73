#!/usr/bin/env python3
"""check_danube_rulings.py SRC [-v]: the Danube 20 rulings register keeps up with its citations.

The rulings are the entries of docs/danube-rulings/*.md, each a paragraph that begins with its id in
bold, `**R-dn-...**` (or `**R-legal-...**` for the legal() rulings of both editions). Checked, each
a failure:
- no id is defined twice;
- every R-dn-* id cited in the sources, tests, data and docs (rules/, src/, tests/, docs/, proto/,
  README.md) is defined; a citation ending in `*` (R-dn-garrison-*) names the ids it begins;
- the Danube 20 section of docs/rulings.md (its `## Danube 20` heading) names every defined id, and
  lists under "- N:" every ruling whose text cites the digest's text defect N (RULEBOOKS-DIGEST.md
  section 1.7, "digest defect N"), for every N from 1 to DEFECTS, and no ruling that does not cite
  it: each defect has a ruling, and the index says which.
Exits 1 on any mismatch."""
import glob
import os
import re
import sys

DEFECTS = 15  # the text defects of RULEBOOKS-DIGEST.md section 1.7 (Danube 20)

ENTRY = re.compile(r"^\*\*(R-(?:dn|legal)-[A-Za-z0-9.-]*[A-Za-z0-9])\*\*")
CITE = re.compile(r"R-dn-[A-Za-z0-9.-]*[A-Za-z0-9](?:-\*|\*)?")
DEFECT = re.compile(r"digest defects?\s+(\d+(?:\s*(?:,|and)\s*\d+)*)")
SCAN = ("rules", "src", "tests", "docs", "proto")
EXTS = (".c", ".h", ".md", ".py", ".n20", ".proto", ".txt", ".cmake", ".sh")


def entries(src):
    """id -> (file, line, text of its paragraph)"""
    found, dups = {}, []
    for path in sorted(glob.glob(os.path.join(src, "docs", "danube-rulings", "*.md"))):
        lines = open(path, encoding="utf-8").read().split("\n")
        cur = None
        for lineno, line in enumerate(lines, 1):
            m = ENTRY.match(line)
            if m or line.startswith("#"):
                cur = None
            if m:
                rid = m.group(1)
                if rid in found:
                    dups.append((rid, found[rid][0], f"{os.path.basename(path)}:{lineno}"))
                found[rid] = [f"{os.path.basename(path)}:{lineno}", lineno, line]
                cur = rid
            elif cur and line.strip():
                found[cur][2] += " " + line.strip()
    return found, dups


def defects_of(text):
    nums = set()
    for group in DEFECT.findall(text):
        nums.update(int(n) for n in re.findall(r"\d+", group))
    return nums


def main():
    verbose = "-v" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "-v"]
    src = args[0] if args else "."
    bad = 0
    found, dups = entries(src)
    if not found:
        print("docs/danube-rulings/*.md: no rulings found")
        return 1
    for rid, first, again in dups:
        print(f"{again}: {rid} is already defined at {first}")
        bad = 1
    cited = 0
    for top in SCAN:
        for root, dirs, files in os.walk(os.path.join(src, top)):
            dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
            for name in files:
                if not name.endswith(EXTS):
                    continue
                path = os.path.join(root, name)
                try:
                    text = open(path, encoding="utf-8").read()
                except UnicodeDecodeError:
                    continue
                for lineno, line in enumerate(text.split("\n"), 1):
                    for rid in CITE.findall(line):
                        cited += 1
                        if rid.endswith("*"):
                            prefix = rid.rstrip("*")
                            ok = any(k.startswith(prefix) for k in found)
                        else:
                            ok = rid in found
                        if not ok:
                            print(f"{os.path.relpath(path, src)}:{lineno}: {rid} is not a ruling of "
                                  f"docs/danube-rulings/")
                            bad = 1
    reg = os.path.join(src, "docs", "rulings.md")
    text = open(reg, encoding="utf-8").read() if os.path.exists(reg) else ""
    m = re.search(r"^## Danube 20.*?(?=^## |\Z)", text, re.M | re.S)
    if not m:
        print("docs/rulings.md: no '## Danube 20' section")
        return 1
    section = m.group(0)
    indexed = set(re.findall(r"`(R-(?:dn|legal)-[A-Za-z0-9.-]*[A-Za-z0-9])`", section))
    for rid in sorted(set(found) - indexed):
        print(f"docs/rulings.md (Danube 20): {rid} ({found[rid][0]}) is not indexed")
        bad = 1
    for rid in sorted(indexed - set(found)):
        print(f"docs/rulings.md (Danube 20): {rid} is indexed but no ruling of docs/danube-rulings/")
        bad = 1
    listed = {}
    for num, ids in re.findall(r"^- (\d+): (.*)$", section, re.M):
        listed[int(num)] = set(re.findall(r"`(R-[A-Za-z0-9.-]*[A-Za-z0-9])`", ids))
    for n in range(1, DEFECTS + 1):
        cite = {rid for rid, e in found.items() if n in defects_of(e[2])}
        if not cite:
            print(f"digest defect {n}: no ruling of docs/danube-rulings/ cites it")
            bad = 1
        have = listed.get(n, set())
        for rid in sorted(cite - have):
            print(f"docs/rulings.md (Danube 20): {rid} cites digest defect {n} but is not listed under '- {n}:'")
            bad = 1
        for rid in sorted(have - cite):
            print(f"docs/rulings.md (Danube 20): {rid} is listed under '- {n}:' but does not cite "
                  f"digest defect {n}")
            bad = 1
        if verbose:
            print(f"defect {n}: {', '.join(sorted(cite)) or '(none)'}")
    if not bad:
        print(f"check_danube_rulings: {len(found)} rulings, all indexed; {cited} citations, every one "
              f"defined; each of the {DEFECTS} digest defects has a ruling")
    return bad


if __name__ == "__main__":
    sys.exit(main())
