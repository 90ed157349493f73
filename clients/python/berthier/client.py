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

One round trip per order (docs/protocol.md P4.3): join, submit, reveal, resign
and pending take want= (want_message) and then return a Step whose decision is
the seat's next Decision and whose legal holds its legal orders (and view its
View, with want="view") when it must act, from the same reply; client.seat(game, seat) wraps this into a Seat that
plays a turn in one call (Seat.turn). Without want= every call returns what it
always did.

Inputs (join, submit, resign, reveal) are seat-signed (docs/protocol.md
P3.1, berthier.seatsig): the first time a game is used the client fetches
its header, checks that it binds this client's key to the seat and holds a
dice commitment and a server signing key, and signs over its hash.
"""

import collections
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

    def back(self):
        """Give back the link next() gave last (the daemon refused its reveal)."""
        if self._pos > 0:
            self._pos -= 1


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


def want_message(want):
    """The berthier.v1.Want that want= names (None for no want): True or "legal" = the next
    decision and its legal orders without texts; "decision" = the decision only; "texts" =
    legal orders with their texts; "view" = the decision, its legal orders and the seat's
    View (as `state` answers it without text or svg); a dict of Want's fields (decision,
    legal, texts, limit, view); or a pb.Want. Texts imply legal orders, and legal orders
    and the View imply the decision."""
    if want is None or want is False:
        return None
    if isinstance(want, pb.Want):
        w = pb.Want()
        w.CopyFrom(want)
    elif want is True or want == "legal":
        w = pb.Want(decision=True, legal=True)
    elif want == "decision":
        w = pb.Want(decision=True)
    elif want == "texts":
        w = pb.Want(decision=True, legal=True, texts=True)
    elif want == "view":
        w = pb.Want(decision=True, legal=True, view=True)
    elif isinstance(want, dict):
        unknown = set(want) - {"decision", "legal", "texts", "limit", "view"}
        if unknown:
            raise ValueError("want: no field %s (decision, legal, texts, limit, view)" % ", ".join(sorted(unknown)))
        w = pb.Want(**want)
    else:
        raise ValueError("want: %r is not True, \"decision\", \"legal\", \"texts\", \"view\", a dict or a "
                         "pb.Want" % (want,))
    if w.texts or w.limit:
        w.legal = True
    if w.legal or w.view:
        w.decision = True
    return w


class Step:
    """What one call with want= gives back (docs/protocol.md P4.3).

    reply: the Reply; body: its own body (Joined, Accepted, Decision for pending, None for
    resign and reveal); decision: the seat's Decision after the input (None when the reply
    was a rejection and carried none); legal: its LegalOrders when legal orders were wanted
    and the seat must act on that decision, else None; view: likewise its StateView (the
    seat's View, no text or svg) when the View was wanted. fallback: how many extra requests
    the client made because the reply did not carry them (a daemon older than P4.3, or a
    View too large for max-message)."""

    __slots__ = ("reply", "body", "decision", "legal", "view", "fallback")

    def __init__(self, reply, body=None, decision=None, legal=None, fallback=0, view=None):
        self.reply = reply
        self.body = body
        self.decision = decision
        self.legal = legal
        self.view = view
        self.fallback = fallback

    @property
    def ok(self):
        return self.reply.code == pb.CODE_OK

    @property
    def ended(self):
        return self.decision is not None and self.decision.result.ended

    @property
    def must_act(self):
        return self.decision is not None and self.decision.you_must_act and not self.decision.result.ended

    @property
    def orders(self):
        """The legal orders (encoded) as a list, [] when there are none in this step."""
        return list(self.legal.orders) if self.legal is not None else []

    def __repr__(self):
        return "Step(code=%s, seq=%s, must_act=%s, orders=%d)" % (
            pb.Code.Name(self.reply.code) if self.reply.code in pb.Code.values() else self.reply.code,
            self.decision.seq if self.decision is not None else None, self.must_act, len(self.orders))


class Seat:
    """One seat of one game, played with replies that carry its next decision and legal orders
    (docs/protocol.md P4.3): each call below is one request, and keeps the seat's current
    decision and legal orders (legal orders only while the seat must act).

        s = client.seat(game_id, 0)
        s.join()
        while not s.ended:
            if s.must_act:
                s.turn(lambda d, legal: random.randrange(len(legal.orders)))
            else:
                s.wait()

    texts: ask for the orders' texts too (the daemon formats each; leave off on a hot path);
    limit: at most this many legal orders (0 = all); chain: a NonceChain for dice=contributory
    games (turn answers dice-nonce decisions with its next link); view: the seat's View comes
    with each decision it must act on (Seat.view, a StateView), no `state` request needed."""

    def __init__(self, client, game_id, seat, texts=False, limit=0, chain=None, view=False):
        self.client = client
        self.game_id = game_id
        self.seat = seat
        self.want = want_message({"texts": bool(texts), "limit": limit, "legal": True, "view": bool(view)})
        self.chain = chain
        self.decision = None
        self.legal = None
        self.view = None
        self.last = None

    # ---- what the seat knows ----
    @property
    def ended(self):
        return self.decision is not None and self.decision.result.ended

    @property
    def must_act(self):
        return self.decision is not None and self.decision.you_must_act and not self.decision.result.ended

    @property
    def orders(self):
        return list(self.legal.orders) if self.legal is not None else []

    @property
    def texts(self):
        return list(self.legal.texts) if self.legal is not None else []

    def _keep(self, step):
        self.last = step
        if step.decision is not None:
            self.decision = step.decision
            self.legal = step.legal
            self.view = step.view
        return step

    # ---- one request each ----
    def join(self, entropy=None, chain_commit=None):
        """Join (a seat already joined just refreshes). Returns the Step."""
        if chain_commit is None:
            chain_commit = self.chain.commit if self.chain is not None else b""
        try:
            return self._keep(self.client.join(self.game_id, self.seat, entropy, chain_commit, want=self.want))
        except BerthierError as e:
            if e.code != pb.CODE_ALREADY_JOINED:
                raise
            return self.refresh()

    def refresh(self):
        """Ask for the seat's decision (and legal orders) now: pending with want."""
        return self._keep(self.client.pending(self.game_id, self.seat, want=self.want))

    def play(self, order=None, text=None):
        """Submit an order (encoded bytes or message, or text) citing the current decision's
        seq. Returns the Step; a STALE or NOT_YOUR_DECISION answer (the game moved first)
        refreshes the decision, any other refusal raises BerthierError."""
        if self.decision is None:
            self.refresh()
        step = self.client.submit(self.game_id, self.seat, self.decision.seq, order=order, text=text,
                                  check=False, want=self.want)
        if step.ok:
            return self._keep(step)
        if step.reply.code in (pb.CODE_STALE, pb.CODE_NOT_YOUR_DECISION, pb.CODE_GAME_OVER):
            self.last = step
            if step.decision is not None:
                self._keep(step)
            else:
                self.refresh()
            return step
        raise BerthierError(step.reply)

    def reveal(self, nonce=None, batch=None):
        """dice=contributory: reveal the next link of the chain for the decision's batch. A
        refusal because the game moved first (STALE, NOT_YOUR_DECISION, GAME_OVER) refreshes
        and returns a Step of it; any other raises BerthierError."""
        if batch is None:
            batch = self.decision.batch if self.decision is not None else 0
        took = nonce is None
        if took:
            if self.chain is None:
                raise ValueError("a dice-nonce decision needs the seat's NonceChain (Seat(chain=...))")
            nonce = self.chain.next()
        try:
            return self._keep(self.client.reveal(self.game_id, self.seat, batch, nonce, want=self.want))
        except BerthierError as e:
            if took:
                self.chain.back()     # not revealed: the same link answers the next batch
            if e.code not in (pb.CODE_STALE, pb.CODE_NOT_YOUR_DECISION, pb.CODE_GAME_OVER):
                raise
            self.refresh()
            self.last = Step(e.reply)
            return self.last

    def resign(self):
        return self._keep(self.client.resign(self.game_id, self.seat, want=self.want))

    def wait(self, poll=0.01, timeout=None, sub=None, resync=1.0):
        """Until the seat must act or the game ended (or timeout seconds pass). Returns the
        last Step (None when no request was needed).

        Without sub: refresh after every poll seconds. With sub, a Subscription to this seat's
        notices (client.subscribe(game_id, seat, event_key)): no request until a notice says
        the seat must act or the game ended (a notice carries the seat's decision, so others'
        moves that leave it waiting cost nothing), then one refresh for the legal orders.
        PUB is lossy and a new subscription misses what came before it: after resync
        seconds without a notice it refreshes anyway."""
        end = None if timeout is None else time.monotonic() + timeout
        step = None
        if self.decision is None:
            step = self.refresh()
        while not self.must_act and not self.ended:
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                break
            if sub is None:
                time.sleep(poll if left is None else min(poll, left))
                step = self.refresh()
                continue
            try:
                n = sub.recv(resync if left is None else min(resync, left))
            except ValueError:
                continue        # not sealed with this seat's key: not ours to read
            if n is None:
                step = self.refresh()
            elif n.game_id == self.game_id and (n.decision.you_must_act or n.decision.result.ended) \
                    and not self._known(n.decision):
                step = self.refresh()
        return step

    def _known(self, d):
        """A notice's decision says nothing new: one from before the decision the seat holds
        (a notice queued while the seat was acting), or that very decision."""
        mine = self.decision
        if mine is None:
            return False
        if d.seq != mine.seq:
            return d.seq < mine.seq
        return (d.kind == mine.kind and d.batch == mine.batch and d.you_must_act == mine.you_must_act
                and d.result.ended == mine.result.ended)

    def turn(self, choose):
        """Play one turn in one call: a seat yet to join joins, a dice-nonce decision is answered
        with the chain's next link; otherwise choose(decision, legal) names the order, by index into legal.orders or
        as the order itself (bytes, message, or a str in the ruleset's text syntax), and it is
        submitted. Returns the Step (None when the seat has nothing to do now, or no order)."""
        if self.decision is None:
            self.refresh()
        if not self.must_act:
            return None
        if self.decision.kind == "join":
            return self.join()
        if self.decision.kind == "dice-nonce":
            return self.reveal()
        if self.legal is None:
            self.refresh()
        if self.legal is None or not self.legal.orders:
            return None
        pick = choose(self.decision, self.legal)
        if isinstance(pick, int):
            return self.play(order=self.legal.orders[pick])
        if isinstance(pick, str):
            return self.play(text=pick)
        return self.play(order=pick)


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
        self.requests = 0        # requests sent (a retry of the same bytes is not counted)
        self.request_kinds = collections.Counter()   # the same, by Request body ("submit", "legal", ...)
        self.fallbacks = 0       # extra requests made because a reply lacked what want= asked for
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
        self.requests += 1
        self.request_kinds[body] += 1
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
        signed = body
        if which != "submit" and body.HasField("want"):
            # The log keeps a join's, resign's or reveal's fields, not its bytes, and the
            # signature covers the body it rebuilds from them: without the Want, which asks
            # for more in the reply and is no part of the input (P4.3). A submit is kept as
            # the Request it came in, so its signature covers its body as sent.
            signed = type(body)()
            signed.CopyFrom(body)
            signed.ClearField("want")
        msg = _seatsig.message(body.game_id, hh, seq, req.request_id, _INPUTS[which], signed.SerializeToString())
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

    def join(self, game_id, seat, entropy=None, chain_commit=b"", want=None):
        """Join a seat with 32 bytes of entropy (fresh randomness by default).
        dice=contributory: pass chain_commit (NonceChain().commit). Returns Joined;
        with want= (want_message) a Step whose body is the Joined."""
        req = pb.Request()
        req.join.game_id = game_id
        req.join.seat = seat
        req.join.entropy = entropy if entropy is not None else os.urandom(32)
        if chain_commit:
            req.join.chain_commit = chain_commit
        w = self._want(req.join, want)
        rep = self.call(req)
        return rep.joined if w is None else self._step(rep, rep.joined, game_id, seat, w)

    def submit(self, game_id, seat, based_on_seq, order=None, text=None, check=True, want=None):
        """Submit an order as the ruleset's Order bytes (or message), or as text.
        Returns the Reply (reply.accepted on success); with want= (want_message) a Step
        whose body is the Accepted (None for a rejection with check=False) and whose
        decision and legal are the seat's next ones."""
        req = pb.Request()
        s = req.submit
        s.game_id = game_id
        s.seat = seat
        s.based_on_seq = based_on_seq
        if order is not None:
            s.order = order if isinstance(order, (bytes, bytearray)) else order.SerializeToString()
        if text is not None:
            s.order_text = text
        w = self._want(s, want)
        rep = self.call(req, check=check)
        if w is None:
            return rep
        return self._step(rep, rep.accepted if rep.HasField("accepted") else None, game_id, seat, w)

    def pending(self, game_id, seat=0, want=None):
        """The Decision in front of the game as this key may see it; with want=
        (want_message) a Step whose decision is that Decision and whose legal holds the
        seat's legal orders when it must act, from the same reply (pending + legal)."""
        req = self._ref("pending", game_id, seat)
        w = self._want(req.pending, want)
        rep = self.call(req)
        return rep.decision if w is None else self._step(rep, rep.decision, game_id, seat, w)

    # ---- one round trip per order (docs/protocol.md P4.3) ----

    def seat(self, game_id, seat, texts=False, limit=0, chain=None, view=False):
        """A Seat: plays `seat` of `game_id` with one request per input (view=True: with the
        seat's View in each reply that gives it a decision to act on)."""
        return Seat(self, game_id, seat, texts=texts, limit=limit, chain=chain, view=view)

    @property
    def next(self):
        """The last reply's Reply.next (the seat's next decision), or None."""
        r = self.last_reply
        return r.next if r is not None and r.HasField("next") else None

    @property
    def next_legal(self):
        """The last reply's Reply.next_legal (the seat's legal orders), or None."""
        r = self.last_reply
        return r.next_legal if r is not None and r.HasField("next_legal") else None

    @property
    def next_view(self):
        """The last reply's Reply.next_view (the seat's View, a StateView), or None."""
        r = self.last_reply
        return r.next_view if r is not None and r.HasField("next_view") else None

    @staticmethod
    def _want(body, want):
        w = want_message(want)
        if w is not None:
            body.want.CopyFrom(w)
        return w

    def _step(self, rep, body, game_id, seat, w):
        """A Step from a reply to a request with Want w. A reply without Reply.next (a daemon
        older than P4.3) is completed with pending and legal requests, counted in fallbacks."""
        extra = 0
        decision = legal = view = None
        if rep.HasField("next") or rep.HasField("next_legal") or rep.HasField("next_view"):
            # a daemon that honours Want: what it carries is the whole answer (but for a View
            # it left out because the reply would pass max-message)
            decision = rep.next if rep.HasField("next") else rep.decision
            if w.legal and rep.HasField("next_legal"):
                legal = rep.next_legal
            if w.view and rep.HasField("next_view"):
                view = rep.next_view
        elif rep.code == pb.CODE_OK:
            if rep.WhichOneof("body") == "decision":
                decision = rep.decision
            else:
                decision = self.call(self._ref("pending", game_id, seat)).decision
                extra += 1
            # legal orders exist once the game has started, for decisions other than a
            # dice-nonce (answered with reveal) and the join
            if (w.legal and decision.you_must_act and decision.started and not decision.result.ended
                    and decision.kind != "dice-nonce"):
                legal = self.call(self._ref("legal", game_id, seat, limit=w.limit)).legal
                extra += 1
        if (w.view and view is None and decision is not None and decision.you_must_act and decision.started
                and not decision.result.ended):
            view = self.call(self._ref("state", game_id, seat)).state
            extra += 1
        self.fallbacks += extra
        self.last_reply = rep
        return Step(rep, body, decision, legal, extra, view)

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

    def resign(self, game_id, seat, want=None):
        """Resign the seat. Returns the Reply; with want= a Step (the seat's decision after it)."""
        req = self._ref("resign", game_id, seat)
        w = self._want(req.resign, want)
        rep = self.call(req)
        return rep if w is None else self._step(rep, None, game_id, seat, w)

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

    def reveal(self, game_id, seat, batch, nonce, want=None):
        """dice=contributory: reveal the seat's link for a batch. Returns the Reply; with
        want= a Step (the seat's next decision and legal orders)."""
        req = pb.Request()
        r = req.reveal
        r.game_id = game_id
        r.seat = seat
        r.batch = batch
        r.nonce = nonce
        w = self._want(r, want)
        rep = self.call(req)
        return rep if w is None else self._step(rep, None, game_id, seat, w)

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
