#!/usr/bin/env bash
# berthier-bot as separate processes, one per seat, on a game made with
# berthierctl: both play to the end and print the result; one of them is
# killed mid-game and started again, and carries on its seat; the log verifies.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init bot
bots=()
stop_bots() { for p in "${bots[@]}"; do kill "$p" 2>/dev/null || true; done; }
e2e_extra_cleanup=stop_bots
fail() { echo "FAIL: $*" >&2; cat "$T"/bot*.out "$T"/bot*.err 2>/dev/null >&2; exit 1; }
start_daemon
cd "$T"
"$BIN/berthierctl" --quiet keygen s0 >/dev/null
"$BIN/berthierctl" --quiet keygen s1 >/dev/null
G=$("$BIN/berthierctl" --quiet --data-dir "$D" new --ruleset duel --scenario standard --seat-key s0.pub --seat-key s1.pub)

# usage errors
set +e
"$BIN/berthier-bot" --data-dir "$D" --game "$G" --seat 0 >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "no --key: exit $rc"
"$BIN/berthier-bot" --data-dir "$D" --key s0.key --game "$G" --seat 0 --policy nosuch >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "unknown policy: exit $rc"
set -e

# seat 1 plays greedy from the start; seat 0 starts, is killed, and comes back
"$BIN/berthier-bot" --data-dir "$D" --key s1.key --game "$G" --seat 1 --policy greedy --seed 2 \
  >"$T/bot1.out" 2>"$T/bot1.err" &
b1=$!; bots+=("$b1")
"$BIN/berthier-bot" --data-dir "$D" --key s0.key --game "$G" --seat 0 --policy random --seed 1 \
  >"$T/bot0a.out" 2>"$T/bot0a.err" &
b0=$!; bots+=("$b0")
for _ in $(seq 100); do
  seq=$("$BIN/berthierctl" --data-dir "$D" games | awk -v g="$G" '$1 == g { print $5 }')
  [ "${seq:-0}" -ge 6 ] && break
  sleep 0.02
done
kill -9 "$b0" 2>/dev/null || true
wait "$b0" 2>/dev/null || true
"$BIN/berthier-bot" --data-dir "$D" --key s0.key --game "$G" --seat 0 --policy random --seed 3 \
  >"$T/bot0.out" 2>"$T/bot0.err" &
b0=$!; bots+=("$b0")
wait "$b0" || fail "seat 0 bot exit $?"
wait "$b1" || fail "seat 1 bot exit $?"
bots=()
grep -q "^game $G seat 0: .*\(wins\|draw\)" "$T/bot0.out" || fail "seat 0 printed no result"
grep -q "^game $G seat 1: .*\(wins\|draw\)" "$T/bot1.out" || fail "seat 1 printed no result"
"$BIN/berthierctl" --data-dir "$D" log -o "$T/g.log" "$G" >/dev/null
"$BIN/berthier-replay" verify "$T/g.log" >/dev/null || fail "the log does not verify"

# a bot on a game that is over prints the result and exits 0 at once
"$BIN/berthier-bot" --data-dir "$D" --key s0.key --game "$G" --seat 0 >"$T/again.out" 2>&1 \
  || fail "a bot on an ended game: exit $?"
grep -q "^game $G seat 0: " "$T/again.out" || fail "no result for an ended game"
echo "ok: berthier-bot processes play a game to the end, across a bot restart"
