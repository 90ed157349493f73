"""End to end: berthier.local (libberthier_local.so) plays the game berthierd plays.

Starts build/bin/berthierd on a temporary data dir and plays `duel` games to the
end through it, both seats driven in turn by one bot function (random legal
orders from a seeded generator) with known join entropies. Then the same game is
played in process with berthier.local.Game, given the daemon game's id, its seed
(<data-dir>/games/<id>.seed; for the dice-seed=HEX game, the same option
instead), the seats' CURVE secret keys and the same entropies, with the same bot
and the same generator seed. At every step the in-process game must offer the
same legal orders and views, the bot must choose the same order, and the state
hash must equal the one the daemon gives the admin; at the end every outcome
record (DICE, EVENT, STATE, END, REVEAL) of every input must be byte for byte the
daemon log's, and the in-process log must verify with berthier-replay verify and
berthier.verify. A refused order must be refused with the daemon's code.
The daemon is stopped with SIGTERM at the end whatever happens.
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from zmq.utils import z85

from berthier import local, logfile
from berthier.client import Client, keygen
from berthier.proto import pb

from e2e_py import BIN, PYTHON, check, start_daemon, stop_daemon, summary  # noqa: E402
INPUT_KINDS = {1, 2, 3, 4, 5, 6}
OUTCOME_KINDS = {16, 17, 18, 19, 20}


def random_bot(seed):
    """One bot function for both worlds: a seeded random choice among the legal orders."""
    rng = random.Random(seed)

    def bot(obs):
        return obs.orders[rng.randrange(len(obs.orders))]
    return bot


def outcome_groups(records):
    """The outcome records after each input record, as lists of (kind, payload)."""
    groups = []
    for r in records:
        if r.kind in INPUT_KINDS and r.kind != 1:
            groups.append([])
        elif r.kind in OUTCOME_KINDS and groups:
            groups[-1].append((r.kind, bytes(r.payload)))
    return groups


def daemon_game(admin, data, options, bot_seed, ruleset="duel", scenario="standard", max_orders=100000):
    kps = [keygen(), keygen()]
    gid = admin.create_game(ruleset, scenario, seats=kps, options=options).game_id
    clients = [Client(data_dir=data, keypair=kp, timeout=5, retries=4) for kp in kps]
    entropy = [bytes([0x40 + s]) * 32 for s in range(2)]
    for s in range(2):
        clients[s].join(gid, s, entropy=entropy[s])
    bots = [random_bot(bot_seed * 10 + s) for s in range(2)]
    steps = []   # (seat, order, legal orders, view, state hash after)
    while True:
        d = admin.pending(gid)
        if d.result.ended or len(steps) >= max_orders:
            break
        acted = False
        for s in range(2):
            ds = clients[s].pending(gid, s)
            if not ds.you_must_act:
                continue
            legal = clients[s].legal(gid, s)
            view = clients[s].state(gid, s).view
            obs = local.Observation(s, ds.kind, ds.prompt, list(legal.orders), list(legal.texts), view)
            order = bots[s](obs)
            rep = clients[s].submit(gid, s, ds.seq, order=order)
            check_ok = rep.code == pb.CODE_OK
            if not check_ok:
                check(False, "the daemon accepted a legal order (%s)" % pb.Code.Name(rep.code))
                return None
            steps.append((s, order, list(legal.orders), view, admin.state(gid).state_hash))
            acted = True
        if not acted:
            time.sleep(0.01)
    with open(os.path.join(data, "games", gid + ".seed"), "rb") as f:
        seed = f.read()
    log = admin.fetch_log(gid)
    for c in clients:
        c.close()
    return gid, seed, [z85.decode(kp.secret) for kp in kps], entropy, steps, log


def local_game(gid, seed, keys, entropy, options, steps, bot_seed, tmp, ruleset="duel", scenario="standard",
               finished=True):
    g = local.Game(ruleset, scenario, options=options, seed=seed, game_id=gid, seat_keys=keys, entropy=entropy)
    bots = [random_bot(bot_seed * 10 + s) for s in range(2)]
    groups, same_legal, same_view, same_choice, same_hash = [], True, True, True, True
    for s, order, legal, view, hash_after in steps:
        if not g.must_act(s):
            check(False, "in process seat %d must act where it acted in the daemon game" % s)
            return None
        obs = local.observe(g, s)
        same_legal &= obs.orders == legal
        same_view &= obs.view == view
        mine = bots[s](obs)
        same_choice &= mine == order
        g.apply(s, mine)
        groups.append([(k, p) for k, p in g.last_records() if k in OUTCOME_KINDS])
        same_hash &= g.state_hash() == hash_after
    check(same_legal, "in process: the same legal orders at each of %d decisions" % len(steps))
    check(same_view, "in process: the same views as the daemon gives the seats")
    check(same_choice, "in process: the same bot function chooses the same orders")
    check(same_hash, "in process: the same state hash as the daemon's after every order")
    check(g.is_terminal() == finished, "in process: the game ended where the daemon's did (%s)" % (g.result(),))
    path = os.path.join(tmp, gid + "-local.log")
    g.write_log(path)
    return g, groups, path


def test_n20_fog(admin, data, tmp):
    """Waterloo 20 with fog of war, its first 120 orders (or to its end): each seat's hidden-information
    view, the legal orders, the records and the state hashes are the daemon's."""
    options = ["fog-of-war"]
    got = daemon_game(admin, data, options, 5, "n20", "waterloo20-standard", max_orders=120)
    if not check(got is not None, "the n20 daemon game was played"):
        return
    gid, seed, keys, entropy, steps, log = got
    ended = any(r.kind == 19 for r in logfile.read_records(log))
    check(len(steps) == 120 or (ended and len(steps) > 20), "n20 %s: %d orders%s" % (gid, len(steps),
                                                                                    ", ended" if ended else ""))
    check(any(v != steps[0][3] for _, _, _, v, _ in steps[1:]), "n20: the seats' views change as the game goes")
    res = local_game(gid, seed, keys, entropy, options, steps, 5, tmp, "n20", "waterloo20-standard", finished=ended)
    if res is None:
        return
    g, groups, path = res
    d_orders = outcome_groups(logfile.read_records(log))[2:]
    check(len(d_orders) == len(groups) and all(a == b for a, b in zip(d_orders, groups)),
          "n20 %s: every order's outcome records are the daemon's" % gid)
    check(g.view(0) != g.view(1), "n20 fog-of-war: the two seats see different views")
    g.close()


