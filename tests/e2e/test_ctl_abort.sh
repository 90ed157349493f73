#!/usr/bin/env bash
# The admin's abort (docs/protocol.md P3, docs/log-format.md kind 7 ABORT): a
# seat key cannot abort (UNAUTHORIZED [P3]); the admin ends a live game with a
# forfeit against a named seat, and one nobody joined with no winner; neither
# game stays `playing`, an ended game cannot be aborted again (GAME_OVER), and
# both logs verify as finished games in berthier-replay and the Python verifier.
# On the old daemon the request had no body it knew (BAD_REQUEST) and the game
# stayed playing, so every check after the first abort fails there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init abort
SRC=${BERTHIER_SRC:?set BERTHIER_SRC to the source tree}
fail() { echo "FAIL: $*" >&2; echo "--- stdout"; cat "$T/out" 2>/dev/null; echo "--- stderr"; cat "$T/err" 2>/dev/null; exit 1; }
expect() {
  local want=$1; shift
  set +e; "$@" >"$T/out" 2>"$T/err"; local rc=$?; set -e
  [ "$rc" = "$want" ] || fail "exit $rc (wanted $want): $*"
}
ctl() { "$BIN/berthierctl" --data-dir "$D" "$@"; }

expect 0 "$BIN/berthierctl" abort --help
grep -q '^usage: berthierctl .*abort \[--reason TEXT\] \[--forfeit SEAT\] GAME' "$T/out" || fail "abort --help"
expect 2 "$BIN/berthierctl" --data-dir "$D" abort
expect 2 "$BIN/berthierctl" --data-dir "$D" abort --forfeit x g

cd "$T"
expect 0 "$BIN/berthierctl" keygen alice
expect 0 "$BIN/berthierctl" keygen bob
start_daemon
A=("$BIN/berthierctl" --data-dir "$D" --key alice.key)
Bb=("$BIN/berthierctl" --data-dir "$D" --key bob.key)

expect 0 ctl new --ruleset duel --scenario standard --seat-key alice.pub --seat-key bob.pub
G=$(cat "$T/out")
expect 0 "${A[@]}" join "$G" 0
expect 0 "${Bb[@]}" join "$G" 1
expect 0 ctl games
grep -q "^$G .* playing" "$T/out" || fail "the game is not playing after both joined"

# a seat may not abort, even its own game [P3]
expect 1 "${A[@]}" abort --reason "I would rather not" "$G"
grep -q '^rejected UNAUTHORIZED \[P3\]' "$T/err" || fail "a seat key aborted the game"
# bad arguments are refused without ending anything
expect 1 ctl abort --reason "" "$G"
grep -q '^rejected BAD_REQUEST' "$T/err" || fail "an empty reason was accepted"
expect 1 ctl abort --forfeit 2 --reason "no such seat" "$G"
grep -q '^rejected NOT_YOUR_SEAT' "$T/err" || fail "a forfeit of seat 2 of a 2-seat game was accepted"
expect 1 ctl abort --reason "no such game" 0123456789abcdef
grep -q '^rejected UNKNOWN_GAME' "$T/err" || fail "an unknown game was aborted"
expect 0 ctl games
grep -q "^$G .* playing" "$T/out" || fail "a refused abort ended the game"

# the admin ends it: bob forfeits
expect 0 ctl abort --forfeit 1 --reason "bob stalled past the game timeout" "$G"
grep -q "seat 1 forfeits" "$T/out" || fail "abort printed: $(cat "$T/out")"
expect 0 ctl games
grep -q "^$G .* playing" "$T/out" && fail "the aborted game is still playing"
grep -q "^$G .* ended" "$T/out" || fail "the aborted game is not shown as ended"
expect 0 "${A[@]}" pending "$G" 0
grep -q "forfeit" "$T/out" || fail "pending does not show the forfeit"
grep -q "bob stalled past the game timeout" "$T/out" || fail "pending does not quote the admin's reason"
expect 1 ctl abort --reason "again" "$G"
grep -q '^rejected GAME_OVER' "$T/err" || fail "an ended game was aborted again"

# a game nobody joined: no winner
expect 0 ctl new --ruleset duel --scenario standard --seat-key alice.pub --seat-key bob.pub
G2=$(cat "$T/out")
expect 0 ctl abort --reason "the round was cancelled" "$G2"
grep -q "no winner" "$T/out" || fail "abort printed: $(cat "$T/out")"

for g in "$G" "$G2"; do
  expect 0 ctl log -o "$T/$g.log" "$g"
  expect 0 "$BIN/berthier-replay" verify "$T/$g.log"
  grep -q "note: an admin aborted the game" "$T/out" || fail "verify of $g does not report the abort"
  grep -q "^OK: game $g" "$T/out" || fail "verify of $g is not OK"
  expect 0 "$BIN/berthier-replay" export "$T/$g.log"
  grep -q '"kind":"abort","reason":' "$T/out" || fail "export of $g shows no ABORT record"
  (cd "$SRC/clients/python" && /usr/bin/python3 -m berthier.verify "$T/$g.log") >"$T/out" 2>"$T/err" \
    || fail "the Python verifier refuses $g"
  grep -q "aborted by an admin" "$T/out" || fail "the Python verifier does not report the abort of $g"
done
expect 0 "$BIN/berthier-replay" verify "$T/$G.log"
grep -q "result: forfeit, winners: 0 " "$T/out" || fail "the forfeit's result is not seat 0 winning"
expect 0 "$BIN/berthier-replay" verify "$T/$G2.log"
grep -q "result: aborted, winners: none (aborted by the admin: the round was cancelled)" "$T/out" \
  || fail "the abort's result is not 'aborted, no winner'"

# the Python client's abort
expect 0 ctl new --ruleset duel --scenario standard --seat-key alice.pub --seat-key bob.pub
G3=$(cat "$T/out")
/usr/bin/python3 - "$D" "$G3" "$T/alice.key" >"$T/out" 2>"$T/err" <<'PY' || fail "Client.abort"
import sys
from berthier.client import Client, BerthierError
d, g, alice = sys.argv[1:4]
try:
    Client(data_dir=d, key_file=alice).abort(g, "a seat may not", forfeit_seat=1)
    sys.exit("a seat key aborted the game")
except BerthierError as e:
    assert "UNAUTHORIZED" in str(e), str(e)
r = Client(data_dir=d).abort(g, "cancelled from Python", forfeit_seat=0)
assert r.message == "aborted", r
games = {x.game_id: x for x in Client(data_dir=d).list_games().games}
assert games[g].result.ended and list(games[g].result.winners) == [1], games[g]
print("python abort ok")
PY
grep -q "python abort ok" "$T/out" || fail "Client.abort"
expect 0 ctl games
grep -q " playing" "$T/out" && fail "a game is still playing: $(cat "$T/out")"
echo "PASS"
