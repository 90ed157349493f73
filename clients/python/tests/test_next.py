"""berthier.client's one-round-trip flow (docs/protocol.md P4.3) without a daemon: what
want= puts in each request, how a Step reads Reply.next / next_legal, the fallback to
pending and legal requests when a reply does not carry them, and Seat playing turns with
one request each. The daemon is a function from Request to Reply."""
import collections
import unittest

from berthier import example_bot
from berthier.client import BerthierError, Client, Seat, Step, want_message
from berthier.proto import pb


class ScriptedClient(Client):
    """A Client whose call() goes to answer(req) instead of a socket."""

    def __init__(self, answer):  # noqa: super().__init__ would connect
        self.answer = answer
        self.sent = []
        self.last_reply = None
        self.requests = 0
        self.request_kinds = collections.Counter()
        self.fallbacks = 0

    def call(self, req, check=True):
        self.requests += 1
        self.request_kinds[req.WhichOneof("body")] += 1
        sent = pb.Request()
        sent.CopyFrom(req)
        self.sent.append(sent)
        rep = self.answer(sent)
        self.last_reply = rep
        if check and rep.code != pb.CODE_OK:
            raise BerthierError(rep)
        return rep


def decision(seq, must_act=True, ended=False, kind="move", batch=0):
    d = pb.Decision(seq=seq, seats=[0], kind=kind, you_must_act=must_act, started=True, batch=batch)
    if ended:
        d.result.ended = True
        d.result.winners.append(1)
        d.you_must_act = False
    return d


class TestWantMessage(unittest.TestCase):
    def test_forms(self):
        self.assertIsNone(want_message(None))
        self.assertIsNone(want_message(False))
        self.assertEqual(want_message(True), pb.Want(decision=True, legal=True))
        self.assertEqual(want_message("legal"), pb.Want(decision=True, legal=True))
        self.assertEqual(want_message("decision"), pb.Want(decision=True))
        self.assertEqual(want_message("texts"), pb.Want(decision=True, legal=True, texts=True))
        # texts and a limit imply legal orders, legal orders imply the decision
        self.assertEqual(want_message({"limit": 5}), pb.Want(decision=True, legal=True, limit=5))
        self.assertEqual(want_message({"texts": True}), pb.Want(decision=True, legal=True, texts=True))
        self.assertEqual(want_message(pb.Want(legal=True)), pb.Want(decision=True, legal=True))
        # the View implies the decision; "view" asks for the legal orders too
        self.assertEqual(want_message("view"), pb.Want(decision=True, legal=True, view=True))
        self.assertEqual(want_message({"view": True}), pb.Want(decision=True, view=True))
        self.assertEqual(want_message(pb.Want(view=True)), pb.Want(decision=True, view=True))
        with self.assertRaises(ValueError):
            want_message({"legals": True})
        with self.assertRaises(ValueError):
            want_message("everything")


