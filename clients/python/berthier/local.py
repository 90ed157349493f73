"""berthier.local: play a Berthier game in process, with the daemon's own core
and rules (libberthier_local.so through ctypes), in the style of OpenSpiel.

    from berthier.local import Game
    g = Game("duel", "standard", seed=bytes(32))
    while not g.is_terminal():
        for seat in g.pending().seats:
            if g.must_act(seat):
                g.apply(seat, g.legal(seat)[0])
    print(g.result(), g.state_hash().hex())
    g.write_log("game.log")          # berthier-replay verify accepts it

The game is the daemon's game: the same orders and the same dice give the
same events and state hashes as a berthierd game. To replay a daemon game in
process, pass its game id, its seed (<data-dir>/games/<id>.seed), the seats'
CURVE secret keys and, to join, each seat's entropy from its log.

Every input is seat-signed as a client signs it (docs/protocol.md P3.1): the
game holds each seat's CURVE secret key (seat_keys, or keys derived from the
seed) and derives the seat's signing key from it. Checkpoints are signed with
an Ed25519 key from sign_seed (32 bytes; derived from the seed by default).

The library is looked for, in this order: $BERTHIER_LOCAL_LIB (a file), next
to this module (an installed package), $BERTHIER_BIN/../lib, the build tree
(<repo>/build/lib, from clients/python), and the system's library path.

A bot is a function bot(obs) -> order (Order bytes or text), obs an
Observation (seat, kind, prompt, orders, texts, view): play() runs it in
process and play_client() against berthierd, unchanged.
"""

import collections
import ctypes
import ctypes.util
import os
import tempfile

from .proto import pb

_LIBNAME = "libberthier_local.so"
_lib = None

Pending = collections.namedtuple("Pending", "seats sealed kind rule prompt turn")
Result = collections.namedtuple("Result", "ended winners level reason")
Observation = collections.namedtuple("Observation", "seat kind prompt orders texts view")

# Record kinds (docs/log-format.md).
KIND_NAMES = {1: "HEADER", 2: "JOIN", 3: "ORDER", 4: "TIMEOUT", 5: "RESIGN", 6: "NONCE", 16: "DICE",
              17: "EVENT", 18: "STATE", 19: "END", 20: "REVEAL", 32: "CHECKPOINT"}


class LocalError(Exception):
    """A refused call: code (e.g. "CODE_ILLEGAL_ORDER"), rule and message, as the daemon's reply."""

    def __init__(self, text):
        super().__init__(text)
        parts = text.split(" ", 1)
        self.code_name = parts[0]
        self.code = pb.Code.Value(parts[0]) if parts[0] in pb.Code.keys() else None
        rest = parts[1] if len(parts) > 1 else ""
        self.rule = rest[1:rest.index("]")] if rest.startswith("[") and "]" in rest else ""
        self.message = rest[rest.index("]") + 2:] if self.rule or rest.startswith("[]") else rest


def library_candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    if os.environ.get("BERTHIER_LOCAL_LIB"):
        out.append(os.environ["BERTHIER_LOCAL_LIB"])
    out.append(os.path.join(here, _LIBNAME))
    if os.environ.get("BERTHIER_BIN"):
        out.append(os.path.join(os.environ["BERTHIER_BIN"], "..", "lib", _LIBNAME))
    out.append(os.path.join(here, "..", "..", "..", "build", "lib", _LIBNAME))
    return out


def _load():
    global _lib
    if _lib is not None:
        return _lib
    tried = library_candidates()
    path = next((p for p in tried if os.path.isfile(p)), None) or ctypes.util.find_library("berthier_local")
    if not path:
        raise OSError("%s not found (looked at %s and the system library path); build it with cmake "
                      "(target berthier_local) or set BERTHIER_LOCAL_LIB" % (_LIBNAME, ", ".join(tried)))
    lib = ctypes.CDLL(path)
    P, U8P, SZ, I, U = ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8), ctypes.c_size_t, ctypes.c_int, ctypes.c_uint
    lib.brt_local_new.restype = P
    lib.brt_local_new.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, U, ctypes.c_char_p,
                                  ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, SZ]
    lib.brt_local_destroy.argtypes = [ctypes.POINTER(P)]
    lib.brt_local_join.argtypes = [P, U, ctypes.c_char_p]
    lib.brt_local_apply.argtypes = [P, U, ctypes.c_char_p, SZ, I]
    lib.brt_local_resign.argtypes = [P, U]
    for f in ("brt_local_legal",):
        getattr(lib, f).restype = U8P
        getattr(lib, f).argtypes = [P, U, I, ctypes.POINTER(SZ), ctypes.POINTER(I)]
    lib.brt_local_view.restype = U8P
    lib.brt_local_view.argtypes = [P, I, I, ctypes.POINTER(SZ)]
    lib.brt_local_last_records.restype = U8P
    lib.brt_local_last_records.argtypes = [P, ctypes.POINTER(SZ), ctypes.POINTER(I)]
    lib.brt_local_pending.argtypes = [P, ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(I), ctypes.c_char_p,
                                      ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]
    lib.brt_local_must_act.argtypes = [P, U]
    lib.brt_local_result.argtypes = [P, ctypes.POINTER(I), ctypes.POINTER(ctypes.c_uint32), ctypes.c_char_p,
                                     ctypes.c_char_p]
    lib.brt_local_state_hash.argtypes = [P, ctypes.c_char_p]
    lib.brt_local_seq.restype = ctypes.c_uint64
    lib.brt_local_seq.argtypes = [P]
    lib.brt_local_game_id.restype = ctypes.c_char_p
    lib.brt_local_game_id.argtypes = [P]
    lib.brt_local_seat_key.restype = U8P
    lib.brt_local_seat_key.argtypes = [P, U]
    lib.brt_local_sign_pk.restype = U8P
    lib.brt_local_sign_pk.argtypes = [P]
    lib.brt_local_write_log.argtypes = [P, ctypes.c_char_p]
    lib.brt_local_error.restype = ctypes.c_char_p
    lib.brt_local_error.argtypes = [P]
    _lib = lib
    return lib


