"""The step-through viewer (berthier-replay html) in a real browser: Debian's chromium,
headless, driven by chromedriver over its WebDriver HTTP API (Python's urllib only).

A Waterloo 20 game is played to the end in process (berthier-selfplay, fixed seed) and its
page written with `berthier-replay html`. What the page must show is taken from the log
itself (`berthier-replay export`): one step per STATE record, and a step's orders are the
ORDER records between its STATE record and the one before. In the browser the test checks
the step count, steps with real key presses (ArrowRight, End, Home) and clicks (next,
previous), opens a chosen step by its #step=K address and compares its order text with the
log's, looks for a known counter (g.counter#u-GARDE) on the board, and takes a screenshot
(viewer_chromium.png in the test's build folder), which must be a real PNG of the page.

Every wait polls for a condition with a generous deadline; none is a timing check.
Needs /usr/bin/chromium and /usr/bin/chromedriver (packages chromium and chromium-driver,
installed by `make deps`)."""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from e2e_py import BIN, check, summary  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
KEYS = {"ArrowRight": "\ue014", "ArrowLeft": "\ue012", "Home": "\ue011", "End": "\ue010"}
WAIT = 60


def run(*args, **kw):
    return subprocess.run([os.path.join(BIN, args[0]), *args[1:]], capture_output=True, text=True, **kw)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.sid = None

    def call(self, method, path, body=None, timeout=WAIT):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read().decode() or "{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError("%s %s: %s" % (method, path, e.read().decode(errors="replace")[:500]))

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.sid, path), body)

    def start(self, user_data):
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--user-data-dir=" + user_data, "--window-size=1400,1000", "--allow-file-access-from-files"]}}}}
        v = self.call("POST", "/session", caps, timeout=120)
        self.sid = v["sessionId"]

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait_for(self, script, what, *args):
        deadline = time.monotonic() + WAIT
        last = None
        while time.monotonic() < deadline:
            last = self.js(script, *args)
            if last:
                return last
            time.sleep(0.1)
        raise RuntimeError("waited %d s for %s (last: %r)" % (WAIT, what, last))

    def find(self, css):
        v = self.s("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(v.values()))

    def click(self, css):
        self.s("POST", "/element/%s/click" % self.find(css), {})

    def key(self, name):
        k = KEYS[name]
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]}]})


def wait_driver(port, proc):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("chromedriver exited with %d" % proc.returncode)
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/status" % port, timeout=5) as r:
                if json.loads(r.read().decode())["value"].get("ready"):
                    return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.1)
    raise RuntimeError("chromedriver did not answer within %d s" % WAIT)


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def expected_steps(export_text):
    """The steps the log says the page must have: (seq, [(seat, order text), ...]) per STATE record."""
    steps, orders = [], []
    for line in export_text.splitlines():
        r = json.loads(line)
        if r["kind"] == "order":
            orders.append((r["seat"], r.get("order", "")))
        elif r["kind"] == "state":
            steps.append((r["seq"], orders))
            orders = []
    return steps


def main():
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            print("FAIL  %s is missing: install chromium and chromium-driver (make deps)" % tool)
            return 1
    tmp = tempfile.mkdtemp(prefix="berthier-viewer-")
    driver_proc = None
    wd = None
    try:
        log = os.path.join(tmp, "waterloo.log")
        r = run("berthier-selfplay", "play", "n20", "waterloo20-standard", "21", log)
        check(r.returncode == 0 and "ended 1" in r.stdout, "a Waterloo 20 game played to the end")
        r = run("berthier-replay", "verify", log)
        check(r.returncode == 0, "its log verifies: " + r.stdout.strip().splitlines()[-1])
        page = os.path.join(tmp, "waterloo.html")
        r = run("berthier-replay", "html", log, "-o", page)
        check(r.returncode == 0 and os.path.getsize(page) > 0, "berthier-replay html writes the page " + r.stderr)
        ex = run("berthier-replay", "export", log)
        check(ex.returncode == 0, "berthier-replay export")
        steps = expected_steps(ex.stdout)
        n = len(steps)
        # a step with an order in the middle of the game, to open by its address
        k = next(i for i in range(n // 2, n) if steps[i][1])
        pictures = run("berthier-replay", "render", log).returncode == 0

        port = free_port()
        driver_proc = subprocess.Popen([CHROMEDRIVER, "--port=%d" % port], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        wait_driver(port, driver_proc)
        wd = WebDriver(port)
        wd.start(os.path.join(tmp, "profile"))
        url = "file://" + page
        wd.s("POST", "/url", {"url": url})
        wd.wait_for("var v = document.getElementById('viewer'); return v && v.getAttribute('data-ready');",
                    "the viewer's script to run")
        check(wd.js("return document.getElementById('viewer').getAttribute('data-steps');") == str(n),
              "data-steps is %d, the log's STATE records" % n)
        idx = "return document.getElementById('step-index').textContent === arguments[0];"
        check(wd.js(idx, "1"), "the page opens at step 1")
        wd.key("ArrowRight")
        check(wd.wait_for(idx, "step 2 after ArrowRight", "2"), "ArrowRight goes to step 2")
        wd.key("End")
        check(wd.wait_for(idx, "the last step after End", str(n)), "End goes to step %d" % n)
        check(wd.wait_for("return document.querySelector('#step-detail .result') !== null;", "the result"),
              "the last step shows the result")
        wd.key("Home")
        check(wd.wait_for(idx, "step 1 after Home", "1"), "Home goes back to step 1")
        wd.click("#next")
        check(wd.wait_for(idx, "step 2 after a click on next", "2"), "a click on next goes to step 2")
        wd.click("#prev")
        check(wd.wait_for(idx, "step 1 after a click on previous", "1"), "a click on previous goes to step 1")
        wd.key("ArrowLeft")
        check(wd.js(idx, "1"), "ArrowLeft on step 1 stays there")

        wd.s("POST", "/url", {"url": url + "#step=%d" % (k + 1)})
        wd.wait_for(idx, "step %d from its address" % (k + 1), str(k + 1))
        got = wd.js("return Array.prototype.map.call(document.querySelectorAll('#step-detail .order'),"
                    " function (e) { return e.textContent; });")
        want = ["seat %d: %s" % (seat, text) for seat, text in steps[k][1]]
        check(got == want, "step %d shows the log's order(s) %r (got %r)" % (k + 1, want, got))
        check(wd.js("return document.getElementById('board').getAttribute('data-step');") == str(k + 1),
              "the board shown is step %d's" % (k + 1))
        check(pictures, "berthier-replay render draws the n20 board")
        check(wd.wait_for("return document.querySelector('#board svg.brt-board g.counter#u-GARDE') !== null;",
                          "the GARDE counter"), "the board holds the counter g.counter#u-GARDE")

        shot = base64.b64decode(wd.s("GET", "/screenshot"))
        out = os.path.join(os.getcwd(), "viewer_chromium.png")
        with open(out, "wb") as f:
            f.write(shot)
        size = png_size(shot)
        check(size is not None and size[0] >= 400 and size[1] >= 300 and len(shot) > 10000,
              "a screenshot of the page: %s, %d bytes, %r" % (out, len(shot), size))
    except Exception as e:  # noqa: BLE001 - any failure is the test's
        check(False, "the viewer in chromium: %s" % e)
    finally:
        if wd and wd.sid:
            try:
                wd.call("DELETE", "/session/" + wd.sid, timeout=30)
            except Exception:  # noqa: BLE001
                pass
        if driver_proc:
            driver_proc.terminate()
            try:
                driver_proc.wait(20)
            except subprocess.TimeoutExpired:
                driver_proc.kill()
                driver_proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
