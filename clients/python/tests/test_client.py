"""berthier.client without a daemon: key files, nonce chains, and the retry
rule (a retry resends the very same bytes with the same request id; late
replies to other ids are dropped), against an in-process CURVE ROUTER."""
import os
import shutil
import tempfile
import threading
import unittest

import zmq

from berthier import dice
from berthier.client import BerthierError, Client, NonceChain, Timeout, keygen
from berthier.keys import load_keypair, load_public, to_raw_public
from berthier.proto import pb


class TestKeys(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_keygen_files(self):
        kp = keygen(self.dir, "alice")
        path = os.path.join(self.dir, "alice.key")
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o600)
        with open(path) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines, ["public " + kp.public.decode(), "secret " + kp.secret.decode()])
        back = load_keypair(path)
        self.assertEqual((back.public, back.secret), (kp.public, kp.secret))
        self.assertEqual(load_public(os.path.join(self.dir, "alice.pub")), kp.public)
        self.assertEqual(len(kp.public_raw), 32)
        self.assertEqual(to_raw_public(kp.public.decode()), kp.public_raw)
        self.assertEqual(to_raw_public(kp.public_raw), kp.public_raw)
        with self.assertRaises(FileExistsError):
            keygen(self.dir, "alice")

    def test_bad_key_file(self):
        p = os.path.join(self.dir, "x.key")
        with open(p, "w") as f:
            f.write("public abc\n")
        with self.assertRaises(ValueError):
            load_keypair(p)


class TestNonceChain(unittest.TestCase):
    def test_links(self):
        c = NonceChain(length=5, secret=bytes(32))
        prev = c.commit
        for _ in range(5):
            nxt = c.next()
            self.assertTrue(dice.chain_check(prev, nxt))
            prev = nxt
        self.assertEqual(prev, bytes(32))
        with self.assertRaises(IndexError):
            c.next()


class FakeDaemon(threading.Thread):
    """A CURVE ROUTER that ignores the first `drop` requests, first sends a stale
    reply (another request id), then answers with code `code`."""

    def __init__(self, ctx, endpoint, drop, code=pb.CODE_OK):
        super().__init__(daemon=True)
        self.pub, sec = zmq.curve_keypair()
        self.sock = ctx.socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.curve_server = True
        self.sock.curve_secretkey = sec
        self.sock.curve_publickey = self.pub
        self.sock.bind(endpoint)
        self.drop = drop
        self.code = code
        self.seen = []

    def run(self):
        while len(self.seen) <= self.drop:
            if not self.sock.poll(10000):
                return
            ident, data = self.sock.recv_multipart()
            self.seen.append(data)
            if len(self.seen) <= self.drop:
                continue
            req = pb.Request()
            req.ParseFromString(data)
            stale = pb.Reply(request_id=req.request_id - 1, message="stale")
            self.sock.send_multipart([ident, stale.SerializeToString()])
            rep = pb.Reply(request_id=req.request_id, code=self.code, rule="6.3", message="answered")
            self.sock.send_multipart([ident, rep.SerializeToString()])
        self.sock.close(0)


class TestRetry(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.ctx = zmq.Context()
        self.endpoint = "ipc://%s/r.sock" % self.dir

    def tearDown(self):
        self.ctx.term()
        shutil.rmtree(self.dir)

    def _client(self, server, **kw):
        return Client(endpoint=self.endpoint, data_dir=self.dir, server_key=server.pub,
                      keypair=keygen(), context=self.ctx, **kw)

    def test_retry_resends_same_bytes(self):
        srv = FakeDaemon(self.ctx, self.endpoint, drop=2)
        srv.start()
        c = self._client(srv, timeout=0.3, retries=20)
        rep = c.pending("0123456789abcdef", 1)
        srv.join()
        c.close()
        self.assertEqual(len(srv.seen), 3)
        self.assertTrue(srv.seen[0] == srv.seen[1] == srv.seen[2])
        req = pb.Request()
        req.ParseFromString(srv.seen[0])
        self.assertEqual(req.pending.game_id, "0123456789abcdef")
        self.assertEqual(req.pending.seat, 1)
        self.assertEqual(c.last_reply.message, "answered")
        self.assertEqual(rep, pb.Decision())

    def test_ids_increase_and_errors_raise(self):
        srv = FakeDaemon(self.ctx, self.endpoint, drop=0, code=pb.CODE_ILLEGAL)
        srv.start()
        c = self._client(srv, timeout=2, retries=1)
        a, b = c.new_request_id(), c.new_request_id()
        self.assertLess(a, b)
        with self.assertRaises(BerthierError) as cm:
            c.submit("0123456789abcdef", 0, 3, text="x")
        srv.join()
        c.close()
        self.assertEqual(cm.exception.code, pb.CODE_ILLEGAL)
        self.assertEqual(cm.exception.code_name, "CODE_ILLEGAL")
        self.assertIn("[6.3] answered", str(cm.exception))
        req = pb.Request()
        req.ParseFromString(srv.seen[0])
        self.assertGreater(req.request_id, b)

    def test_timeout(self):
        srv = FakeDaemon(self.ctx, self.endpoint, drop=100)
        c = self._client(srv, timeout=0.1, retries=2)
        with self.assertRaises(Timeout):
            c.list_games()
        c.close()
        srv.sock.close(0)


class TestDataDir(unittest.TestCase):
    """A data dir or key file that is not there: one clear error, not a raw traceback
    (the old client raised a bare FileNotFoundError from deep in keys.py)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_missing_data_dir(self):
        from berthier.client import DataDirError
        nowhere = os.path.join(self.dir, "var", "berthier")
        with self.assertRaises(DataDirError) as cm:
            Client(data_dir=nowhere)
        self.assertIn("no berthierd data dir at %s" % nowhere, str(cm.exception))

    def test_data_dir_without_server_key(self):
        from berthier.client import DataDirError
        with self.assertRaises(DataDirError) as cm:
            Client(data_dir=self.dir)
        self.assertIn("server.pub: no such file", str(cm.exception))

    def test_missing_key_file(self):
        from berthier.client import DataDirError
        with open(os.path.join(self.dir, "server.pub"), "w") as f:
            f.write(keygen().public.decode() + "\n")
        with self.assertRaises(DataDirError) as cm:
            Client(data_dir=self.dir, key_file=os.path.join(self.dir, "nope.key"))
        self.assertIn("nope.key: no such key file", str(cm.exception))

    def test_example_bot_options(self):
        """--key as in the C tools, --key-file kept as its alias; a missing data dir exits 4."""
        import contextlib
        import io
        from berthier import example_bot
        nowhere = os.path.join(self.dir, "nowhere")
        for opt in ("--key", "--key-file"):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                rc = example_bot.main(["--data-dir", nowhere, opt, "k.key", "--game", "g", "--seat", "0"])
            self.assertEqual(rc, 4)
            self.assertIn("no berthierd data dir", err.getvalue())


if __name__ == "__main__":
    unittest.main()
