"""The independent log verifier (berthier.verify) on hand-built logs."""
import os
import struct
import subprocess
import sys
import unittest

from berthier import logfile as lf, verify, wire
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
