"""Reading the event log file (format 1), byte by byte as core/evlog.c
specifies it, written again here so that it shares no code with the C reader:

    file header: "BRTHRLOG" (8) || format u32 le (= 1) || reserved u32 le (= 0)
    record i:    N u32 le || kind u8 || payload (N bytes) || chain (32 bytes)
    chain[i] = BLAKE2b-256(chain[i-1] || kind || N u32 le || payload), chain[-1] = 32 zero bytes

Every batch the daemon writes and syncs ends with a SYNC record (kind 33, empty
payload); the file starts with HEADER + SYNC. Damage confined to the last batch
(no complete later batch after it) is a torn tail that was never acknowledged:
analyse() reports the valid prefix up to the last SYNC. Damage followed by at
least two linked SYNC records hit durable data: the log is damaged.
"""

import hashlib
import struct

MAGIC = b"BRTHRLOG"
FORMAT = 1
FILE_HEADER = 16
HASH = 32
MAX_PAYLOAD = 16 << 20

HEADER, JOIN, ORDER, TIMEOUT, RESIGN, NONCE, ABORT = 1, 2, 3, 4, 5, 6, 7
DICE, EVENT, STATE, END, REVEAL = 16, 17, 18, 19, 20
CHECKPOINT = 32
SYNC = 33

KIND_NAMES = {HEADER: "HEADER", JOIN: "JOIN", ORDER: "ORDER", TIMEOUT: "TIMEOUT",
              RESIGN: "RESIGN", NONCE: "NONCE", ABORT: "ABORT", DICE: "DICE", EVENT: "EVENT", STATE: "STATE",
              END: "END", REVEAL: "REVEAL", CHECKPOINT: "CHECKPOINT",
              SYNC: "SYNC"}
INPUT_KINDS = (JOIN, ORDER, TIMEOUT, RESIGN, NONCE, ABORT)


def kind_name(kind):
    return KIND_NAMES.get(kind, "UNKNOWN(%d)" % kind)


def chain(prev, kind, payload):
    h = hashlib.blake2b(digest_size=HASH)
    h.update(prev)
    h.update(bytes([kind]))
    h.update(struct.pack("<I", len(payload)))
    h.update(payload)
    return h.digest()


class Record:
    __slots__ = ("index", "offset", "kind", "payload", "chain")

    def __init__(self, index, offset, kind, payload, chain_hash):
        self.index = index
        self.offset = offset
        self.kind = kind
        self.payload = payload
        self.chain = chain_hash

    def __repr__(self):
        return "Record(%d %s @%d, %d bytes)" % (self.index, kind_name(self.kind), self.offset,
                                                len(self.payload))


class LogError(Exception):
    """Damage found while reading: index and offset of the first bad record
    (index None for the file header)."""

    def __init__(self, index, offset, reason):
        where = "file header" if index is None else "record %d at offset %d" % (index, offset)
        super().__init__("%s: %s" % (where, reason))
        self.index = index
        self.offset = offset
        self.reason = reason


def read_records(data):
    """Yield Records of a log image, checking the chain; raises LogError at the first bad one."""
    data = bytes(data)
    if len(data) < FILE_HEADER:
        raise LogError(None, 0, "file shorter than the 16-byte file header")
    if data[:8] != MAGIC:
        raise LogError(None, 0, "bad magic (not a Berthier log)")
    fmt, reserved = struct.unpack_from("<II", data, 8)
    if fmt != FORMAT:
        raise LogError(None, 8, "unsupported format %d" % fmt)
    if reserved != 0:
        raise LogError(None, 12, "reserved field is %d, not 0" % reserved)
    prev = bytes(HASH)
    pos = FILE_HEADER
    index = 0
    while pos < len(data):
        if len(data) - pos < 5:
            raise LogError(index, pos, "truncated record (%d bytes left)" % (len(data) - pos))
        n = struct.unpack_from("<I", data, pos)[0]
        kind = data[pos + 4]
        if n > MAX_PAYLOAD:
            raise LogError(index, pos, "payload length %d over the limit" % n)
        end = pos + 5 + n + HASH
        if end > len(data):
            raise LogError(index, pos, "record of %d payload bytes runs past the end of the file "
                           "(%d bytes left): torn or damaged" % (n, len(data) - pos))
        payload = data[pos + 5:pos + 5 + n]
        stored = data[pos + 5 + n:end]
        want = chain(prev, kind, payload)
        if stored != want:
            raise LogError(index, pos, "chain hash differs (stored %s, computed %s)"
                           % (stored.hex()[:16], want.hex()[:16]))
        if kind not in KIND_NAMES:
            raise LogError(index, pos, "unknown record kind %d" % kind)
        yield Record(index, pos, kind, payload, stored)
        prev = stored
        pos = end
        index += 1


def build(records):
    """Build a log image from (kind, payload) pairs (for tests and tools)."""
    out = bytearray(MAGIC + struct.pack("<II", FORMAT, 0))
    prev = bytes(HASH)
    for kind, payload in records:
        payload = bytes(payload)
        c = chain(prev, kind, payload)
        out += struct.pack("<IB", len(payload), kind) + payload + c
        prev = c
    return bytes(out)


def _u32(data, p):
    return struct.unpack_from("<I", data, p)[0]


_OVER = 5 + HASH


