"""A minimal protobuf wire-format reader for the log verifier.

The verifier reads only a few small messages of the event log (LogHeader,
LogJoin, LogNonce, LogDice, LogReveal, LogCheckpoint, LogEnd). Decoding them
here, from the field numbers of proto/berthier/v1/berthier.proto, keeps the
verifier independent of generated code: it runs from a bare checkout.
"""


class WireError(ValueError):
    pass


def _varint(buf, pos):
    result = 0
    shift = 0
    while True:
        if pos >= len(buf):
            raise WireError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
        if shift >= 70:
            raise WireError("varint too long")
    if result >= 1 << 64:
        raise WireError("varint over 64 bits")
    return result, pos


def fields(buf):
    """Yield (field number, wire type, value) for each field of a message.
    value: int for varint/fixed, bytes for length-delimited."""
    buf = bytes(buf)
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        num, wt = key >> 3, key & 7
        if num == 0:
            raise WireError("field number 0")
        if wt == 0:
            v, pos = _varint(buf, pos)
        elif wt == 1:
            if pos + 8 > len(buf):
                raise WireError("truncated fixed64")
            v = int.from_bytes(buf[pos:pos + 8], "little")
            pos += 8
        elif wt == 2:
            n, pos = _varint(buf, pos)
            if pos + n > len(buf):
                raise WireError("truncated length-delimited field")
            v = buf[pos:pos + n]
            pos += n
        elif wt == 5:
            if pos + 4 > len(buf):
                raise WireError("truncated fixed32")
            v = int.from_bytes(buf[pos:pos + 4], "little")
            pos += 4
        else:
            raise WireError("unsupported wire type %d" % wt)
        yield num, wt, v


def decode(buf, schema):
    """Decode into a dict. schema maps field number -> (name, type, repeated),
    type one of 'uint', 'bool', 'bytes', 'string', or a nested schema dict.
    Unknown fields are ignored here (the C side rejects non-canonical input)."""
    out = {}
    for name, typ, rep in schema.values():
        out[name] = [] if rep else _default(typ)
    for num, wt, v in fields(buf):
        if num not in schema:
            continue
        name, typ, rep = schema[num]
        if typ in ("uint", "bool", "sint"):
            if wt == 2 and rep:   # packed repeated scalars
                pos = 0
                vals = []
                while pos < len(v):
                    x, pos = _varint(v, pos)
                    vals.append(_scalar(typ, x))
                out[name].extend(vals)
                continue
            if wt != 0:
                raise WireError("field %s: wrong wire type" % name)
            val = _scalar(typ, v)
        else:
            if wt != 2:
                raise WireError("field %s: wrong wire type" % name)
            if typ == "bytes":
                val = v
            elif typ == "string":
                try:
                    val = v.decode("utf-8")
                except UnicodeDecodeError:
                    raise WireError("field %s: invalid UTF-8" % name)
            else:
                val = decode(v, typ)
        if rep:
            out[name].append(val)
        else:
            out[name] = val
    return out


def _scalar(typ, x):
    if typ == "bool":
        return bool(x)
    if typ == "sint":
        return (x >> 1) ^ -(x & 1)
    return x


def _default(typ):
    if typ in ("uint", "sint"):
        return 0
    if typ == "bool":
        return False
    if typ == "bytes":
        return b""
    if typ == "string":
        return ""
    return None


# ---- the log payloads (field numbers of berthier.v1) ----
SEAT_SPEC = {1: ("seat", "uint", False), 2: ("name", "string", False), 3: ("key", "bytes", False)}
CLOCK = {1: ("decision_ms", "uint", False), 2: ("bank_ms", "uint", False), 3: ("forfeit", "bool", False)}
RESULT = {1: ("ended", "bool", False), 2: ("winners", "uint", True), 3: ("level", "string", False),
          4: ("reason", "string", False), 5: ("scores", "sint", True)}