class TestRequests(unittest.TestCase):
    """want= goes in the body of every input and of pending; without it nothing changes."""

    def setUp(self):
        self.c = ScriptedClient(lambda req: self._ok(req))

    @staticmethod
    def _ok(req):
        rep = pb.Reply(request_id=req.request_id, code=pb.CODE_OK)
        which = req.WhichOneof("body")
        if which == "join":
            rep.joined.seq = 1
        elif which == "submit":
            rep.accepted.seq = 3
        elif which == "pending":
            rep.decision.CopyFrom(decision(3))
        elif which == "legal":
            rep.legal.seq = 3
            rep.legal.orders.extend([b"\x01", b"\x02"])
        rep.next.CopyFrom(decision(4))
        rep.next_legal.seq = 4
        rep.next_legal.orders.extend([b"\x0a", b"\x0b", b"\x0c"])
        return rep

    def test_each_call_sends_its_want(self):
        c = self.c
        c.join("g", 0, entropy=bytes(32), want=True)
        c.submit("g", 0, 3, text="bid 1", want={"texts": True, "limit": 2})
        c.pending("g", 0, want="decision")
        c.reveal("g", 0, 2, bytes(32), want=True)
        c.resign("g", 0, want=True)
        bodies = [(r.WhichOneof("body"), getattr(r, r.WhichOneof("body")).want) for r in c.sent]
        self.assertEqual(bodies, [
            ("join", pb.Want(decision=True, legal=True)),
            ("submit", pb.Want(decision=True, legal=True, texts=True, limit=2)),
            ("pending", pb.Want(decision=True)),
            ("reveal", pb.Want(decision=True, legal=True)),
            ("resign", pb.Want(decision=True, legal=True)),
        ])
        self.assertEqual(c.requests, 5)
        self.assertEqual(c.fallbacks, 0)

    def test_without_want_the_old_returns(self):
        c = self.c
        self.assertIsInstance(c.join("g", 0, entropy=bytes(32)), pb.Joined)
        self.assertIsInstance(c.submit("g", 0, 3, text="bid 1"), pb.Reply)
        self.assertEqual(c.pending("g", 0), decision(3))
        for r in c.sent:
            self.assertFalse(getattr(r, r.WhichOneof("body")).HasField("want"),
                             "a call without want= sends no Want")

    def test_step_reads_next(self):
        c = self.c
        st = c.submit("g", 0, 3, text="bid 1", want=True)
        self.assertIsInstance(st, Step)
        self.assertTrue(st.ok)
        self.assertEqual(st.body.seq, 3)
        self.assertEqual(st.decision.seq, 4)
        self.assertTrue(st.must_act)
        self.assertEqual(st.orders, [b"\x0a", b"\x0b", b"\x0c"])
        self.assertEqual(st.fallback, 0)
        self.assertEqual(c.next.seq, 4)
        self.assertEqual(len(c.next_legal.orders), 3)
        st = c.join("g", 0, entropy=bytes(32), want="decision")
        self.assertIsNone(st.legal, "want decision only: no legal orders even when the reply has some")
        self.assertEqual(st.body.seq, 1)
        self.assertIsNone(st.view)

    def test_step_reads_next_view(self):
        def answer(req):
            rep = self._ok(req)
            if req.WhichOneof("body") == "submit" and req.submit.want.view:
                rep.next_view.seq = 4
                rep.next_view.view = b"\x55"
                rep.next_view.view_hash = bytes(32)
            return rep
        c = ScriptedClient(answer)
        st = c.submit("g", 0, 3, text="bid 1", want="view")
        self.assertEqual(c.sent[0].submit.want, pb.Want(decision=True, legal=True, view=True))
        self.assertEqual((st.view.seq, st.view.view), (4, b"\x55"))
        self.assertEqual(c.next_view.view, b"\x55")
        self.assertEqual((st.fallback, c.requests), (0, 1))
        st = c.submit("g", 0, 3, text="bid 1", want=True)
        self.assertIsNone(st.view, "no View unless asked for")
        self.assertIsNone(c.next_view)

    def test_view_left_out_is_asked_for(self):
        """A daemon that left the View out (too large for max-message) is asked with state."""
        def answer(req):
            if req.WhichOneof("body") == "state":
                rep = pb.Reply(request_id=req.request_id, code=pb.CODE_OK)
                rep.state.seq = 4
                rep.state.view = b"\x66"
                return rep
            return self._ok(req)
        c = ScriptedClient(answer)
        st = c.submit("g", 1, 3, text="bid 1", want="view")
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["submit", "state"])
        self.assertEqual((c.sent[1].state.seat, c.sent[1].state.text, c.sent[1].state.svg), (1, False, False))
        self.assertEqual(st.view.view, b"\x66")
        self.assertEqual(st.fallback, 1)


