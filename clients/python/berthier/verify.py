"""Independent verifier of a Berthier game log.

It checks the cryptography of a log, with code of its own that shares nothing
with the C replay tool (berthier-replay), so that each checks the other:

- the file header and every record's BLAKE2b chain link (core/evlog.c format),
- every CHECKPOINT: it names the record just before it, its head is that
  record's chain hash, and its Ed25519 signature by the header's server key
  (or the key given with --sign-pk) is valid,
- the seats' JOIN records (one per seat, 32 bytes of entropy each),
- dice=contributory: every NONCE is the next link of its seat's committed chain,
- seat signatures (docs/protocol.md P3.1): every signed JOIN signs this log's
  header hash and binds its seat's signing key; every ORDER, RESIGN and NONCE
  of a seat-signed game is signed by its seat's bound key over its exact body
  bytes. A log whose joins bind no key (written before seat signatures) is
  reported as "inputs not seat-signed"; a mix of signed and unsigned is bad,
- the REVEAL: BLAKE2b-256(seed) equals the header's dice commitment,
- every DICE record: consecutive indices, and the value recomputed from the
  revealed seed and the seats' entropies (and, in contributory mode, the batch
  number, the log head when the batch opened and the batch's nonces) with a
  plain-Python ChaCha20.

It does not re-run the rules: berthier-replay does that.

Beside the log it checks what the seats and witnesses kept (berthier.receipts):
receipts (--receipts FILE: the log holds each acknowledged input at its record,
with the acknowledged chain head) and witnessed heads (--heads FILE: the log
extends every signed checkpoint given), naming the receipt or head a truncated,
forked or re-signed log contradicts; and it pins the signer (--sign-pk, or
--trust FILE with one key a line). Unpinned, the result says "signer not pinned".

    /usr/bin/python3 -m berthier.verify [--sign-pk HEX|FILE] [--trust FILE] [--receipts FILE]
                                        [--heads FILE] [--seat-key SEAT:KEY[:HASH]]... [--quiet] LOG

--seat-key is a seat's own record of its join (`berthierctl header` prints
your-sign-key and header-hash): the log's JOIN of SEAT must bind that signing
key (and sign that header hash), or the log is bad.

Exit status: 0 every check passed and the game is finished (END, REVEAL and a
final checkpoint over the last record); 1 the log is tampered or corrupt (the
first bad record is named); 2 consistent so far but incomplete (a live game:
the dice cannot be recomputed before the seed is revealed).
"""

import argparse
import struct
import sys

from . import dice as _dice
from . import logfile as lf
from .seatsig import ed25519_verify as _ed25519_verify
from . import seatsig as _seatsig
from . import wire

OK, BAD, INCOMPLETE = 0, 1, 2
CKPT_DOMAIN = b"berthier-ckpt-v1"


class Result:
    def __init__(self, status, message, bad_record=None, bad_offset=None):
        self.status = status
        self.message = message
        self.bad_record = bad_record
        self.bad_offset = bad_offset
        self.game_id = ""
        self.records = 0
        self.rolls = 0
        self.rolls_checked = 0
        self.checkpoints = 0
        self.batches = 0
        self.dice_fixed = False  # the operator fixed the dice (dice-seed)
        self.finished = False
        self.signer = None          # the header's signing key
        self.pinned_by = None       # "--sign-pk", "the trust file", or None
        self.evidence = []          # contradicted receipts and heads, one sentence each
        self.seat_signed = None      # True, False (an old log), None (nobody joined)
        self.signatures = 0          # seat signatures verified
        self.aborted = False         # an admin's ABORT ended the game

    @property
    def ok(self):
        return self.status == OK

    def __repr__(self):
        return "Result(%d, %r)" % (self.status, self.message)


class _Bad(Exception):
    def __init__(self, rec, reason):
        super().__init__(reason)
        self.rec = rec
        self.reason = reason


# What a header may hold (docs/protocol.md P4.1; core/game.h GAME_MAX_*).
MAX_OPTIONS, MAX_OPTION_LEN, MAX_SEAT_NAME, MAX_SPECTATORS = 32, 64, 64, 64