def _items(ptr, n):
    """A list of u32-le length-prefixed items (the format of legal lists)."""
    data = ctypes.string_at(ptr, n) if n else b""
    out, pos = [], 0
    while pos + 4 <= len(data):
        k = int.from_bytes(data[pos:pos + 4], "little")
        out.append(data[pos + 4:pos + 4 + k])
        pos += 4 + k
    return out


class Game:
    """One game in process. seats: how many; seed: 32 bytes (random by default);
    options: names (e.g. ["fog-of-war", "dice-seed=<64 hex>"]); game_id: default
    from the seed; seat_keys: one 32-byte CURVE secret key per seat (a
    berthier.keys keypair's .secret, raw); entropy: one 32-byte join entropy
    per seat; join: join every seat now (in seat order)."""

    def __init__(self, ruleset, scenario="", options=(), seats=2, seed=None, game_id=None, seat_keys=None,
                 sign_seed=None, entropy=None, join=True):
        self._lib = _load()
        self._g = None
        seed = os.urandom(32) if seed is None else bytes(seed)
        if len(seed) != 32:
            raise ValueError("the seed is 32 bytes")
        sk = None
        if seat_keys is not None:
            if len(seat_keys) != seats or any(len(k) != 32 for k in seat_keys):
                raise ValueError("seat_keys: one 32-byte CURVE secret key per seat")
            sk = b"".join(bytes(k) for k in seat_keys)
        if sign_seed is not None and len(sign_seed) != 32:
            raise ValueError("sign_seed is 32 bytes")
        err = ctypes.create_string_buffer(640)
        opts = "\n".join(options).encode() if options else None
        g = self._lib.brt_local_new(ruleset.encode(), (scenario or "").encode(), opts, seats,
                                    game_id.encode() if game_id else None, seed, sk,
                                    bytes(sign_seed) if sign_seed is not None else None, err, len(err))
        if not g:
            raise LocalError(err.value.decode(errors="replace"))
        self._g = ctypes.c_void_p(g)
        self.ruleset = ruleset
        self.scenario = scenario
        self.seats = seats
        self.game_id = self._lib.brt_local_game_id(self._g).decode()
        if join:
            for s in range(seats):
                self.join(s, entropy[s] if entropy else None)

    def close(self):
        if getattr(self, "_g", None):
            self._lib.brt_local_destroy(ctypes.byref(self._g))
            self._g = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check(self, rc):
        if rc != 0:
            raise LocalError(self._lib.brt_local_error(self._g).decode(errors="replace"))

    # ---- inputs ----
    def join(self, seat, entropy=None):
        if entropy is not None and len(entropy) != 32:
            raise ValueError("a seat's entropy is 32 bytes")
        self._check(self._lib.brt_local_join(self._g, seat, bytes(entropy) if entropy is not None else None))

    def apply(self, seat, order):
        """Submit an order as `seat`: Order bytes, an Order message, or its text (str).
        Raises LocalError (code CODE_ILLEGAL_ORDER, CODE_NOT_YOUR_DECISION, ...) when refused."""
        if isinstance(order, str):
            b = order.encode()
            self._check(self._lib.brt_local_apply(self._g, seat, b, len(b), 1))
            return
        if not isinstance(order, (bytes, bytearray)):
            order = order.SerializeToString()
        self._check(self._lib.brt_local_apply(self._g, seat, bytes(order), len(order), 0))

    def resign(self, seat):
        self._check(self._lib.brt_local_resign(self._g, seat))

    # ---- queries ----
    def _legal(self, seat, text):
        n, count = ctypes.c_size_t(), ctypes.c_int()
        p = self._lib.brt_local_legal(self._g, seat, text, ctypes.byref(n), ctypes.byref(count))
        if not p:
            self._check(-1)
        return _items(p, n.value)

    def legal(self, seat):
        """The legal orders of `seat` now, as Order bytes (the daemon's LegalOrders.orders)."""
        return self._legal(seat, 0)

    def legal_texts(self, seat):
        return [t.decode() for t in self._legal(seat, 1)]

    legal_actions = legal

    def pending(self):
        seats, sealed, turn = ctypes.c_uint32(), ctypes.c_int(), ctypes.c_uint32()
        kind, rule, prompt = (ctypes.create_string_buffer(200) for _ in range(3))
        self._lib.brt_local_pending(self._g, ctypes.byref(seats), ctypes.byref(sealed), kind, rule, prompt,
                                    ctypes.byref(turn))
        return Pending([s for s in range(self.seats) if seats.value >> s & 1], bool(sealed.value),
                       kind.value.decode(), rule.value.decode(), prompt.value.decode(), turn.value)

    def must_act(self, seat):
        return self._lib.brt_local_must_act(self._g, seat) == 1

    def view(self, seat, text=False):
        """The View bytes (or text) `seat` sees; seat -1: the whole state."""
        n = ctypes.c_size_t()
        p = self._lib.brt_local_view(self._g, seat, 1 if text else 0, ctypes.byref(n))
        if not p:
            self._check(-1)
        b = ctypes.string_at(p, n.value) if n.value else b""
        return b.decode() if text else b

    def result(self):
        ended, winners = ctypes.c_int(), ctypes.c_uint32()
        level, reason = ctypes.create_string_buffer(200), ctypes.create_string_buffer(200)
        self._lib.brt_local_result(self._g, ctypes.byref(ended), ctypes.byref(winners), level, reason)
        return Result(bool(ended.value), [s for s in range(self.seats) if winners.value >> s & 1],
                      level.value.decode(), reason.value.decode())

    def is_terminal(self):
        return self.result().ended

    def state_hash(self):
        out = ctypes.create_string_buffer(32)
        self._check(self._lib.brt_local_state_hash(self._g, out))
        return out.raw

    @property
    def seq(self):
        return self._lib.brt_local_seq(self._g)

    def seat_key(self, seat):
        """The seat's CURVE public key (32 bytes), as in the header's seat list."""
        return ctypes.string_at(self._lib.brt_local_seat_key(self._g, seat), 32)

    def sign_pk(self):
        """The public key the log's checkpoints are signed with."""
        return ctypes.string_at(self._lib.brt_local_sign_pk(self._g), 32)

    def last_records(self):
        """(kind, payload) of every record the last accepted input made, its input record first."""
        n, count = ctypes.c_size_t(), ctypes.c_int()
        p = self._lib.brt_local_last_records(self._g, ctypes.byref(n), ctypes.byref(count))
        if not p:
            self._check(-1)
        return [(it[0], it[1:]) for it in _items(p, n.value)]

    def events(self):
        """The LogEvent records of the last accepted input."""
        out = []
        for kind, payload in self.last_records():
            if kind == 17:
                e = pb.LogEvent()
                e.ParseFromString(payload)
                out.append(e)
        return out

    def write_log(self, path):
        """Write the game's log file (docs/log-format.md); the file must not exist yet."""
        self._check(self._lib.brt_local_write_log(self._g, os.fsencode(path)))

    def log_bytes(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, self.game_id + ".log")
            self.write_log(p)
            with open(p, "rb") as f:
                return f.read()


