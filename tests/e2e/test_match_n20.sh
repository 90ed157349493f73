#!/usr/bin/env bash
# Napoleonic 20, Waterloo 20 standard scenario: the greedy bot beats the random
# bot in at least 7 of 8 games (seats alternate), and every log verifies.
# The dice are fixed (dice-seed, docs/dice.md "Fixed dice") and the bots seeded, so that the
# count is the same on every run: with the daemon's own random seed, greedy lost 2 of 8 now
# and then, and the test failed by chance.
# Skipped (exit 0, says so) while the daemon does not list ruleset n20.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init n20
start_daemon
DICE=5eed20a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d
if ! daemon_has_ruleset n20; then
  echo "skipped: this berthierd has no ruleset n20 ($(grep '^rulesets' "$T/hello"))"
  exit 0
fi
"$BIN/berthier-match" --data-dir "$D" --ruleset n20 --scenario waterloo20-standard --games 8 \
  --bots greedy,random --seed 20 --option dice-seed=$DICE --verify --game-timeout 600 >"$T/out" 2>"$T/err" || fail "berthier-match exit $?: $(tail -3 "$T/out" "$T/err")"
grep -q '^8 of 8 games ended$' "$T/out" || fail "not every game ended"
[ "$(grep -c ' verified$' "$T/out")" = 8 ] || fail "not every log verified"
wins=$(awk '$1 == "greedy" { print $3; exit }' "$T/out")  # the standings row, not the per-seat one
[ "${wins:-0}" -ge 7 ] || fail "greedy won only ${wins:-0} of 8 games against random"
echo "ok: greedy beat random in $wins of 8 Waterloo 20 games; every log verified"
