"""Receipts, witnessed heads and trusted keys (docs/protocol.md P9,
docs/log-format.md "Receipts", "Witnesses" and "Pinning the signer").

A receipt is the daemon's signature over one acknowledged input:

    "berthier-rcpt-v1" || u32le(len(game_id)) || game_id || u32le(seat) ||
    u8(kind) || u64le(record) || u64le(head_record) || head (32) ||
    input_hash (32) || u64le(seq)

signed with Ed25519 by the checkpoint key (LogHeader.server_sign_pk);
input_hash is BLAKE2b-256 of the exact Request bytes the daemon received.

Files (text, '#' lines and empty lines are comments):
  receipts file: one receipt a line, "<Receipt hex> [<Request hex>]"
  heads file:    one checkpoint a line, "<game> <record> <head hex> <signature hex>"
  trust file:    one Ed25519 public key a line, "<64 hex> [comment]" (sign.pub is one)

This module decodes the Receipt with its own protobuf reader (berthier.wire), so
that the verifier needs no generated code.
"""

import hashlib
import os
import struct

from . import logfile as lf
from .seatsig import ed25519_verify as _ed25519_verify
from . import wire

RCPT_DOMAIN = b"berthier-rcpt-v1"
CKPT_DOMAIN = b"berthier-ckpt-v1"

RECEIPT = {1: ("game_id", "string", False), 2: ("seat", "uint", False), 3: ("kind", "uint", False),
           4: ("record", "uint", False), 5: ("head_record", "uint", False), 6: ("head", "bytes", False),
           7: ("input_hash", "bytes", False), 8: ("seq", "uint", False), 9: ("signature", "bytes", False)}

INPUT_KINDS = {"join": lf.JOIN, "submit": lf.ORDER, "resign": lf.RESIGN, "reveal": lf.NONCE}

# The input bodies of a Request (field number -> name, schema), read with berthier.wire.
_REQUEST_BODIES = {
    11: ("join", {1: ("game_id", "string", False), 2: ("seat", "uint", False), 3: ("entropy", "bytes", False),
                  4: ("chain_commit", "bytes", False)}),
    12: ("submit", {1: ("game_id", "string", False), 2: ("seat", "uint", False)}),
    16: ("resign", {1: ("game_id", "string", False), 2: ("seat", "uint", False)}),
    20: ("reveal", {1: ("game_id", "string", False), 2: ("seat", "uint", False), 3: ("batch", "uint", False),
                    4: ("nonce", "bytes", False)}),
}


def request_body(request_bytes):
    """(body name, its fields) of an input Request's bytes, or (None, None)."""
    try:
        for num, wt, v in wire.fields(bytes(request_bytes)):
            if num in _REQUEST_BODIES and wt == 2:
                name, schema = _REQUEST_BODIES[num]
                return name, wire.decode(v, schema)
    except wire.WireError:
        pass
    return None, None


class ReceiptError(Exception):
    """A receipt that does not check (bad signature, another request, another game)."""




def input_hash(request_bytes):
    return hashlib.blake2b(bytes(request_bytes), digest_size=32).digest()


def _fields(r):
    """A Receipt as a dict, from a dict, a generated message or its bytes."""
    if isinstance(r, (bytes, bytearray)):
        return wire.decode(bytes(r), RECEIPT)
    if isinstance(r, dict):
        return r
    return {name: getattr(r, name) for name, _, _ in RECEIPT.values()}


def receipt_message(r):
    f = _fields(r)
    gid = f["game_id"].encode("utf-8")
    if len(gid) > 64 or len(f["head"]) != 32 or len(f["input_hash"]) != 32 or f["kind"] > 255:
        raise ReceiptError("malformed receipt")
    return (RCPT_DOMAIN + struct.pack("<I", len(gid)) + gid + struct.pack("<IBQQ", f["seat"], f["kind"],
            f["record"], f["head_record"]) + bytes(f["head"]) + bytes(f["input_hash"]) + struct.pack("<Q", f["seq"]))


def receipt_signed_by(r, pk):
    f = _fields(r)
    try:
        return len(f["signature"]) == 64 and _ed25519_verify(pk, receipt_message(f), f["signature"])
    except ReceiptError:
        return False


