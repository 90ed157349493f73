#!/usr/bin/env bash
# The live spectator view: a duel game created with a spectator key and
# spectators=live, `berthierctl watch --html FILE GAME all` following it with
# that key in the background, the game played to its end by hand. The page is
# checked at the start and at the end: well-formed XHTML-compatible markup
# around the daemon's <svg class="brt-board">, the events newest first, the
# result; `state --svg` saves the picture; a spectator of a game whose
# spectators are delayed is refused the state before the end (docs/protocol.md P3).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init watchhtml
stop_watch() { if [ -n "${watch_pid:-}" ]; then kill "$watch_pid" 2>/dev/null || true; fi; }
e2e_extra_cleanup=stop_watch
expect() {
  local want=$1; shift
  set +e; "$@" >"$T/out" 2>"$T/err"; local rc=$?; set -e
  [ "$rc" = "$want" ] || fail "exit $rc (wanted $want): $*"
}
cd "$T"
for k in alice bob carol; do expect 0 "$BIN/berthierctl" keygen "$k"; done
start_daemon
ctl() { "$BIN/berthierctl" --data-dir "$D" "$@"; }
A=("$BIN/berthierctl" --data-dir "$D" --key alice.key)
Bb=("$BIN/berthierctl" --data-dir "$D" --key bob.key)
C=("$BIN/berthierctl" --data-dir "$D" --key carol.key)

expect 0 ctl new --ruleset duel --scenario standard --option spectators=live --seat-key alice.pub \
  --seat-key bob.pub --spectator-key carol.pub
G=$(cat "$T/out")
PAGE=$T/live.html

# the watcher writes its first page before any seat has joined
"${C[@]}" watch --timeout 300 --html "$PAGE" "$G" all >"$T/watch.out" 2>"$T/watch.err" &
watch_pid=$!
for _ in $(seq 300); do [ -f "$PAGE" ] && break; sleep 0.1; done
[ -f "$PAGE" ] || fail "no page was written: $(cat "$T/watch.err")"
grep -q 'Waiting for every seat to join' "$PAGE" || fail "the first page does not say the game waits for its seats"
grep -q '<meta http-equiv="refresh" content="2">' "$PAGE" || fail "a live page does not refresh itself"

expect 0 "${A[@]}" join "$G" 0
expect 0 "${Bb[@]}" join "$G" 1

# a live game's spectator gets the spectators' view and its picture, never the full state's hash
expect 0 "${C[@]}" state --svg "$T/board.svg" "$G"
grep -q '^view-hash ' "$T/out" || fail "the spectator's state has no view hash"
grep -q '^state-hash ' "$T/out" && fail "a spectator got the full state's hash mid-game"
grep -q 'warning' "$T/err" && fail "the spectator's view hash does not check: $(cat "$T/err")"
grep -q '<svg xmlns="http://www.w3.org/2000/svg" class="brt-board" data-ruleset="duel"' "$T/board.svg" ||
  fail "state --svg wrote no board picture"
grep -q 'sealed bid' "$T/board.svg" && fail "the spectators' picture shows a sealed bid"
# a seat gets its own picture
expect 0 "${A[@]}" state "$G" 0 --svg "$T/alice.svg"
grep -q 'class="brt-board"' "$T/alice.svg" || fail "the seat's state --svg wrote no picture"

# --- play to the end: each seat gives its first legal order when it must act
ended=""
for _ in $(seq 400); do
  for s in 0 1; do
    if [ "$s" = 0 ]; then P=("${A[@]}"); else P=("${Bb[@]}"); fi
    expect 0 "${P[@]}" pending "$G" "$s"
    if grep -q '^result ' "$T/out"; then ended=1; break 2; fi
    grep -q '^you-must-act yes' "$T/out" || continue
    expect 0 "${P[@]}" legal --limit 1 "$G" "$s"
    order=$(head -n 1 "$T/out")
    set +e; "${P[@]}" order "$G" "$s" $order >"$T/out" 2>"$T/err"; rc=$?; set -e
    [ "$rc" = 0 ] || grep -qE '^rejected (STALE|NOT_YOUR_DECISION)' "$T/err" || fail "order $order: exit $rc"
  done