def observe(game, seat):
    """The Observation a bot gets for `seat` of an in-process game."""
    d = game.pending()
    return Observation(seat, d.kind, d.prompt, game.legal(seat), game.legal_texts(seat), game.view(seat))


def play(game, bots, max_orders=1000000):
    """Play an in-process game to the end: bots maps a seat to bot(obs) -> order.
    Returns the Result."""
    n = 0
    while not game.is_terminal() and n < max_orders:
        acted = False
        for seat in game.pending().seats:
            if game.must_act(seat):
                game.apply(seat, bots[seat](observe(game, seat)))
                acted, n = True, n + 1
        if not acted:
            raise RuntimeError("nobody must act in a live game")
    return game.result()


def play_client(client, game_id, seat, bot, poll=0.01, max_seconds=600):
    """Play `seat` of a berthierd game (joined already) with the same bot(obs) -> order
    (standard dice). Returns the final Decision."""
    import time
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        d = client.pending(game_id, seat)
        if d.result.ended:
            return d
        if not d.you_must_act:
            time.sleep(poll)
            continue
        legal = client.legal(game_id, seat)
        view = client.state(game_id, seat).view
        order = bot(Observation(seat, d.kind, d.prompt, list(legal.orders), list(legal.texts), view))
        kw = {"text": order} if isinstance(order, str) else {"order": order}
        rep = client.submit(game_id, seat, d.seq, check=False, **kw)
        if rep.code not in (pb.CODE_OK, pb.CODE_STALE, pb.CODE_NOT_YOUR_DECISION, pb.CODE_GAME_OVER):
            from .client import BerthierError
            raise BerthierError(rep)
    raise TimeoutError("game %s did not end within %d s" % (game_id, max_seconds))