def _linked_at(data, p):
    """End offset of a well-formed record at p whose chain links to the 32 bytes
    just before it, or 0."""
    size = len(data)
    if p < HASH or p + _OVER > size:
        return 0
    n = _u32(data, p)
    if n > MAX_PAYLOAD or n > size - p - _OVER:
        return 0
    kind = data[p + 4]
    if kind not in KIND_NAMES:
        return 0
    if chain(data[p - HASH:p], kind, data[p + 5:p + 5 + n]) != data[p + 5 + n:p + _OVER + n]:
        return 0
    return p + _OVER + n


def _syncs_after(data, x):
    """How many linked SYNC records follow the bad record at x (at most 2 counted)."""
    size = len(data)
    p = 0
    if x + 5 <= size:
        n = _u32(data, x)
        if n <= MAX_PAYLOAD and n + _OVER <= size - x:
            p = x + _OVER + n
    first = 0
    if p and p + _OVER <= size:
        n = _u32(data, p)
        if n <= MAX_PAYLOAD and n + _OVER <= size - p and _linked_at(data, p + _OVER + n):
            first = p
    if not first:
        q = x + _OVER
        while q + _OVER <= size:
            if _linked_at(data, q):
                first = q
                break
            q += 1
        if not first:
            return 0
    syncs = 1 if data[first + 4] == SYNC else 0
    q = first + _OVER + _u32(data, first)
    while syncs < 2:
        end = _linked_at(data, q)
        if not end:
            break
        if data[q + 4] == SYNC:
            syncs += 1
        q = end
    return syncs


class Scan:
    """Result of analyse(): records of the valid prefix (SYNC records included),
    status CLEAN / TORN / DAMAGED, and where and why."""
    CLEAN, TORN, DAMAGED = "clean", "torn", "damaged"

    def __init__(self):
        self.records = []
        self.status = Scan.CLEAN
        self.reason = ""
        self.bad_index = None
        self.bad_offset = None
        self.valid_bytes = 0


def analyse(data):
    """Walk a log image like the daemon's recovery does (see the module docstring)."""
    data = bytes(data)
    sc = Scan()
    size = len(data)
    header16 = MAGIC + struct.pack("<II", FORMAT, 0)
    if size < FILE_HEADER or not any(data):
        sc.status = Scan.TORN if (not any(data) or header16.startswith(data)) else Scan.DAMAGED
        sc.reason = ("no complete header record: the log was never created" if sc.status == Scan.TORN
                     else "bad file header (not a Berthier log)")
        sc.bad_index, sc.bad_offset = 0, 0
        return sc
    fmt, reserved = struct.unpack_from("<II", data, 8)
    fh = None
    if data[:8] != MAGIC:
        fh = 'magic is not "BRTHRLOG"'
    elif fmt != FORMAT:
        fh = "unsupported format %d" % fmt
    elif reserved != 0:
        fh = "reserved field is %d, not 0" % reserved
    if fh:
        sc.status, sc.reason, sc.bad_index, sc.bad_offset = Scan.DAMAGED, "bad file header: " + fh, 0, 0
        return sc
    off = FILE_HEADER
    d = 0
    d_records = 0
    index = 0
    prev = bytes(HASH)
    bad = None
    recs = []
    while off < size:
        rem = size - off
        if rem < 5:
            bad = "record length and kind incomplete"
            break
        n = _u32(data, off)
        kind = data[off + 4]
        if n > MAX_PAYLOAD:
            bad = "payload length %d over the limit" % n
            break
        if n + _OVER > rem:
            bad = "record of %d payload bytes runs past the end of the file" % n
            break
        payload = data[off + 5:off + 5 + n]
        stored = data[off + 5 + n:off + _OVER + n]
        want = chain(prev, kind, payload)
        if stored != want:
            bad = "chain hash differs (%s, %d bytes; stored %s, computed %s)" % (
                kind_name(kind), n, stored.hex()[:16], want.hex()[:16])
            break
        sem = None
        if kind not in KIND_NAMES:
            sem = "unknown record kind %d" % kind
        elif index == 0 and kind != HEADER:
            sem = "record 0 is %s, not HEADER" % kind_name(kind)
        elif index > 0 and kind == HEADER:
            sem = "a second HEADER record"
        if sem:
            sc.status, sc.reason, sc.bad_index, sc.bad_offset = Scan.DAMAGED, sem, index, off
            sc.records = recs
            return sc
        recs.append(Record(index, off, kind, payload, stored))
        prev = stored
        off += _OVER + n
        index += 1
        if kind == SYNC:
            d, d_records = off, index
    if bad is None and off == d:
        sc.records = recs
        sc.valid_bytes = d
        return sc
    if bad is not None and _syncs_after(data, off) >= 2:
        sc.status = Scan.DAMAGED
        sc.reason = "%s, and complete batches follow it" % bad
        sc.bad_index, sc.bad_offset = index, off
        sc.records = recs
        return sc
    sc.status = Scan.TORN
    sc.records = recs[:d_records]
    sc.valid_bytes = d
    sc.bad_index, sc.bad_offset = d_records, d if d else FILE_HEADER
    if d == 0:
        sc.reason = "no complete header record (%s): the log was never created" % (bad or "no SYNC")
    else:
        sc.reason = "torn tail at record %d, offset %d (%s): %d bytes of an unconfirmed batch ignored" % (
            d_records, d, bad or "the last batch has no SYNC record", size - d)
    return sc
