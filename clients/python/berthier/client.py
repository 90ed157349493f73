"""A client for berthierd over ZeroMQ with CurveZMQ.

    from berthier.client import Client
    c = Client(data_dir="var/berthier")            # the admin key of that data dir
    g = c.create_game("duel", "standard", seats=[k0, k1])
    ...

One request is one frame holding a berthier.v1.Request; the reply is one frame
holding a berthier.v1.Reply. Every request gets a fresh request id (increasing,
starting from the clock so that ids also increase across runs with the same
key); after a timeout the very same bytes are sent again, so the daemon
answers a retry with the reply it already gave and never applies an order
twice.

Every reply that acknowledges an input (join, submit, resign, reveal) carries a
Receipt signed by the daemon's checkpoint key (docs/protocol.md P9). The client
checks it against the pinned signing key (sign_pk, else <data_dir>/sign.pub,
else the key the daemon states in `hello`, on first use) and the exact bytes it
sent, raises receipts.ReceiptError when it does not check, and keeps it:
client.receipts lists (receipt, request bytes), and with receipts_dir each is
also appended to <receipts_dir>/<game>.receipts (docs/log-format.md).

Inputs (join, submit, resign, reveal) are seat-signed (docs/protocol.md
P3.1, berthier.seatsig): the first time a game is used the client fetches
its header, checks that it binds this client's key to the seat and holds a
dice commitment and a server signing key, and signs over its hash.
"""

import hashlib
import os
import struct
import time

import zmq

from . import keys as _keys
from . import receipts as _rc
from . import seatsig as _seatsig
from .proto import pb, ruleset_module

DEFAULT_DATA_DIR = "./var/berthier"


class BerthierError(Exception):
    """The daemon rejected a request (reply.code != CODE_OK)."""

    def __init__(self, reply):
        self.reply = reply
        self.code = reply.code
        self.code_name = pb.Code.Name(reply.code) if reply.code in pb.Code.values() else str(reply.code)
        self.rule = reply.rule
        self.message = reply.message
        rule = "[%s] " % reply.rule if reply.rule and not reply.message.startswith("[") else ""
        super().__init__("%s: %s%s" % (self.code_name, rule, reply.message))


# The daemon's ZAP handler admits admin, seat and spectator keys only
# (docs/protocol.md P3); any other key fails the CURVE handshake and no request
# on the connection is ever read. Same words as the C library's.
UNKNOWN_KEY_HINT = ("it is not an admin key nor a seat or spectator key of any game, "
                    "or it was revoked or is banned for a while")
REFUSED_KEY = "the daemon refused this key: " + UNKNOWN_KEY_HINT


class Timeout(Exception):
    """No reply after every retry."""


class KeyRefused(Timeout):
    """The daemon refused this client's key at the CURVE handshake (a Timeout, raised at
    once instead of after every retry)."""


class DataDirError(FileNotFoundError):
    """The data dir, or a key file the client needs from it, is not there."""


def _read_data_dir_file(path, what, loader, data_dir):
    try:
        return loader(path)
    except FileNotFoundError:
        if not os.path.isdir(data_dir):
            raise DataDirError(
                "no berthierd data dir at %s (looking for %s): give the directory berthierd runs on "
                "(its --data-dir; paths are relative to the current directory, which is %s), or set "
                "BERTHIER_DATA_DIR" % (data_dir, what, os.getcwd())) from None
        raise DataDirError("%s: no such file (%s); is %s the data dir of a berthierd that has run?"
                           % (path, what, data_dir)) from None


def _default_data_dir():
    return os.environ.get("BERTHIER_DATA_DIR") or os.environ.get("STATE_DIRECTORY") or DEFAULT_DATA_DIR


def view_hash(game_id, seat, seq, view):
    """The hash a seat holds mid-game (Accepted.view_hash, StateView.view_hash,
    docs/protocol.md): BLAKE2b-256 of "berthier-view-v1" || game id || seat
    (u32 le; -1 = the full view, -2 = the spectators' view of a spectators=live
    game) || seq (u64 le) || the View bytes. It covers
    only what that seat may see; the full state's hash comes after the end."""
    h = hashlib.blake2b(digest_size=32)
    h.update(b"berthier-view-v1")
    h.update(game_id.encode("ascii"))
    h.update(struct.pack("<IQ", seat & 0xFFFFFFFF, seq))
    h.update(bytes(view))
    return h.digest()