done
[ -n "$ended" ] || fail "the game did not end"
expect 0 "${A[@]}" pending "$G" 0
result=$(sed -n 's/^result //p' "$T/out")

# the watcher writes the final page and exits by itself (its own --timeout bounds the wait)
wait "$watch_pid" || fail "watch --html exited non-zero: $(cat "$T/watch.err")"
watch_pid=""
[ ! -e "$PAGE.tmp" ] || fail "the temporary page was left behind"

python3 - "$PAGE" "$result" <<'EOF' || fail "the final page is not what it should be"
import sys, xml.etree.ElementTree as ET
from html.parser import HTMLParser
path, result = sys.argv[1], sys.argv[2]
page = open(path, encoding="utf-8").read()
assert page.startswith("<!DOCTYPE html>"), "no doctype"
# well-formed: every element closed in order (void elements aside), no stray end tag
VOID = {"meta", "br", "img", "hr", "input", "link"}
class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.text, self.counters, self.boards = [], [], [], 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "brt-board" in (a.get("class") or "").split():
            assert a.get("data-ruleset") == "duel", a
            self.boards += 1
        if tag == "g" and a.get("class") == "counter":
            self.counters.append(a.get("id"))
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()
    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, "</%s> closes %s" % (tag, self.stack[-1:])
        self.stack.pop()
    def handle_data(self, d):
        self.text.append(d)
c = Check()
c.feed(page)
c.close()
assert not c.stack, "unclosed: %s" % c.stack
assert c.boards == 1, "boards: %d" % c.boards
assert "u-red" in c.counters and "u-blue" in c.counters, c.counters
# the picture is itself a well-formed XML document
start = page.index("<svg")
ET.fromstring(page[start:page.index("</svg>") + len("</svg>")])
text = "".join(c.text)
assert "Result:" in text, "no result"
winners = result.split("(")[0].split()[1:] if result.startswith("winners") else []
for w in winners:
    assert ("seat " + w) in text.split("Result:")[1], "the result does not name seat %s" % w
assert 'http-equiv="refresh"' not in page, "the final page still refreshes itself"
assert "the game has ended" in text
# events: newest first, as many as the spectator may see, each "seq.index text"
import re
items = re.findall(r'<li><span class="seq">(\d+)\.(\d+)</span> ([^<]*)</li>', page)
assert len(items) >= 4, "events: %d" % len(items)
keys = [(int(s), int(i)) for s, i, _ in items]
assert keys == sorted(keys, reverse=True), "events are not newest first"
assert any("bid" in t or "bank" in t or "roll" in t for _, _, t in items), items[:5]
EOF

# the spectator's events in the page are those `events` gives it
expect 0 "${C[@]}" events "$G" 0
n_events=$(grep -c '^event ' "$T/out")
n_page=$(grep -c '^<li><span class="seq">' "$PAGE")
[ "$n_events" = "$n_page" ] || fail "the page holds $n_page events, the spectator may see $n_events"

# --- a game whose spectators are delayed: no state before the end, the page says why
expect 0 ctl new --ruleset duel --scenario standard --seat-key alice.pub --seat-key bob.pub --spectator-key carol.pub
G2=$(cat "$T/out")
expect 0 "${A[@]}" join "$G2" 0
expect 0 "${Bb[@]}" join "$G2" 1
expect 1 "${C[@]}" state "$G2"
grep -q '^rejected UNAUTHORIZED' "$T/err" || fail "a delayed spectator got the state mid-game"
expect 3 "${C[@]}" watch --timeout 2 --html "$T/delayed.html" "$G2" all
grep -q 'after the end' "$T/delayed.html" || fail "the delayed spectator's page does not say why it shows no board"
grep -q '<svg' "$T/delayed.html" && fail "a delayed spectator's page shows a board mid-game"
echo "PASS"
