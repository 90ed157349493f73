"""What the Python end-to-end tests share: the binaries, a check that records
failures, and a berthierd started on a data dir and stopped with SIGTERM.

Imported by test_python_*.py, which ctest runs as scripts from this folder
(tests/e2e/CMakeLists.txt sets BERTHIER_BIN, BERTHIER_SRC and PYTHONPATH)."""
import os
import signal
import subprocess
import time

BIN = os.environ.get("BERTHIER_BIN") or os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin")
PYTHON = "/usr/bin/python3"
FAILURES = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what, flush=True)
    if not cond:
        FAILURES.append(what)
    return cond


def summary(note=""):
    """The script's exit status: 1 with the count of failed checks (and the note), else 0."""
    if FAILURES:
        print("%d check(s) failed%s" % (len(FAILURES), note))
        return 1
    print("all checks passed")
    return 0


def start_daemon(data, *args):
    """berthierd on `data` (its stderr beside it), once its keys and socket exist."""
    log = open(os.path.join(os.path.dirname(data), "berthierd.err"), "wb")
    p = subprocess.Popen([os.path.join(BIN, "berthierd"), "--data-dir", data, *args], stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if p.poll() is not None:
            raise RuntimeError("berthierd exited with %d at start" % p.returncode)
        if all(os.path.exists(os.path.join(data, f)) for f in ("server.pub", "sign.pub", "berthier.sock")):
            return p
        time.sleep(0.05)
    raise RuntimeError("berthierd did not come up within 20 s")


def stop_daemon(p):
    if p is None or p.poll() is not None:
        return
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(15)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
