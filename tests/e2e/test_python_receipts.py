"""End to end: the Python client keeps receipts and witnessed heads, and the
Python verifier (berthier.verify) catches the operator who rewrites history.

A duel game on a real berthierd, played by two Python seat clients that check
and keep every receipt (receipts_dir) while a third connection, seat 1's
witness, keeps the signed checkpoints of its sealed notices. Seat 0's first
sealed bid is only recorded. After the end the operator (who holds the log,
the seed and the signing key) cuts the log back to the SYNC before that bid
and writes instead a TIMEOUT that forfeits seat 0, with END, REVEAL and a final
checkpoint signed by the daemon's own key: a complete, well-signed game.

berthier.verify alone accepts the forged log (exit 0); with seat 0's receipts
it names the bid's receipt, with the witness's heads it names a head (exit 1).
On the old code the daemon sent no receipts, notices carried no checkpoint and
the verifier had no --receipts or --heads: the forged log verified, and this
test fails at its first check that a receipt was kept.
"""
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

import nacl.signing

from berthier import logfile as lf, receipts, verify, wire
from berthier.client import Client, keygen

from e2e_py import BIN, PYTHON, check, start_daemon, stop_daemon, summary  # noqa: E402


def verify_cli(*args):
    r = subprocess.run([sys.executable, "-m", "berthier.verify"] + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def forge_forfeit(log, cut_index, seat, seed, sk):
    """The log's records before cut_index (which must follow a SYNC), then a
    TIMEOUT forfeiting `seat`, END, REVEAL, a checkpoint signed with sk and a SYNC."""
    scan = lf.analyse(log)
    recs = [r for r in scan.records if r.index < cut_index]
    assert recs[-1].kind == lf.SYNC
    seq = 0
    for r in recs:
        if r.kind == lf.STATE:
            seq = wire.decode(r.payload, wire.LOG_STATE)["seq"]
    hdr = wire.decode(recs[0].payload, wire.LOG_HEADER)
    pairs = [(r.kind, r.payload) for r in recs]
    pairs.append((lf.TIMEOUT, wire.encode({"seat": seat, "seq": seq, "forfeit": True}, wire.LOG_TIMEOUT)))
    pairs.append((lf.END, wire.encode({"result": {"ended": True, "winners": [1 - seat], "level": "resignation",
                                                  "reason": "[D6] the other side resigned or forfeited"}},
                                      wire.LOG_END)))
    pairs.append((lf.REVEAL, wire.encode({"seed": seed}, wire.LOG_REVEAL)))
    body = lf.build(pairs)
    last = list(lf.read_records(body))[-1]
    msg = verify.checkpoint_message(hdr["game_id"], last.index, last.chain)
    sig = sk.sign(msg).signature
    pairs.append((lf.CHECKPOINT, wire.encode({"record": last.index, "head": last.chain, "signature": sig},
                                             wire.LOG_CHECKPOINT)))
    pairs.append((lf.SYNC, b""))
    return lf.build(pairs)


def main():
    tmp = tempfile.mkdtemp(prefix="berthier-pyrcpt-")
    data = os.path.join(tmp, "data")
    daemon = None
    try:
        daemon = start_daemon(data)
        admin = Client(data_dir=data)
        kp = [keygen(), keygen()]
        created = admin.create_game("duel", "standard", seats=kp, clock={"decision_ms": 600000})
        gid = created.game_id
        rdir = os.path.join(tmp, "receipts")
        # seat 0 pins sign.pub of the data dir; seat 1 learns the key from hello on first use
        seat = [Client(data_dir=data, keypair=kp[0], receipts_dir=rdir),
                Client(data_dir=os.path.join(tmp, "elsewhere"), endpoint=admin.endpoint,
                       server_key=admin.server_key, events_endpoint=admin.events_endpoint, keypair=kp[1],
                       receipts_dir=rdir)]
        check(seat[0].sign_pk == bytes(created.server_sign_pk), "seat 0 pinned the daemon's sign.pub")
        # seat 1's witness, on its own connection, before the game starts
        wit = Client(data_dir=os.path.join(tmp, "elsewhere"), endpoint=admin.endpoint,
                     server_key=admin.server_key, events_endpoint=admin.events_endpoint, keypair=kp[1])
        heads = os.path.join(tmp, "seat1.heads")
        ek = wit.event_key(gid, 1)
        kept = []
        t = threading.Thread(target=lambda: kept.append(wit.witness(gid, heads, seat=1, event_key=ek, timeout=60)))
        t.start()
        time.sleep(0.2)   # not a pass/fail timing: the final notice is what the witness must see
        for i in range(2):
            seat[i].join(gid, i)
        check(len(seat[0].receipts) == 1 and len(seat[1].receipts) == 1, "both joins gave a receipt")
        check(seat[1].sign_pk == bytes(created.server_sign_pk), "seat 1 learnt the signing key from hello")
        bid_record = None
        for _ in range(400):
            d = seat[0].pending(gid, 0)
            if d.result.ended:
                break
            who = d.seats[0] if d.seats else 0
            if d.sealed:
                who = 0 if d.you_must_act else 1
            lo = seat[who].legal(gid, who, limit=1)
            rep = seat[who].submit(gid, who, d.seq, order=lo.orders[0])
            if who == 0 and d.sealed and rep.accepted.waiting and bid_record is None:
                bid_record = rep.receipt.record
                check(rep.receipt.head_record == rep.receipt.record, "a recorded sealed bid's head is its own record")
        t.join(90)
        check(kept and kept[0] >= 1, "the witness kept %s signed heads" % (kept[0] if kept else 0))
        check(bid_record is not None, "seat 0 made a sealed bid that was only recorded")
        log = admin.fetch_log(gid)
        sign_pub = os.path.join(data, "sign.pub")
        r0 = os.path.join(rdir, gid + ".receipts")
        check(os.path.exists(r0), "the receipts file of the game exists")
        honest = os.path.join(tmp, "honest.log")
        with open(honest, "wb") as f:
            f.write(log)
        rc, out = verify_cli(honest, "--trust", sign_pub, "--receipts", r0, "--heads", heads)
        check(rc == 0 and "signer pinned by the trust file" in out and "witnessed head" in out,
              "the honest log holds every receipt and head (%d: %s)" % (rc, out.strip()))
        rc, out = verify_cli(honest)
        check(rc == 0 and "signer not pinned" in out, "unpinned: exit 0 and 'signer not pinned'")

        # the operator's forgery
        with open(os.path.join(data, "games", gid + ".seed"), "rb") as f:
            seed = f.read()
        with open(os.path.join(data, "sign.key")) as f:
            sk = nacl.signing.SigningKey(bytes.fromhex(f.read().strip())[:32])
        forged = os.path.join(tmp, "forged.log")
        with open(forged, "wb") as f:
            f.write(forge_forfeit(log, bid_record, 0, seed, sk))
        rc, out = verify_cli(forged, "--trust", sign_pub)
        check(rc == 0, "the forged log verifies without receipts (%d: %s)" % (rc, out.strip()))
        rc, out = verify_cli(forged, "--trust", sign_pub, "--receipts", r0)
        needle = "(game %s, record %d, seat 0's ORDER;" % (gid, bid_record)
        check(rc == 1 and needle in out and "is a TIMEOUT" in out,
              "with seat 0's receipts it names the bid's receipt (%d: %s)" % (rc, out.strip()))
        rc, out = verify_cli(forged, "--trust", sign_pub, "--heads", heads)
        check(rc == 1 and "head " in out and "departs" in out,
              "with the witness's heads it names a head and where the log departs (%d: %s)" % (rc, out.strip()))
        other = nacl.signing.SigningKey.generate()
        trust = os.path.join(tmp, "other.trust")
        with open(trust, "w") as f:
            f.write("# another daemon\n%s other\n" % bytes(other.verify_key).hex())
        rc, out = verify_cli(honest, "--trust", trust)
        check(rc == 1 and "not in the trust file" in out, "a key not in the trust file is exit 1")
        # the library call
        res = verify.verify_bytes(open(forged, "rb").read(), None, None, receipts.load_receipts(r0))
        check(res.status == verify.BAD and any(needle in e for e in res.evidence), "verify_bytes names it too")
        # spectators=live: the clear stream carries every checkpoint too, not only the final one
        live = admin.create_game("duel", "standard", seats=kp, options=["spectators=live"])
        lheads = os.path.join(tmp, "spect.heads")
        spect = []
        t = threading.Thread(target=lambda: spect.append(wit.witness(live.game_id, lheads, timeout=60)))
        t.start()
        time.sleep(0.2)   # as above: the count below needs only the last two notices
        for i in range(2):
            seat[i].join(live.game_id, i)
        for _ in range(400):
            d = seat[0].pending(live.game_id, 0)
            if d.result.ended:
                break
            who = d.seats[0] if d.seats else 0
            if d.sealed:
                who = 0 if d.you_must_act else 1
            lo = seat[who].legal(live.game_id, who, limit=1)
            seat[who].submit(live.game_id, who, d.seq, order=lo.orders[0])
        t.join(90)
        llog = os.path.join(tmp, "live.log")
        with open(llog, "wb") as f:
            f.write(admin.fetch_log(live.game_id))
        ckpts = sum(1 for r in lf.analyse(open(llog, "rb").read()).records if r.kind == lf.CHECKPOINT)
        # more than the final one: the live clear stream carries them all along (a duel has 13)
        check(spect and spect[0] >= 2, "the spectators' witness kept %s heads of %d checkpoints"
              % (spect[0] if spect else 0, ckpts))
        rc, out = verify_cli(llog, "--trust", sign_pub, "--heads", lheads)
        check(rc == 0 and "witnessed head" in out, "the live game's log extends the spectators' heads (%d)" % rc)
        for c in seat + [wit, admin]:
            c.close()
    finally:
        stop_daemon(daemon)
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
