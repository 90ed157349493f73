"""Seat-signed inputs (docs/protocol.md P3.1), written from the spec, apart
from the C code, so that each checks the other.

Every input a seat makes (join, submit, resign, reveal) carries the seat's
Ed25519 signature in Request.signature over

    b"berthier-input-v1" || u8 len(game_id) || game_id || header_hash (32)
    || seq (u64 le) || request_id (u64 le) || body field (u8) || u32 le N || body (N bytes)

seq is Submit.based_on_seq (0 for join, resign and reveal); body is the exact
bytes of the Request's body message; body field its oneof number (11 join,
12 submit, 16 resign, 20 reveal). The header hash is BLAKE2b-256 of the
HEADER record's payload (GameHeader.header_hash). The seat's key is derived
from its CURVE secret key, so that no other key file is needed.
"""

import hashlib
import struct

DOMAIN = b"berthier-input-v1"
DERIVE_DOMAIN = b"berthier-seat-sign-v1"
BODY_JOIN, BODY_SUBMIT, BODY_RESIGN, BODY_REVEAL = 11, 12, 16, 20


def header_hash(header_bytes):
    return hashlib.blake2b(bytes(header_bytes), digest_size=32).digest()


def header_signature_ok(header_bytes, sig, game_id, server_pk):
    """GameHeader.signature: the server's checkpoint of record 0, Ed25519 over
    b"berthier-ckpt-v1" || game_id || 0 (u64 le) || chain[0], where
    chain[0] = BLAKE2b-256(32 zero bytes || 0x01 || u32 le len || header)."""
    header_bytes = bytes(header_bytes)
    chain0 = hashlib.blake2b(bytes(32) + b"\x01" + struct.pack("<I", len(header_bytes)) + header_bytes,
                             digest_size=32).digest()
    msg = b"berthier-ckpt-v1" + game_id.encode("ascii") + struct.pack("<Q", 0) + chain0
    return ed25519_verify(server_pk, msg, sig)


def ed25519_verify(pk, msg, sig):
    """True when sig is pk's Ed25519 signature of msg (libsodium through PyNaCl)."""
    import nacl.exceptions
    import nacl.signing
    try:
        nacl.signing.VerifyKey(bytes(pk)).verify(bytes(msg), bytes(sig))
        return True
    except (nacl.exceptions.BadSignatureError, ValueError, TypeError):
        return False


def signing_key(curve_secret_raw):
    """The seat's nacl SigningKey from its 32-byte CURVE secret key."""
    import nacl.signing
    seed = hashlib.blake2b(DERIVE_DOMAIN, digest_size=32, key=bytes(curve_secret_raw)).digest()
    return nacl.signing.SigningKey(seed)


def message(game_id, hh, seq, request_id, field, body):
    gid = game_id.encode("ascii") if isinstance(game_id, str) else bytes(game_id)
    if len(gid) > 255 or len(hh) != 32:
        raise ValueError("bad game id or header hash")
    body = bytes(body)
    return (DOMAIN + bytes([len(gid)]) + gid + bytes(hh) + struct.pack("<QQ", seq, request_id)
            + bytes([field]) + struct.pack("<I", len(body)) + body)


def verify(pk, game_id, hh, seq, request_id, field, body, sig):
    if len(sig) != 64 or len(pk) != 32:
        return False
    try:
        msg = message(game_id, hh, seq, request_id, field, body)
    except ValueError:
        return False
    return ed25519_verify(pk, msg, sig)
