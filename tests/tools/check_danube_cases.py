#!/usr/bin/env python3
"""check_danube_cases.py SRC [-v]: the Danube 20 rule-case inventory keeps up with its tests.

The inventory is docs/n20-cases/danube-*.md. Each file declares the test files its rows cite in
its heading text, as `abbr` = tests/unit/test_n20_xxx.c (or another file under tests/, below); a
row's last cell names its tests as "NAME (abbr)", NAME without the `test_n20_` prefix for a cmocka
test (the prefix is accepted too). A row whose test is not written yet says **open** (and is
counted); a row "see FILE.md" points to another table.

Checked, each a failure:
- every test a row names is a test of the file its abbreviation stands for: for a
  tests/unit/*.c file a cmocka test, defined as `static void test_...(void **...)` and registered
  with cmocka_unit_test; for a tests/e2e/ script the ctest `e2e_<script name>` it is registered as
  (tests/e2e/CMakeLists.txt); for a CMakeLists.txt or *.cmake file a ctest its add_test(NAME ...)
  registers (a `foreach` over literal values expanded, any other ${...} matching a word);
- every abbreviation a row uses is declared in the heading of its file;
- every test of the Danube 20 rule-case files (tests/unit/test_n20_v3_*.c, test_n20_ae*.c,
  test_n20_wagram*.c, test_n20_garrison.c, test_n20_step_f.c, test_n20_legal_*.c,
  test_n20_dn_*.c, test_n20_*_danube.c) is named in some row, except in the whole-game files of
  WHOLE below, whose unnamed tests are only counted (and with -v listed);
- docs/n20-cases/README.md links every danube-*.md file.
Exits 1 on any mismatch."""
import glob
import os
import re
import sys

# the Danube 20 test files, by glob under tests/unit/
DANUBE = ["test_n20_v3_*.c", "test_n20_ae*.c", "test_n20_wagram*.c", "test_n20_garrison.c",
          "test_n20_step_f.c", "test_n20_legal_*.c", "test_n20_dn_*.c", "test_n20_*_danube.c"]

# whole games on the real scenarios (random games, replays, the view): their tests are counted,
# not required in a row; a row may still name them
WHOLE = {"test_n20_ae_game.c", "test_n20_wagram.c", "test_n20_dn_replay.c"}

DECL = re.compile(r"`(\w+)`\s*=\s*(tests/[\w./-]*\w|test_\w+\.c)")
REF = re.compile(r"(\w+) \((\w+)\)")


def tests_of(path):
    """The cmocka tests of a file: name -> registered (True/False)."""
    if not os.path.exists(path):
        return None
    text = open(path, encoding="utf-8").read()
    registered = set(re.findall(r"cmocka_unit_test\w*\(\s*(test_\w+)", text))
    return {name: name in registered
            for name in re.findall(r"^static void (test_\w+)\(void \*\*", text, re.M)}


def ctests_of(path):
    """The ctest names a CMake file registers, as regular expressions."""
    if not os.path.exists(path):
        return None
    text = open(path, encoding="utf-8").read()
    loops = [(m.start(), m.group(1), m.group(2).split())
             for m in re.finditer(r"foreach\(\s*(\w+)\s+([^)$]*)\)", text)]
    names = []
    for m in re.finditer(r"add_test\(\s*NAME\s+([^\s)]+)", text):
        pat = m.group(1)
        variants = [pat]
        for start, var, values in loops:
            if start < m.start() and "${" + var + "}" in pat and values:
                variants = [v.replace("${" + var + "}", val) for v in variants for val in values]
        for v in variants:
            parts = re.split(r"\$\{\w+\}", v)
            names.append(re.compile(r"\w+".join(re.escape(x) for x in parts) + r"\Z"))
    return names


class TestFile:
    """The tests of one declared file: has(name) -> True (a test), False (defined, not
    registered), None (no such test)."""

    def __init__(self, src, rel):
        self.rel = rel
        self.kind = None
        self.cmocka = {}
        self.ctests = []
        path = os.path.join(src, rel)
        if rel.startswith("tests/unit/") and rel.endswith(".c"):
            found = tests_of(path)
            if found is not None:
                self.kind = "cmocka"
                self.cmocka = {short(n): r for n, r in found.items()}
        elif rel.startswith("tests/e2e/") and re.search(r"\.(sh|py)$", rel) and os.path.exists(path):
            self.kind = "ctest"
            self.ctests = [re.compile(re.escape("e2e_" + re.sub(r"\.(sh|py)$", "", os.path.basename(rel))) + r"\Z")]
        elif re.search(r"(CMakeLists\.txt|\.cmake)$", rel):
            found = ctests_of(path)
            if found is not None:
                self.kind = "ctest"
                self.ctests = found

    def has(self, name):
        if self.kind == "cmocka":
            tshort = short(name) if name.startswith("test_") else name
            return self.cmocka.get(tshort)
        return True if any(p.match(name) for p in self.ctests) else None

    def key(self, name):
        if self.kind == "cmocka":
            return short(name) if name.startswith("test_") else name
        return name


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

    def declared(rel):
        if rel not in cache:
            cache[rel] = TestFile(src, rel)
        return cache[rel]

    def defined(fname):
        tf = declared("tests/unit/" + fname)
        return tf.cmocka if tf.kind == "cmocka" else None

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
        for abbr, rel in DECL.findall(prose):
            files[abbr] = rel if rel.startswith("tests/") else "tests/unit/" + rel
        for abbr, rel in files.items():
            if declared(rel).kind is None:
                print(f"{md}: `{abbr}` stands for {rel}, which does not exist or holds no tests")
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
                tf = declared(files[abbr])
                if tf.kind is None:
                    continue
                key = tf.key(tname)
                if tf.kind == "cmocka":
                    named.setdefault(os.path.basename(tf.rel), set()).add(key)
                found = tf.has(tname)
                if found is None:
                    what = "a test of" if tf.kind == "cmocka" else "a ctest registered for"
                    print(f"{md}:{lineno}: {key} is not {what} {tf.rel}")
                    bad = 1
                elif not found:
                    print(f"{md}:{lineno}: {key} is defined in {tf.rel} but not registered (cmocka_unit_test)")
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
    readme = os.path.join(inv, "README.md")
    listed = open(readme, encoding="utf-8").read() if os.path.exists(readme) else ""
    for path in mds:
        md = os.path.basename(path)
        if f"]({md})" not in listed:
            print(f"docs/n20-cases/README.md: no link to {md} in the Danube 20 table")
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