def _check_header_limits(rec, hdr):
    opts = hdr["options"]
    if len(opts) > MAX_OPTIONS:
        raise _Bad(rec, "%d options; a game takes at most %d" % (len(opts), MAX_OPTIONS))
    names = set()
    for i, o in enumerate(opts):
        n = len(o.encode())
        if not 1 <= n <= MAX_OPTION_LEN:
            raise _Bad(rec, "option %d is %d bytes; an option is 1 to %d bytes" % (i, n, MAX_OPTION_LEN))
        name = o.split("=", 1)[0]
        if name in names:
            raise _Bad(rec, "option %r is given twice" % name)
        names.add(name)
    for i, sp in enumerate(hdr["seats"]):
        if len(sp["name"].encode()) > MAX_SEAT_NAME:
            raise _Bad(rec, "seat %d: its name is longer than %d bytes" % (i, MAX_SEAT_NAME))
    spec = hdr["spectator_keys"]
    if len(spec) > MAX_SPECTATORS:
        raise _Bad(rec, "%d spectator keys; a game takes at most %d" % (len(spec), MAX_SPECTATORS))
    seat_keys = {bytes(sp["key"]) for sp in hdr["seats"]}
    seen = set()
    for i, k in enumerate(spec):
        if len(k) != 32 or bytes(k) in seen or bytes(k) in seat_keys:
            raise _Bad(rec, "spectator key %d is malformed, repeated or a seat's key" % i)
        seen.add(bytes(k))




def checkpoint_message(game_id, record, head):
    return CKPT_DOMAIN + game_id.encode("utf-8") + struct.pack("<Q", record) + bytes(head)


def _decode(rec, schema):
    try:
        return wire.decode(rec.payload, schema)
    except wire.WireError as e:
        raise _Bad(rec, "payload does not decode: %s" % e)


def verify_bytes(data, sign_pk=None, trust=None, receipts=(), heads=(), seat_keys=None):
    """Verify a log image (see _verify_log), pin its signer and check it against
    the receipts and heads kept (berthier.receipts.Kept lists).
    trust: a list of trusted keys (a trust file's), None if no trust file.
    seat_keys: the seats' own records of their joins (see _verify_log)."""
    from . import receipts as rc
    res = _verify_log(data, sign_pk, seat_keys)
    scan = lf.analyse(data)
    recs = scan.records
    hdr = None
    if recs and recs[0].kind == lf.HEADER:
        try:
            hdr = wire.decode(recs[0].payload, wire.LOG_HEADER)
        except wire.WireError:
            hdr = None
    if hdr is None or len(hdr["server_sign_pk"]) != 32:
        return res
    res.signer = bytes(hdr["server_sign_pk"])
    if sign_pk is not None and res.status != BAD:
        res.pinned_by = "--sign-pk"
    if trust is not None and res.status != BAD:
        if res.signer not in [bytes(k) for k in trust]:
            res.status = BAD
            res.bad_record, res.bad_offset = 0, recs[0].offset
            res.message = "record 0 (HEADER) at offset %d: the header's signing key %s is not in the trust file" % (
                recs[0].offset, res.signer.hex())
            return res
        res.pinned_by = res.pinned_by or "the trust file"
    problems, nr, nh, where = rc.check_log(recs, hdr["game_id"], res.signer, receipts, heads)
    if problems:
        res.evidence = problems + ([where] if where else [])
        if res.status != BAD:
            res.status = BAD
            res.message = problems[0]
        return res
    if res.status != BAD:
        res.message += "; " + ("signer pinned by " + res.pinned_by if res.pinned_by else "signer not pinned")
        if nr or nh:
            res.message += "; %d receipt%s and %d witnessed head%s hold" % (nr, "" if nr == 1 else "s",
                                                                            nh, "" if nh == 1 else "s")
    return res


def _hex8(b):
    return bytes(b[:8]).hex() + "..."