def check_view_hash(state_view, game_id, seat):
    """True when a StateView's view_hash is the hash of its view for this seat."""
    return len(state_view.view_hash) == 32 and \
        view_hash(game_id, seat, state_view.seq, state_view.view) == state_view.view_hash


class NonceChain:
    """A seat's nonce hash chain for dice=contributory (docs/dice.md):
    commit goes in Join.chain_commit; next() gives the link to reveal for the
    next batch."""

    def __init__(self, length=4096, secret=None):
        from . import dice
        self._links = dice.chain_make(secret or os.urandom(32), length)
        self._pos = 0

    @property
    def commit(self):
        return self._links[0]

    def next(self):
        self._pos += 1
        if self._pos >= len(self._links):
            raise IndexError("the nonce chain is used up")
        return self._links[self._pos]


class Subscription:
    """A SUB socket on the daemon's event stream for one game, as one seat
    (notices sealed with the seat's event key) or as a spectator (clear
    notices, after the game ended or with spectators=live)."""

    def __init__(self, ctx, endpoint, server_key, keypair, game_id, seat=None, event_key=None):
        self.game_id = game_id
        self.seat = seat
        self._box = None
        if seat is not None:
            if not event_key:
                raise ValueError("a seat's subscription needs its event key (Joined.event_key or hello)")
            import nacl.secret
            self._box = nacl.secret.SecretBox(bytes(event_key))
        self.topic = ("g/%s/%s" % (game_id, "all" if seat is None else seat)).encode()
        self.sock = ctx.socket(zmq.SUB)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.curve_serverkey = server_key
        self.sock.curve_publickey = keypair.public
        self.sock.curve_secretkey = keypair.secret
        self.sock.setsockopt(zmq.SUBSCRIBE, self.topic)
        self.sock.connect(endpoint)

    def recv(self, timeout=None):
        """The next Notice, or None after timeout seconds (None = wait forever).
        Raises ValueError for a notice that does not open with the key."""
        if timeout is not None and not self.sock.poll(int(timeout * 1000)):
            return None
        frames = self.sock.recv_multipart()
        if len(frames) != 2 or frames[0] != self.topic:
            return self.recv(timeout)
        body = frames[1]
        if self._box is not None:
            import nacl.exceptions
            try:
                body = self._box.decrypt(body)   # 24-byte nonce || crypto_secretbox
            except nacl.exceptions.CryptoError:
                raise ValueError("a notice on %s does not open with the event key" % self.topic.decode())
        n = pb.Notice()
        n.ParseFromString(body)
        return n

    def close(self):
        self.sock.close(0)


_INPUTS = {"join": _seatsig.BODY_JOIN, "submit": _seatsig.BODY_SUBMIT, "resign": _seatsig.BODY_RESIGN,
           "reveal": _seatsig.BODY_REVEAL}


