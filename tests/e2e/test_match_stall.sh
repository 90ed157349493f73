#!/usr/bin/env bash
# A stalling external bot (it reads its decisions and never answers) forfeits on
# the daemon's clock (--decision-ms with --forfeit): the game ends, the other
# seat wins, the timeout is a logged input and the replay still verifies.
# A bot program that dies forfeits too (its seat resigns).
. "$(dirname "$0")/lib.sh"
e2e_init stall
start_daemon

printf '#!/bin/sh\nexec cat >/dev/null\n' >"$T/stall.sh"
chmod +x "$T/stall.sh"
"$BIN/berthier-match" --data-dir "$D" --games 1 --bots "exec:$T/stall.sh,random" --seed 31 \
  --decision-ms 400 --forfeit >"$T/out" 2>"$T/err" || fail "berthier-match exit $?"
line=$(grep -E '^[0-9a-f]{16}  ' "$T/out") || fail "no game line"
echo "$line" | grep -qE '0=stall.sh 1=random  seat 1( \([a-z]+\))? wins' || fail "the stalling seat 0 did not lose: $line"
log=$(echo "$line" | sed -n 's/.*  log \([^ ]*\).*/\1/p')
"$BIN/berthier-replay" verify "$log" >/dev/null || fail "the forfeited game's log does not verify"
"$BIN/berthier-replay" export "$log" >"$T/export" || fail "export failed"
grep -q '"kind":"timeout"' "$T/export" || fail "no timeout input in the log"
grep -qE '^stall.sh +1 +0 +0 +1' "$T/out" || fail "the table does not count the loss"

# A bot program that exits at once: its seat resigns and the game still ends.
printf '#!/bin/sh\nexit 0\n' >"$T/dead.sh"
chmod +x "$T/dead.sh"
"$BIN/berthier-match" --data-dir "$D" --games 1 --bots "exec:$T/dead.sh,random" --seed 32 --verify \
  >"$T/out" 2>"$T/err" || fail "berthier-match (dead bot) exit $?"
grep -E '^[0-9a-f]{16}  ' "$T/out" | grep -qE '0=dead.sh 1=random  seat 1( \([a-z]+\))? wins.* verified$' \
  || fail "the dead bot's seat did not lose, or the log did not verify"
# ... and the line says why (the old runner said "the other side resigned or forfeited")
grep -q 'seat 0 (dead.sh) forfeited: its bot program died' "$T/out" || fail "the crash is not named"
# A bot whose orders are all refused resigns after --max-illegal rejections: "illegal".
printf '#!/bin/sh\nwhile read -r l; do case "$l" in go) echo "@999";; "end "*) exit 0;; esac; done\n' >"$T/bad.sh"
chmod +x "$T/bad.sh"
"$BIN/berthier-match" --data-dir "$D" --games 1 --bots "exec:$T/bad.sh,random" --seed 34 \
  --results "$T/bad.csv" >"$T/out" 2>"$T/err" || fail "berthier-match (illegal bot) exit $?"
grep -q 'seat 0 (bad.sh) resigned after its orders were rejected' "$T/out" || fail "illegal orders not named"
grep -q ',"illegal",0,' "$T/bad.csv" || fail "results: not ended by illegal orders against seat 0"
# Without a clock nobody forfeits a stalling bot: --game-timeout stops the game, exit 1.
set +e
"$BIN/berthier-match" --data-dir "$D" --games 1 --bots "exec:$T/stall.sh,random" --seed 33 --decision-ms 0 \
  --game-timeout 2 --verify --results "$T/stop.jsonl" >"$T/out" 2>"$T/err"; rc=$?
set -e
[ "$rc" = 1 ] || fail "a game stopped by --game-timeout: exit $rc"
grep -q 'unfinished: no end after 2 s' "$T/out" || fail "no unfinished line for the stopped game"
# ... and it is scored against the seat the daemon was waiting for (the old runner
# scored it for nobody and named no seat)
grep -q 'waiting for seat 0 (stall.sh)' "$T/out" || fail "the stalled seat is not named"
grep -qE '^stall.sh +1 +0 +0 +1 ' "$T/out" || fail "the stopped game is not scored against the stalled seat"
grep -q '^0 of 1 game ended$' "$T/out" || fail "the stopped game was counted as ended"
# ... and the runner aborts it on the daemon with a forfeit against that seat: no game
# stays `playing` (the old daemon refused the admin, and the game played on for good)
grep -q 'aborted on the daemon (forfeit of the seat that stalled)' "$T/out" || fail "the stopped game was not aborted"
grep -q '"ended":"aborted"' "$T/stop.jsonl" || fail "results: the stopped game is not recorded as aborted"
grep -q '"stalled_seat":0' "$T/stop.jsonl" || fail "results: the stalled seat is not 0"
grep -q '"verify":"ok"' "$T/stop.jsonl" || fail "results: the aborted game's log did not verify"
"$BIN/berthierctl" --data-dir "$D" games >"$T/games" || fail "berthierctl games"
grep -q ' playing' "$T/games" && fail "a game is still playing on the daemon: $(cat "$T/games")"
echo "ok: stalling and dead bots forfeit; replays verify"
