#!/usr/bin/env bash
# Waterloo: Enemy Mistakes (wem) on a real berthierd with the bots and berthier-match: the short
# scenario [Short Alternative Scenario] with 2 seats, the complete one [End of the Last Turn of the
# Game] and the medium one, each with 2 seats (red also plays black from turn VIII [Introduction]) and with 3 (blue, red,
# black), the greedy player in every seat once; every game plays to a result, and every log
# verifies with berthier-replay verify (--verify, inside the runner) and with the Python verifier.
# An external bot of protocol 2 reads the seat's view as JSON. Then the query request on a finished game: berthierctl query with the admin key answers with
# the ruleset's text (and so does Python's Client.query), and a question for a ruleset that answers none (duel) is refused (exit 1).
# The dice are fixed (dice-seed, docs/dice.md "Fixed dice") and the bots seeded, so that the
# games are the same on every run; the decision clock is off (--decision-ms 0).
# Skipped (exit 0, says so) while the daemon does not list ruleset wem.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init wem
start_daemon
SRC=${BERTHIER_SRC:-$(dirname "$0")/../..}
DICE=5e3d1b0c5d9f2e4a6b8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a
if ! daemon_has_ruleset wem; then
  echo "skipped: this berthierd has no ruleset wem ($(grep '^rulesets' "$T/hello"))"
  exit 0
fi

last_game=""
# play GAMES SCENARIO SEATS BOTS [SEED]: every game ends and verifies, both ways
play() {
  local games=$1 scenario=$2 seats=$3 bots=$4 seed=${5:-9}
  "$BIN/berthier-match" --data-dir "$D" --ruleset wem --scenario "$scenario" --seats "$seats" --games "$games" \
    --bots "$bots" --seed "$seed" --option dice-seed=$DICE --verify --decision-ms 0 --game-timeout 600 >"$T/out" 2>"$T/err" \
    || fail "wem $scenario, $seats seats: berthier-match exit $?"
  grep -qE "^$games of $games games? ended\$" "$T/out" || fail "wem $scenario, $seats seats: not every game ended"
  [ "$(grep -c ' verified$' "$T/out")" = "$games" ] || fail "wem $scenario, $seats seats: not every log verified"
  local n=0
  while read -r id rest; do
    log=$(echo "$rest" | sed -n 's/.*  log \([^ ]*\).*/\1/p')
    [ -f "$log" ] || fail "game $id: no log at $log"
    "$BIN/berthier-replay" export "$log" >"$T/export" || fail "game $id: berthier-replay export failed"
    grep -q '"kind":"end"' "$T/export" || fail "game $id: the log has no end record"
    (cd "$SRC/clients/python" && /usr/bin/python3 -m berthier.verify "$log") >"$T/pv" 2>&1 \
      || { cat "$T/pv" >&2; fail "game $id: the Python verifier refuses the log"; }
    last_game=$id
    n=$((n + 1))
  done < <(grep -E '^[0-9a-f]{16}  ' "$T/out")
  [ "$n" = "$games" ] || fail "wem $scenario, $seats seats: $n game lines, not $games"
  echo "ok: wem $scenario, $seats seats ($bots): $games games ended, every log verified by both verifiers"
}

play 2 short 2 greedy,random
play 1 short 2 random,greedy
play 1 full 2 greedy,random
play 1 full 3 random,greedy,greedy 10
play 1 medium 2 random,greedy
play 1 medium 3 greedy,random,greedy

# an external bot that reads the wem view (protocol 2: view-json is the seat's wem.v1.View)
"$BIN/berthier-match" --data-dir "$D" --ruleset wem --scenario short --seats 2 --games 1 \
  --bots "exec:/usr/bin/python3 $SRC/clients/bot/examples/wem_view_bot.py --report $T/wreport,random" \
  --seed 5 --option dice-seed=$DICE --verify --decision-ms 0 --game-timeout 600 >"$T/out" 2>"$T/err" \
  || fail "wem short with the view bot: berthier-match exit $?"
grep -qE "^1 of 1 game ended\$" "$T/out" || fail "wem short with the view bot: the game did not end"
if grep -q '^decision ' "$T/wreport" 2>/dev/null; then
  ! grep -q 'no view' "$T/wreport" || fail "the wem view bot got a decision without the view's JSON"
  grep -qE '^decision [0-9]+ .*: units [1-9][0-9]* enemies [1-9][0-9]* nearest [0-9]+ mm$' "$T/wreport" \
    || fail "the wem view bot never read its units and the enemy's from the view"
  echo "ok: an exec bot reads the wem view as JSON ($(grep -c '^decision ' "$T/wreport") decisions)"
else
  echo "ok: the wem view bot's game ended with no decision for it (the engine asks none yet)"
fi

# the query request (docs/protocol.md P4): the admin key is answered from the whole state
"$BIN/berthierctl" --data-dir "$D" --quiet query "$last_game" 0 reach B1 R1 >"$T/q" 2>"$T/qerr" \
  || { cat "$T/qerr" >&2; fail "berthierctl query on wem game $last_game: exit $?"; }
[ -s "$T/q" ] || fail "berthierctl query: an empty answer"
echo "ok: berthierctl query answered on wem game $last_game: $(head -c 80 "$T/q")"
# and through the Python client (Client.query)
(cd "$SRC/clients/python" && /usr/bin/python3 -c '
import sys
from berthier.client import Client
c = Client(data_dir=sys.argv[1], timeout=10)
a = c.query(sys.argv[2], 0, "reach B1 R1")
assert isinstance(a, str) and a, repr(a)
print(a.splitlines()[0])
' "$D" "$last_game") >"$T/pq" 2>&1 || { cat "$T/pq" >&2; fail "Client.query on wem game $last_game"; }
echo "ok: Client.query answered: $(head -c 80 "$T/pq")"
"$BIN/berthier-match" --data-dir "$D" --ruleset duel --scenario standard --seats 2 --games 1 --bots random,random \
  --seed 3 --decision-ms 0 --game-timeout 120 >"$T/out" 2>"$T/err" || fail "duel: berthier-match exit $?"
duel=$(grep -E '^[0-9a-f]{16}  ' "$T/out" | head -1 | cut -d' ' -f1)
set +e
"$BIN/berthierctl" --data-dir "$D" --quiet query "$duel" 0 anything >"$T/q" 2>"$T/qerr"
rc=$?
set -e
[ "$rc" = 1 ] || fail "berthierctl query on a duel game: exit $rc, not 1 (refused)"
grep -q "answers no queries" "$T/qerr" || fail "berthierctl query on duel: the refusal does not say why ($(cat "$T/qerr"))"
echo "ok: a query on a duel game is refused: $(head -c 100 "$T/qerr")"
