#!/usr/bin/env bash
# berthier-match plays 3 duel games on a real berthierd: every game ends, one
# line per game, the table of wins/draws/losses with Elo, and every log
# verifies with berthier-replay. Then an external bot (exec:, the line protocol
# of docs/bots.md) plays 2 games against random.
. "$(dirname "$0")/lib.sh"
e2e_init match
start_daemon

# --- 3 games, random vs greedy
"$BIN/berthier-match" --data-dir "$D" --ruleset duel --scenario standard --games 3 \
  --bots random,greedy --seed 11 >"$T/out" 2>"$T/err" || fail "berthier-match exit $?"
[ "$(grep -cE '^[0-9a-f]{16}  ' "$T/out")" = 3 ] || fail "not 3 game lines"
grep -q '^3 of 3 games ended$' "$T/out" || fail "not every game ended"
grep -qE '^random +3 ' "$T/out" && grep -qE '^greedy +3 ' "$T/out" || fail "no table rows"
grep -q 'Elo (95% CI)' "$T/out" || fail "no rating column"
while read -r id seats0 seats1 rest; do
  log=$(echo "$rest" | sed -n 's/.*  log \([^ ]*\).*/\1/p')
  [ -f "$log" ] || fail "game $id: no log at $log"
  "$BIN/berthier-replay" verify "$log" >/dev/null || fail "game $id: the log does not verify"
  # orders counted by the bots = order records in the log
  n=$(echo "$rest" | sed -n 's/.*  orders \([0-9]*\) .*/\1/p')
  m=$("$BIN/berthier-replay" export "$log" | grep -c '"kind":"order"')
  [ "$n" = "$m" ] || fail "game $id: $n orders accepted, $m in the log"
  # seats alternate: game lines show 0=random 1=greedy then 0=greedy 1=random
done < <(grep -E '^[0-9a-f]{16}  ' "$T/out")
sed -n 1p "$T/out" | grep -q '0=random 1=greedy' || fail "game 1 seats"
sed -n 2p "$T/out" | grep -q '0=greedy 1=random' || fail "game 2 seats do not alternate"

# --- --verify does the same from inside the runner
"$BIN/berthier-match" --data-dir "$D" --games 1 --bots random,random --seed 12 --verify >"$T/out" 2>"$T/err" \
  || fail "berthier-match --verify exit $?"
grep -q ' verified$' "$T/out" || fail "--verify did not say verified"

# --- dice=contributory: the bots commit to nonce chains at join and reveal a link per dice batch
"$BIN/berthier-match" --data-dir "$D" --games 2 --bots greedy,random --option dice=contributory --seed 15 \
  --verify >"$T/out" 2>"$T/err" || fail "contributory match exit $?"
[ "$(grep -c ' verified$' "$T/out")" = 2 ] || fail "contributory games did not verify"
log=$(grep -E '^[0-9a-f]{16}  ' "$T/out" | head -n 1 | sed -n 's/.*  log \([^ ]*\).*/\1/p')
"$BIN/berthier-replay" export "$log" >"$T/export" || fail "export failed"
grep -q '"kind":"nonce"' "$T/export" || fail "no nonce reveals in a contributory game"

# --- an external bot: answers the first listed order after checking the protocol
cat >"$T/first.sh" <<'BOT'
#!/bin/sh
read -r hello; [ "$hello" = "berthier-bots 1" ] || exit 3
read -r game; read -r seat
first=""
while read -r line; do
  case "$line" in
    "legal "*) n=${line#legal }; i=0
       while [ "$i" -lt "$n" ]; do read -r o; [ "$i" = 0 ] && first=$o; i=$((i+1)); done ;;
    go) echo "$first" ;;
    "end "*) exit 0 ;;
  esac
done
BOT
chmod +x "$T/first.sh"
"$BIN/berthier-match" --data-dir "$D" --games 2 --bots "exec:$T/first.sh,random" --seed 13 --verify \
  >"$T/out" 2>"$T/err" || fail "exec bot match exit $?"
grep -q '^2 of 2 games ended$' "$T/out" || fail "exec bot games did not end"
grep -qE '^first.sh +2 ' "$T/out" || fail "no table row for the external bot"
[ "$(grep -c ' verified$' "$T/out")" = 2 ] || fail "exec bot games did not verify"

# --- the Python external bot of docs/bots.md, verbatim
sed -n '/^### A complete external bot in Python/,/^```$/p' "${BERTHIER_SRC:-$(dirname "$0")/../..}/docs/bots.md" \
  | sed -n '/^```python$/,/^```$/p' | sed '1d;$d' >"$T/mybot.py"
grep -q 'rng.choice' "$T/mybot.py" || fail "could not extract the example bot from docs/bots.md"
sed -i '1s|.*|#!/usr/bin/python3|' "$T/mybot.py"
chmod +x "$T/mybot.py"
"$BIN/berthier-match" --data-dir "$D" --games 2 --bots "exec:$T/mybot.py,random" --seed 14 --verify \
  >"$T/out" 2>"$T/err" || fail "python bot match exit $?"
[ "$(grep -c ' verified$' "$T/out")" = 2 ] || fail "python bot games did not verify"

# --- usage errors
set +e
"$BIN/berthier-match" --data-dir "$D" --bots nosuch >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "unknown bot: exit $rc"
"$BIN/berthier-match" --data-dir "$D" --ruleset duel --bots greedy,random --ruleset nosuch >/dev/null 2>"$T/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'greedy policy needs ruleset n20' "$T/err" || fail "greedy on an unknown ruleset: exit $rc"
echo "ok: berthier-match duel"
