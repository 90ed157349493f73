"""berthier.receipts: the signed message byte for byte (docs/protocol.md P9), the
files, and a log checked against receipts and heads signed by its key."""
import os
import struct
import tempfile
import unittest

import nacl.signing

from berthier import logfile as lf, receipts as rc, wire
from tests.logbuild import GAME_ID, standard_game


def _receipt(sk, record, head_record, head, kind, seat, request, seq=1, game_id=GAME_ID):
    f = {"game_id": game_id, "seat": seat, "kind": kind, "record": record, "head_record": head_record,
         "head": head, "input_hash": rc.input_hash(request), "seq": seq, "signature": b""}
    f["signature"] = sk.sign(rc.receipt_message(f)).signature
    return f


class TestReceipts(unittest.TestCase):
    def test_message_bytes(self):
        f = {"game_id": "0a1b2c3d4e5f6071", "seat": 1, "kind": 3, "record": 0x102, "head_record": 0x105,
             "head": bytes(range(0xa0, 0xc0)), "input_hash": bytes(range(0x10, 0x30)), "seq": 7}
        want = (b"berthier-rcpt-v1" + b"\x10\x00\x00\x00" + b"0a1b2c3d4e5f6071" + b"\x01\x00\x00\x00" + b"\x03"
                + struct.pack("<QQ", 0x102, 0x105) + f["head"] + f["input_hash"] + struct.pack("<Q", 7))
        self.assertEqual(rc.receipt_message(f), want)
        f["head"] = b"\x00" * 31
        with self.assertRaises(rc.ReceiptError):
            rc.receipt_message(f)

    def test_check_receipt(self):
        sk = nacl.signing.SigningKey(bytes(range(32)))
        req = b"\x08\x05\x62\x04\x0a\x02ab"
        f = _receipt(sk, 4, 6, b"\x11" * 32, lf.ORDER, 0, req)
        rc.check_receipt(f, bytes(sk.verify_key), req)
        with self.assertRaises(rc.ReceiptError):
            rc.check_receipt(f, bytes(sk.verify_key), req + b"\x00")       # another request
        with self.assertRaises(rc.ReceiptError):
            rc.check_receipt(f, bytes(nacl.signing.SigningKey.generate().verify_key), req)
        g = dict(f, seq=2)
        with self.assertRaises(rc.ReceiptError):
            rc.check_receipt(g, bytes(sk.verify_key), req)                  # a field changed after signing

    def test_log_against_receipts_and_heads(self):
        b = standard_game()
        data = b.build()
        recs = lf.analyse(data).records
        pk = bytes(b.sk.verify_key)
        order = next(r for r in recs if r.kind == lf.ORDER)
        head = next(r for r in recs if r.index > order.index and r.kind == lf.STATE)
        req = wire.decode(order.payload, wire.LOG_ORDER)["request"]
        seat = wire.decode(order.payload, wire.LOG_ORDER)["seat"]
        f = _receipt(b.sk, order.index, head.index, head.chain, lf.ORDER, seat, req)
        ck = next(r for r in recs if r.kind == lf.CHECKPOINT)
        c = wire.decode(ck.payload, wire.LOG_CHECKPOINT)
        with tempfile.TemporaryDirectory() as d:
            rp, hp, tp = os.path.join(d, "r"), os.path.join(d, "h"), os.path.join(d, "t")
            rc.append_receipt(rp, wire.encode(f, rc.RECEIPT))
            rc.append_head(hp, GAME_ID, c["record"], c["head"], c["signature"])
            with open(tp, "w") as t:
                t.write("# trust\n%s the daemon\n" % pk.hex())
            self.assertEqual(rc.load_trust(tp), [pk])
            kr, kh = rc.load_receipts(rp), rc.load_heads(hp)
            problems, nr, nh, where = rc.check_log(recs, GAME_ID, pk, kr, kh)
            self.assertEqual((problems, nr, nh), ([], 1, 1))
            # truncated before the order: both are contradicted, the receipt named
            cut = [r for r in recs if r.index < order.index]
            problems, _, _, where = rc.check_log(cut, GAME_ID, pk, rc.load_receipts(rp), rc.load_heads(hp))
            self.assertTrue(any(p.startswith("receipt 1 (game %s, record %d, seat %d's ORDER;" % (
                GAME_ID, order.index, seat)) and "truncated" in p for p in problems), problems)
            self.assertIn("departs", where)
            # a log signed by another key: the receipt does not verify under it
            other = bytes(nacl.signing.SigningKey.generate().verify_key)
            problems, _, _, _ = rc.check_log(recs, GAME_ID, other, rc.load_receipts(rp), ())
            self.assertTrue(problems and "signature does not verify" in problems[0])
            with open(rp, "a") as x:
                x.write("zz\n")
            with self.assertRaises(ValueError):
                rc.load_receipts(rp)


if __name__ == "__main__":
    unittest.main()
