#!/usr/bin/env python3
"""check_wem_cases.py SRC: the wem rule-case inventory (docs/wem-cases/) keeps up with its tests.

Every test a row names, "NAME (abbr)", is a cmocka test defined in the file the abbreviation stands
for (docs/wem-cases/README.md): `test_wem_NAME`, or `test_NAME` in a file whose tests are not named
test_wem_; a row whose test is not written yet says **open** (and is counted). Every test of the
whole-game files (render, random, replay, greedy, vis) and of every tests/unit/test_wem_cases_*.c
must be named in some row; the tests of the other tests/unit/test_wem_*.c files (the data, the
geometry, the phases' own) are counted, and with -v listed, as not in the inventory yet, without
failing: their authors add the rows as they land. Exits 1 on any mismatch."""
import glob
import os
import re
import sys

# the files of the README's table
LISTED = {
    "data": "test_wem_data.c",
    "geom": "test_wem_geom.c",
    "render": "test_wem_render.c",
    "random": "test_wem_random.c",
    "replay": "test_wem_replay.c",
    "greedy": "test_wem_greedy.c",
    "vis": "test_daemon_vis_wem.c",
}


# the files whose every test must be in a row (the rest are counted, and listed when asked: -v)
STRICT = {"render", "random", "replay", "greedy", "vis"}


def tests_of(path):
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    names = set()
    for full in re.findall(r"^static void (test_\w+)\(void \*\*", text, re.M):
        names.add(full[len("test_wem_"):] if full.startswith("test_wem_") else full[len("test_"):])
    return names


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    src = args[0] if args else "."
    inv = os.path.join(src, "docs", "wem-cases")
    unit = os.path.join(src, "tests", "unit")
    files = dict(LISTED)
    strict = set(STRICT)
    for path in sorted(glob.glob(os.path.join(unit, "test_wem_*.c"))):
        abbr = os.path.basename(path)[len("test_wem_"):-2]
        if abbr not in files:
            files[abbr] = os.path.basename(path)
        if abbr.startswith("cases"):
            strict.add(abbr)
    defined = {abbr: tests_of(os.path.join(unit, name)) for abbr, name in files.items()}
    bad = 0
    named = {abbr: set() for abbr in files}
    rows = opened = 0
    if not os.path.isdir(inv):
        print("docs/wem-cases/ is missing")
        return 1
    for md in sorted(os.listdir(inv)):
        if not md.endswith(".md") or md == "README.md":
            continue
        for lineno, line in enumerate(open(os.path.join(inv, md), encoding="utf-8"), 1):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|") or len(cells) != 3 or cells[0] in ("rule", "---"):
                continue
            rows += 1
            test = cells[2]
            if test.startswith("see "):
                if not os.path.exists(os.path.join(inv, test[4:].strip())):
                    print(f"{md}:{lineno}: {test}: no such table")
                    bad = 1
                continue
            if "**open**" in test:
                opened += 1
                continue
            refs = re.findall(r"(\w+) \((\w+)\)", test)
            if not refs:
                print(f"{md}:{lineno}: no test named and not marked **open**: {test}")
                bad = 1
            for tname, abbr in refs:
                if abbr not in files:
                    print(f"{md}:{lineno}: unknown file abbreviation ({abbr})")
                    bad = 1
                    continue
                named[abbr].add(tname)
                if tname not in defined[abbr]:
                    print(f"{md}:{lineno}: {tname} is not a test of tests/unit/{files[abbr]}")
                    bad = 1
    unlisted = 0
    for abbr in sorted(files):
        for tname in sorted(defined[abbr] - named[abbr]):
            if abbr in strict:
                print(f"tests/unit/{files[abbr]}: {tname} is named in no row of docs/wem-cases/")
                bad = 1
            else:
                unlisted += 1
                if "-v" in sys.argv:
                    print(f"note: tests/unit/{files[abbr]}: {tname} is not in the inventory yet")
    if rows == 0:
        print("docs/wem-cases/: no rows found")
        bad = 1
    if not bad:
        covered = sum(len(n) for n in named.values())
        print(f"check_wem_cases: {rows} rows, {covered} distinct tests, every one defined; {opened} rows open; "
              f"{unlisted} tests of other wem files not in the inventory yet")
    return bad


if __name__ == "__main__":
    sys.exit(main())
