"""A short example bot: joins a seat and plays uniformly random legal orders
until the game ends, one request per order: each reply carries the seat's next
decision and legal orders (docs/protocol.md P4.3; --old-flow asks for them with
separate pending and legal requests instead).

    /usr/bin/python3 -m berthier.example_bot --data-dir var/berthier \\
        --key keys/alice.key --game 0123456789abcdef --seat 0

(--key-file is the same option's older name.)

With dice=contributory games, pass --contributory: the bot then commits to a
nonce chain at join and reveals a link whenever a dice batch asks for one.
"""

import argparse
import random
import re
import sys
import time

from .client import BerthierError, Client, DataDirError, NonceChain, Timeout
from .proto import pb

_BATCH = re.compile(r"dice batch (\d+)")


def play(client, game_id, seat, rng=None, chain=None, join=True, poll=0.01, max_seconds=600, log=None,
         flow="next", texts=False, notices=False):
    """Play `seat` of `game_id` with random legal orders until the game ends.
    Returns the final Decision (decision.result holds the result).

    flow "next" (the default): one request per input, each reply carrying the seat's next
    decision and legal orders (docs/protocol.md P4.3, berthier.client.Seat); texts: ask for
    the orders' texts too (for log); notices: while the seat waits, follow its sealed
    notices instead of asking every poll seconds (Seat.wait). flow "old": pending, legal
    and submit as separate requests, as clients did before P4.3 (kept working)."""
    if flow == "old":
        return _play_old(client, game_id, seat, rng, chain, join, poll, max_seconds, log)
    if flow != "next":
        raise ValueError("flow is \"next\" or \"old\", not %r" % (flow,))
    rng = rng or random.Random()
    s = client.seat(game_id, seat, texts=texts, chain=chain)
    step = s.join() if join else s.refresh()
    sub = None
    if notices:
        key = step.body.event_key if isinstance(step.body, pb.Joined) else client.event_key(game_id, seat)
        sub = client.subscribe(game_id, seat, key)
    try:
        return _play_seat(s, rng, poll, max_seconds, log, sub)
    finally:
        if sub is not None:
            sub.close()


def _play_seat(s, rng, poll, max_seconds, log, sub):
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        if s.ended:
            return s.decision
        if not s.must_act:
            s.wait(poll, timeout=deadline - time.monotonic(), sub=sub)
            continue
        if s.decision.kind != "dice-nonce" and not s.orders:
            time.sleep(poll)
            s.refresh()
            continue
        texts_now, n_now = s.texts, len(s.orders)
        picked = []

        def choose(decision, legal):
            picked.append(rng.randrange(len(legal.orders)))
            return picked[0]

        step = s.turn(choose)
        if log and picked and step is not None and step.ok:
            i = picked[0]
            log("seat %d: %s" % (s.seat, texts_now[i] if i < len(texts_now) else "order %d of %d" % (i + 1, n_now)))
    raise TimeoutError("game %s did not end within %d s" % (s.game_id, max_seconds))


def _play_old(client, game_id, seat, rng=None, chain=None, join=True, poll=0.01, max_seconds=600, log=None):
    """The flow without P4.3: pending, legal, submit, each its own request."""
    rng = rng or random.Random()
    if join:
        try:
            client.join(game_id, seat, chain_commit=chain.commit if chain else b"")
        except BerthierError as e:
            if e.code != pb.CODE_ALREADY_JOINED:
                raise
    batch = 0
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        d = client.pending(game_id, seat)
        if d.result.ended:
            return d
        if not d.you_must_act:
            time.sleep(poll)
            continue
        if d.kind == "dice-nonce":
            m = _BATCH.search(d.prompt)
            b = int(m.group(1)) if m else batch
            client.reveal(game_id, seat, b, chain.next())
            batch = b + 1
            continue
        legal = client.legal(game_id, seat)
        if not legal.orders:
            time.sleep(poll)
            continue
        i = rng.randrange(len(legal.orders))
        rep = client.submit(game_id, seat, d.seq, order=legal.orders[i], check=False)
        if rep.code == pb.CODE_OK:
            if log:
                log("seat %d: %s" % (seat, legal.texts[i] if i < len(legal.texts) else "order"))
        elif rep.code not in (pb.CODE_STALE, pb.CODE_NOT_YOUR_DECISION, pb.CODE_GAME_OVER):
            raise BerthierError(rep)
    raise TimeoutError("game %s did not end within %d s" % (game_id, max_seconds))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m berthier.example_bot", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", help="the daemon's data dir (server.pub, sockets)")
    ap.add_argument("--connect", "--endpoint", dest="endpoint",
                    help="request endpoint, ipc://PATH or tcp://HOST:PORT (default ipc://<data-dir>/berthier.sock)")
    ap.add_argument("--server-key", help="the daemon's Z85 public key (default <data-dir>/server.pub)")
    ap.add_argument("--key", "--key-file", dest="key", required=True,
                    help="this seat's key file (public/secret lines), as berthierctl --key")
    ap.add_argument("--game", required=True)
    ap.add_argument("--seat", type=int, required=True)
    ap.add_argument("--seed", type=int, help="random seed of the bot's choices")
    ap.add_argument("--contributory", action="store_true", help="the game uses dice=contributory")
    ap.add_argument("--texts", action="store_true",
                    help="ask for the legal orders' texts too, to print the orders played by name")
    ap.add_argument("--notices", action="store_true",
                    help="while waiting, follow the seat's sealed notices instead of asking every 10 ms")
    ap.add_argument("--old-flow", action="store_true",
                    help="pending, legal and submit as separate requests (as before docs/protocol.md P4.3)")
    a = ap.parse_args(argv)
    try:
        c = Client(endpoint=a.endpoint, data_dir=a.data_dir, key_file=a.key, server_key=a.server_key)
    except (DataDirError, ValueError) as e:
        print("example_bot: %s" % e, file=sys.stderr)
        return 4
    try:
        d = play(c, a.game, a.seat, random.Random(a.seed), NonceChain() if a.contributory else None,
                 log=print, flow="old" if a.old_flow else "next", texts=a.texts, notices=a.notices)
        r = d.result
        print("game %s ended: winners %s, %s: %s" % (a.game, list(r.winners) or "none (draw)", r.level, r.reason))
        return 0
    except BerthierError as e:
        print("example_bot: %s" % e, file=sys.stderr)
        return 1
    except Timeout as e:
        print("example_bot: %s" % e, file=sys.stderr)
        return 3
    finally:
        c.close()


if __name__ == "__main__":
    sys.exit(main())
