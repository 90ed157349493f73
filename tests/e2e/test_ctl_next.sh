#!/usr/bin/env bash
# berthierctl with replies that carry the seat's next decision and legal orders
# (docs/protocol.md P4.3): join, order, reveal and resign take --next / --legal, pending
# takes --legal. A duel game is played to its end with one call per turn (order --seq N
# --legal, N and the order taken from the previous call's output), never a `legal` call;
# --limit and --no-texts shape the list; without the options nothing new is printed; a
# contributory game reveals with --legal; both logs verify.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init ctlnext
fail() { echo "FAIL: $*" >&2; echo "--- stdout"; cat "$T/out" 2>/dev/null; echo "--- stderr"; cat "$T/err" 2>/dev/null; exit 1; }
expect() {
  local want=$1; shift
  set +e; "$@" >"$T/out" 2>"$T/err"; local rc=$?; set -e
  [ "$rc" = "$want" ] || fail "exit $rc (wanted $want): $*"
}
ctl() { "$BIN/berthierctl" --data-dir "$D" --receipts - "$@"; }

# --- usage: the options and their help, no daemon needed
expect 0 "$BIN/berthierctl" help order
grep -q -- '--legal' "$T/out" || fail "order --help does not name --legal"
expect 0 "$BIN/berthierctl" help pending
grep -q -- '--legal' "$T/out" || fail "pending --help does not name --legal"
expect 2 "$BIN/berthierctl" --data-dir "$T/nowhere" order --limit 3 0123456789abcdef 0 bid 1
grep -q -- '--limit and --no-texts go with --legal' "$T/err" || fail "--limit without --legal not refused"
expect 2 "$BIN/berthierctl" --data-dir "$T/nowhere" pending --next 0123456789abcdef 0
expect 2 "$BIN/berthierctl" --data-dir "$T/nowhere" join --limit x 0123456789abcdef 0

cd "$T"
expect 0 "$BIN/berthierctl" keygen alice
expect 0 "$BIN/berthierctl" keygen bob
start_daemon
A=(ctl --key alice.key)
Bb=(ctl --key bob.key)
expect 0 ctl new --ruleset duel --scenario standard --seat-key alice.pub --seat-key bob.pub
G=$(cat "$T/out")

# --- join --legal: the decision after the join, no orders before the start
expect 0 "${A[@]}" join --legal "$G" 0
grep -q '^joined seat 0' "$T/out" || fail "join printed no join line"
grep -q '^next seq ' "$T/out" || fail "join --legal printed no next decision"
grep -q '^next started no$' "$T/out" || fail "the game started with one seat"
grep -q '^legal ' "$T/out" && fail "legal orders before the start"
expect 0 "${Bb[@]}" join --legal "$G" 1
grep -q '^next started yes$' "$T/out" || fail "the last join does not start the game"
grep -q '^next you-must-act yes$' "$T/out" || fail "seat 1 has nothing to do at the start"
grep -qx 'legal bid 0' "$T/out" || fail "bid 0 is not among seat 1's legal orders"
cp "$T/out" "$T/seat1"

# --- pending --legal, --limit, --no-texts; pending alone prints no legal orders
expect 0 "${A[@]}" pending "$G" 0
grep -q '^legal ' "$T/out" && fail "pending without --legal printed legal orders"
expect 0 "${A[@]}" pending --legal "$G" 0
grep -q '^you-must-act yes$' "$T/out" || fail "seat 0 has nothing to do at the start"
grep -qx 'legal bid 0' "$T/out" || fail "pending --legal gave no bid 0"
grep -q '^next ' "$T/out" && fail "pending --legal printed its decision twice"
cp "$T/out" "$T/seat0"
expect 0 "${A[@]}" pending --legal --limit 1 "$G" 0
[ "$(grep -c '^legal ' "$T/out")" = 1 ] || fail "--limit 1 gave another count of orders"
expect 0 "${A[@]}" pending --legal --no-texts "$G" 0
grep -q '^legal hex:[0-9a-f]*$' "$T/out" || fail "--no-texts gave no encoded orders"
grep -q '^legal bid' "$T/out" && fail "--no-texts gave texts"

# --- an order without the options prints what it always did
expect 0 "${A[@]}" order --seq "$(sed -n 's/^seq //p' "$T/seat0")" "$G" 0 bid 1
grep -q '^accepted seq' "$T/out" || fail "order printed no acceptance"
grep -q '^next \|^legal ' "$T/out" && fail "order without --next/--legal printed more"
expect 0 "${A[@]}" pending --legal "$G" 0
cp "$T/out" "$T/seat0"