def check_receipt(r, pk, request_bytes, game_id=None, seat=None, body=None):
    """Raise ReceiptError unless r is signed by pk and acknowledges exactly
    request_bytes (and, when given, that game, seat and request body)."""
    f = _fields(r)
    if not receipt_signed_by(f, pk):
        raise ReceiptError("the receipt's signature does not verify under the pinned signing key")
    if bytes(f["input_hash"]) != input_hash(request_bytes):
        raise ReceiptError("the receipt's input hash is not the hash of the request sent")
    if game_id is not None and f["game_id"] != game_id:
        raise ReceiptError("the receipt names game %s, the request %s" % (f["game_id"], game_id))
    if seat is not None and f["seat"] != seat:
        raise ReceiptError("the receipt names seat %d, the request %d" % (f["seat"], seat))
    if body is not None and INPUT_KINDS.get(body) != f["kind"]:
        raise ReceiptError("the receipt names a %s record for a %s request" % (lf.kind_name(f["kind"]), body))
    if f["head_record"] < f["record"]:
        raise ReceiptError("the receipt's head comes before its record")


def checkpoint_signed_by(game_id, record, head, sig, pk):
    msg = CKPT_DOMAIN + game_id.encode("utf-8") + struct.pack("<Q", record) + bytes(head)
    return len(sig) == 64 and _ed25519_verify(pk, msg, sig)


# ---- files ----------------------------------------------------------------------

def _lines(path):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith("#"):
                yield n, line


def _make_parent(path):
    d = os.path.dirname(path)
    if d and not os.path.isdir(d):
        os.makedirs(d, exist_ok=True)


def append_receipt(path, receipt_bytes, request_bytes=b""):
    """Append one line to a receipts file (receipt_bytes: the Receipt message's bytes)."""
    _make_parent(path)
    line = bytes(receipt_bytes).hex() + ((" " + bytes(request_bytes).hex()) if request_bytes else "") + "\n"
    with open(path, "a") as f:
        f.write(line)


def append_head(path, game_id, record, head, signature):
    _make_parent(path)
    with open(path, "a") as f:
        f.write("%s %d %s %s\n" % (game_id, record, bytes(head).hex(), bytes(signature).hex()))


class Kept:
    """One receipt or head read from a file, with where it came from."""

    def __init__(self, fields, origin, request=b""):
        self.fields = fields
        self.origin = origin
        self.request = request
        self.used = False


def load_receipts(path):
    out = []
    for n, line in _lines(path):
        parts = line.split()
        try:
            if len(parts) > 2:
                raise ValueError("too many words")
            f = wire.decode(bytes.fromhex(parts[0]), RECEIPT)
            req = bytes.fromhex(parts[1]) if len(parts) == 2 else b""
        except (ValueError, wire.WireError) as e:
            raise ValueError("%s:%d: not a receipt line (<Receipt hex> [<Request hex>]): %s" % (path, n, e))
        out.append(Kept(f, "%s:%d" % (path, n), req))
    return out


def load_heads(path):
    out = []
    for n, line in _lines(path):
        parts = line.split()
        try:
            if len(parts) != 4 or len(parts[0]) > 64:
                raise ValueError("four words expected")
            f = {"game_id": parts[0], "record": int(parts[1], 10), "head": bytes.fromhex(parts[2]),
                 "signature": bytes.fromhex(parts[3])}
            if f["record"] < 0 or len(f["head"]) != 32 or len(f["signature"]) != 64:
                raise ValueError("bad sizes")
        except ValueError as e:
            raise ValueError("%s:%d: not a head line (<game> <record> <head hex> <signature hex>): %s"
                             % (path, n, e))
        out.append(Kept(f, "%s:%d" % (path, n)))
    return out


def load_trust(path):
    keys = []
    for n, line in _lines(path):
        word = line.split()[0]
        try:
            k = bytes.fromhex(word)
            if len(k) != 32:
                raise ValueError("not 32 bytes")
        except ValueError:
            raise ValueError("%s:%d: not a key line (64 hex characters, then an optional comment)" % (path, n))
        keys.append(k)
    return keys


# ---- checking a log against them ---------------------------------------------------

