#!/usr/bin/env python3
"""check_danube_cases.py SRC [-v]: the Danube 20 rule-case inventory keeps up with its tests.

The inventory is docs/n20-cases/danube-*.md. Each file declares the test files its rows cite in
its heading text, as `abbr` = tests/unit/test_n20_xxx.c; a row's last cell names its tests as
"NAME (abbr)", NAME without the `test_n20_` prefix (the prefix is accepted too). A row whose test
is not written yet says **open** (and is counted); a row "see FILE.md" points to another table.

Checked, each a failure:
- every test a row names is a cmocka test of the file its abbreviation stands for: defined as
  `static void test_...(void **...)` and registered with cmocka_unit_test;
- every abbreviation a row uses is declared in the heading of its file;
- every test of the Danube 20 rule-case files (tests/unit/test_n20_v3_*.c, test_n20_ae*.c,
  test_n20_wagram*.c, test_n20_garrison.c, test_n20_step_f.c, test_n20_legal_*.c,
  test_n20_dn_*.c) is named in some row, except in the whole-game files of WHOLE below, whose
  unnamed tests are only counted (and with -v listed).
Exits 1 on any mismatch."""
import glob
import os
import re
import sys

# the Danube 20 test files, by glob under tests/unit/
DANUBE = ["test_n20_v3_*.c", "test_n20_ae*.c", "test_n20_wagram*.c", "test_n20_garrison.c",
          "test_n20_step_f.c", "test_n20_legal_*.c", "test_n20_dn_*.c"]

# whole games on the real scenarios (random games, replays, the view): their tests are counted,
# not required in a row; a row may still name them
WHOLE = {"test_n20_ae_game.c", "test_n20_wagram.c"}

DECL = re.compile(r"`(\w+)`\s*=\s*(?:tests/unit/)?(test_\w+\.c)")
REF = re.compile(r"(\w+) \((\w+)\)")


def tests_of(path):
    """The cmocka tests of a file: name -> registered (True/False)."""
    if not os.path.exists(path):
        return None
    text = open(path, encoding="utf-8").read()
    registered = set(re.findall(r"cmocka_unit_test\w*\(\s*(test_\w+)", text))
    return {name: name in registered
            for name in re.findall(r"^static void (test_\w+)\(void \*\*", text, re.M)}


def short(name):
    return name[len("test_n20_"):] if name.startswith("test_n20_") else name[len("test_"):]


def main():
    verbose = "-v" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "-v"]
    src = args[0] if args else "."
    inv = os.path.join(src, "docs", "n20-cases")
    unit = os.path.join(src, "tests", "unit")
    bad = 0
    cache = {}

    def defined(fname):
        if fname not in cache:
            found = tests_of(os.path.join(unit, fname))
            cache[fname] = None if found is None else {short(n): r for n, r in found.items()}
        return cache[fname]

    named = {}  # file -> set of short names named in some row
    rows = opened = 0
    mds = sorted(glob.glob(os.path.join(inv, "danube-*.md")))
    if not mds:
        print("docs/n20-cases/danube-*.md: no inventory files")
        return 1
    for path in mds:
        md = os.path.basename(path)
        lines = open(path, encoding="utf-8").read().split("\n")
        files = {}
        prose = " ".join(line for line in lines if not line.startswith("|"))
        for abbr, fname in DECL.findall(prose):
            files[abbr] = fname
        for abbr, fname in files.items():
            if defined(fname) is None:
                print(f"{md}: `{abbr}` stands for tests/unit/{fname}, which does not exist")
                bad = 1
        for lineno, line in enumerate(lines, 1):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|") or len(cells) < 3 or cells[0] in ("rule", "---"):
                continue
            if set(cells[0]) <= set("-: "):
                continue
            rows += 1
            test = cells[-1]
            if test.startswith("see "):
                target = test[4:].strip().split()[0]
                if not os.path.exists(os.path.join(inv, target)):
                    print(f"{md}:{lineno}: {test}: no such table")
                    bad = 1
                continue
            if "**open**" in test:
                opened += 1
                continue
            refs = REF.findall(test)
            if not refs:
                print(f"{md}:{lineno}: no test named (NAME (file)) and not marked **open**: {test}")
                bad = 1
            for tname, abbr in refs:
                if abbr not in files:
                    print(f"{md}:{lineno}: ({abbr}) is not declared in the heading of {md} "
                          f"(`{abbr}` = tests/unit/test_n20_....c)")
                    bad = 1
                    continue
                fname = files[abbr]
                have = defined(fname)
                if have is None:
                    continue
                tshort = short(tname) if tname.startswith("test_") else tname
                named.setdefault(fname, set()).add(tshort)
                if tshort not in have:
                    print(f"{md}:{lineno}: {tshort} is not a test of tests/unit/{fname}")
                    bad = 1
                elif not have[tshort]:
                    print(f"{md}:{lineno}: {tshort} is defined in tests/unit/{fname} "
                          f"but not registered (cmocka_unit_test)")
                    bad = 1
    danube = sorted({os.path.basename(p) for g in DANUBE for p in glob.glob(os.path.join(unit, g))})
    strict_total = counted = unlisted = 0
    for fname in danube:
        have = defined(fname) or {}
        missing = sorted(set(have) - named.get(fname, set()))
        if fname in WHOLE:
            counted += len(have)
            unlisted += len(missing)
            for tname in missing if verbose else []:
                print(f"note: tests/unit/{fname}: {tname} (a whole-game test) is in no row")
            continue
        strict_total += len(have)
        for tname in missing:
            print(f"tests/unit/{fname}: {tname} is named in no row of docs/n20-cases/danube-*.md")
            bad = 1
    if rows == 0:
        print("docs/n20-cases/danube-*.md: no rows found")
        bad = 1
    if not bad:
        covered = sum(len(n) for n in named.values())
        print(f"check_danube_cases: {len(mds)} files, {rows} rows, {covered} distinct tests, every one "
              f"defined; {opened} rows open; {strict_total} tests of {len(danube) - len(WHOLE & set(danube))} "
              f"rule-case files all in a row; {unlisted} of {counted} whole-game tests in no row")
    return bad


if __name__ == "__main__":
    sys.exit(main())