class Client:
    def __init__(self, endpoint=None, data_dir=None, key_file=None, server_key=None,
                 events_endpoint=None, keypair=None, timeout=5.0, retries=6, context=None,
                 sign_pk=None, receipts_dir=None):
        """endpoint: ipc://<data_dir>/berthier.sock by default.
        server_key: the daemon's Z85 public key (default: <data_dir>/server.pub).
        key_file / keypair: this client's Curve keypair (default: <data_dir>/admin.key).
        timeout: seconds to wait for a reply before sending the same bytes again;
        retries: how many times.
        sign_pk: the daemon's Ed25519 key (32 bytes or 64 hex) that receipts must be signed by
        (default: <data_dir>/sign.pub when it exists, else learnt from hello on first use).
        receipts_dir: append every receipt to <receipts_dir>/<game>.receipts."""
        self.data_dir = os.path.abspath(data_dir or _default_data_dir())
        self.endpoint = endpoint or "ipc://%s/berthier.sock" % self.data_dir
        self.events_endpoint = events_endpoint or "ipc://%s/events.sock" % self.data_dir
        if server_key is None:
            server_key = _read_data_dir_file(os.path.join(self.data_dir, "server.pub"), "the daemon's public key",
                                             _keys.load_public, self.data_dir)
        elif isinstance(server_key, str):
            server_key = server_key.encode()
        if len(server_key) == 32:
            from zmq.utils import z85
            server_key = z85.encode(server_key)
        self.server_key = server_key
        if keypair is None and key_file:
            try:
                keypair = _keys.load_keypair(key_file)
            except FileNotFoundError:
                raise DataDirError("%s: no such key file (current directory %s)" % (key_file, os.getcwd())) from None
        elif keypair is None:
            keypair = _read_data_dir_file(os.path.join(self.data_dir, "admin.key"), "the admin key",
                                          _keys.load_keypair, self.data_dir)
        self.keypair = keypair
        self._sign_key = None
        self._headers = {}       # (game_id, seat) -> header hash, checked
        self.timeout = timeout
        self.retries = retries
        self._own_ctx = context is None
        self.ctx = context or zmq.Context()
        self._next_id = time.time_ns() // 1000
        self.last_reply = None
        if isinstance(sign_pk, str):
            sign_pk = bytes.fromhex(sign_pk.strip())
        if sign_pk is None:
            try:
                sign_pk = _rc.load_trust(os.path.join(self.data_dir, "sign.pub"))[0]
            except (OSError, ValueError, IndexError):
                sign_pk = None
        self.sign_pk = sign_pk
        self.receipts_dir = receipts_dir
        self.receipts = []
        self._connect()

    def _connect(self):
        s = self.ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.curve_serverkey = self.server_key
        s.curve_publickey = self.keypair.public
        s.curve_secretkey = self.keypair.secret
        # the handshake's failures: a key the daemon refuses gets a CURVE ERROR
        # (EVENT_HANDSHAKE_FAILED_AUTH) and would otherwise just time out
        self._handshake_failed = False
        try:
            self.monitor = s.get_monitor_socket(zmq.EVENT_HANDSHAKE_FAILED_AUTH | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
                                                | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL)
        except (zmq.ZMQError, AttributeError):
            self.monitor = None
        s.connect(self.endpoint)
        self.sock = s

    def _check_monitor(self):
        """Read the pending monitor events; raise KeyRefused on a refusal."""
        from zmq.utils.monitor import recv_monitor_message
        while self.monitor is not None and self.monitor.poll(0):
            ev = recv_monitor_message(self.monitor)
            if ev["event"] == zmq.EVENT_HANDSHAKE_FAILED_AUTH:
                raise KeyRefused("no reply from %s: %s" % (self.endpoint, REFUSED_KEY))
            self._handshake_failed = True

    def _reconnect(self):
        self._close_socket()
        self._connect()

    def close(self):
        self._close_socket()
        if self._own_ctx:
            self.ctx.term()

    def _close_socket(self):
        if self.sock is not None:
            if self.monitor is not None:
                try:
                    self.sock.disable_monitor()
                except zmq.ZMQError:
                    pass
                self.monitor.close(0)
                self.monitor = None
            self.sock.close(0)
            self.sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- the request/reply loop ----

    def new_request_id(self):
        self._next_id += 1
        return self._next_id

    def call(self, req, check=True):
        """Send a Request (its request_id is filled in when 0) and return the Reply.
        Retries after a timeout send the same bytes with the same id.
        check: raise BerthierError when the reply's code is not CODE_OK."""
        if not req.request_id:
            req.request_id = self.new_request_id()
        body = req.WhichOneof("body")
        if body in _rc.INPUT_KINDS and self.sign_pk is None:
            self.sign_pk = bytes(self.hello().hello.server_sign_pk)   # trust on first use
        if not req.signature and req.WhichOneof("body") in _INPUTS:
            self.sign(req)
        data = req.SerializeToString()
        deadline_ms = int(self.timeout * 1000)
        opened_here = False
        tries = 0
        while tries <= self.retries:
            tries += 1
            poller = zmq.Poller()
            poller.register(self.sock, zmq.POLLIN)
            if self.monitor is not None:
                poller.register(self.monitor, zmq.POLLIN)
            try:
                self.sock.send(data, zmq.NOBLOCK)
            except zmq.Again:
                pass
            end = time.monotonic() + self.timeout
            refused = False
            while True:
                left = int((end - time.monotonic()) * 1000)
                if left <= 0:
                    break
                ready = dict(poller.poll(min(left, deadline_ms)))
                if not ready:
                    break
                if self.monitor is not None and self.monitor in ready:
                    try:
                        self._check_monitor()
                    except KeyRefused:
                        # A socket made before this call may have shaken hands before the
                        # daemon knew the key (a seat's client made before its game was
                        # created): only a refusal on a socket this call opened counts.
                        if opened_here:
                            # libzmq gives up a refused connection: the next call starts afresh
                            self._reconnect()
                            raise
                        refused = True
                        break
                if self.sock not in ready:
                    continue
                frame = self.sock.recv()
                rep = pb.Reply()
                try:
                    rep.ParseFromString(frame)
                except Exception:
                    continue
                if rep.request_id != req.request_id:
                    continue    # a late answer to an earlier try of an earlier request
                self.last_reply = rep
                if check and rep.code != pb.CODE_OK:
                    raise BerthierError(rep)
                if body in _rc.INPUT_KINDS and rep.code == pb.CODE_OK:
                    self._keep_receipt(req, body, data, rep)
                return rep
            if refused:
                self._reconnect()
                opened_here = True
                tries -= 1      # the refused try sent nothing the daemon read
        if self._handshake_failed:
            raise Timeout("no reply from %s after %d tries: the CURVE handshake failed (is the server key "
                          "right?) or %s" % (self.endpoint, self.retries + 1, UNKNOWN_KEY_HINT))
        raise Timeout("no reply from %s after %d tries (if the daemon is up, it may not know this key: %s)"
                      % (self.endpoint, self.retries + 1, UNKNOWN_KEY_HINT))

    def _keep_receipt(self, req, body, data, rep):
        if not rep.HasField("receipt"):
            raise _rc.ReceiptError("the daemon acknowledged the %s without a receipt" % body)
        ref = getattr(req, body)
        _rc.check_receipt(rep.receipt, self.sign_pk, data, ref.game_id, ref.seat, body)
        self.receipts.append((rep.receipt, data))
        if self.receipts_dir:
            _rc.append_receipt(os.path.join(self.receipts_dir, ref.game_id + ".receipts"),
                               rep.receipt.SerializeToString(), data)

    def witness(self, game_id, path, seat=None, event_key=None, timeout=None):
        """Keep every signed checkpoint the game's notices carry in a heads file
        (for verify --heads), until the game ends or timeout seconds pass
        without a notice. seat None: the spectators' stream. Returns how many."""
        if seat is not None and event_key is None:
            event_key = self.event_key(game_id, seat)
        sub = self.subscribe(game_id, seat, event_key)
        kept = 0
        try:
            while True:
                n = sub.recv(timeout)
                if n is None:
                    break
                if n.HasField("checkpoint") and n.game_id == game_id:
                    c = n.checkpoint
                    _rc.append_head(path, game_id, c.record, c.head, c.signature)
                    kept += 1
                if n.decision.result.ended:
                    break
        finally:
            sub.close()
        return kept

    @property
    def sign_key(self):
        """The seat signing key (nacl SigningKey), derived from the CURVE secret key."""
        if self._sign_key is None:
            from zmq.utils import z85
            self._sign_key = _seatsig.signing_key(z85.decode(self.keypair.secret))
        return self._sign_key

    @property
    def seat_sign_pk(self):
        return bytes(self.sign_key.verify_key)

    def header(self, game_id, seat=0):
        """The game's GameHeader (the exact LogHeader bytes and their hash),
        checked: the hash is the bytes' BLAKE2b-256, and the header names this
        game, binds this client's key to `seat` and holds a 32-byte dice
        commitment and server signing key. Raises ValueError otherwise."""
        h = self.call(self._ref("header", game_id, seat)).header
        if _seatsig.header_hash(h.header) != h.header_hash:
            raise ValueError("the header hash is not the hash of the header sent")
        lh = pb.LogHeader()
        lh.ParseFromString(h.header)
        if lh.game_id != game_id:
            raise ValueError("the header is of game %r, not %r" % (lh.game_id, game_id))
        if seat >= len(lh.seats) or lh.seats[seat].key != self.keypair.public_raw:
            raise ValueError("the header does not bind this client's key to seat %d of game %s" % (seat, game_id))
        if len(lh.dice_commit) != 32 or len(lh.server_sign_pk) != 32:
            raise ValueError("the header lacks a dice commitment or a server signing key")
        if not _seatsig.header_signature_ok(h.header, h.signature, lh.game_id, lh.server_sign_pk):
            raise ValueError("the header's signature (a checkpoint of record 0) does not verify under its server key")
        self._headers[(game_id, seat)] = bytes(h.header_hash)
        return h

    def sign(self, req):
        """Seat-sign an input Request in place (a join without sign_pk gets this
        client's key and the header hash)."""
        which = req.WhichOneof("body")
        body = getattr(req, which)
        key = (body.game_id, body.seat)
        if key not in self._headers:
            self.header(body.game_id, body.seat)
        hh = self._headers[key]
        if which == "join" and not body.sign_pk:
            body.sign_pk = self.seat_sign_pk
            body.header_hash = hh
        if not req.request_id:
            req.request_id = self.new_request_id()
        seq = body.based_on_seq if which == "submit" else 0
        msg = _seatsig.message(body.game_id, hh, seq, req.request_id, _INPUTS[which], body.SerializeToString())
        req.signature = self.sign_key.sign(msg).signature
        return req

    def _ref(self, field, game_id="", seat=0, **kw):
        req = pb.Request()
        ref = getattr(req, field)
        ref.SetInParent()
        ref.game_id = game_id
        ref.seat = seat
        for k, v in kw.items():
            setattr(ref, k, v)
        return req

    # ---- operations ----

    def hello(self, game_id="", seat=0):
        """Without a game: the Reply with reply.hello (engine version, rulesets,
        whether this key is an admin, the daemon's signing key). Naming a game and
        seat: the Reply with reply.joined, whose event_key opens that seat's notices."""
        return self.call(self._ref("hello", game_id, seat))

    def rulesets(self):
        """What `create_game` may name: (rulesets_info, core_options) from hello, a list of
        berthier.v1.RulesetInfo (id, version, scenarios: name, min_seats, max_seats,
        seat_names, options) and the core's option names. Empty from an older daemon."""
        h = self.hello().hello
        return list(h.rulesets_info), list(h.core_options)

    def event_key(self, game_id, seat):
        """The key of `seat`'s sealed event stream."""
        return self.hello(game_id, seat).joined.event_key

    def create_game(self, ruleset, scenario="", seats=(), options=(), clock=None, names=None,
                    spectators=()):
        """seats: one public key per seat (32 raw bytes, Z85, or a KeyPair).
        clock: dict(decision_ms=, bank_ms=, forfeit=) or None.
        spectators: public keys (same forms) that may watch the game. Returns Created."""
        req = pb.Request()
        c = req.create
        c.ruleset = ruleset
        c.scenario = scenario
        c.options.extend(options)
        for i, k in enumerate(seats):
            s = c.seats.add()
            s.seat = i
            s.key = _keys.to_raw_public(k)
            if names and i < len(names) and names[i]:
                s.name = names[i]
        for k in spectators:
            c.spectator_keys.append(_keys.to_raw_public(k))
        if clock:
            for k, v in clock.items():
                setattr(c.clock, k, v)
        return self.call(req).created

    def join(self, game_id, seat, entropy=None, chain_commit=b""):
        """Join a seat with 32 bytes of entropy (fresh randomness by default).
        dice=contributory: pass chain_commit (NonceChain().commit). Returns Joined."""
        req = pb.Request()
        req.join.game_id = game_id
        req.join.seat = seat
        req.join.entropy = entropy if entropy is not None else os.urandom(32)
        if chain_commit:
            req.join.chain_commit = chain_commit
        return self.call(req).joined

    def submit(self, game_id, seat, based_on_seq, order=None, text=None, check=True):
        """Submit an order as the ruleset's Order bytes (or message), or as text.
        Returns the Reply (reply.accepted on success)."""
        req = pb.Request()
        s = req.submit
        s.game_id = game_id
        s.seat = seat
        s.based_on_seq = based_on_seq
        if order is not None:
            s.order = order if isinstance(order, (bytes, bytearray)) else order.SerializeToString()
        if text is not None:
            s.order_text = text
        return self.call(req, check=check)

    def pending(self, game_id, seat=0):
        return self.call(self._ref("pending", game_id, seat)).decision

    def legal(self, game_id, seat=0, limit=0):
        return self.call(self._ref("legal", game_id, seat, limit=limit)).legal

    def state(self, game_id, seat=0, text=False, svg=False):
        """The StateView this key may see: a seat's own view; a spectator key's
        (seat ignored) what every seat may see when the game has spectators=live,
        else only after the end. svg=True fills StateView.svg with the ruleset's
        picture of that view (docs/render.md; "" when the ruleset draws none)."""
        return self.call(self._ref("state", game_id, seat, text=text, svg=svg)).state

    def svg(self, game_id, seat=0):
        """The ruleset's SVG picture of the state as this key may see it (a str,
        "" when the ruleset draws none or the game has not started)."""
        return self.state(game_id, seat, svg=True).svg

    def query(self, game_id, seat, text):
        """Ask the ruleset a question about the state (brt_ruleset.query; wem: "reach B12 R3",
        docs/wem-query.md), answered as this key may see the state, by the rules of state().
        Returns the answer's text (a str). Rulesets that answer no questions refuse it."""
        req = pb.Request()
        q = req.query
        q.game_id = game_id
        q.seat = seat
        q.text = text
        return self.call(req).answer.text

    def resign(self, game_id, seat):
        return self.call(self._ref("resign", game_id, seat))

    def abort(self, game_id, reason="aborted by the operator", forfeit_seat=None):
        """Admins: end a game now (docs/protocol.md P3), with no winner, or with
        forfeit_seat losing and the other seats winning. Returns the Reply."""
        req = pb.Request()
        a = req.abort
        a.game_id = game_id
        a.reason = reason
        if forfeit_seat is not None:
            a.has_forfeit = True
            a.forfeit_seat = forfeit_seat
        return self.call(req)

    def list_games(self):
        return self.call(self._ref("list_games")).games

    def events(self, game_id, seat=0, since_seq=0):
        return self.call(self._ref("events", game_id, seat, since_seq=since_seq)).events

    def reveal(self, game_id, seat, batch, nonce):
        req = pb.Request()
        r = req.reveal
        r.game_id = game_id
        r.seat = seat
        r.batch = batch
        r.nonce = nonce
        return self.call(req)

    def fetch_log(self, game_id, max_bytes=512 << 10):
        """The whole log file of a game (every chunk) as bytes."""
        out = bytearray()
        while True:
            req = pb.Request()
            req.fetch_log.game_id = game_id
            req.fetch_log.offset = len(out)
            req.fetch_log.max_bytes = max_bytes
            chunk = self.call(req).log
            if chunk.offset != len(out):
                raise ValueError("log chunk at offset %d, asked for %d" % (chunk.offset, len(out)))
            out += chunk.data
            if chunk.eof:
                return bytes(out)
            if not chunk.data:
                raise ValueError("empty log chunk before the end")

    def subscribe(self, game_id, seat=None, event_key=None, endpoint=None):
        """A Subscription to a game's notices: as `seat` (event_key from
        Joined.event_key or hello(game_id, seat)) or, seat None, as a spectator."""
        return Subscription(self.ctx, endpoint or self.events_endpoint, self.server_key, self.keypair,
                            game_id, seat, event_key)

    @staticmethod
    def ruleset_module(ruleset):
        return ruleset_module(ruleset)


def keygen(directory=None, name=None):
    """A new Curve keypair; with directory and name also writes NAME.key / NAME.pub."""
    kp = _keys.keygen()
    if directory and name:
        _keys.save_keypair(kp, directory, name)
    return kp
