"""Whole games against a real berthierd (BERTHIER_BIN, set by ctest; skipped when it is not
built): one played with replies that carry each seat's next decision and legal orders
(docs/protocol.md P4.3, Seat), one with the separate pending, legal and submit requests of
before, and a mixed one (one seat each way). Every game must end, its log must verify, and
the new flow must send no `legal` request and need no fallback request."""
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from berthier import example_bot, verify
from berthier.client import Client, keygen
from berthier.proto import pb

BIN = os.environ.get("BERTHIER_BIN") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "build", "bin")
DAEMON = os.path.join(BIN, "berthierd")


@unittest.skipUnless(os.access(DAEMON, os.X_OK), "berthierd is not built in %s" % BIN)
class TestGames(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="berthier-py-game-")
        cls.data = os.path.join(cls.tmp, "data")
        cls.err = open(os.path.join(cls.tmp, "berthierd.err"), "wb")
        cls.daemon = subprocess.Popen([DAEMON, "--data-dir", cls.data], stdout=cls.err, stderr=cls.err)
        deadline = time.monotonic() + 20
        while not all(os.path.exists(os.path.join(cls.data, f)) for f in ("server.pub", "sign.pub", "berthier.sock")):
            if cls.daemon.poll() is not None or time.monotonic() > deadline:
                cls.tearDownClass()
                raise RuntimeError("berthierd did not come up (see %s)" % cls.err.name)
            time.sleep(0.05)
        cls.admin = Client(data_dir=cls.data, timeout=5, retries=4)

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "admin", None) is not None:
            cls.admin.close()
        if cls.daemon.poll() is None:
            cls.daemon.send_signal(signal.SIGTERM)
            try:
                cls.daemon.wait(15)
            except subprocess.TimeoutExpired:
                cls.daemon.kill()
                cls.daemon.wait()
        cls.err.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _game(self, flows, seed):
        """Play one duel game, seat i with flows[i] ("next", "view": next with the seat's View
        in the replies, or "old"), in one thread: each seat in turn does what it can. Returns
        (clients, final decisions)."""
        kps = [keygen() for _ in flows]
        gid = self.admin.create_game("duel", "standard", seats=kps).game_id
        clients = [Client(data_dir=self.data, keypair=kp, timeout=5, retries=4) for kp in kps]
        self.addCleanup(lambda: [c.close() for c in clients])
        rng = random.Random(seed)
        seats = []
        views = [0] * len(flows)
        for i, flow in enumerate(flows):
            if flow in ("next", "view"):
                s = clients[i].seat(gid, i, view=flow == "view")
                step = s.join()
                self.assertEqual(step.body.seq, step.reply.joined.seq)
                self.assertIsNotNone(s.decision, "the join's reply gives the seat's decision")
                seats.append(s)
            else:
                clients[i].join(gid, i)
                seats.append(None)
        ended = [False] * len(flows)
        finals = [None] * len(flows)
        orders = 0
        for _ in range(2000):
            if all(ended):
                break
            for i, flow in enumerate(flows):
                if ended[i]:
                    continue
                c = clients[i]
                if flow in ("next", "view"):
                    s = seats[i]
                    if not s.must_act and not s.ended:
                        s.refresh()
                    if s.must_act:
                        self.assertTrue(s.orders, "a seat that must act gets its legal orders in the reply")
                        self.assertEqual(len(s.texts), 0, "no texts unless asked for")
                        if flow == "view":
                            # the View in the reply is what `state` answers the seat now
                            self.assertIsNotNone(s.view)
                            self.assertEqual(s.view.SerializeToString(), c.state(gid, i).SerializeToString())
                            views[i] += 1
                        else:
                            self.assertIsNone(s.view)
                        st = s.turn(lambda d, legal: rng.randrange(len(legal.orders)))
                        orders += st.ok
                    if s.ended:
                        ended[i], finals[i] = True, s.decision
                else:
                    d = c.pending(gid, i)
                    if d.result.ended:
                        ended[i], finals[i] = True, d
                        continue
                    if d.you_must_act:
                        lo = c.legal(gid, i)
                        rep = c.submit(gid, i, d.seq, order=lo.orders[rng.randrange(len(lo.orders))], check=False)
                        self.assertIn(rep.code, (pb.CODE_OK, pb.CODE_STALE, pb.CODE_NOT_YOUR_DECISION))
                        orders += rep.code == pb.CODE_OK
        self.assertTrue(all(ended), "the game ended for every seat")
        self.assertGreater(orders, 0)
        for i, flow in enumerate(flows):
            kinds = clients[i].request_kinds
            if flow in ("next", "view"):
                self.assertEqual(kinds["legal"], 0, "the new flow sends no legal request: %s" % dict(kinds))
                self.assertEqual(kinds["state"], views[i], "the View came in the replies: %s" % dict(kinds))
                self.assertEqual(clients[i].fallbacks, 0, "every reply carried what was wanted: %s" % dict(kinds))
            else:
                self.assertGreater(kinds["legal"], 0)
        log = self.admin.fetch_log(gid)
        r = verify.verify_bytes(log)
        self.assertEqual(r.status, verify.OK, r.message)
        self.assertEqual(finals[0].result, finals[-1].result)
        return clients, finals

    def test_new_flow(self):
        clients, finals = self._game(["next", "next"], 1)
        self.assertTrue(finals[0].result.ended)

    def test_old_flow(self):
        clients, finals = self._game(["old", "old"], 2)
        self.assertTrue(finals[0].result.ended)
        for c in clients:
            self.assertEqual(c.fallbacks, 0)

    def test_mixed_flows(self):
        self._game(["next", "old"], 3)

    def test_view_flow(self):
        """Seats that want their View (Want.view) get it in every reply that gives them a
        decision to act on, equal to `state`, with no request of its own."""
        self._game(["view", "old"], 4)
        self._game(["view", "next"], 5)

    def test_example_bot_new_flow(self):
        """The example bot, both seats in threads, one request per input."""
        self._bots(notices=False)

    def test_example_bot_notices(self):
        """The example bot waiting on its sealed notices: a pending request only when the turn
        comes back (a notice says the seat must act), never one per poll."""
        clients = self._bots(notices=True)
        for c in clients:
            k = c.request_kinds
            self.assertLessEqual(k["pending"], k["submit"] + 3, "pending only when the turn comes back: %s" % dict(k))

    def _bots(self, notices):
        import threading
        kps = [keygen(), keygen()]
        gid = self.admin.create_game("duel", "standard", seats=kps).game_id
        clients = [Client(data_dir=self.data, keypair=kp, timeout=5, retries=4) for kp in kps]
        self.addCleanup(lambda: [c.close() for c in clients])
        out, errors = {}, []

        def run(i):
            try:
                out[i] = example_bot.play(clients[i], gid, i, random.Random(i), max_seconds=120, notices=notices)
            except Exception as e:  # reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertTrue(out[0].result.ended and out[1].result.ended)
        for c in clients:
            self.assertEqual(c.request_kinds["legal"], 0)
            self.assertEqual(c.fallbacks, 0)
        return clients


if __name__ == "__main__":
    unittest.main()
