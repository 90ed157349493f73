"""The independent log verifier (berthier.verify) on hand-built logs."""
import os
import struct
import subprocess
import sys
import unittest

from berthier import logfile as lf, seatsig, verify, wire
from tests import logbuild

PYTHON = sys.executable


class TestChain(unittest.TestCase):
    def test_chain_by_hand(self):
        # chain = BLAKE2b-256(prev || kind || u32 le N || payload), prev of record 0 = 32 zeros
        import hashlib
        img = lf.build([(1, b"abc"), (16, b"")])
        c0 = hashlib.blake2b(bytes(32) + b"\x01" + b"\x03\x00\x00\x00" + b"abc", digest_size=32).digest()
        c1 = hashlib.blake2b(c0 + b"\x10" + b"\x00\x00\x00\x00", digest_size=32).digest()
        self.assertEqual(img[:16], b"BRTHRLOG" + struct.pack("<II", 1, 0))
        self.assertEqual(img[16:16 + 5 + 3 + 32], b"\x03\x00\x00\x00\x01abc" + c0)
        self.assertEqual(img[56:], b"\x00\x00\x00\x00\x10" + c1)
        recs = list(lf.read_records(img))
        self.assertEqual([(r.kind, r.payload, r.chain) for r in recs], [(1, b"abc", c0), (16, b"", c1)])


class TestSeatSignatures(unittest.TestCase):
    """Seat-signed inputs (docs/protocol.md P3.1): an operator holding the server key
    re-signs every checkpoint, yet cannot forge a seat's signature. Before seat
    signatures the verifier had nothing to check these rewrites against: a log
    re-signed with the server key verified whatever its inputs and header said."""

    def test_known_answers(self):
        # the same values as tests/unit/test_replay_seatsig.c: every client derives the
        # same key from a CURVE secret key and signs the same bytes
        k = seatsig.signing_key(bytes(range(32)))
        self.assertEqual(bytes(k.verify_key).hex(),
                         "a2346bd69b5b9ab9357477ecbbfb0fca4d1501000f4c1bbeafebfa2cf7fc3b0d")
        m = seatsig.message("0011223344556677", bytes(range(32)), 5, 77, seatsig.BODY_SUBMIT, b"\x0a\x02hi")
        self.assertEqual(m.hex(), "62657274686965722d696e7075742d76311030303131323233333434353536363737"
                                  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                                  "05000000000000004d000000000000000c040000000a026869")
        sig = k.sign(m).signature
        self.assertEqual(sig.hex(), "77bbcf1538197653704076c4241d7394a1ff98cc9d7007f50d5d4425d1004acf"
                                    "9d3ecfe7794ca65ea1149792c72c3a1eeb5e02c64bd72913e7b43f29d4636107")
        self.assertTrue(seatsig.verify(bytes(k.verify_key), "0011223344556677", bytes(range(32)), 5, 77, 12,
                                       b"\x0a\x02hi", sig))
        self.assertFalse(seatsig.verify(bytes(k.verify_key), "0011223344556677", bytes(range(32)), 6, 77, 12,
                                        b"\x0a\x02hi", sig))

    def test_signed_game_verifies(self):
        r = verify.verify_bytes(logbuild.standard_game(signed=True).build())
        self.assertEqual(r.status, verify.OK, r.message)
        self.assertTrue(r.seat_signed)
        self.assertEqual(r.signatures, 3)          # two joins and an order
        self.assertIn("seat signatures verified", r.message)
        r = verify.verify_bytes(logbuild.standard_game().build())
        self.assertEqual(r.status, verify.OK, r.message)
        self.assertIn("inputs not seat-signed", r.message)

    def _order_index(self, b):
        return next(i for i, (k, _) in enumerate(b.records) if k == lf.ORDER)

    def test_forged_order(self):
        for how in ("stripped", "operator", "moved"):
            b = logbuild.standard_game(signed=True)
            i = self._order_index(b)
            o = wire.decode(b.records[i][1], wire.LOG_ORDER)
            req = wire.decode(o["request"], logbuild.REQUEST_SUBMIT)
            if how == "stripped":
                req["signature"] = b""
            elif how == "operator":
                import nacl.signing
                body = wire.encode(req["submit"], wire.SUBMIT)
                req["signature"] = nacl.signing.SigningKey(bytes(32)).sign(
                    seatsig.message(logbuild.GAME_ID, b.header_hash(), 1, req["request_id"], 12, body)).signature
            else:
                req["request_id"] += 1     # the seat's signature, on other bytes
            b.records[i][1] = wire.encode({"seat": o["seat"], "request": wire.encode(req, logbuild.REQUEST_SUBMIT)},
                                          wire.LOG_ORDER)
            b.resign_all()
            r = verify.verify_bytes(b.build())
            self.assertEqual(r.status, verify.BAD, how)
            self.assertEqual(r.bad_record, i, r.message)
            self.assertIn("carries no seat signature" if how == "stripped" else "does not verify", r.message)

    def test_rekeyed_or_reseeded_header(self):
        from berthier import dice
        for field in ("seats", "dice_commit", "server_sign_pk"):
            b = logbuild.standard_game(signed=True)
            h = wire.decode(b.records[0][1], wire.LOG_HEADER)
            if field == "seats":
                h["seats"][1]["key"] = b"\xee" * 32
            elif field == "dice_commit":
                h["dice_commit"] = dice.commit(b"\x42" * 32)
            else:
                h["server_sign_pk"] = bytes(b.sk.verify_key)[::-1]
            b.records[0][1] = wire.encode(h, wire.LOG_HEADER)
            b.resign_all()
            r = verify.verify_bytes(b.build())
            self.assertEqual(r.status, verify.BAD, field)
            first_join = next(i for i, (k, _) in enumerate(b.records) if k == lf.JOIN)
            if field != "server_sign_pk":   # that one fails at the first checkpoint's key
                self.assertEqual(r.bad_record, first_join, r.message)
                self.assertIn("seat 0's signed join is for header hash", r.message)

    def test_seat_key_pin(self):
        b = logbuild.standard_game(signed=True)
        img = b.build()
        mine = {1: (bytes(b.seat_keys[1].verify_key), b.header_hash())}
        self.assertEqual(verify.verify_bytes(img, seat_keys=mine).status, verify.OK)
        r = verify.verify_bytes(img, seat_keys={1: (bytes(32), None)})
        self.assertEqual(r.status, verify.BAD)
        self.assertIn("this join is not the seat's", r.message)
        r = verify.verify_bytes(img, seat_keys={1: (mine[1][0], bytes(32))})
        self.assertEqual(r.status, verify.BAD)
        self.assertEqual(r.bad_record, 0)