class TestFallback(unittest.TestCase):
    """A daemon older than P4.3 ignores Want: the client asks with pending and legal."""

    def _old(self, req):
        rep = pb.Reply(request_id=req.request_id, code=pb.CODE_OK)
        which = req.WhichOneof("body")
        if which == "submit":
            rep.accepted.seq = 5
        elif which == "pending":
            rep.decision.CopyFrom(self.next_decision)
        elif which == "legal":
            rep.legal.seq = 6
            rep.legal.orders.extend([b"\x07"])
        return rep

    def test_submit_falls_back(self):
        self.next_decision = decision(6)
        c = ScriptedClient(self._old)
        st = c.submit("g", 1, 5, order=b"\x01", want=True)
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["submit", "pending", "legal"])
        self.assertEqual(c.sent[1].pending.seat, 1)
        self.assertEqual(st.decision.seq, 6)
        self.assertEqual(st.orders, [b"\x07"])
        self.assertEqual((st.fallback, c.fallbacks), (2, 2))
        self.assertEqual(c.last_reply, st.reply, "last_reply stays the submit's reply")

    def test_pending_falls_back_only_for_legal(self):
        self.next_decision = decision(6)
        c = ScriptedClient(self._old)
        st = c.pending("g", 0, want={"limit": 9})
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["pending", "legal"])
        self.assertEqual(c.sent[1].legal.limit, 9)
        self.assertEqual(st.decision.seq, 6)
        self.assertEqual(st.fallback, 1)

    def test_view_falls_back(self):
        self.next_decision = decision(6)
        c = ScriptedClient(lambda req: self._state(req) or self._old(req))
        st = c.submit("g", 1, 5, order=b"\x01", want="view")
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["submit", "pending", "legal", "state"])
        self.assertEqual(st.view.view, b"\x09")
        self.assertEqual(st.fallback, 3)
        # not the seat's to act on: no View asked for
        self.next_decision = decision(6, must_act=False)
        c = ScriptedClient(lambda req: self._state(req) or self._old(req))
        st = c.submit("g", 1, 5, order=b"\x01", want="view")
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["submit", "pending"])
        self.assertIsNone(st.view)

    @staticmethod
    def _state(req):
        if req.WhichOneof("body") != "state":
            return None
        rep = pb.Reply(request_id=req.request_id, code=pb.CODE_OK)
        rep.state.seq = 6
        rep.state.view = b"\x09"
        return rep

    def test_no_legal_when_not_acting(self):
        self.next_decision = decision(6, must_act=False)
        c = ScriptedClient(self._old)
        st = c.submit("g", 0, 5, order=b"\x01", want=True)
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["submit", "pending"])
        self.assertIsNone(st.legal)
        self.assertFalse(st.must_act)

    def test_rejection_carries_no_decision(self):
        c = ScriptedClient(lambda req: pb.Reply(request_id=req.request_id, code=pb.CODE_STALE))
        st = c.submit("g", 0, 5, order=b"\x01", check=False, want=True)
        self.assertFalse(st.ok)
        self.assertIsNone(st.decision)
        self.assertEqual(c.requests, 1)


class Duel:
    """A toy game for Seat: seat 0 moves at each seq until seq 4, when it has ended.
    Replies carry next / next_legal when the request asks (new=True) or never (an old daemon)."""

    def __init__(self, new=True, stale_once=False, nonce_at=None):
        self.seq = 1
        self.new = new
        self.stale_once = stale_once
        self.nonce_at = nonce_at
        self.played = []
        self.revealed = []

    def decision(self):
        if self.seq >= 4:
            return decision(self.seq, ended=True)
        if self.nonce_at == self.seq:
            return decision(self.seq, kind="dice-nonce", batch=7)
        return decision(self.seq)

    def view(self):
        return pb.StateView(seq=self.seq, view=bytes([0x70 + self.seq]))

    def legal(self):
        lo = pb.LegalOrders(seq=self.seq)
        lo.orders.extend([bytes([self.seq, i]) for i in range(3)])
        return lo

    def __call__(self, req):
        rep = pb.Reply(request_id=req.request_id, code=pb.CODE_OK)
        which = req.WhichOneof("body")
        body = getattr(req, which)
        if which == "join":
            rep.joined.seq = self.seq
        elif which == "pending":
            rep.decision.CopyFrom(self.decision())
        elif which == "legal":
            rep.legal.CopyFrom(self.legal())
        elif which == "state":
            rep.state.CopyFrom(self.view())
        elif which == "submit":
            if self.stale_once:
                self.stale_once = False
                self.seq += 1
                return pb.Reply(request_id=req.request_id, code=pb.CODE_STALE)
            if body.based_on_seq != self.seq:
                return pb.Reply(request_id=req.request_id, code=pb.CODE_STALE)
            self.played.append(bytes(body.order))
            rep.accepted.seq = self.seq
            self.seq += 1
        elif which == "reveal":
            self.revealed.append((body.batch, bytes(body.nonce)))
            self.seq += 1
        if self.new and body.HasField("want") and which != "legal":
            d = self.decision()
            rep.next.CopyFrom(d)
            if body.want.legal and d.you_must_act:
                rep.next_legal.CopyFrom(self.legal())
            if body.want.view and d.you_must_act:
                rep.next_view.CopyFrom(self.view())
        return rep


