"""berthier-replay render / html and who may see what, on seat-signed logs (docs/trust.md,
"Pictures and pages of a log").

Games are played in process with berthier.local (libberthier_local), every input signed
with keys derived from the seats' CURVE secret keys, whose key files are written as
`berthierctl keygen` writes them. On an unfinished game:
  - seat 0's view without a key is refused (status 64, nothing written), with seat 0's key
    file it is written, with seat 1's key file (or a stranger's) it is refused;
  - the full view is refused without --all and written with it; the spectators' view is
    always written;
  - -o FILE and standard output give the same bytes; --seat with --spectator, or --all with either, is a usage error.
On the finished game every view is written without a key, and the n20 game's render draws
its picture.
Plain builds only (the library cannot be loaded into a sanitizer build's interpreter)."""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from zmq.utils import z85

from berthier import keys, local

from e2e_py import BIN, check, summary  # noqa: E402

REPLAY = os.path.join(BIN, "berthier-replay")


def replay(*args):
    return subprocess.run([REPLAY, *args], capture_output=True)


def play(g, rng, max_orders):
    n = 0
    while not g.is_terminal() and n < max_orders:
        for seat in g.pending().seats:
            if g.must_act(seat):
                orders = g.legal(seat)
                g.apply(seat, orders[rng.randrange(len(orders))])
                n += 1


def play_reversed(g, rng):
    """To the end, the seats of a sealed decision choosing last seat first."""
    while not g.is_terminal():
        for seat in reversed(g.pending().seats):
            if g.must_act(seat):
                orders = g.legal(seat)
                g.apply(seat, orders[rng.randrange(len(orders))])


def page_data(html):
    m = re.search(rb'<script type="application/json" id="brt-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1)) if m else None


def order_seats(data):
    """The seats of each step's orders, in the order the page lists them."""
    return [[i["seat"] for i in s["inputs"] if i["kind"] == "order"] for s in data["steps"]]


def refused(r, out, why):
    return r.returncode == 64 and not os.path.exists(out) and why in r.stderr.decode()


def main():
    tmp = tempfile.mkdtemp(prefix="berthier-view-keys-")
    try:
        kps = [keys.keygen() for _ in range(3)]
        paths = [keys.save_keypair(kp, tmp, name) for kp, name in zip(kps, ("alice", "bob", "eve"))]
        secrets = [z85.decode(kp.secret) for kp in kps[:2]]
        rng = random.Random(7)
        live = local.Game("duel", "standard", seed=bytes(range(32)), seat_keys=secrets)
        play(live, rng, 5)
        check(not live.is_terminal(), "an unfinished duel game")
        live_log = os.path.join(tmp, "live.log")
        live.write_log(live_log)
        live.close()
        out = os.path.join(tmp, "out.html")

        r = replay("html", live_log, "--seat", "0", "-o", out)
        check(refused(r, out, "--seat-secret"), "seat 0's page of a live game without a key is refused: %r" % r.stderr)
        r = replay("html", live_log, "--seat", "0", "--seat-secret", paths[1], "-o", out)
        check(refused(r, out, "is not seat 0's key"), "with seat 1's key it is refused: %r" % r.stderr)
        r = replay("render", live_log, "--seat", "0", "--seat-secret", paths[2], "-o", out)
        check(refused(r, out, "is not seat 0's key"), "with a stranger's key the picture is refused: %r" % r.stderr)
        r = replay("html", live_log, "--seat", "0", "--seat-secret", paths[0], "-o", out)
        check(r.returncode == 0 and os.path.getsize(out) > 0, "with seat 0's key file it is written: %r" % r.stderr)
        page = open(out, encoding="utf-8").read()
        check('data-viewpoint="seat"' in page and '"seat":0' in page, "the page is seat 0's")
        os.unlink(out)
        r = replay("render", live_log, "--seat", "1", "--seat-secret", paths[1], "-o", out)
        check(r.returncode == 0 and open(out).read().startswith("<svg"), "seat 1's picture with seat 1's key")
        os.unlink(out)

        r = replay("html", live_log, "-o", out)
        check(refused(r, out, "--all"), "the full page of a live game without --all is refused: %r" % r.stderr)
        r = replay("html", live_log, "--all", "-o", out)
        check(r.returncode == 0 and os.path.exists(out), "with --all it is written")
        os.unlink(out)
        r = replay("html", live_log, "--spectator", "-o", out)
        check(r.returncode == 0 and os.path.exists(out), "the spectators' page of a live game is written")
        stdout = replay("html", live_log, "--spectator")
        check(stdout.returncode == 0 and stdout.stdout == open(out, "rb").read(),
              "-o FILE and standard output give the same page")
        os.unlink(out)
        r = replay("html", live_log, "--spectator", "--seat", "0")
        check(r.returncode == 64 and not r.stdout, "--seat with --spectator is a usage error")
        r = replay("html", live_log, "--all", "--seat", "0")
        check(r.returncode == 64 and not r.stdout and b"--all" in r.stderr, "--all with --seat is a usage error")

        done = local.Game("duel", "standard", seed=bytes(range(1, 33)), seat_keys=secrets)
        play(done, rng, 100000)
        check(done.is_terminal(), "a finished duel game")
        done_log = os.path.join(tmp, "done.log")
        done.write_log(done_log)
        done.close()
        for args in ((), ("--seat", "0"), ("--seat", "1"), ("--spectator",)):
            r = replay("html", done_log, *args)
            check(r.returncode == 0 and b'id="viewer"' in r.stdout, "after the end the page %s is written" % (args,))
            r = replay("render", done_log, "--at", "3", *args)
            check(r.returncode == 0 and r.stdout.startswith(b"<svg"), "after the end the picture %s is drawn" % (args,))

        # who chose first in a sealed round is the full view's only
        rev = local.Game("duel", "standard", seed=bytes(range(3, 35)), seat_keys=secrets)
        play_reversed(rev, rng)
        rev_log = os.path.join(tmp, "rev.log")
        rev.write_log(rev_log)
        rev.close()
        full = page_data(replay("html", rev_log).stdout)
        seat0 = page_data(replay("html", rev_log, "--seat", "0").stdout)
        spect = page_data(replay("html", rev_log, "--spectator").stdout)
        check(full and [1, 0] in order_seats(full), "the full page lists a sealed round's orders as logged: 1, 0")
        check(seat0 and spect and [1, 0] not in order_seats(seat0) + order_seats(spect) and
              [0, 1] in order_seats(seat0) and [0, 1] in order_seats(spect),
              "seat 0's and the spectators' pages list them in seat order: 0, 1")
        check(seat0 and all("order" not in i for s in seat0["steps"] for i in s["inputs"]
                            if i["kind"] == "order" and i["seat"] == 1),
              "seat 0's page never shows seat 1's order text")

        n20 = local.Game("n20", "waterloo20-standard", options=["fog-of-war"], seed=bytes(range(2, 34)),
                         seat_keys=secrets)
        play(n20, rng, 20)
        n20_log = os.path.join(tmp, "n20.log")
        n20.write_log(n20_log)
        n20.close()
        r = replay("render", n20_log, "--seat", "0", "--seat-secret", paths[0])
        check(r.returncode == 0 and r.stdout.startswith(b"<svg") and b'data-ruleset="n20"' in r.stdout,
              "n20 render draws its picture: %r" % r.stderr)
        r = replay("html", n20_log, "--seat", "0", "--seat-secret", paths[0])
        check(r.returncode == 0 and b'id="viewer"' in r.stdout, "seat 0's page of a live n20 fog-of-war game")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
