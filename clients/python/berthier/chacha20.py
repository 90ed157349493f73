"""ChaCha20 with a 96-bit nonce and a 32-bit block counter (RFC 8439, section 2.3-2.4).

A plain-Python implementation, written for the log verifier so that it shares
nothing with the C code (which uses libsodium).
"""

import struct

_MASK = 0xFFFFFFFF
_SIGMA = struct.unpack("<4I", b"expand 32-byte k")


def _rotl(v, n):
    return ((v << n) & _MASK) | (v >> (32 - n))


def _quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & _MASK
    x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & _MASK
    x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & _MASK
    x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & _MASK
    x[b] = _rotl(x[b] ^ x[c], 7)


def block(key, counter, nonce):
    """One 64-byte keystream block for (key, counter, nonce)."""
    if len(key) != 32 or len(nonce) != 12:
        raise ValueError("ChaCha20: key must be 32 bytes and nonce 12 bytes")
    if not 0 <= counter <= _MASK:
        raise ValueError("ChaCha20: block counter out of range")
    state = list(_SIGMA) + list(struct.unpack("<8I", key)) + [counter] + \
        list(struct.unpack("<3I", nonce))
    x = list(state)
    for _ in range(10):
        _quarter(x, 0, 4, 8, 12)
        _quarter(x, 1, 5, 9, 13)
        _quarter(x, 2, 6, 10, 14)
        _quarter(x, 3, 7, 11, 15)
        _quarter(x, 0, 5, 10, 15)
        _quarter(x, 1, 6, 11, 12)
        _quarter(x, 2, 7, 8, 13)
        _quarter(x, 3, 4, 9, 14)
    return struct.pack("<16I", *[(x[i] + state[i]) & _MASK for i in range(16)])


def keystream(key, nonce, length, counter=0):
    out = bytearray()
    while len(out) < length:
        out += block(key, counter, nonce)
        counter += 1
    return bytes(out[:length])


def xor(key, nonce, data, counter=0):
    """Encrypt or decrypt data (RFC 8439 2.4)."""
    ks = keystream(key, nonce, len(data), counter)
    return bytes(a ^ b for a, b in zip(data, ks))
