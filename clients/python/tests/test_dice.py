"""The plain-Python dice (berthier.dice) against the known answers that
tests/unit/test_dice.c checks the C code with (berthier.dice_kat)."""
import unittest

from berthier import dice, dice_kat


class TestDiceKat(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.key = dice.key_derive(dice_kat.seed(), dice_kat.GAME_ID, dice_kat.entropies())

    def test_commit_and_key(self):
        self.assertEqual(dice.commit(dice_kat.seed()).hex(),
                         "cb2f5160fc1f7e05a55ef49d340b48da2e5a78099d53393351cd579dd42503d6")
        self.assertEqual(self.key.hex(),
                         "76adb3527d98dfd34ff1b1a0b1482200a4a6ecd1f8c7c3e19bccdc7320962bb5")

    def test_fixed_key(self):
        # dice-seed: the same known answer as tests/unit/test_dice.c test_key_fixed_kat
        k = dice.key_fixed(dice_kat.seed())
        self.assertEqual(k.hex(), "3698deee47ae3103539443280649a7f038ef0bac313d2a5ceda8b7e02c020e69")
        self.assertEqual([dice.stream_value(k, i, 6) for i in range(8)], [2, 3, 5, 4, 2, 6, 5, 5])
        self.assertNotEqual(k, self.key)

    def test_batch_key(self):
        bk = dice.batch_key(self.key, 5, dice_kat.head(), dice_kat.nonces())
        self.assertEqual(bk.hex(), "deff464653baf2c8ab79f18a3aea759e5f31e4bb8992f2917780b391455a2613")
        n = dice_kat.nonces()
        for s in range(len(n)):
            m = list(n)
            m[s] = bytes([m[s][0] ^ 1]) + m[s][1:]
            self.assertNotEqual(dice.batch_key(self.key, 5, dice_kat.head(), m), bk)
        self.assertNotEqual(dice.batch_key(self.key, 4, dice_kat.head(), n), bk)

    def test_stream(self):
        want = [6, 2, 5, 4, 2, 5, 2, 1, 3, 11, 31, 12, 6, 1185816549, 1999184027, 1]
        got = [dice.stream_value(self.key, i, s) for i, s in dice_kat.STREAM_CASES]
        self.assertEqual(got, want)
        big = [dice.stream_value(self.key, i, s) for i, s in dice_kat.BIG_CASES]
        self.assertEqual(big, [4, 13, 23, 1397238614])

    def test_rejection(self):
        heavy = dice_kat.HEAVY
        limit = (1 << 32) - ((1 << 32) % heavy)
        self.assertEqual(dice_kat.first_word_rejected(self.key, heavy), 1)
        w = dice.stream_words(self.key, 1)
        w0, w1 = next(w), next(w)
        self.assertGreaterEqual(w0, limit)
        self.assertLess(w1, limit)
        self.assertEqual(dice.stream_value(self.key, 1, heavy), 1 + w1 % heavy)

    def test_shuffle(self):
        idx = [0]

        def roll(sides):
            v = dice.stream_value(self.key, idx[0], sides)
            idx[0] += 1
            return v
        got = dice.shuffle(range(20), roll)
        self.assertEqual(got, [6, 18, 12, 1, 2, 16, 9, 7, 15, 14, 19, 0, 17, 11, 13, 5, 4, 10, 8, 3])
        self.assertEqual(idx[0], 19)
        self.assertEqual(sorted(got), list(range(20)))

    def test_chain(self):
        links = dice.chain_make(dice_kat.chain_secret(), 3)
        self.assertEqual(links[0].hex(), "b57fdc667af8a760e5122beb3b9e4c2fce6aa19753a3995615f26430a38baba9")
        for k in range(3):
            self.assertTrue(dice.chain_check(links[k], links[k + 1]))
        self.assertFalse(dice.chain_check(links[0], links[2]))
        self.assertFalse(dice.chain_check(links[1], links[0]))

    def test_uniform_d6(self):
        counts = [0] * 7
        for i in range(6000):
            counts[dice.stream_value(self.key, i, 6)] += 1
        for f in range(1, 7):
            self.assertTrue(800 < counts[f] < 1200, counts)


if __name__ == "__main__":
    unittest.main()
