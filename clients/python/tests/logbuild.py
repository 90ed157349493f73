"""Build Berthier logs by hand for the verifier's tests: records as core/game.c
writes them (HEADER, JOINs, inputs, DICE, STATE, END, REVEAL, CHECKPOINTs)."""
import hashlib
import os

import nacl.signing

from berthier import dice, logfile as lf, seatsig, wire
from berthier.verify import checkpoint_message

GAME_ID = "00112233aabbccdd"
# Request with a submit body, as an ORDER record holds it (berthier.v1 field numbers).
REQUEST_SUBMIT = {1: ("request_id", "uint", False), 2: ("signature", "bytes", False),
                  12: ("submit", wire.SUBMIT, False)}


class LogBuilder:
    def __init__(self, nseats=2, mode="standard", seed=None, sign_key=None, header_extra=None, signed=False):
        """signed: seat-signed inputs (docs/protocol.md P3.1), with seat keys derived
        from made-up CURVE secret keys."""
        self.signed = signed
        self.seat_keys = [seatsig.signing_key(bytes([0x40 + s]) * 32) for s in range(nseats)]
        self.next_rid = 100
        self.nseats = nseats
        self.mode = mode
        self.seed = seed or bytes(range(1, 33))
        self.sk = sign_key or nacl.signing.SigningKey(bytes(range(50, 82)))
        self.records = []              # [kind, payload] lists (payloads editable)
        self.entropy = [hashlib.blake2b(b"e%d" % s, digest_size=32).digest() for s in range(nseats)]
        self.secrets = [hashlib.blake2b(b"chain%d" % s, digest_size=32).digest() for s in range(nseats)]
        self.links = [dice.chain_make(self.secrets[s], 16) for s in range(nseats)]
        self.used = [0] * nseats
        self.batch = 0
        self.key = None
        self.cur = None
        self.roll_index = 0
        hdr = {"format": 1, "game_id": GAME_ID, "ruleset": "duel", "scenario": "standard",
               "server_sign_pk": bytes(self.sk.verify_key), "dice_commit": dice.commit(self.seed),
               "seats": [{"seat": s, "key": bytes([s + 1]) * 32} for s in range(nseats)],
               "dice_mode": mode}
        if mode == "fixed":
            hdr["options"] = ["dice-seed=fixed"]   # what the header keeps of dice-seed=HEX
        hdr.update(header_extra or {})
        self.add(lf.HEADER, wire.encode(hdr, wire.LOG_HEADER))
        self.sync()

    def sync(self):
        """The SYNC record that closes each batch the daemon writes."""
        self.add(lf.SYNC, b"")

    def add(self, kind, payload):
        self.records.append([kind, bytes(payload)])

    def chain_of_last(self, skip_sync=False):
        prev = bytes(32)
        last = prev
        for k, p in self.records:
            prev = lf.chain(prev, k, p)
            if not (skip_sync and k == lf.SYNC):
                last = prev
        return last

    def header_hash(self):
        return seatsig.header_hash(self.records[0][1])

    def rid(self):
        self.next_rid += 1
        return self.next_rid

    def join_all(self):
        for s in range(self.nseats):
            j = {"seat": s, "entropy": self.entropy[s]}
            if self.mode == "contributory":
                j["chain_commit"] = self.links[s][0]
            if self.signed:
                hh = self.header_hash()
                j["sign_pk"] = bytes(self.seat_keys[s].verify_key)
                j["header_hash"] = hh
                j["request_id"] = self.rid()
                body = wire.encode(dict(j, game_id=GAME_ID), wire.JOIN)
                j["signature"] = self.seat_keys[s].sign(
                    seatsig.message(GAME_ID, hh, 0, j["request_id"], seatsig.BODY_JOIN, body)).signature
            self.add(lf.JOIN, wire.encode(j, wire.LOG_JOIN))
            if s < self.nseats - 1:
                self.sync()
        if self.mode == "fixed":
            self.key = dice.key_fixed(self.seed)
        else:
            self.key = dice.key_derive(self.seed, GAME_ID, self.entropy)
        self.cur = self.key

    def reveal_batch(self):
        # the log head when the batch opened: the chain of its input record
        head = self.chain_of_last(skip_sync=True)
        for s in range(self.nseats):
            self.sync()
            self.used[s] += 1
            self.add(lf.NONCE, wire.encode({"seat": s, "batch": self.batch,
                                            "nonce": self.links[s][self.used[s]]}, wire.LOG_NONCE))
        self.cur = dice.batch_key(self.key, self.batch, head,
                                  [self.links[s][self.used[s]] for s in range(self.nseats)])
        self.batch += 1

    def order(self, seat, req=b"\x08\x01", seq=1):
        if self.signed:
            sub = {"game_id": GAME_ID, "seat": seat, "based_on_seq": seq, "order_text": "bid 1"}
            rid = self.rid()
            body = wire.encode(sub, wire.SUBMIT)
            sig = self.seat_keys[seat].sign(
                seatsig.message(GAME_ID, self.header_hash(), seq, rid, seatsig.BODY_SUBMIT, body)).signature
            req = wire.encode({"request_id": rid, "signature": sig, "submit": sub}, REQUEST_SUBMIT)
        self.add(lf.ORDER, wire.encode({"seat": seat, "request": req}, wire.LOG_ORDER))

    def roll(self, sides, purpose="D3 roll", visible=0):
        v = dice.stream_value(self.cur, self.roll_index, sides)
        self.add(lf.DICE, wire.encode({"index": self.roll_index, "sides": sides, "value": v,
                                       "purpose": purpose, "visible": visible}, wire.LOG_DICE))
        self.roll_index += 1
        return v

    def state(self, seq):
        self.add(lf.STATE, wire.encode({"seq": seq, "hash": bytes(32), "turn": 1}, wire.LOG_STATE))

    def checkpoint(self):
        n = len(self.records) - 1
        head = self.chain_of_last()
        sig = self.sk.sign(checkpoint_message(GAME_ID, n, head)).signature
        self.add(lf.CHECKPOINT, wire.encode({"record": n, "head": head, "signature": sig},
                                            wire.LOG_CHECKPOINT))

    def end(self, reveal=True, final_checkpoint=True):
        self.add(lf.END, wire.encode({"result": {"ended": True, "winners": [0], "level": "win"}},
                                     wire.LOG_END))
        if reveal:
            self.add(lf.REVEAL, wire.encode({"seed": self.seed}, wire.LOG_REVEAL))
        if final_checkpoint:
            self.checkpoint()
        self.sync()

    def build(self):
        return lf.build(self.records)

    def resign_all(self):
        """Re-sign every checkpoint for the current records (a forger holding the key)."""
        prev = bytes(32)
        chains = []
        for i, (k, p) in enumerate(self.records):
            if k == lf.CHECKPOINT:
                sig = self.sk.sign(checkpoint_message(GAME_ID, i - 1, chains[-1])).signature
                p = wire.encode({"record": i - 1, "head": chains[-1], "signature": sig}, wire.LOG_CHECKPOINT)
                self.records[i][1] = p
            prev = lf.chain(prev, k, p)
            chains.append(prev)


def standard_game(rolls=12, **kw):
    b = LogBuilder(**kw)
    b.join_all()
    for i in range(rolls):
        b.roll(6 if i % 3 else 20)
    b.state(1)
    b.checkpoint()
    b.sync()
    b.order(0)
    b.roll(6)
    b.state(2)
    b.sync()
    b.end()
    return b


def contributory_game():
    b = LogBuilder(mode="contributory", nseats=3)
    b.join_all()
    b.reveal_batch()          # batch 0: setup
    b.roll(6, "setup")
    b.state(1)
    b.checkpoint()
    b.sync()
    for t in range(3):
        b.order(t % 3)
        b.sync()
        b.reveal_batch()
        b.roll(6)
        b.roll(6)
        b.state(2 + t)
        b.sync()
    b.end()
    return b


def write_temp(data):
    import tempfile
    fd, path = tempfile.mkstemp(suffix=".log")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path