def _check_seat_sig(rec, res, hh, game_id, seat_pk, seat, what, seq, rid, field, body, sig):
    """An input of `seat`: signed by its bound key in a seat-signed game,
    unsigned in an unsigned one."""
    if res.seat_signed is not True:
        if sig:
            raise _Bad(rec, "seat %d's %s is signed, but the game's joins bound no signing key" % (seat, what))
        return
    if seat not in seat_pk:
        raise _Bad(rec, "seat %d's %s comes before its join bound a signing key" % (seat, what))
    if not sig:
        raise _Bad(rec, "seat %d's %s carries no seat signature (the seat's join bound key %s)"
                   % (seat, what, _hex8(seat_pk[seat])))
    if not _seatsig.verify(seat_pk[seat], game_id, hh, seq, rid, field, body, sig):
        raise _Bad(rec, "seat %d's signature on its %s (request id %d) does not verify under the key %s its "
                   "join bound: the input is not the seat's" % (seat, what, rid, _hex8(seat_pk[seat])))
    res.signatures += 1


def _order_parts(rec, payload):
    """(seat, request_id, signature, submit body bytes, Submit dict) of an ORDER."""
    o = _decode(rec, wire.LOG_ORDER)
    rid, sig, body = 0, b"", None
    try:
        for num, wt, v in wire.fields(o["request"]):
            if num == 1 and wt == 0:
                rid = v
            elif num == 2 and wt == 2:
                sig = v
            elif num == 12 and wt == 2:
                body = v
        if body is None:
            raise _Bad(rec, "the ORDER's request is not a submit")
        sub = wire.decode(body, wire.SUBMIT)
    except wire.WireError as e:
        raise _Bad(rec, "the ORDER's request does not decode: %s" % e)
    return o["seat"], rid, sig, body, sub