def text_bot(obs):
    """A bot that answers with an order's text, the same function in both worlds: the
    middle of its legal list, by text."""
    return obs.texts[len(obs.texts) // 2]


def test_same_bot(admin, data):
    """local.play_client (one thread per seat, against berthierd) and local.play (in
    process) run the same bot function; with the same seed, keys and entropies the
    games end in the same state."""
    import threading
    kps = [keygen(), keygen()]
    gid = admin.create_game("duel", "standard", seats=kps).game_id
    clients = [Client(data_dir=data, keypair=kp, timeout=5, retries=4) for kp in kps]
    entropy = [bytes([0x70 + s]) * 32 for s in range(2)]
    for s in range(2):
        clients[s].join(gid, s, entropy=entropy[s])
    errors = []

    def run(s):
        try:
            local.play_client(clients[s], gid, s, text_bot, max_seconds=120)
        except Exception as e:  # reported below
            errors.append("seat %d: %r" % (s, e))
    threads = [threading.Thread(target=run, args=(s,)) for s in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(not errors, "play_client: both seats played the daemon game to the end %s" % (errors or ""))
    st = admin.state(gid)
    with open(os.path.join(data, "games", gid + ".seed"), "rb") as f:
        seed = f.read()
    g = local.Game("duel", "standard", seed=seed, game_id=gid,
                   seat_keys=[z85.decode(kp.secret) for kp in kps], entropy=entropy)
    r = local.play(g, {0: text_bot, 1: text_bot})
    d = admin.pending(gid)
    check(r.ended and d.result.ended and list(d.result.winners) == r.winners,
          "the same bot function ends both games with winners %s (daemon %s)" % (r.winners, list(d.result.winners)))
    check(g.state_hash() == st.state_hash, "the same bot function reaches the same final state hash in process")
    g.close()
    for c in clients:
        c.close()


def main():
    tmp = tempfile.mkdtemp(prefix="berthier-e2e-local-")
    data = os.path.join(tmp, "data")
    daemon = None
    try:
        daemon = start_daemon(data)
        admin = Client(data_dir=data, timeout=5, retries=4)
        fixed = "dice-seed=" + "5a" * 32
        for n, options in enumerate([[], [fixed]]):
            got = daemon_game(admin, data, options, n + 1)
            if not check(got is not None, "the daemon game %s was played to the end" % options):
                continue
            gid, seed, keys, entropy, steps, log = got
            check(len(steps) > 4, "%s: %d orders" % (gid, len(steps)))
            d_groups = outcome_groups(logfile.read_records(log))
            # the two joins' groups come first (the second one's holds the setup)
            d_join, d_orders = d_groups[:2], d_groups[2:]
            res = local_game(gid, seed, keys, entropy, options, steps, n + 1, tmp)
            if res is None:
                continue
            g, groups, path = res
            check(len(d_orders) == len(groups) and all(a == b for a, b in zip(d_orders, groups)),
                  "%s %s: every order's DICE, EVENT, STATE, END and REVEAL records are the daemon's" % (gid, options))
            l_groups = outcome_groups(logfile.read_records(open(path, "rb").read()))
            check(l_groups[:2] == d_join, "%s: the joins' outcome records (setup) are the daemon's" % gid)
            check(any(k == 16 for grp in groups for k, _ in grp), "%s: the game rolled dice" % gid)
            rp = subprocess.run([os.path.join(BIN, "berthier-replay"), "verify", path], capture_output=True, text=True)
            check(rp.returncode == 0, "berthier-replay verify accepts the in-process log: %s"
                  % (rp.stdout + rp.stderr).strip()[-200:])
            py = subprocess.run([PYTHON, "-m", "berthier.verify", path], capture_output=True, text=True)
            check(py.returncode == 0, "berthier.verify accepts the in-process log: %s"
                  % (py.stdout + py.stderr).strip()[-200:])
            g.close()
        test_n20_fog(admin, data, tmp)
        test_same_bot(admin, data)
        # A refusal carries the daemon's code: an order in a finished game.
        g = local.Game("duel", "standard", seed=bytes(32))
        local.play(g, {0: random_bot(1), 1: random_bot(2)})
        try:
            g.apply(0, b"")
            check(False, "an order after the end is refused")
        except local.LocalError as e:
            check(e.code == pb.CODE_GAME_OVER, "an order after the end is refused with %s" % e.code_name)
        try:
            local.Game("duel", "waterloo")
            check(False, "an unknown scenario is refused")
        except local.LocalError as e:
            check(e.code == pb.CODE_BAD_SCENARIO, "an unknown scenario is refused with %s: %s" % (e.code_name, e))
        admin.close()
    finally:
        stop_daemon(daemon)
    rc = summary("; data kept in %s" % tmp)
    if rc == 0:
        shutil.rmtree(tmp, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
