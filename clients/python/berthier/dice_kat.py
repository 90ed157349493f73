"""Known-answer values for the dice scheme, computed with the plain-Python
implementation (berthier.dice: hashlib.blake2b and berthier.chacha20).

    /usr/bin/python3 -m berthier.dice_kat

prints the values pasted into tests/unit/test_dice.c, so that the C code
(libsodium) is checked against an implementation that shares nothing with it.
The inputs are simple byte patterns that the C test rebuilds in loops.
"""

from . import dice

GAME_ID = "0123456789abcdef"
N_SEATS = 3
HEAVY = 0x80000001  # 2^32 mod HEAVY = 2^31 - 1: about half the words are rejected
STREAM_CASES = [(i, s) for i, s in enumerate([6, 6, 6, 6, 6, 6, 2, 3, 10, 20, 100, 1000, 7,
                                              HEAVY, 0xFFFFFFFF, 1])]
# Large indices: every byte of the u64 le nonce matters.
BIG_CASES = [(0x0123456789ABCDEF, 6), (0xFFFFFFFFFFFFFFFF, 20), (1 << 32, 100), (0x8000000000000000, 0x80000001)]
SHUFFLE_N = 20


def seed():
    return bytes(range(32))                                  # seed[i] = i


def entropies():
    return [bytes((0x40 + 16 * s + i) & 0xFF for i in range(32)) for s in range(N_SEATS)]


def head():
    return bytes([0x77] * 32)


def nonces():
    return [bytes((0xA0 + s * 7 + i) & 0xFF for i in range(32)) for s in range(N_SEATS)]


def chain_secret():
    return bytes((0xC0 ^ i) & 0xFF for i in range(32))       # secret[i] = 0xC0 ^ i


def first_word_rejected(key, sides, start=0):
    """The first index >= start whose first word is rejected for `sides`."""
    limit = (1 << 32) - ((1 << 32) % sides)
    i = start
    while True:
        w = next(dice.stream_words(key, i))
        if w >= limit:
            return i
        i += 1


def first_block_rejected(key, sides):
    """The first index whose whole first block (16 words) is rejected."""
    limit = (1 << 32) - ((1 << 32) % sides)
    i = 0
    while True:
        words = dice.stream_words(key, i)
        if all(next(words) >= limit for _ in range(16)):
            return i
        i += 1


def compute():
    key = dice.key_derive(seed(), GAME_ID, entropies())
    out = {
        "commit": dice.commit(seed()),
        "key": key,
        "batch_key": dice.batch_key(key, 5, head(), nonces()),
        "stream": [(i, s, dice.stream_value(key, i, s)) for i, s in STREAM_CASES + BIG_CASES],
    }
    idx = 0

    def roll(sides):
        nonlocal idx
        v = dice.stream_value(key, idx, sides)
        idx += 1
        return v

    out["shuffle"] = dice.shuffle(range(SHUFFLE_N), roll)
    out["shuffle_rolls"] = idx
    r = first_word_rejected(key, HEAVY)
    stream = dice.stream_words(key, r)
    words = [next(stream) for _ in range(2)]
    out["reject_index"] = r
    out["reject_words"] = words
    out["reject_value"] = dice.stream_value(key, r, HEAVY)
    b = first_block_rejected(key, HEAVY)
    out["block_index"] = b
    out["block_value"] = dice.stream_value(key, b, HEAVY)
    out["chain"] = dice.chain_make(chain_secret(), 3)
    return out


def _c_bytes(b):
    return ", ".join("0x%02x" % x for x in b)


def main():
    k = compute()
    print("/* commit */ {%s}" % _c_bytes(k["commit"]))
    print("/* key */ {%s}" % _c_bytes(k["key"]))
    print("/* batch_key */ {%s}" % _c_bytes(k["batch_key"]))
    fixed = dice.key_fixed(seed())
    print("/* fixed key (dice-seed) */ {%s}" % _c_bytes(fixed))
    print("/* fixed rolls 0..7, d6 */ {%s}" % ", ".join(str(dice.stream_value(fixed, i, 6)) for i in range(8)))
    print("/* stream (index, sides, value) */")
    for i, s, v in k["stream"]:
        print("    {0x%xull, 0x%08xu, %d}," % (i, s, v))
    print("/* shuffle of 0..%d (%d rolls) */ {%s}" % (SHUFFLE_N - 1, k["shuffle_rolls"],
                                                   ", ".join(map(str, k["shuffle"]))))
    print("/* first index whose first word is rejected for 0x%08x: %d, words 0x%08x 0x%08x, value %d */"
          % (HEAVY, k["reject_index"], k["reject_words"][0], k["reject_words"][1], k["reject_value"]))
    print("/* first index whose first block is all rejected: %d, value %d */"
          % (k["block_index"], k["block_value"]))
    for n, link in enumerate(k["chain"]):
        print("/* chain link %d */ {%s}" % (n, _c_bytes(link)))


if __name__ == "__main__":
    main()