# --- play to the end with one call per turn: each seat keeps its last output; when it
# says the seat must act, the seat's order cites that seq with the first legal order and
# asks for the next ones (order --seq N --legal); otherwise it asks with pending --legal.
# A seat's seq and orders are read from "next seq"/"legal" lines, or pending's "seq" lines.
seq_of() { sed -n 's/^\(next \)\{0,1\}seq //p' "$1" | tail -n 1; }
acts() { grep -q '^\(next \)\{0,1\}you-must-act yes$' "$1"; }
ended=""; turns=0; pendings=0
for _ in $(seq 400); do
  for s in 0 1; do
    if [ "$s" = 0 ]; then C=("${A[@]}"); else C=("${Bb[@]}"); fi
    f="$T/seat$s"
    if grep -q '^\(next \)\{0,1\}result ' "$f"; then ended=1; break 2; fi
    if acts "$f" && grep -q '^legal ' "$f"; then
      order=$(sed -n 's/^legal //p' "$f" | head -n 1)
      set +e; "${C[@]}" order --seq "$(seq_of "$f")" --legal "$G" "$s" $order >"$T/out" 2>"$T/err"; rc=$?; set -e
      if [ "$rc" = 0 ]; then
        grep -q '^accepted seq' "$T/out" || fail "order --legal printed no acceptance"
        grep -q '^next seq ' "$T/out" || fail "order --legal printed no next decision"
        turns=$((turns + 1))
        cp "$T/out" "$f"
        continue
      fi
      grep -qE '^rejected (STALE|NOT_YOUR_DECISION)' "$T/err" || fail "order $order: exit $rc"
    fi
    expect 0 "${C[@]}" pending --legal "$G" "$s"
    pendings=$((pendings + 1))
    cp "$T/out" "$f"
  done
done
[ -n "$ended" ] || fail "the game did not end"
[ "$turns" -ge 2 ] || fail "only $turns orders in a whole game"
echo "played $G: $turns orders, $pendings pending calls, no legal call"
expect 1 "${A[@]}" order --seq 1 --legal "$G" 0 bid 1
grep -qE '^rejected (GAME_OVER|NOT_YOUR_DECISION|STALE)' "$T/err" || fail "an order after the end"
expect 0 ctl log -o "$T/game.log" "$G"
expect 0 "$BIN/berthier-replay" verify "$T/game.log"

# --- dice=contributory: reveal --legal, then resign --next
expect 0 ctl new --ruleset duel --scenario standard --option dice=contributory --seat-key alice.pub --seat-key bob.pub
CG=$(cat "$T/out")
expect 0 "${A[@]}" join --chain chain0 --next "$CG" 0
grep -q '^next seq ' "$T/out" || fail "join --chain --next printed no next decision"
expect 0 "${Bb[@]}" join --chain chain1 --legal "$CG" 1
grep -q '^next kind dice-nonce$' "$T/out" || fail "a contributory game does not ask for a nonce first"
grep -q '^legal ' "$T/out" && fail "legal orders for a dice-nonce decision"
b=$(sed -n 's/^next prompt dice batch \([0-9]*\):.*/\1/p' "$T/out")
expect 0 "${A[@]}" reveal --chain chain0 --legal "$CG" 0 "$b"
grep -q '^revealed seat 0' "$T/out" || fail "reveal printed no reveal line"
grep -q '^next seq ' "$T/out" || fail "reveal --legal printed no next decision"
expect 0 "${Bb[@]}" reveal --chain chain1 --legal "$CG" 1 "$b"
grep -q '^next you-must-act yes$' "$T/out" || fail "after both reveals seat 1 has nothing to do"
grep -qx 'legal bid 0' "$T/out" || fail "after both reveals the reply gives no bid 0"
expect 0 "${Bb[@]}" resign --next "$CG" 1
grep -q '^seat 1 resigned' "$T/out" || fail "resign printed no resign line"
grep -q '^next result winners 0' "$T/out" || fail "resign --next printed no result"
expect 0 ctl log -o "$T/contrib.log" "$CG"
expect 0 "$BIN/berthier-replay" verify "$T/contrib.log"
echo "ok: berthierctl --next / --legal"