def _input_matches(rec, f, request):
    """None if the input record holds what the receipt (and its request) acknowledge, else why not."""
    body, q = request_body(request) if request else (None, None)
    k = rec.kind
    schema = {lf.JOIN: wire.LOG_JOIN, lf.ORDER: wire.LOG_ORDER, lf.RESIGN: wire.LOG_RESIGN,
              lf.NONCE: wire.LOG_NONCE}.get(k)
    try:
        p = wire.decode(rec.payload, schema) if schema else None
    except wire.WireError:
        p = None
    if p is None:
        return "record %d does not hold the acknowledged %s: the log was rewritten there" % (rec.index,
                                                                                              lf.kind_name(k))
    if p["seat"] != f["seat"]:
        return "record %d is seat %d's %s: the log was rewritten there" % (rec.index, p["seat"], lf.kind_name(k))
    if k == lf.ORDER:
        if input_hash(p["request"]) != bytes(f["input_hash"]):
            return ("record %d is seat %d's ORDER, but its request bytes do not hash to the receipt's "
                    "input_hash: the order was replaced" % (rec.index, p["seat"]))
        return None
    ok = True
    if request:
        if k == lf.JOIN:
            ok = body == "join" and q["entropy"] == p["entropy"] and q["chain_commit"] == p["chain_commit"]
        elif k == lf.RESIGN:
            ok = body == "resign"
        elif k == lf.NONCE:
            ok = body == "reveal" and q["batch"] == p["batch"] and q["nonce"] == p["nonce"]
    if not ok:
        return "record %d does not hold the acknowledged %s: the log was rewritten there" % (rec.index,
                                                                                              lf.kind_name(k))
    return None


def check_log(records, game_id, pk, receipts=(), heads=()):
    """records: every record of the log's valid prefix (SYNC records included, in
    index order, as logfile.analyse gives them); pk: the log's signing key.
    Returns (problems, receipts checked, heads checked, where) with one sentence
    per contradiction naming the receipt or head, and `where` a sentence saying
    where the log departs from the evidence ("" if it does not)."""
    by_index = {r.index: r for r in records}
    last = records[-1].index if records else 0
    problems = []
    agree, depart = None, None
    nr = nh = 0
    for i, e in enumerate(receipts, 1):
        f = e.fields
        if f["game_id"] != game_id:
            continue
        e.used = True
        nr += 1
        name = "receipt %d (game %s, record %d, seat %d's %s; %s)" % (i, f["game_id"], f["record"], f["seat"],
                                                                       lf.kind_name(f["kind"]), e.origin)
        why = None
        rec = by_index.get(f["record"])
        head = by_index.get(f["head_record"])
        if pk is None or not receipt_signed_by(f, pk):
            why = ("its signature does not verify under the log's signing key: it was signed by another key, "
                   "or the log was re-signed by one")
        elif e.request and input_hash(e.request) != bytes(f["input_hash"]):
            why = "the request bytes kept beside it do not hash to its input_hash (the receipts file is wrong)"
        elif rec is None:
            why = "the log has no record %d (it ends at record %d): truncated" % (f["record"], last)
        elif rec.kind != f["kind"]:
            why = "record %d is a %s, not seat %d's %s: the log was rewritten there" % (
                f["record"], lf.kind_name(rec.kind), f["seat"], lf.kind_name(f["kind"]))
        else:
            why = _input_matches(rec, f, e.request)
            if why is None and head is None:
                why = "the log has no record %d, the acknowledged head (it ends at record %d): truncated" % (
                    f["head_record"], last)
            elif why is None and head.chain != bytes(f["head"]):
                why = ("the chain hash of record %d is %s, the receipt's head is %s: the log forks from the "
                       "acknowledged history at or before record %d" % (f["head_record"], head.chain.hex(),
                                                                        bytes(f["head"]).hex(), f["head_record"]))
        if why:
            problems.append("%s: %s" % (name, why))
            depart = f["record"] if depart is None else min(depart, f["record"])
        else:
            agree = f["head_record"] if agree is None else max(agree, f["head_record"])
    for i, e in enumerate(heads, 1):
        f = e.fields
        if f["game_id"] != game_id:
            continue
        e.used = True
        nh += 1
        why = None
        rec = by_index.get(f["record"])
        if pk is None or not checkpoint_signed_by(f["game_id"], f["record"], f["head"], f["signature"], pk):
            why = ("its signature does not verify under the log's signing key: it was signed by another key, "
                   "or the log was re-signed by one")
        elif rec is None:
            why = "the log has no record %d (it ends at record %d): truncated" % (f["record"], last)
        elif rec.chain != f["head"]:
            why = ("the chain hash of record %d is %s, the witnessed head is %s: the log forks at or before "
                   "record %d" % (f["record"], rec.chain.hex(), f["head"].hex(), f["record"]))
        if why:
            problems.append("head %d (game %s, record %d; %s): %s" % (i, f["game_id"], f["record"], e.origin, why))
            depart = f["record"] if depart is None else min(depart, f["record"])
        else:
            agree = f["record"] if agree is None else max(agree, f["record"])
    where = ""
    if problems and depart is not None:
        if agree is not None and agree < depart:
            where = ("the log extends the evidence up to record %d and departs from it after that, by record %d"
                     % (agree, depart))
        else:
            where = "the log departs from the evidence by record %d" % depart
    return problems, nr, nh, where