def _verify_log(data, sign_pk=None, seat_keys=None):
    """Verify a log image. sign_pk: the daemon's Ed25519 public key (32 bytes) to
    pin; None trusts the key in the header (the header itself is then covered by
    the chain and by every checkpoint). seat_keys: {seat: (signing key, header
    hash or None)}, the seats' own records of their joins. Returns a Result."""
    res = Result(OK, "")
    hdr = None
    nseats = 0
    contributory = False
    fixed = False            # dice-seed: the operator fixed the dice (docs/dice.md "Fixed dice")
    entropy = {}
    chain_link = {}          # seat -> last revealed link (contributory)
    batch = 0                # contributory: number of the batch being collected
    batch_nonces = {}        # seat -> nonce, for the batch being collected
    batch_head = None        # log head when the batch being collected opened
    cur_batch_key = None     # contributory: key of the batch whose rolls may follow
    rolls = []               # (rec, index, sides, value, key_source)
    next_index = 0
    prev = None              # previous Record
    ended = revealed = False
    seed = None
    last_kind = None
    last_input_chain = None  # chain hash of the last record that is not a SYNC
    hh = None                # the header hash seats sign
    seat_pk = {}             # seat -> signing key its join bound
    scan = lf.analyse(data)
    if scan.status == lf.Scan.DAMAGED or not scan.records:
        res.status = BAD
        res.bad_record = scan.bad_index
        res.bad_offset = scan.bad_offset
        res.message = "record %d at offset %d: %s" % (scan.bad_index, scan.bad_offset, scan.reason)
        return res
    try:
        for rec in scan.records:
            res.records += 1
            k = rec.kind
            if k == lf.SYNC:
                if rec.payload:
                    raise _Bad(rec, "a SYNC record with a payload")
                prev = rec
                continue
            if rec.index == 0:
                if k != lf.HEADER:
                    raise _Bad(rec, "record 0 is %s, not HEADER" % lf.kind_name(k))
                hdr = _decode(rec, wire.LOG_HEADER)
                hh = _seatsig.header_hash(rec.payload)
                if hdr["format"] != 1:
                    raise _Bad(rec, "header format %d, expected 1" % hdr["format"])
                res.game_id = hdr["game_id"]
                if not hdr["game_id"]:
                    raise _Bad(rec, "header has no game id")
                if len(hdr["dice_commit"]) != 32:
                    raise _Bad(rec, "dice commitment is %d bytes, not 32" % len(hdr["dice_commit"]))
                if len(hdr["server_sign_pk"]) != 32:
                    raise _Bad(rec, "server signing key is %d bytes, not 32" % len(hdr["server_sign_pk"]))
                if sign_pk is not None and bytes(sign_pk) != hdr["server_sign_pk"]:
                    raise _Bad(rec, "the header's signing key %s is not the expected %s"
                               % (hdr["server_sign_pk"].hex(), bytes(sign_pk).hex()))
                nseats = len(hdr["seats"])
                if not 1 <= nseats <= 8:
                    raise _Bad(rec, "%d seats" % nseats)
                for i, sp in enumerate(hdr["seats"]):
                    if sp["seat"] != i or len(sp["key"]) != 32:
                        raise _Bad(rec, "seat entry %d is malformed (seat %d, %d-byte key)"
                                   % (i, sp["seat"], len(sp["key"])))
                _check_header_limits(rec, hdr)
                # the create request (fields 14-16): all three, or none (no request id)
                ck, cd = len(hdr["create_key"]), len(hdr["create_digest"])
                if (hdr["create_request_id"] and (ck, cd) != (32, 16)) or \
                        (not hdr["create_request_id"] and (ck or cd)):
                    raise _Bad(rec, "the header's create request is incomplete (id %d, key %d bytes, "
                               "digest %d bytes)" % (hdr["create_request_id"], ck, cd))
                mode = hdr["dice_mode"] or "standard"
                if mode not in ("standard", "contributory", "fixed"):
                    raise _Bad(rec, "unknown dice mode %r" % mode)
                contributory = mode == "contributory"
                fixed = mode == "fixed"
                if fixed != ("dice-seed=fixed" in hdr["options"]):
                    raise _Bad(rec, "dice mode %r disagrees with the options %s" % (mode, sorted(hdr["options"])))
                opt_modes = {o[5:] for o in hdr["options"] if o.startswith("dice=")}
                if opt_modes and opt_modes != {mode}:
                    raise _Bad(rec, "dice mode %r disagrees with the options %s" % (mode, sorted(opt_modes)))
            elif k == lf.HEADER:
                raise _Bad(rec, "a second HEADER record")
            elif k == lf.CHECKPOINT:
                c = _decode(rec, wire.LOG_CHECKPOINT)
                if c["record"] != rec.index - 1:
                    raise _Bad(rec, "checkpoint names record %d, not the record before it (%d)"
                               % (c["record"], rec.index - 1))
                if c["head"] != prev.chain:
                    raise _Bad(rec, "checkpoint head is not the chain hash of record %d" % prev.index)
                if len(c["signature"]) != 64 or not _ed25519_verify(
                        hdr["server_sign_pk"], checkpoint_message(hdr["game_id"], c["record"], c["head"]),
                        c["signature"]):
                    raise _Bad(rec, "checkpoint signature does not verify")
                res.checkpoints += 1
            elif ended and k != lf.REVEAL:
                raise _Bad(rec, "%s after the end of the game" % lf.kind_name(k))
            elif k in lf.INPUT_KINDS:
                cur_batch_key = None
                if k == lf.JOIN:
                    j = _decode(rec, wire.LOG_JOIN)
                    s = j["seat"]
                    if s >= nseats:
                        raise _Bad(rec, "join for seat %d of a %d-seat game" % (s, nseats))
                    if s in entropy:
                        raise _Bad(rec, "seat %d joins twice" % s)
                    if len(j["entropy"]) != 32:
                        raise _Bad(rec, "seat %d's entropy is %d bytes, not 32" % (s, len(j["entropy"])))
                    if contributory:
                        if len(j["chain_commit"]) != 32:
                            raise _Bad(rec, "seat %d's chain commitment is not 32 bytes" % s)
                        chain_link[s] = j["chain_commit"]
                    elif j["chain_commit"]:
                        raise _Bad(rec, "chain commitment in a standard-dice game")
                    signed = bool(j["sign_pk"] or j["header_hash"] or j["signature"])
                    if res.seat_signed is None:
                        res.seat_signed = signed
                    elif res.seat_signed != signed:
                        raise _Bad(rec, "seat %d's join is %s but an earlier join was %s: every seat's join "
                                   "binds a signing key, or none" % (s, "signed" if signed else "unsigned",
                                                                     "signed" if res.seat_signed else "unsigned"))
                    if signed:
                        if len(j["sign_pk"]) != 32 or len(j["header_hash"]) != 32 or len(j["signature"]) != 64:
                            raise _Bad(rec, "seat %d's signed join is malformed" % s)
                        if j["header_hash"] != hh:
                            raise _Bad(rec, "seat %d's signed join is for header hash %s, but this log's header "
                                       "hashes to %s: the header (seat keys, dice commitment, signing key) was "
                                       "changed after seat %d joined" % (s, _hex8(j["header_hash"]), _hex8(hh), s))
                        body = wire.encode({"game_id": hdr["game_id"], "seat": s, "entropy": j["entropy"],
                                            "chain_commit": j["chain_commit"], "sign_pk": j["sign_pk"],
                                            "header_hash": j["header_hash"]}, wire.JOIN)
                        if not _seatsig.verify(j["sign_pk"], hdr["game_id"], hh, 0, j["request_id"],
                                               _seatsig.BODY_JOIN, body, j["signature"]):
                            raise _Bad(rec, "seat %d's join signature (request id %d) does not verify under the "
                                       "key it binds" % (s, j["request_id"]))
                        seat_pk[s] = j["sign_pk"]
                        res.signatures += 1
                    elif j["request_id"]:
                        raise _Bad(rec, "an unsigned join with a request id")
                    entropy[s] = j["entropy"]
                elif k == lf.ORDER and res.seat_signed is not True:
                    # an unsigned game: its orders are the rules' business (berthier-replay),
                    # but none may carry a signature
                    o = _decode(rec, wire.LOG_ORDER)
                    try:
                        if any(num == 2 for num, _, _ in wire.fields(o["request"])):
                            raise _Bad(rec, "seat %d's order is signed, but the game's joins bound no signing "
                                       "key" % o["seat"])
                    except wire.WireError:
                        pass
                elif k == lf.ORDER:
                    s, rid, sig, body, sub = _order_parts(rec, rec.payload)
                    if s >= nseats or sub["seat"] != s:
                        raise _Bad(rec, "an order of seat %d names seat %d" % (s, sub["seat"]))
                    if sub["game_id"] != hdr["game_id"]:
                        raise _Bad(rec, "an order for game %r in game %s" % (sub["game_id"], hdr["game_id"]))
                    _check_seat_sig(rec, res, hh, hdr["game_id"], seat_pk, s, "order", sub["based_on_seq"], rid,
                                    _seatsig.BODY_SUBMIT, body, sig)
                elif k == lf.RESIGN:
                    r = _decode(rec, wire.LOG_RESIGN)
                    s = r["seat"]
                    # a seat that has not joined has no key: its resign is unsigned
                    if s in entropy or r["signature"]:
                        body = wire.encode({"game_id": hdr["game_id"], "seat": s}, wire.GAME_REF)
                        _check_seat_sig(rec, res, hh, hdr["game_id"], seat_pk, s, "resign", 0, r["request_id"],
                                        _seatsig.BODY_RESIGN, body, r["signature"])
                elif k == lf.ABORT:
                    # an admin ended the game (no seat signs it): END must follow
                    a = _decode(rec, wire.LOG_ABORT)
                    reason = a["reason"] or ""
                    if not 1 <= len(reason.encode()) <= 120 or any(not " " <= ch <= "~" for ch in reason):
                        raise _Bad(rec, "an ABORT's reason is not 1 to 120 bytes of printable ASCII")
                    if a["has_forfeit"] and a["forfeit_seat"] >= nseats:
                        raise _Bad(rec, "an ABORT forfeits seat %d of a %d-seat game" % (a["forfeit_seat"], nseats))
                    if not a["has_forfeit"] and a["forfeit_seat"]:
                        raise _Bad(rec, "an ABORT names a seat without a forfeit")
                    res.aborted = True
                elif k == lf.NONCE:
                    n = _decode(rec, wire.LOG_NONCE)
                    s = n["seat"]
                    body = wire.encode({"game_id": hdr["game_id"], "seat": s, "batch": n["batch"],
                                        "nonce": n["nonce"]}, wire.REVEAL_NONCE)
                    _check_seat_sig(rec, res, hh, hdr["game_id"], seat_pk, s, "nonce reveal", 0, n["request_id"],
                                    _seatsig.BODY_REVEAL, body, n["signature"])
                    if not contributory:
                        raise _Bad(rec, "NONCE in a standard-dice game")
                    if len(entropy) < nseats:
                        raise _Bad(rec, "NONCE before every seat joined")
                    if s >= nseats:
                        raise _Bad(rec, "nonce for seat %d of a %d-seat game" % (s, nseats))
                    if n["batch"] != batch:
                        raise _Bad(rec, "nonce for batch %d while batch %d is open" % (n["batch"], batch))
                    if s in batch_nonces:
                        raise _Bad(rec, "seat %d reveals twice for batch %d" % (s, batch))
                    if len(n["nonce"]) != 32 or not _dice.chain_check(chain_link[s], n["nonce"]):
                        raise _Bad(rec, "seat %d's nonce for batch %d is not the next link of its "
                                   "committed chain" % (s, batch))
                    if not batch_nonces:
                        # The batch's first reveal: the head mixed into the batch key is
                        # the chain hash of the input record that opened the batch (the
                        # last record before this one that is not a SYNC), fixed before
                        # anyone revealed (core/game.c).
                        batch_head = last_input_chain
                    chain_link[s] = n["nonce"]
                    batch_nonces[s] = n["nonce"]
                    if len(batch_nonces) == nseats:
                        # The batch is complete: its rolls follow this record.
                        cur_batch_key = (batch, batch_head,
                                         [batch_nonces[i] for i in range(nseats)])
                        batch += 1
                        res.batches += 1
                        batch_nonces = {}
            elif k == lf.DICE:
                d = _decode(rec, wire.LOG_DICE)
                if len(entropy) < nseats:
                    raise _Bad(rec, "roll before every seat joined")
                if d["index"] != next_index:
                    raise _Bad(rec, "roll index %d, expected %d" % (d["index"], next_index))
                if d["sides"] < 1:
                    raise _Bad(rec, "a die with %d sides" % d["sides"])
                if not 1 <= d["value"] <= d["sides"]:
                    raise _Bad(rec, "roll %d: value %d out of 1..%d" % (d["index"], d["value"], d["sides"]))
                if contributory and cur_batch_key is None:
                    raise _Bad(rec, "roll %d outside a contributory batch" % d["index"])
                vis = d.get("visible") or 0
                if vis and (not vis & wire.DICE_LIMITED
                            or vis & ~(wire.DICE_LIMITED | ((1 << nseats) - 1))
                            or vis & ((1 << nseats) - 1) == (1 << nseats) - 1):
                    raise _Bad(rec, "roll %d: visibility %#x is not 0 (public) or bit 31 with a mask of "
                               "some of the %d seats" % (d["index"], vis, nseats))
                rolls.append((rec, d, cur_batch_key))
                next_index += 1
                res.rolls += 1
            elif k == lf.END:
                e = _decode(rec, wire.LOG_END)
                if not e["result"] or not e["result"]["ended"]:
                    raise _Bad(rec, "END record without an ended result")
                ended = True
            elif k == lf.REVEAL:
                if not ended:
                    raise _Bad(rec, "seed revealed before the end of the game")
                if revealed:
                    raise _Bad(rec, "a second REVEAL")
                r = _decode(rec, wire.LOG_REVEAL)
                if len(r["seed"]) != 32 or _dice.commit(r["seed"]) != hdr["dice_commit"]:
                    raise _Bad(rec, "the revealed seed does not match the header's dice commitment")
                seed = r["seed"]
                revealed = True
            # EVENT and STATE are the rules' business (berthier-replay).
            if k not in (lf.DICE, lf.CHECKPOINT, lf.EVENT, lf.STATE, lf.END, lf.REVEAL, lf.HEADER, lf.SYNC) \
                    and k not in lf.INPUT_KINDS:
                raise _Bad(rec, "unexpected record kind %d" % k)
            prev = rec
            last_kind = k
            last_input_chain = rec.chain
        if hdr is None:
            raise _Bad(None, "no HEADER record")
        for s, (want_pk, want_hh) in sorted((seat_keys or {}).items()):
            if want_hh is not None and bytes(want_hh) != hh:
                raise _Bad(scan.records[0], "the header hashes to %s, but seat %d joined a header that hashes to "
                           "%s (its own record of its join): the header was changed"
                           % (_hex8(hh), s, _hex8(want_hh)))
            jrec = None
            for rec in scan.records:
                if rec.kind == lf.JOIN and _decode(rec, wire.LOG_JOIN)["seat"] == s:
                    jrec = rec
                    break
            if jrec is None:
                raise _Bad(None, "seat %d holds a join signed with key %s, but no JOIN of seat %d is in this log"
                           % (s, _hex8(want_pk), s))
            got = _decode(jrec, wire.LOG_JOIN)["sign_pk"]
            if got != bytes(want_pk):
                raise _Bad(jrec, "seat %d's JOIN binds signing key %s, not the key %s seat %d joined with (its "
                           "own record of its join): this join is not the seat's"
                           % (s, _hex8(got) if got else "no key", _hex8(want_pk), s))
        if seed is not None and rolls:  # a game ended before every seat joined rolled nothing
            if fixed:
                key = _dice.key_fixed(seed)
            else:
                key = _dice.key_derive(seed, hdr["game_id"], [entropy[i] for i in range(nseats)])
            for rec, d, bk in rolls:
                k = key if bk is None else _dice.batch_key(key, bk[0], bk[1], bk[2])
                want = _dice.stream_value(k, d["index"], d["sides"])
                if want != d["value"]:
                    raise _Bad(rec, "roll %d (d%d, %s) is %d in the log but %d from the revealed seed"
                               % (d["index"], d["sides"], d["purpose"], d["value"], want))
                res.rolls_checked += 1
    except _Bad as b:
        res.status = BAD
        if b.rec is not None:
            res.bad_record = b.rec.index
            res.bad_offset = b.rec.offset
            res.message = "record %d (%s) at offset %d: %s" % (b.rec.index, lf.kind_name(b.rec.kind),
                                                               b.rec.offset, b.reason)
        else:
            res.message = b.reason
        return res
    res.finished = ended and revealed and last_kind == lf.CHECKPOINT
    what = "%s %d records, %d checkpoints verified, %d rolls (%d recomputed)" % (
        "game %s:" % res.game_id, res.records, res.checkpoints, res.rolls, res.rolls_checked)
    if contributory:
        what += ", %d contributory batches" % res.batches
    res.dice_fixed = fixed
    if fixed:
        what += "; dice fixed by the operator (dice-seed)"
    if res.seat_signed:
        what += ", %d seat signatures verified" % res.signatures
    elif res.seat_signed is False:
        what += "; inputs not seat-signed"
    if res.aborted:
        what += "; aborted by an admin (ABORT)"
    if res.finished:
        res.status = OK
        res.message = what + "; finished and verified"
    else:
        res.status = INCOMPLETE
        missing = []
        if not ended:
            missing.append("the game has not ended")
        elif not revealed:
            missing.append("the seed is not revealed")
        if last_kind != lf.CHECKPOINT:
            missing.append("the last records are not signed by a checkpoint")
        res.message = what + "; consistent but incomplete (" + ", ".join(missing) + ")"
    if scan.status == lf.Scan.TORN:
        res.message += "; note: " + scan.reason
    return res