class TestVerify(unittest.TestCase):
    def test_standard_good(self):
        r = verify.verify_bytes(logbuild.standard_game().build())
        self.assertEqual(r.status, verify.OK, r.message)
        self.assertEqual(r.rolls_checked, 13)
        self.assertEqual(r.checkpoints, 2)

    def test_contributory_good(self):
        r = verify.verify_bytes(logbuild.contributory_game().build())
        self.assertEqual(r.status, verify.OK, r.message)
        self.assertEqual(r.batches, 4)
        self.assertEqual(r.rolls_checked, 7)

    def test_fixed_dice(self):
        # dice-seed (docs/dice.md "Fixed dice"): the key is the seed's alone. Two games
        # with the same seed and different seat entropy roll the same values, and the
        # verifier says that the operator fixed the dice. (The old verifier refused
        # the dice mode "fixed".)
        a = logbuild.standard_game(mode="fixed")
        b = logbuild.LogBuilder(mode="fixed")
        b.entropy = list(reversed(b.entropy))   # the seats swapped
        b.join_all()
        vb = [b.roll(6 if i % 3 else 20) for i in range(12)]
        b.state(1)
        b.sync()
        b.end()
        ra, rb = verify.verify_bytes(a.build()), verify.verify_bytes(b.build())
        for r in (ra, rb):
            self.assertEqual(r.status, verify.OK, r.message)
            self.assertTrue(r.dice_fixed)
            self.assertIn("dice fixed by the operator", r.message)
        self.assertEqual(ra.rolls_checked, 13)
        va = [wire.decode(p, wire.LOG_DICE)["value"] for k, p in a.records if k == lf.DICE]
        self.assertEqual(va[:12], vb)
        # a standard game is not reported so
        self.assertFalse(verify.verify_bytes(logbuild.standard_game().build()).dice_fixed)

    def test_fixed_dice_marked_wrongly(self):
        # dice_mode "fixed" without the option, or the option in a standard game: refused
        r = verify.verify_bytes(logbuild.standard_game(mode="fixed", header_extra={"options": []}).build())
        self.assertEqual(r.status, verify.BAD)
        self.assertIn("disagrees", r.message)
        r = verify.verify_bytes(logbuild.standard_game(header_extra={"options": ["dice-seed=fixed"]}).build())
        self.assertEqual(r.status, verify.BAD)
        # rolls made with the standard key in a game that says fixed do not recompute
        g = logbuild.LogBuilder(mode="fixed")
        g.join_all()
        g.cur = logbuild.dice.key_derive(g.seed, logbuild.GAME_ID, g.entropy)
        g.roll(6)
        g.state(1)
        g.sync()
        g.end()
        r = verify.verify_bytes(g.build())
        self.assertEqual(r.status, verify.BAD)
        self.assertIn("from the revealed seed", r.message)

    def test_dice_visibility(self):
        # LogDice.visible (field 5): absent = public (older logs); bit 31 with a seat mask
        # (bit 31 alone = seen by nobody before the end) is accepted, other values are not
        b = logbuild.LogBuilder()
        b.join_all()
        b.roll(6, visible=0x80000000)
        b.roll(6, visible=0x80000002)
        b.roll(6)
        b.state(1)
        b.sync()
        b.end()
        r = verify.verify_bytes(b.build())
        self.assertEqual(r.status, verify.OK, r.message)
        self.assertEqual(r.rolls_checked, 3)
        for bad in (0x2, 0x80000003, 0x80000004):
            b = logbuild.LogBuilder()
            b.join_all()
            b.roll(6, visible=bad)
            b.state(1)
            b.sync()
            b.end()
            r = verify.verify_bytes(b.build())
            self.assertEqual(r.status, verify.BAD, "visible %#x" % bad)
            self.assertIn("visibility", r.message)

    def test_pinned_key(self):
        b = logbuild.standard_game()
        img = b.build()
        self.assertEqual(verify.verify_bytes(img, bytes(b.sk.verify_key)).status, verify.OK)
        r = verify.verify_bytes(img, bytes(32))
        self.assertEqual(r.status, verify.BAD)
        self.assertEqual(r.bad_record, 0)

    def test_every_byte_flip_is_caught(self):
        # A flip is never accepted: in a record followed by complete batches it is
        # damage (BAD); in the last batch it is a torn tail that was never
        # acknowledged, so the log is at best incomplete.
        img = logbuild.standard_game(rolls=2).build()
        recs = list(lf.read_records(img))
        syncs = [r.offset for r in recs if r.kind == lf.SYNC]
        durable_end = syncs[-2]          # bytes before the second-to-last SYNC: two SYNCs follow
        for pos in range(len(img)):
            bad = bytearray(img)
            bad[pos] ^= 0x01
            r = verify.verify_bytes(bytes(bad))
            self.assertNotEqual(r.status, verify.OK, "flip at %d accepted" % pos)
            if pos < durable_end:
                self.assertEqual(r.status, verify.BAD, "flip at %d: %s" % (pos, r.message))

    def test_flip_names_the_record(self):
        b = logbuild.standard_game()
        img = b.build()
        recs = list(lf.read_records(img))
        target = recs[5]
        bad = bytearray(img)
        bad[target.offset + 5] ^= 0x40
        r = verify.verify_bytes(bytes(bad))
        self.assertEqual(r.status, verify.BAD)
        self.assertEqual(r.bad_record, 5)
        self.assertIn("record 5", r.message)

    def test_torn_tail(self):
        img = logbuild.standard_game().build()
        recs = list(lf.read_records(img))
        # a flip in the last batch: torn tail, the rest verifies, the game is incomplete
        bad = bytearray(img)
        bad[recs[-2].offset + 7] ^= 0x01
        r = verify.verify_bytes(bytes(bad))
        self.assertEqual(r.status, verify.INCOMPLETE, r.message)
        self.assertIn("torn tail", r.message)
        # bytes appended after the last SYNC: ignored, the finished game verifies
        r = verify.verify_bytes(img + b"\x05\x00\x00")
        self.assertEqual(r.status, verify.OK, r.message)
        self.assertIn("torn tail", r.message)

    def test_forged_roll_with_valid_chain_and_signatures(self):
        # Someone holding the signing key rewrites a roll and re-signs: the dice check catches it.
        b = logbuild.standard_game()
        idx = [i for i, (k, _) in enumerate(b.records) if k == lf.DICE][4]
        d = wire.decode(b.records[idx][1], wire.LOG_DICE)
        d["value"] = d["value"] % d["sides"] + 1
        b.records[idx][1] = wire.encode(d, wire.LOG_DICE)
        b.resign_all()
        r = verify.verify_bytes(b.build())
        self.assertEqual(r.status, verify.BAD, r.message)
        self.assertEqual(r.bad_record, idx)
        self.assertIn("revealed seed", r.message)

    def test_forged_contributory_nonce(self):
        b = logbuild.contributory_game()
        idx = [i for i, (k, _) in enumerate(b.records) if k == lf.NONCE][5]
        n = wire.decode(b.records[idx][1], wire.LOG_NONCE)
        n["nonce"] = bytes(32)
        b.records[idx][1] = wire.encode(n, wire.LOG_NONCE)
        b.resign_all()
        r = verify.verify_bytes(b.build())
        self.assertEqual(r.status, verify.BAD)
        self.assertEqual(r.bad_record, idx)
        self.assertIn("committed chain", r.message)

    def test_wrong_seed(self):
        b = logbuild.standard_game()
        idx = [i for i, (k, _) in enumerate(b.records) if k == lf.REVEAL][0]
        b.records[idx][1] = wire.encode({"seed": bytes(32)}, wire.LOG_REVEAL)
        b.resign_all()
        r = verify.verify_bytes(b.build())
        self.assertEqual(r.status, verify.BAD)
        self.assertEqual(r.bad_record, idx)

    def test_bad_signature(self):
        b = logbuild.standard_game()
        idx = [i for i, (k, _) in enumerate(b.records) if k == lf.CHECKPOINT][0]
        c = wire.decode(b.records[idx][1], wire.LOG_CHECKPOINT)
        c["signature"] = bytes(64)
        b.records[idx][1] = wire.encode(c, wire.LOG_CHECKPOINT)
        r = verify.verify_bytes(b.build())
        self.assertEqual(r.status, verify.BAD)
        self.assertEqual(r.bad_record, idx)
        self.assertIn("signature", r.message)

    def test_abort(self):
        # an admin's ABORT (kind 7, docs/log-format.md) is an input: the log verifies and
        # says so; a reason out of bounds or a seat the game lacks is refused at the record.
        # The verifier before kind 7 refused it as an unknown record kind.
        def aborted(payload, joined=True):
            b = logbuild.LogBuilder()
            if joined:
                b.join_all()
            b.add(lf.ABORT, wire.encode(payload, wire.LOG_ABORT))
            b.end()
            return b.build()
        for joined in (True, False):
            for p in ({"reason": "the round was cancelled"},
                      {"reason": "seat 1 stalled", "forfeit_seat": 1, "has_forfeit": True}):
                r = verify.verify_bytes(aborted(p, joined))
                self.assertEqual(r.status, verify.OK, r.message)
                self.assertTrue(r.aborted)
                self.assertIn("aborted by an admin", r.message)
        for bad in ({"reason": ""}, {"reason": "x" * 121}, {"reason": "tab\there"},
                    {"reason": "no seat 2", "forfeit_seat": 2, "has_forfeit": True},
                    {"reason": "seat without forfeit", "forfeit_seat": 1}):
            img = aborted(bad)
            r = verify.verify_bytes(img)
            self.assertEqual(r.status, verify.BAD, bad)
            recs = list(lf.read_records(img))
            self.assertEqual(recs[r.bad_record].kind, lf.ABORT, r.message)

    def test_incomplete(self):
        b = logbuild.standard_game()
        img = b.build()
        recs = list(lf.read_records(img))
        # cut at a record boundary before the end: consistent but incomplete
        for cut in (3, 8, len(recs) - 1):
            r = verify.verify_bytes(img[:recs[cut].offset])
            self.assertEqual(r.status, verify.INCOMPLETE, (cut, r.message))
        # cut inside a record: a torn write of the last batch, also incomplete
        r = verify.verify_bytes(img[:recs[4].offset + 7])
        self.assertEqual(r.status, verify.INCOMPLETE, r.message)
        # nothing but the file header: the log was never created
        self.assertEqual(verify.verify_bytes(img[:16]).status, verify.BAD)

    def test_header_with_create_request(self):
        # LogHeader fields 14-16 (docs/log-format.md): the create request behind the game
        good = {"create_key": bytes(range(32)), "create_request_id": 77, "create_digest": bytes(16)}
        r = verify.verify_bytes(logbuild.standard_game(header_extra=good).build())
        self.assertEqual(r.status, verify.OK, r.message)
        for bad in ({"create_request_id": 77}, {"create_key": bytes(32), "create_digest": bytes(16)},
                    dict(good, create_digest=bytes(32)), dict(good, create_key=bytes(31))):
            r = verify.verify_bytes(logbuild.standard_game(header_extra=bad).build())
            self.assertEqual(r.status, verify.BAD, bad)
            self.assertEqual(r.bad_record, 0)
            self.assertIn("create request", r.message)

    def test_header_limits_and_spectator_keys(self):
        # LogHeader field 17 and the limits of docs/protocol.md P4.1, as the core refuses them
        good = {"spectator_keys": [bytes([0xa0]) * 32, bytes([0xa1]) * 32], "options": ["spectators=live"]}
        r = verify.verify_bytes(logbuild.standard_game(header_extra=good).build())
        self.assertEqual(r.status, verify.OK, r.message)
        seat1 = bytes([2]) * 32   # logbuild's key of seat 1
        for bad in ({"options": ["spectators=live"] * 2}, {"options": ["x%d" % i for i in range(33)]},
                    {"options": ["o" * 65]}, {"spectator_keys": [bytes(31)]},
                    {"spectator_keys": [seat1]}, {"spectator_keys": [bytes(32), bytes(32)]}):
            r = verify.verify_bytes(logbuild.standard_game(header_extra=bad).build())
            self.assertEqual(r.status, verify.BAD, bad)
            self.assertEqual(r.bad_record, 0)

    def test_not_a_log(self):
        self.assertEqual(verify.verify_bytes(b"").status, verify.BAD)
        self.assertEqual(verify.verify_bytes(b"BRTHRLOG" + bytes(8)).status, verify.BAD)
        self.assertEqual(verify.verify_bytes(b"NOTALOG!" + struct.pack("<II", 1, 0)).status, verify.BAD)

    def test_cli_exit_codes(self):
        img = logbuild.standard_game().build()
        env = dict(os.environ)
        good = logbuild.write_temp(img)
        bad = bytearray(img)
        bad[len(bad) // 2] ^= 0xff
        badp = logbuild.write_temp(bytes(bad))
        inc = logbuild.write_temp(img[:list(lf.read_records(img))[-1].offset])
        try:
            def run(p):
                return subprocess.run([PYTHON, "-m", "berthier.verify", p], env=env,
                                      capture_output=True, text=True)
            r = run(good)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("verified", r.stdout)
            r = run(badp)
            self.assertEqual(r.returncode, 1)
            self.assertIn("record", r.stderr)
            self.assertEqual(run(inc).returncode, 2)
            self.assertEqual(run("/nonexistent/x.log").returncode, 1)
        finally:
            for p in (good, badp, inc):
                os.unlink(p)


if __name__ == "__main__":
    unittest.main()
