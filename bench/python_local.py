"""Python in-process games per second (berthier.local) against the C in-process rate.

    /usr/bin/python3 bench/python_local.py [--seconds S] [--quick] [--bin BUILD/bin]

Plays full random-bot duel games in process through berthier.local (ctypes over
libberthier_local.so: every input seat-signed, as a client signs it) for S seconds,
then runs `berthier-bench --only inproc` in the same run for the C figure (the
`inproc_games_duel` line: tests/support/selfplay.c, unsigned inputs, no FFI) and
prints one line in berthier-bench's format (docs/bench.md):

    NAME                          VALUE        FLOOR    RATIO GOAL           MET
    py_local_games_duel             ...          ...      ... ratio>=0.05    ...

PYTHONPATH must hold clients/python and <build>/python (as for the Python tests).
Never a pass/fail test: the figure depends on the machine and its load.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GOAL = 0.05


def c_rate(binary, seconds, quick):
    cmd = [binary, "--only", "inproc", "--ruleset", "duel"] + (["--quick"] if quick else ["--seconds", str(seconds)])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"^inproc_games_duel\s+([0-9.]+)", out, re.M)
    if not m:
        m = re.search(r"^inproc_games\s+([0-9.]+)", out, re.M)
    if not m:
        raise RuntimeError("berthier-bench printed no inproc_games line:\n" + out)
    return float(m.group(1))


def py_rate(seconds):
    from berthier import local
    games = orders = 0
    seed = 0
    t0 = time.perf_counter()
    while True:
        seed += 1
        rng = random.Random(seed)
        g = local.Game("duel", "standard", seed=seed.to_bytes(32, "little"))
        while not g.is_terminal():
            for s in g.pending().seats:
                if g.must_act(s):
                    legal = g.legal(s)
                    g.apply(s, legal[rng.randrange(len(legal))])
                    orders += 1
        g.close()
        games += 1
        el = time.perf_counter() - t0
        if el >= seconds and games >= 3:
            return games / el, games, orders


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--quick", action="store_true", help="0.3 s windows")
    ap.add_argument("--bin", default=os.environ.get("BERTHIER_BIN") or os.path.join(HERE, "..", "build", "bin"))
    a = ap.parse_args(argv)
    seconds = 0.3 if a.quick else a.seconds
    rate, games, orders = py_rate(seconds)
    floor = c_rate(os.path.join(a.bin, "berthier-bench"), seconds, a.quick)
    ratio = rate / floor if floor else 0.0
    print("%-22s %12s %12s %8s %-14s %s" % ("NAME", "VALUE", "FLOOR", "RATIO", "GOAL", "MET"))
    print("%-22s %12.0f %12.0f %8.3f %-14s %s" % ("py_local_games_duel", rate, floor, ratio, "ratio>=%g" % GOAL,
                                                 "yes" if ratio >= GOAL else "no"))
    print("# note py_local_games_duel: %d games, %d orders in process from Python (berthier.local, ctypes, "
          "seat-signed inputs); floor: berthier-bench inproc_games_duel in the same run" % (games, orders))
    return 0


if __name__ == "__main__":
    sys.exit(main())
