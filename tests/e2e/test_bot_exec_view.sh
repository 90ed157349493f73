#!/usr/bin/env bash
# An external bot that asks for protocol 2 (docs/bots.md) plays a duel game to
# the end through berthier-bot's exec mode, choosing from the view it is sent:
# clients/bot/examples/duel_view_bot.py. Every decision block must carry the
# view as JSON, the events since the previous block must arrive with their JSON
# (together at least the game's events up to its last decision), and the game's
# log verifies. A protocol 1 bot still plays on the same runner. On the old
# code the runner never answers "protocol 2 ok": the bot exits 4 at the first
# "rejected" and its seat resigns.
. "$(dirname "$0")/lib.sh"
e2e_init execview
bots=()
stop_bots() { for p in "${bots[@]}"; do kill "$p" 2>/dev/null || true; done; }
e2e_extra_cleanup=stop_bots
start_daemon
SRC=${BERTHIER_SRC:-$(dirname "$0")/../..}
cd "$T"
"$BIN/berthierctl" --quiet keygen s0 >/dev/null
"$BIN/berthierctl" --quiet keygen s1 >/dev/null
G=$("$BIN/berthierctl" --quiet --data-dir "$D" new --ruleset duel --scenario standard --seat-key s0.pub --seat-key s1.pub)

"$BIN/berthier-bot" --data-dir "$D" --key s1.key --game "$G" --seat 1 --policy random --seed 5 \
  >"$T/out1" 2>"$T/err1" &
bots+=($!)
"$BIN/berthier-bot" --data-dir "$D" --key s0.key --game "$G" --seat 0 \
  --policy "exec:/usr/bin/python3 $SRC/clients/bot/examples/duel_view_bot.py --report $T/report" \
  >"$T/out" 2>"$T/err" || fail "the exec bot's berthier-bot exit $?"
wait "${bots[0]}" || fail "seat 1 bot exit $?"
bots=()
grep -q "^game $G seat 0: .*\(wins\|draw\)" "$T/out" || fail "seat 0 printed no result"
! grep -q 'resign' "$T/out" "$T/err" || fail "the exec bot resigned"
grep -q '^end ' "$T/report" || fail "the bot was not told the end"
n=$(grep -c '^decision ' "$T/report")
[ "$n" -ge 2 ] || fail "the bot made $n decisions"
[ "$(grep -c '^decision .* view json ' "$T/report")" = "$n" ] || fail "a decision came without the view as JSON"
! grep -q '^rejected ' "$T/report" || fail "an order of the bot was rejected"
# the events shown, summed over the decisions, each with its JSON
ev=$(sed -n 's/^decision .* events \([0-9]*\) json-events [0-9]*:.*/\1/p' "$T/report" | awk '{ t += $1 } END { print t + 0 }')
js=$(sed -n 's/^decision .* events [0-9]* json-events \([0-9]*\):.*/\1/p' "$T/report" | awk '{ t += $1 } END { print t + 0 }')
[ "$ev" -gt 0 ] && [ "$ev" = "$js" ] || fail "events shown $ev, with JSON $js"
# it chose from the view: its bids cite the reserve it read (10 at the start [D1])
grep -qE '^decision [0-9]+ view json .*: bid 2 \(reserve 10, behind 0\)$' "$T/report" || fail "the first bid was not chosen from the view"
"$BIN/berthierctl" --data-dir "$D" log -o "$T/g.log" "$G" >/dev/null
"$BIN/berthier-replay" verify "$T/g.log" >/dev/null || fail "the log does not verify"
# at most as many events as the game has (none shown twice)
all=$("$BIN/berthier-replay" export "$T/g.log" | grep -c '"kind":"event"')
[ "$ev" -le "$all" ] || fail "$ev events shown, the game has $all"

# A protocol 1 bot that reads every block by position and exits at any line it
# does not expect still plays a whole game on this runner (it never asks for
# protocol 2, so it is never sent a view line).
cat >"$T/strict.sh" <<'BOT'
#!/bin/sh
read -r hello; [ "$hello" = "berthier-bots 1" ] || exit 3
read -r game; read -r seat
while read -r line; do
  case "$line" in
    "end "*) exit 0 ;;
    "rejected "*) continue ;;
    "decision "*) ;;
    *) echo "strict: unexpected line: $line" >&2; exit 5 ;;
  esac
  read -r prompt; case "$prompt" in "prompt "*) ;; *) echo "strict: no prompt: $prompt" >&2; exit 5 ;; esac
  read -r legal; case "$legal" in "legal "*) ;; *) echo "strict: no legal: $legal" >&2; exit 5 ;; esac
  n=${legal#legal }; i=0
  while [ "$i" -lt "$n" ]; do read -r o; i=$((i+1)); done
  read -r go; [ "$go" = "go" ] || { echo "strict: no go: $go" >&2; exit 5; }
  echo "@0"
done
BOT
chmod +x "$T/strict.sh"
G2=$("$BIN/berthierctl" --quiet --data-dir "$D" new --ruleset duel --scenario standard --seat-key s0.pub --seat-key s1.pub)
"$BIN/berthier-bot" --data-dir "$D" --key s1.key --game "$G2" --seat 1 --policy random --seed 6 \
  >"$T/out1" 2>"$T/err1" &
bots+=($!)
"$BIN/berthier-bot" --data-dir "$D" --key s0.key --game "$G2" --seat 0 --policy "exec:$T/strict.sh" \
  >"$T/out" 2>"$T/err" || fail "the protocol 1 bot's berthier-bot exit $?"
wait "${bots[0]}" || fail "seat 1 bot exit $?"
bots=()
grep -q "^game $G2 seat 0: .*\(wins\|draw\)" "$T/out" || fail "the protocol 1 game printed no result"
! grep -q 'strict:\|resign' "$T/out" "$T/err" || fail "the protocol 1 bot met a line it did not expect"

# The n20 example: it moves its units toward the nearest enemy it reads in the
# view's JSON, and plays a whole Waterloo 20 game.
G3=$("$BIN/berthierctl" --quiet --data-dir "$D" new --ruleset n20 --scenario waterloo20-standard \
  --seat-key s0.pub --seat-key s1.pub)
"$BIN/berthier-bot" --data-dir "$D" --key s1.key --game "$G3" --seat 1 --policy random --seed 7 \
  >"$T/out1" 2>"$T/err1" &
bots+=($!)
"$BIN/berthier-bot" --data-dir "$D" --key s0.key --game "$G3" --seat 0 \
  --policy "exec:/usr/bin/python3 $SRC/clients/bot/examples/n20_view_bot.py --report $T/report3" \
  >"$T/out" 2>"$T/err" || fail "the n20 exec bot's berthier-bot exit $?"
wait "${bots[0]}" || fail "seat 1 bot exit $?"
bots=()
grep -q "^game $G3 seat 0: .*\(wins\|draw\)" "$T/out" || fail "the n20 game printed no result"
! grep -q 'resign' "$T/out" "$T/err" || fail "the n20 exec bot resigned"
grep -qE '^decision [0-9]+ move: move [A-Z]+ .*: closer by [0-9]+$' "$T/report3" || fail "the n20 bot never moved toward an enemy"
! grep -q '^rejected ' "$T/report3" || fail "an order of the n20 bot was rejected"
echo "ok: protocol 2 exec bots play duel and n20 from the view; a protocol 1 bot plays as before"