LOG_HEADER = {
    1: ("format", "uint", False), 2: ("game_id", "string", False), 3: ("ruleset", "string", False),
    4: ("ruleset_version", "string", False), 5: ("scenario", "string", False),
    6: ("scenario_hash", "bytes", False), 7: ("options", "string", True),
    8: ("engine_version", "string", False), 9: ("server_sign_pk", "bytes", False),
    10: ("dice_commit", "bytes", False), 11: ("seats", SEAT_SPEC, True), 12: ("clock", CLOCK, False),
    13: ("dice_mode", "string", False), 14: ("create_key", "bytes", False),
    15: ("create_request_id", "uint", False), 16: ("create_digest", "bytes", False),
    17: ("spectator_keys", "bytes", True),
}
LOG_JOIN = {1: ("seat", "uint", False), 2: ("entropy", "bytes", False), 3: ("chain_commit", "bytes", False),
            4: ("sign_pk", "bytes", False), 5: ("header_hash", "bytes", False), 6: ("signature", "bytes", False),
            130: ("request_id", "uint", False)}
LOG_ORDER = {1: ("seat", "uint", False), 2: ("request", "bytes", False)}
LOG_TIMEOUT = {1: ("seat", "uint", False), 2: ("seq", "uint", False), 3: ("forfeit", "bool", False)}
LOG_RESIGN = {1: ("seat", "uint", False), 2: ("signature", "bytes", False), 3: ("request_id", "uint", False)}
LOG_ABORT = {1: ("reason", "string", False), 2: ("forfeit_seat", "uint", False), 3: ("has_forfeit", "bool", False)}
LOG_NONCE = {1: ("seat", "uint", False), 2: ("batch", "uint", False), 3: ("nonce", "bytes", False),
             4: ("signature", "bytes", False), 130: ("request_id", "uint", False)}
# The request bodies whose exact bytes seats sign (docs/protocol.md P3.1).
JOIN = {1: ("game_id", "string", False), 2: ("seat", "uint", False), 3: ("entropy", "bytes", False),
        4: ("chain_commit", "bytes", False), 5: ("sign_pk", "bytes", False), 6: ("header_hash", "bytes", False)}
SUBMIT = {1: ("game_id", "string", False), 2: ("seat", "uint", False), 3: ("based_on_seq", "uint", False),
          4: ("order", "bytes", False), 5: ("order_text", "string", False)}
GAME_REF = {1: ("game_id", "string", False), 2: ("seat", "uint", False)}
REVEAL_NONCE = {1: ("game_id", "string", False), 2: ("seat", "uint", False), 3: ("batch", "uint", False),
                4: ("nonce", "bytes", False)}
LOG_DICE = {1: ("index", "uint", False), 2: ("sides", "uint", False), 3: ("value", "uint", False),
            4: ("purpose", "string", False), 5: ("visible", "uint", False)}
# LogDice.visible (core/vis.h): 0 = public; else DICE_LIMITED | the mask of seats that may see
# the roll before the end (DICE_LIMITED alone: nobody)
DICE_LIMITED = 0x80000000
LOG_STATE = {1: ("seq", "uint", False), 2: ("hash", "bytes", False), 3: ("turn", "uint", False)}
LOG_REVEAL = {1: ("seed", "bytes", False)}
LOG_CHECKPOINT = {1: ("record", "uint", False), 2: ("head", "bytes", False), 3: ("signature", "bytes", False)}
LOG_END = {1: ("result", RESULT, False)}


# ---- encoding (for tests and tools that build logs by hand) ----

def _enc_varint(x):
    out = bytearray()
    while True:
        b = x & 0x7F
        x >>= 7
        if x:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def encode(msg, schema):
    """Encode a dict in field-number order, proto3 style (defaults omitted,
    repeated scalars packed): the canonical bytes protobuf-c writes."""
    out = bytearray()
    for num in sorted(schema):
        name, typ, rep = schema[num]
        if name not in msg or msg[name] is None:
            continue
        vals = msg[name] if rep else [msg[name]]
        if typ in ("uint", "bool", "sint"):
            ints = []
            for v in vals:
                v = int(v)
                if typ == "sint":
                    v = (v << 1) ^ (v >> 63) if v < 0 else v << 1
                    v &= (1 << 64) - 1
                ints.append(v)
            if rep:
                if ints:
                    body = b"".join(_enc_varint(v) for v in ints)
                    out += _enc_varint(num << 3 | 2) + _enc_varint(len(body)) + body
            elif ints[0]:
                out += _enc_varint(num << 3) + _enc_varint(ints[0])
            continue
        for v in vals:
            if typ == "bytes":
                body = bytes(v)
            elif typ == "string":
                body = v.encode("utf-8")
            else:
                body = encode(v, typ)
            if not rep and not body and not isinstance(typ, dict):
                continue
            out += _enc_varint(num << 3 | 2) + _enc_varint(len(body)) + body
    return bytes(out)
