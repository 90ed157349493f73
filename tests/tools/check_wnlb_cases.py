#!/usr/bin/env python3
"""check_wnlb_cases.py SRC: the wnlb rule-case inventory (docs/wnlb-cases/) keeps up with its tests.

Every test a row names, "NAME (abbr)", is a cmocka test `test_wnlb_NAME` defined in the file the
abbreviation stands for; a row whose test is not written yet says **open** (and is counted). A
test_wnlb_ case defined in a cases file and named in no row is reported too, so that the inventory
stays the whole list. Exits 1 on any mismatch."""
import os
import re
import sys

FILES = {
    "c3_5": "test_wnlb_cases_3_5.c",
    "c6_7": "test_wnlb_cases_6_7.c",
    "c5": "test_wnlb_cases_5.c",
    "c8": "test_wnlb_cases_8.c",
    "c9_6": "test_wnlb_cases_9_6.c",
    "c9": "test_wnlb_cases_9.c",
    "c10_11": "test_wnlb_cases_10_11.c",
    "c11a": "test_wnlb_cases_11_actions.c",
    "c12_13": "test_wnlb_cases_12_13.c",
    "hid": "test_wnlb_hidden.c",
    "rnd": "test_wnlb_random.c",
    "rep": "test_wnlb_replay.c",
}


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    inv = os.path.join(src, "docs", "wnlb-cases")
    unit = os.path.join(src, "tests", "unit")
    defined = {}
    for abbr, name in FILES.items():
        path = os.path.join(unit, name)
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        defined[abbr] = set(re.findall(r"^static void test_wnlb_(\w+)\(void \*\*", text, re.M))
    bad = 0
    named = {abbr: set() for abbr in FILES}
    rows = opened = 0
    for md in sorted(os.listdir(inv)):
        if not md.endswith(".md") or md == "README.md":
            continue
        for lineno, line in enumerate(open(os.path.join(inv, md), encoding="utf-8"), 1):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 3 or cells[0] in ("rule", "---"):
                continue
            rows += 1
            test = cells[2]
            if test.startswith("see "):
                continue
            if "**open**" in test:
                # "**open** (NAME (abbr))": the test planned, not written yet
                opened += 1
                continue
            refs = re.findall(r"(\w+) \((\w+)\)", test)
            if not refs:
                print(f"{md}:{lineno}: no test named and not marked **open**: {test}")
                bad = 1
            for tname, abbr in refs:
                if abbr not in FILES:
                    print(f"{md}:{lineno}: unknown file abbreviation ({abbr})")
                    bad = 1
                    continue
                named[abbr].add(tname)
                if tname not in defined[abbr]:
                    print(f"{md}:{lineno}: test_wnlb_{tname} is not defined in tests/unit/{FILES[abbr]}")
                    bad = 1
    for abbr, names in defined.items():
        for tname in sorted(names - named[abbr]):
            print(f"tests/unit/{FILES[abbr]}: test_wnlb_{tname} is named in no row of docs/wnlb-cases/")
            bad = 1
    if rows == 0:
        print("docs/wnlb-cases/: no rows found")
        bad = 1
    if not bad:
        covered = sum(len(n) for n in named.values())
        print(f"check_wnlb_cases: {rows} rows, {covered} distinct tests, every one defined; {opened} rows open")
    return bad


if __name__ == "__main__":
    sys.exit(main())
