"""Key files, in the format berthierd and `berthierctl keygen` use:

    NAME.key   two lines: "public <z85>" and "secret <z85>"   (mode 0600)
    NAME.pub   one line: the Z85 public key
    server.pub one line: the daemon's Z85 CurveZMQ public key
"""

import os

import zmq
from zmq.utils import z85


class KeyPair:
    def __init__(self, public, secret):
        self.public = public if isinstance(public, bytes) else public.encode()   # Z85, 40 bytes
        self.secret = secret if isinstance(secret, bytes) else secret.encode()

    @property
    def public_raw(self):
        """The 32 raw bytes of the public key (what CreateGame.seats[i].key holds)."""
        return z85.decode(self.public)

    def __repr__(self):
        return "KeyPair(public=%r)" % self.public.decode()


def keygen():
    """A new CurveZMQ keypair."""
    pub, sec = zmq.curve_keypair()
    return KeyPair(pub, sec)


def load_keypair(path):
    pub = sec = None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[0] == "public":
                pub = parts[1]
            elif len(parts) == 2 and parts[0] == "secret":
                sec = parts[1]
    if not pub or not sec or len(pub) != 40 or len(sec) != 40:
        raise ValueError("%s: expected lines 'public <z85>' and 'secret <z85>'" % path)
    return KeyPair(pub, sec)


def load_public(path):
    with open(path) as f:
        s = f.read().strip()
    if len(s) != 40:
        raise ValueError("%s: expected one Z85 public key (40 characters)" % path)
    return s.encode()


def save_keypair(kp, directory, name):
    """Write NAME.key (0600) and NAME.pub into directory; returns the .key path."""
    os.makedirs(directory, exist_ok=True)
    key_path = os.path.join(directory, name + ".key")
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write("public %s\nsecret %s\n" % (kp.public.decode(), kp.secret.decode()))
    with open(os.path.join(directory, name + ".pub"), "w") as f:
        f.write(kp.public.decode() + "\n")
    return key_path


def to_raw_public(key):
    """A public key given as 32 raw bytes, a Z85 str/bytes, or a KeyPair -> 32 raw bytes."""
    if isinstance(key, KeyPair):
        return key.public_raw
    if isinstance(key, str):
        key = key.encode()
    if len(key) == 32:
        return bytes(key)
    if len(key) == 40:
        return z85.decode(key)
    raise ValueError("a public key is 32 raw bytes or 40 Z85 characters")
