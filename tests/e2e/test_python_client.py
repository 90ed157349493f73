"""End to end: the Python client against a real berthierd.

Starts build/bin/berthierd on a temporary data dir, creates `duel` games with
the admin key, joins the seats with generated keys, plays random legal orders
to the end (standard and contributory dice; with replies that carry each seat's next
decision and legal orders, docs/protocol.md P4.3, and with the separate requests of before), fetches the logs and checks them
with the Python verifier (berthier.verify) and with `berthier-replay verify`:
both must accept the good logs (exit 0), both must reject a log with one
byte flipped in the middle (exit 1), and both must call a log whose last batch
is damaged incomplete (a torn tail, exit 2). Also: a retry with the same request id is answered
with the same reply and applied once; seat notices open with the event key.
The daemon is stopped with SIGTERM at the end whatever happens.

Run by ctest (tests/e2e/CMakeLists.txt sets BERTHIER_BIN, BERTHIER_SRC and
PYTHONPATH=<src>/clients/python:<build>/python).
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from berthier import example_bot, verify
from berthier.client import Client, NonceChain, check_view_hash, keygen
from berthier.keys import load_keypair
from berthier.proto import pb

from e2e_py import BIN, FAILURES, PYTHON, check, start_daemon, stop_daemon, summary  # noqa: E402


def run_verifiers(path):
    """(python verifier exit, berthier-replay exit or None when it is not built)."""
    env = dict(os.environ)
    py = subprocess.run([PYTHON, "-m", "berthier.verify", path], env=env, capture_output=True, text=True)
    print("      berthier.verify: rc=%d %s" % (py.returncode, (py.stdout + py.stderr).strip()[:300]))
    replay = os.path.join(BIN, "berthier-replay")
    if not os.path.exists(replay):
        return py.returncode, None
    rp = subprocess.run([replay, "verify", path], capture_output=True, text=True)
    print("      berthier-replay verify: rc=%d %s" % (rp.returncode, (rp.stdout + rp.stderr).strip()[:300]))
    return py.returncode, rp.returncode


def play_game(admin, data, tmp, nseats, options, seed, watch=False, flow="next", notices=False):
    """Create, join and play a duel game to the end; returns (game_id, notices seen by seat 0).
    watch: the game names a spectator key, which follows it and fetches its log.
    flow: the example bot's ("next": one request per input, docs/protocol.md P4.3; "old":
    separate pending, legal and submit requests); notices: the bots wait on their sealed
    notices instead of polling."""
    kdir = os.path.join(tmp, "keys")
    kps = []
    for s in range(nseats):
        name = "g%d-seat%d" % (seed, s)
        keygen(kdir, name)
        kps.append(load_keypair(os.path.join(kdir, name + ".key")))
    watcher = None
    if watch:
        keygen(kdir, "g%d-watcher" % seed)
        wkp = load_keypair(os.path.join(kdir, "g%d-watcher.key" % seed))
        created = admin.create_game("duel", "standard", seats=kps, options=options, spectators=[wkp])
        watcher = Client(data_dir=data, keypair=wkp, timeout=5, retries=4)
    else:
        created = admin.create_game("duel", "standard", seats=kps, options=options)
    gid = created.game_id
    check(len(gid) == 16 and all(ch in "0123456789abcdef" for ch in gid), "game id %s is 16 hex characters" % gid)
    contributory = "dice=contributory" in options
    clients = [Client(data_dir=data, keypair=kp, timeout=5, retries=4) for kp in kps]
    chains = [NonceChain() if contributory else None for _ in range(nseats)]
    joined0 = clients[0].join(gid, 0, chain_commit=chains[0].commit if contributory else b"")
    check(len(joined0.event_key) == 32, "seat 0 joined and got a 32-byte event key")
    check(clients[0].event_key(gid, 0) == joined0.event_key, "hello naming the seat returns the same event key")
    sub = clients[0].subscribe(gid, 0, joined0.event_key)
    live = "spectators=live" in options
    spectator = (watcher or admin).subscribe(gid) if live else None
    time.sleep(0.3)   # let the SUB sockets finish their CURVE handshake before notices flow
    results, errors = {}, []

    def run(s):
        try:
            results[s] = example_bot.play(clients[s], gid, s, random.Random(seed * 10 + s), chain=chains[s],
                                          join=s != 0, max_seconds=300, flow=flow, notices=notices)
        except Exception as e:  # reported below
            errors.append("seat %d: %r" % (s, e))

    threads = [threading.Thread(target=run, args=(s,)) for s in range(nseats)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(not errors, "every seat played to the end %s" % (errors or ""))
    kinds = [dict(c.request_kinds) for c in clients]
    if flow == "next":
        check(all(k.get("legal", 0) == 0 for k in kinds) and all(c.fallbacks == 0 for c in clients),
              "the %s flow: no legal request, every reply carried the next decision (%s)" % (flow, kinds))
        if contributory:
            check(all(k.get("reveal", 0) > 0 for k in kinds), "every seat revealed its nonces in the new flow")
    else:
        check(all(k.get("legal", 0) > 0 for k in kinds), "the old flow asks for legal orders (%s)" % kinds)
    if results:
        r = results[0].result
        check(r.ended, "the game ended: winners %s, %s" % (list(r.winners), r.reason))
    notices = 0
    while True:
        try:
            n = sub.recv(0.3)
        except ValueError:
            check(False, "a seat notice did not open with the event key")
            break
        if n is None:
            break
        if notices == 0:
            check(n.game_id == gid, "notice names game %s" % gid)
        notices += 1
    sub.close()
    check(notices > 0, "seat 0 received %d sealed notices" % notices)
    if spectator is not None:
        clear = 0
        while spectator.recv(0.3) is not None:
            clear += 1
        spectator.close()
        check(clear > 0, "a live spectator received %d clear notices" % clear)
    if watcher is not None:
        check(watcher.fetch_log(gid) == admin.fetch_log(gid), "the spectator key fetches the ended game's log")
        check(len(watcher.state(gid).state_hash) == 32, "the spectator key sees the state and its hash after the end")
        watcher.close()
    keys = {bytes(clients[s].event_key(gid, s)) for s in range(nseats)}
    check(len(keys) == nseats, "every seat has its own event key")
    for c in clients:
        c.close()
    return gid


def test_retry_same_id(admin, data):
    """A retried request (same id, same bytes) gets the same reply and is applied once."""
    k0, k1 = keygen(), keygen()
    gid = admin.create_game("duel", "standard", seats=[k0, k1]).game_id
    c0 = Client(data_dir=data, keypair=k0)
    c1 = Client(data_dir=data, keypair=k1)
    try:
        c0.join(gid, 0)
        c1.join(gid, 1)
        d = c0.pending(gid, 0)
        legal = c0.legal(gid, 0)
        req = pb.Request()
        req.request_id = c0.new_request_id()
        req.submit.game_id = gid
        req.submit.seat = 0
        req.submit.based_on_seq = d.seq
        req.submit.order = legal.orders[0]
        first = c0.call(req)
        second = c0.call(req)     # same id, same bytes: a retry
        check(first.SerializeToString() == second.SerializeToString(),
              "a retry with the same request id gets the same reply")
        # duel bids are sealed: the order is recorded once; when seat 1 bids too the
        # round is applied and seq moves by exactly one.
        d1 = c1.pending(gid, 1)
        c1.submit(gid, 1, d1.seq, order=c1.legal(gid, 1).orders[0])
        check(c0.pending(gid, 0).seq == d.seq + 1, "the retried order was applied once")
        # mid-game a seat holds the hash of its own view, never the full state's
        sv = c0.state(gid, 0)
        check(check_view_hash(sv, gid, 0), "the seat's view hash is the hash of the view it got")
        check(len(sv.state_hash) == 0, "mid-game a seat gets no full-state hash")
        other = pb.Request()
        other.CopyFrom(req)
        other.submit.based_on_seq += 1
        rep = c0.call(other, check=False)
        check(rep.code == pb.CODE_REQUEST_ID_REUSED,
              "same id with different bytes is refused (%s)" % pb.Code.Name(rep.code))
        # A live game's log is consistent but incomplete (exit 2) for both verifiers.
        tmp = os.path.dirname(data)
        path = os.path.join(tmp, gid + "-live.log")
        with open(path, "wb") as f:
            f.write(admin.fetch_log(gid))
        py, rp = run_verifiers(path)
        check(py == 2, "berthier.verify says a live game's log is incomplete")
        if rp is not None:
            check(rp == 2, "berthier-replay verify says a live game's log is incomplete")
        # A resignation ends the game: the log is then complete and verifies.
        c1.resign(gid, 1)
        check(c0.pending(gid, 0).result.ended, "the game ended by resignation")
        check(len(c0.state(gid, 0).state_hash) == 32, "after the end a seat gets the full-state hash")
        path = os.path.join(tmp, gid + "-resigned.log")
        with open(path, "wb") as f:
            f.write(c0.fetch_log(gid))      # a seat may fetch the log once the game is over
        py, rp = run_verifiers(path)
        check(py == 0, "berthier.verify accepts the resigned game's log")
        if rp is not None:
            check(rp == 0, "berthier-replay verify accepts the resigned game's log")
    finally:
        c0.close()
        c1.close()


def test_seat_signatures(admin, data):
    """Inputs are seat-signed (docs/protocol.md P3.1): the header is checked before the
    join, a forged signature is refused [P3] and the verifiers check every signature."""
    from berthier import seatsig
    k0, k1 = keygen(), keygen()
    gid = admin.create_game("duel", "standard", seats=[k0, k1]).game_id
    c0 = Client(data_dir=data, keypair=k0)
    c1 = Client(data_dir=data, keypair=k1)
    try:
        h = c0.header(gid, 0)
        check(seatsig.header_hash(h.header) == h.header_hash, "the header hash is the hash of the header bytes")
        lh = pb.LogHeader()
        lh.ParseFromString(h.header)
        check(lh.seats[0].key == k0.public_raw and len(lh.dice_commit) == 32,
              "the header holds the seat's key and the dice commitment")
        try:
            c1.header(gid, 0)
            check(False, "seat 1 read seat 0's header as seat 0")
        except Exception as e:
            check("NOT_YOUR_SEAT" in str(e), "a seat reads the header only as itself (%s)" % e)
        c0.join(gid, 0)
        c1.join(gid, 1)
        d = c0.pending(gid, 0)
        req = pb.Request()
        req.submit.game_id = gid
        req.submit.seat = 0
        req.submit.based_on_seq = d.seq
        req.submit.order = c0.legal(gid, 0).orders[0]
        req.signature = bytes(64)
        rep = c0.call(req, check=False)
        check(rep.code == pb.CODE_UNAUTHORIZED and rep.rule == "P3",
              "an order with a forged signature is refused [P3] (%s)" % rep.message)
        c0.submit(gid, 0, d.seq, order=req.submit.order)
        c1.resign(gid, 1)
        path = os.path.join(os.path.dirname(data), gid + "-signed.log")
        with open(path, "wb") as f:
            f.write(c0.fetch_log(gid))
        r = verify.verify_file(path)
        check(r.ok and r.seat_signed and r.signatures >= 4,
              "berthier.verify checks every seat signature (%d): %s" % (r.signatures, r.message))
    finally:
        c0.close()
        c1.close()


def test_live_spectator_state(admin, data):
    """A spectator key of a spectators=live game gets the spectators' view all along
    (view hash over seat 0xfffffffe, never the full state's hash before the end) and
    its picture (state(svg=True), docs/render.md); a seat gets its own; a spectator
    of a game whose spectators are delayed is refused the state until the end (P3)."""
    k0, k1, kw = keygen(), keygen(), keygen()
    gid = admin.create_game("duel", "standard", seats=[k0, k1], options=["spectators=live"],
                            spectators=[kw]).game_id
    late = admin.create_game("duel", "standard", seats=[k0, k1], spectators=[kw]).game_id
    c0 = Client(data_dir=data, keypair=k0)
    c1 = Client(data_dir=data, keypair=k1)
    w = Client(data_dir=data, keypair=kw)
    try:
        check(w.svg(gid) == "", "no picture before the game has started")
        for g in (gid, late):
            c0.join(g, 0)
            c1.join(g, 1)
        d = c0.pending(gid, 0)
        c0.submit(gid, 0, d.seq, text="bid 3")      # sealed [D2]: seat 1 has not bid yet
        sv = w.state(gid, text=True, svg=True)
        check(check_view_hash(sv, gid, -2), "the spectators' view hash covers seat 0xfffffffe")
        check(not check_view_hash(sv, gid, -1), "the spectators' view hash is not the full view's")
        check(len(sv.state_hash) == 0, "mid-game a spectator gets no full-state hash")
        check(sv.svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="brt-board" data-ruleset="duel"'),
              "the spectator gets the duel picture")
        check("bid 3" not in sv.svg and "bid 3" not in sv.text, "the spectators' view shows no sealed bid")
        mine = c0.svg(gid, 0)
        check('class="brt-board"' in mine and mine.count('class="counter"') == 2, "seat 0 gets its own picture")
        check(c0.state(gid, 0).svg == "", "without svg=True the reply carries no picture")
        rep = w.call(w._ref("state", late, 0), check=False)
        check(rep.code == pb.CODE_UNAUTHORIZED, "a delayed spectator gets no state mid-game (%s)" % rep.message)
        c1.resign(gid, 1)
        c1.resign(late, 1)
        check(len(w.state(late).state_hash) == 32, "after the end a delayed spectator gets the state and its hash")
        end = w.state(gid, svg=True)
        check(check_view_hash(end, gid, -1) and len(end.state_hash) == 32,
              "after the end the spectator gets the full view and the state's hash")
        check(end.svg.count('class="counter"') == 2, "the final picture shows both seats")
    finally:
        c0.close()
        c1.close()
        w.close()


def main():
    tmp = tempfile.mkdtemp(prefix="berthier-e2e-py-")
    data = os.path.join(tmp, "data")
    daemon = None
    try:
        daemon = start_daemon(data)
        admin = Client(data_dir=data, timeout=5, retries=4)
        h = admin.hello().hello
        check(h.admin and "duel" in h.rulesets, "hello: admin key recognised, duel available")
        test_retry_same_id(admin, data)
        test_seat_signatures(admin, data)
        test_live_spectator_state(admin, data)
        games = []
        for seed, (nseats, options, flow) in enumerate([(2, ["spectators=live"], "next"),
                                                        (3, ["dice=contributory"], "next"),
                                                        (2, ["dice=contributory"], "old")]):
            games.append((play_game(admin, data, tmp, nseats, options, seed + 1, watch=seed == 0, flow=flow,
                                    notices=seed == 1), options))
        listed = {g.game_id for g in admin.list_games().games}
        check(all(g in listed for g, _ in games), "list_games shows the games")
        for gid, options in games:
            log = admin.fetch_log(gid)
            with open(os.path.join(data, "games", gid + ".log"), "rb") as f:
                check(f.read() == log, "fetch_log gives the file's bytes (%d)" % len(log))
            path = os.path.join(tmp, gid + ".log")
            with open(path, "wb") as f:
                f.write(log)
            r = verify.verify_bytes(log)
            check(r.status == verify.OK and r.rolls_checked == r.rolls and r.rolls > 0,
                  "%s %s: %s" % (gid, options, r.message))
            py, rp = run_verifiers(path)
            check(py == 0, "berthier.verify accepts the log of %s" % gid)
            pinned = subprocess.run([PYTHON, "-m", "berthier.verify", "--sign-pk",
                                     os.path.join(data, "sign.pub"), path], capture_output=True, text=True)
            check(pinned.returncode == 0, "berthier.verify with the daemon's sign.pub pinned accepts it")
            if rp is None:
                print("NOTE  berthier-replay is not built in %s: only the Python verifier ran" % BIN)
            else:
                check(rp == 0, "berthier-replay verify accepts the log of %s" % gid)
            # One byte flipped in the middle (complete batches follow it): tampered, exit 1.
            # One byte flipped in the last batch: a torn tail that was never acknowledged,
            # so the log is consistent but incomplete, exit 2. Both tools must agree.
            for pos, want in ((len(log) // 2, 1), (len(log) - 40, 2)):
                bad = bytearray(log)
                bad[pos] ^= 0x20
                bpath = os.path.join(tmp, "%s-flip%d.log" % (gid, pos))
                with open(bpath, "wb") as f:
                    f.write(bad)
                py, rp = run_verifiers(bpath)
                check(py == want, "berthier.verify exits %d for %s with byte %d flipped" % (want, gid, pos))
                if rp is not None:
                    check(rp == want, "berthier-replay verify exits %d for %s with byte %d flipped"
                          % (want, gid, pos))
        admin.close()
    except Exception as e:
        check(False, "unexpected %r" % e)
        import traceback
        traceback.print_exc()
    finally:
        stop_daemon(daemon)
        if daemon is not None:
            check(daemon.returncode == 0, "berthierd stopped cleanly on SIGTERM (rc %s)" % daemon.returncode)
        if FAILURES:
            try:
                with open(os.path.join(tmp, "berthierd.err"), "rb") as f:
                    sys.stdout.write(f.read().decode(errors="replace")[-3000:])
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
