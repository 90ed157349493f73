"""The dice scheme of docs/dice.md, in plain Python (hashlib.blake2b and the
ChaCha20 of berthier.chacha20). Used by the log verifier and by tests; it
shares no code with core/dice.c, so each checks the other.
"""

import hashlib
import struct

from . import chacha20

DICE_TAG = b"berthier-dice-v1"
BATCH_TAG = b"berthier-batch-v1"
CHAIN_TAG = b"berthier-chain-v1"


def commit(seed):
    """commitment = BLAKE2b-256(seed)."""
    return hashlib.blake2b(bytes(seed), digest_size=32).digest()


def key_derive(seed, game_id, entropies):
    """dice key = BLAKE2b-256(key=seed, "berthier-dice-v1" || game id || entropy[0..n))."""
    if len(seed) != 32:
        raise ValueError("seed must be 32 bytes")
    h = hashlib.blake2b(digest_size=32, key=bytes(seed))
    h.update(DICE_TAG)
    h.update(game_id.encode("utf-8") if isinstance(game_id, str) else bytes(game_id))
    for e in entropies:
        if len(e) != 32:
            raise ValueError("entropy must be 32 bytes")
        h.update(bytes(e))
    return h.digest()


def key_fixed(seed):
    """fixed dice key (option dice-seed=HEX) = BLAKE2b-256(key=seed, "berthier-dice-fixed-v1")."""
    if len(seed) != 32:
        raise ValueError("seed must be 32 bytes")
    h = hashlib.blake2b(digest_size=32, key=bytes(seed))
    h.update(b"berthier-dice-fixed-v1")
    return h.digest()


def batch_key(key, batch, head, nonces):
    """batch key = BLAKE2b-256(key=dice key, "berthier-batch-v1" || batch u64 le || head || nonces)."""
    h = hashlib.blake2b(digest_size=32, key=bytes(key))
    h.update(BATCH_TAG)
    h.update(struct.pack("<Q", batch))
    h.update(bytes(head))
    for n in nonces:
        if len(n) != 32:
            raise ValueError("nonce must be 32 bytes")
        h.update(bytes(n))
    return h.digest()


def chain_step(nxt):
    """link[k] = BLAKE2b-256("berthier-chain-v1" || link[k+1])."""
    return hashlib.blake2b(CHAIN_TAG + bytes(nxt), digest_size=32).digest()


def chain_check(prev, nxt):
    return chain_step(nxt) == bytes(prev)


def chain_make(secret, length):
    """A chain of `length` links after the commitment, from a 32-byte secret:
    returns [link0 (the commitment), link1, ..., link_length]; link_length = secret."""
    links = [bytes(secret)]
    for _ in range(length):
        links.append(chain_step(links[-1]))
    links.reverse()
    return links


def stream_words(key, index):
    """The u32 le words of roll `index`'s keystream, block after block."""
    nonce = struct.pack("<Q", index) + b"\0\0\0\0"
    counter = 0
    while True:
        blk = chacha20.block(key, counter, nonce)
        for w in struct.unpack("<16I", blk):
            yield w
        counter += 1


def stream_value(key, index, sides):
    """The value 1..sides of roll `index` under `key` (rejection sampling)."""
    if sides < 1:
        raise ValueError("sides must be >= 1")
    if sides == 1:
        return 1
    limit = (1 << 32) - ((1 << 32) % sides)
    for w in stream_words(key, index):
        if w < limit:
            return 1 + w % sides
    raise AssertionError("unreachable")


def shuffle(items, roll):
    """Fisher-Yates as in core/dice.h: for i = n-1 down to 1, j = roll(i+1) - 1, swap.
    `roll(sides)` returns the next value."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = roll(i + 1) - 1
        items[i], items[j] = items[j], items[i]
    return items