def verify_file(path, sign_pk=None, trust=None, receipts=(), heads=(), seat_keys=None):
    with open(path, "rb") as f:
        return verify_bytes(f.read(), sign_pk, trust, receipts, heads, seat_keys)


def _parse_seat_key(arg):
    parts = arg.split(":")
    if len(parts) not in (2, 3) or not parts[0].isdigit() or any(len(p) != 64 for p in parts[1:]):
        raise ValueError("--seat-key wants SEAT:KEY or SEAT:KEY:HEADER_HASH (64 hex characters each)")
    return int(parts[0]), (bytes.fromhex(parts[1]), bytes.fromhex(parts[2]) if len(parts) == 3 else None)


def _load_sign_pk(arg):
    s = arg.strip()
    try:
        if len(s) == 64:
            return bytes.fromhex(s)
    except ValueError:
        pass
    with open(arg) as f:
        return bytes.fromhex(f.read().strip())


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m berthier.verify",
                                 description="Check a Berthier game log's chain, checkpoint signatures, "
                                             "seed reveal and dice (exit 0 verified and finished, "
                                             "1 tampered or corrupt, 2 consistent but incomplete).")
    ap.add_argument("log")
    ap.add_argument("--sign-pk", help="the daemon's Ed25519 public key: 64 hex characters, or a "
                                      "file holding them (the data dir's sign.pub)")
    ap.add_argument("--trust", action="append", default=[],
                    help="a trust file: one 64-hex Ed25519 key a line, then a comment (sign.pub is one)")
    ap.add_argument("--receipts", action="append", default=[],
                    help="a receipts file (one '<Receipt hex> [<Request hex>]' a line) to check the log against")
    ap.add_argument("--heads", action="append", default=[],
                    help="a heads file (one '<game> <record> <head hex> <signature hex>' a line)")
    ap.add_argument("--seat-key", action="append", default=[], metavar="SEAT:KEY[:HASH]",
                    help="a seat's own record of its join: its JOIN must bind signing key KEY (and sign header "
                         "hash HASH); berthierctl header prints both")
    ap.add_argument("--quiet", "-q", action="store_true")
    a = ap.parse_args(argv)
    from . import receipts as rc
    try:
        trust = None
        if a.trust:
            trust = []
            for t in a.trust:
                trust += rc.load_trust(t)
        kept_r = [k for f in a.receipts for k in rc.load_receipts(f)]
        kept_h = [k for f in a.heads for k in rc.load_heads(f)]
    except (OSError, ValueError) as e:
        print("berthier.verify: %s" % e, file=sys.stderr)
        return BAD
    try:
        pk = _load_sign_pk(a.sign_pk) if a.sign_pk else None
        if pk is not None and len(pk) != 32:
            raise ValueError("not a 32-byte key")
    except (OSError, ValueError) as e:
        print("berthier.verify: --sign-pk: %s" % e, file=sys.stderr)
        return BAD
    try:
        seat_keys = dict(_parse_seat_key(x) for x in a.seat_key)
    except ValueError as e:
        print("berthier.verify: %s" % e, file=sys.stderr)
        return BAD
    try:
        r = verify_file(a.log, pk, trust, kept_r, kept_h, seat_keys)
    except OSError as e:
        print("berthier.verify: %s: %s" % (a.log, e.strerror or e), file=sys.stderr)
        return BAD
    if not a.quiet or r.status == BAD:
        out = sys.stderr if r.status == BAD else sys.stdout
        for line in r.evidence:
            print("%s: %s" % (a.log, line), file=out)
        if r.signer is not None:
            print("%s: signer: %s (%s)" % (a.log, r.signer.hex(), "pinned" if r.pinned_by else
                                           "not pinned: give --sign-pk or --trust"), file=out)
        label = {OK: "verified", BAD: "BAD", INCOMPLETE: "incomplete"}[r.status]
        print("%s: %s: %s" % (a.log, label, r.message), file=out)
    for k in kept_r:
        if not k.used:
            print("note: receipt (%s) names game %s, which is not this log's" % (k.origin, k.fields["game_id"]))
    for k in kept_h:
        if not k.used:
            print("note: head (%s) names game %s, which is not this log's" % (k.origin, k.fields["game_id"]))
    return r.status


if __name__ == "__main__":
    sys.exit(main())