class TestSeat(unittest.TestCase):
    def test_one_request_per_order(self):
        game = Duel(new=True)
        c = ScriptedClient(game)
        s = Seat(c, "g", 0)
        s.join(entropy=bytes(32))
        self.assertTrue(s.must_act)
        while not s.ended:
            s.turn(lambda d, legal: len(legal.orders) - 1)
        self.assertEqual(game.played, [b"\x01\x02", b"\x02\x02", b"\x03\x02"])
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["join", "submit", "submit", "submit"])
        self.assertEqual(c.fallbacks, 0)
        self.assertEqual(s.decision.result.winners, [1])
        self.assertEqual(s.turn(lambda d, legal: 0), None, "nothing to do after the end")

    def test_view_with_each_decision(self):
        """Seat(view=True): the View comes with the decision, still one request per order."""
        for new in (True, False):
            game = Duel(new=new)
            c = ScriptedClient(game)
            s = Seat(c, "g", 0, view=True)
            s.join(entropy=bytes(32))
            seen = []
            while not s.ended:
                seen.append(s.view.view)
                s.turn(lambda d, legal: 0)
            self.assertEqual(seen, [b"\x71", b"\x72", b"\x73"])
            self.assertIsNone(s.view, "no View once the game has ended")
            if new:
                self.assertEqual([r.WhichOneof("body") for r in c.sent], ["join", "submit", "submit", "submit"])
                self.assertTrue(all(getattr(r, r.WhichOneof("body")).want.view for r in c.sent))
            else:
                self.assertEqual(c.request_kinds["state"], 3)

    def test_old_daemon_same_game(self):
        game = Duel(new=False)
        c = ScriptedClient(game)
        s = Seat(c, "g", 0)
        s.join(entropy=bytes(32))
        while not s.ended:
            s.turn(lambda d, legal: 0)
        self.assertEqual(game.played, [b"\x01\x00", b"\x02\x00", b"\x03\x00"])
        self.assertGreater(c.fallbacks, 0)

    def test_stale_refreshes(self):
        game = Duel(new=True, stale_once=True)
        c = ScriptedClient(game)
        s = Seat(c, "g", 0)
        s.refresh()
        st = s.play(order=s.orders[0])
        self.assertEqual(st.reply.code, pb.CODE_STALE)
        self.assertEqual(s.decision.seq, 2, "a STALE answer refreshed the decision")
        self.assertEqual(s.orders[0], b"\x02\x00")
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["pending", "submit", "pending"])

    def test_other_refusal_raises(self):
        c = ScriptedClient(lambda req: pb.Reply(request_id=req.request_id, code=pb.CODE_ILLEGAL, rule="6.3")
                           if req.WhichOneof("body") == "submit" else Duel()(req))
        s = Seat(c, "g", 0)
        s.refresh()
        with self.assertRaises(BerthierError):
            s.play(order=b"\x00")

    def test_dice_nonce_turn(self):
        from berthier.client import NonceChain
        game = Duel(new=True, nonce_at=2)
        chain = NonceChain(length=4, secret=bytes(32))
        c = ScriptedClient(game)
        s = Seat(c, "g", 0, chain=chain)
        s.refresh()
        s.turn(lambda d, legal: 0)
        self.assertEqual(s.decision.kind, "dice-nonce")
        s.turn(lambda d, legal: self.fail("a dice-nonce decision is not chosen"))
        self.assertEqual([b for b, _ in game.revealed], [7])
        self.assertEqual(c.sent[-1].reveal.want, pb.Want(decision=True, legal=True))

    def test_refused_reveal_keeps_the_link(self):
        from berthier.client import NonceChain
        game = Duel(new=True, nonce_at=1)

        def answer(req):
            if req.WhichOneof("body") == "reveal" and not game.revealed and not self.refused:
                self.refused = True
                return pb.Reply(request_id=req.request_id, code=pb.CODE_STALE)
            return game(req)

        self.refused = False
        chain = NonceChain(length=4, secret=bytes(32))
        c = ScriptedClient(answer)
        s = Seat(c, "g", 0, chain=chain)
        s.refresh()
        st = s.turn(lambda d, legal: 0)
        self.assertEqual(st.reply.code, pb.CODE_STALE)
        s.turn(lambda d, legal: 0)
        first = NonceChain(length=4, secret=bytes(32)).next()
        self.assertEqual(game.revealed, [(7, first)], "the refused link answers the batch again")

    def test_join_decision_joins(self):
        c = ScriptedClient(Duel())
        s = Seat(c, "g", 0)
        s.decision = decision(0, kind="join")
        s.turn(lambda d, legal: self.fail("a join decision is not chosen"))
        self.assertEqual(c.sent[0].WhichOneof("body"), "join")

    def test_wait_on_notices(self):
        """With a subscription, waiting costs no request until a notice says the seat must act;
        a quiet stream (None after resync seconds) refreshes anyway."""
        game = Duel()
        c = ScriptedClient(game)
        s = Seat(c, "g", 0)
        s.decision = decision(1, must_act=False)

        class Sub:
            def __init__(self, items):
                self.items = list(items)

            def recv(self, timeout=None):
                return self.items.pop(0)

        other = pb.Notice(game_id="g", seq=1)
        other.decision.CopyFrom(decision(1, must_act=False))
        elsewhere = pb.Notice(game_id="h", seq=1)
        elsewhere.decision.CopyFrom(decision(1))
        mine = pb.Notice(game_id="g", seq=1)
        mine.decision.CopyFrom(decision(1))
        st = s.wait(sub=Sub([other, elsewhere, other, mine]))
        self.assertEqual([r.WhichOneof("body") for r in c.sent], ["pending"], "one request, on the seat's notice")
        self.assertTrue(st.must_act and s.orders)
        s.decision = decision(1, must_act=False)
        s.wait(sub=Sub([None]), resync=0.01)
        self.assertEqual(len(c.sent), 2, "a quiet stream refreshes after resync seconds")
        s.decision = decision(1, must_act=False)
        self.assertIsNone(s.wait(sub=Sub([other] * 50), timeout=0), "timeout 0: no request at all")
        # a notice queued from before the decision the seat holds says nothing new
        s.decision = decision(3, must_act=False)
        old = pb.Notice(game_id="g", seq=2)
        old.decision.CopyFrom(decision(2))
        sent = len(c.sent)
        s.wait(sub=Sub([old, old, mine.__class__(game_id="g", seq=3, decision=decision(3))]))
        self.assertEqual(len(c.sent), sent + 1, "notices of older seqs cost no request")

    def test_texts_and_limit(self):
        c = ScriptedClient(Duel())
        s = Seat(c, "g", 0, texts=True, limit=2)
        s.refresh()
        self.assertEqual(c.sent[0].pending.want, pb.Want(decision=True, legal=True, texts=True, limit=2))

    def test_turn_by_text(self):
        c = ScriptedClient(Duel())
        s = Seat(c, "g", 0)
        s.refresh()
        s.turn(lambda d, legal: "bid 2")
        self.assertEqual(c.sent[-1].submit.order_text, "bid 2")


class TestExampleBot(unittest.TestCase):
    def test_both_flows_play_to_the_end(self):
        import random
        for flow, new in (("next", True), ("old", True), ("next", False)):
            game = Duel(new=new)
            c = ScriptedClient(game)
            d = example_bot.play(c, "g", 0, random.Random(1), join=True, poll=0, max_seconds=10, flow=flow)
            self.assertTrue(d.result.ended, flow)
            self.assertEqual(len(game.played), 3, flow)
            kinds = [r.WhichOneof("body") for r in c.sent]
            if flow == "next" and new:
                self.assertEqual(kinds, ["join", "submit", "submit", "submit"])
            if flow == "old":
                self.assertNotIn("want", str(c.sent), "the old flow sends no Want")
                self.assertIn("legal", kinds)
        with self.assertRaises(ValueError):
            example_bot.play(ScriptedClient(Duel()), "g", 0, flow="fast")


if __name__ == "__main__":
    unittest.main()
