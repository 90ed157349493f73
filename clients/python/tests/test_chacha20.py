"""ChaCha20 (berthier.chacha20) against the test vectors of RFC 8439."""
import unittest

from berthier import chacha20


class TestChaCha20(unittest.TestCase):
    def test_quarter_round_2_1_1(self):
        x = [0] * 16
        x[0], x[1], x[2], x[3] = 0x11111111, 0x01020304, 0x9b8d6f43, 0x01234567
        chacha20._quarter(x, 0, 1, 2, 3)
        self.assertEqual(x[:4], [0xea2a92f4, 0xcb1cf8ce, 0x4581472e, 0x5881c4bb])

    def test_block_2_3_2(self):
        key = bytes(range(32))
        nonce = bytes.fromhex("000000090000004a00000000")
        want = bytes.fromhex(
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
        self.assertEqual(chacha20.block(key, 1, nonce), want)

    def test_encrypt_2_4_2(self):
        key = bytes(range(32))
        nonce = bytes.fromhex("000000000000004a00000000")
        pt = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
              b"for the future, sunscreen would be it.")
        want = bytes.fromhex(
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
            "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
            "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
            "5af90bbf74a35be6b40b8eedf2785e42874d")
        self.assertEqual(chacha20.xor(key, nonce, pt, 1), want)
        self.assertEqual(chacha20.xor(key, nonce, want, 1), pt)

    def test_a1_vectors(self):
        # A.1 test vector #1: all-zero key and nonce, counter 0.
        self.assertEqual(chacha20.block(bytes(32), 0, bytes(12)), bytes.fromhex(
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"))
        # A.1 test vector #2: all-zero key and nonce, counter 1.
        self.assertEqual(chacha20.block(bytes(32), 1, bytes(12)), bytes.fromhex(
            "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
            "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"))

    def test_against_libsodium_aead(self):
        # ChaCha20-Poly1305 (RFC 8439 2.8) encrypts with counter 1: with a zero
        # plaintext its ciphertext is our keystream from block 1.
        import nacl.bindings as nb
        key = bytes(range(100, 132))
        nonce = bytes.fromhex("0102030405060708090a0b0c")
        ct = nb.crypto_aead_chacha20poly1305_ietf_encrypt(bytes(300), None, nonce, key)
        self.assertEqual(ct[:300], chacha20.keystream(key, nonce, 300, counter=1))

    def test_bad_sizes(self):
        with self.assertRaises(ValueError):
            chacha20.block(bytes(31), 0, bytes(12))
        with self.assertRaises(ValueError):
            chacha20.block(bytes(32), 0, bytes(8))
        with self.assertRaises(ValueError):
            chacha20.block(bytes(32), 1 << 32, bytes(12))


if __name__ == "__main__":
    unittest.main()
