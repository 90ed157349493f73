#!/usr/bin/env bash
# Waterloo: Napoleon's Last Battle (wnlb) on a real berthierd with the bots and berthier-match:
# the Short game [13.2] with 2 seats, the Full Battle game [13.3] with 2 seats (French, Allied)
# and with 3 (French, British, Prussian [6.0]) each play to a result, and every log verifies
# with berthier-replay verify (--verify, inside the runner) and with the Python verifier; one
# 3-seat game seats the greedy player on both Allied seats (the deck and bidder choices [6.0] [7.0]).
# The dice are fixed (dice-seed, docs/dice.md "Fixed dice": every shuffle, deal and blind draw
# [4.0] [7.0] [11.7] comes from them) and the bots seeded, so that the games are the same on
# every run. The decision clock is off (--decision-ms 0): on a loaded machine a slow decision
# must not forfeit a seat and change the game (the whole-game timeout still bounds a hang).
# Skipped (exit 0, says so) while the daemon does not list ruleset wnlb.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init wnlb
start_daemon
SRC=${BERTHIER_SRC:-$(dirname "$0")/../..}
DICE=3a7e1b0c5d9f2e4a6b8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a
if ! daemon_has_ruleset wnlb; then
  echo "skipped: this berthierd has no ruleset wnlb ($(grep '^rulesets' "$T/hello"))"
  exit 0
fi

# play GAMES SCENARIO SEATS BOTS: every game ends and verifies, both ways
play() {
  local games=$1 scenario=$2 seats=$3 bots=$4
  "$BIN/berthier-match" --data-dir "$D" --ruleset wnlb --scenario "$scenario" --seats "$seats" --games "$games" \
    --bots "$bots" --seed 14 --option dice-seed=$DICE --verify --decision-ms 0 --game-timeout 600 >"$T/out" 2>"$T/err" \
    || fail "wnlb $scenario, $seats seats: berthier-match exit $?"
  grep -qE "^$games of $games games? ended\$" "$T/out" || fail "wnlb $scenario, $seats seats: not every game ended"
  [ "$(grep -c ' verified$' "$T/out")" = "$games" ] || fail "wnlb $scenario, $seats seats: not every log verified"
  local n=0
  while read -r id rest; do
    log=$(echo "$rest" | sed -n 's/.*  log \([^ ]*\).*/\1/p')
    [ -f "$log" ] || fail "game $id: no log at $log"
    # a result, not an abort: the log's last record is the end of the game
    # (through a file: with pipefail, grep -q closing the pipe early would fail the export)
    "$BIN/berthier-replay" export "$log" >"$T/export" || fail "game $id: berthier-replay export failed"
    grep -q '"kind":"end"' "$T/export" || fail "game $id: the log has no end record"
    (cd "$SRC/clients/python" && /usr/bin/python3 -m berthier.verify "$log") >"$T/pv" 2>&1 \
      || { cat "$T/pv" >&2; fail "game $id: the Python verifier refuses the log"; }
    n=$((n + 1))
  done < <(grep -E '^[0-9a-f]{16}  ' "$T/out")
  [ "$n" = "$games" ] || fail "wnlb $scenario, $seats seats: $n game lines, not $games"
  echo "ok: wnlb $scenario, $seats seats ($bots): $games games ended, every log verified by both verifiers"
}

play 2 short 2 greedy,random
play 2 full 2 greedy,random
play 3 full 3 greedy,random,random
play 1 full 3 random,greedy,greedy
