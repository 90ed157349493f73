#!/usr/bin/env bash
# berthierctl against a real berthierd on a temporary data dir: every
# subcommand, its --help, and the exit codes scripts rely on
# (0 done, 1 rejected with one line "rejected CODE [rule] message", 2 usage,
# 3 no reply, 4 local file error). A duel game is played to its end by hand.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init ctl
stop_watch() { if [ -n "${watch_pid:-}" ]; then kill "$watch_pid" 2>/dev/null || true; fi; }
e2e_extra_cleanup=stop_watch
fail() { echo "FAIL: $*" >&2; echo "--- stdout"; cat "$T/out" 2>/dev/null; echo "--- stderr"; cat "$T/err" 2>/dev/null; exit 1; }
# expect RC CMD...: run, keep stdout/stderr in $T/out, $T/err, check the exit code.
expect() {
  local want=$1; shift
  set +e; "$@" >"$T/out" 2>"$T/err"; local rc=$?; set -e
  [ "$rc" = "$want" ] || fail "exit $rc (wanted $want): $*"
}
ctl() { "$BIN/berthierctl" --data-dir "$D" "$@"; }

# --- usage (2) and help (0), no daemon needed
expect 2 "$BIN/berthierctl"
expect 2 "$BIN/berthierctl" no-such-command
expect 2 "$BIN/berthierctl" --no-such-option hello
expect 0 "$BIN/berthierctl" --help
grep -q '^Exit codes' "$T/out" || fail "--help documents no exit codes"
for c in hello keygen new join order pending legal state events watch resign header games log help; do
  expect 0 "$BIN/berthierctl" "$c" --help
  grep -q "^usage: berthierctl .*$c" "$T/out" || fail "$c --help has no usage line"
done
expect 0 "$BIN/berthierctl" help order
expect 2 "$BIN/berthierctl" keygen
expect 2 "$BIN/berthierctl" --data-dir "$D" join onlyone

# --- local errors (4): no key files
expect 4 "$BIN/berthierctl" --data-dir "$T/nowhere" hello
grep -q "cannot read" "$T/err" || fail "no reason given for the missing key"

# --- keygen
cd "$T"
expect 0 "$BIN/berthierctl" keygen alice
[ "$(stat -c %a alice.key)" = 600 ] || fail "alice.key is not mode 0600"
[ "$(cat alice.pub)" = "$(cat "$T/out")" ] || fail "keygen printed another key than alice.pub"
grep -q '^public ' alice.key && grep -q '^secret ' alice.key || fail "alice.key format"
expect 4 "$BIN/berthierctl" keygen alice   # never overwrites
expect 0 "$BIN/berthierctl" keygen bob
expect 0 "$BIN/berthierctl" keygen mallory

# --- daemon up
start_daemon
expect 0 ctl hello
grep -q '^admin yes' "$T/out" || fail "the data dir's admin key is not admin"
grep -q '^rulesets .*duel' "$T/out" || fail "no duel ruleset"

# --- new: rejected (1) with a one-line reason, usage errors (2)
expect 1 ctl new --ruleset no-such-ruleset --scenario standard --seat-key alice.pub --seat-key bob.pub
grep -q '^rejected BAD_RULESET' "$T/err" || fail "wrong rejection line"
[ "$(wc -l <"$T/err")" = 1 ] || fail "a rejection is one line"
expect 1 ctl new --ruleset duel --scenario no-such --seat-key alice.pub --seat-key bob.pub
grep -q '^rejected BAD_SCENARIO' "$T/err" || fail "wrong rejection line for the scenario"
expect 2 ctl new --scenario standard --seat-key alice.pub
expect 4 ctl new --ruleset duel --scenario standard --seat-key no-such-file.pub
expect 0 ctl new --ruleset duel --scenario standard --seat-key alice.pub --seat-key bob.pub
G=$(cat "$T/out")
[[ "$G" =~ ^[0-9a-f]{16}$ ]] || fail "game id $G"

# a seat key that is no admin may not create games or list others' logs
expect 1 "$BIN/berthierctl" --data-dir "$D" --key alice.key new --ruleset duel --scenario standard \
  --seat-key alice.pub --seat-key bob.pub
grep -q '^rejected UNAUTHORIZED' "$T/err" || fail "a seat key created a game"
# an unknown key is not let in at all: no reply (3)
expect 3 "$BIN/berthierctl" --data-dir "$D" --key mallory.key --timeout 600 hello

# --- join
A=("$BIN/berthierctl" --data-dir "$D" --key alice.key)
Bb=("$BIN/berthierctl" --data-dir "$D" --key bob.key)
expect 1 "${A[@]}" pending "$G" 1
grep -q '^rejected NOT_YOUR_SEAT' "$T/err" || fail "alice acted for seat 1"
expect 1 "${A[@]}" order "$G" 0 bid 1
grep -qE '^rejected (NOT_STARTED|NOT_YOUR_DECISION)' "$T/err" || fail "an order before the start"
# the header before any entropy: alice's key, the dice commitment, the server key [P3.1]
expect 0 "${A[@]}" header "$G" 0
grep -q '^header-hash [0-9a-f]\{64\}$' "$T/out" || fail "header gives no header hash"
grep -q '^dice-commit [0-9a-f]\{64\}$' "$T/out" || fail "header gives no dice commitment"
grep -q '^header-signature [0-9a-f]\{128\}$' "$T/out" || fail "header gives no header signature"
grep -q '^your-sign-key [0-9a-f]\{64\}$' "$T/out" || fail "header gives no seat signing key"
ALICE_KEY=$(sed -n 's/^your-sign-key //p' "$T/out")
ALICE_HH=$(sed -n 's/^header-hash //p' "$T/out")
expect 1 "${A[@]}" header "$G" 1
grep -q '^rejected NOT_YOUR_SEAT' "$T/err" || fail "alice read seat 1's header"
expect 0 "${A[@]}" join "$G" 0
expect 1 "${A[@]}" join "$G" 0
grep -q '^rejected ALREADY_JOINED' "$T/err" || fail "joined twice"
expect 0 "${Bb[@]}" join "$G" 1
expect 0 "${A[@]}" hello "$G" 0
grep -q '^event-key [0-9a-f]\{64\}$' "$T/out" || fail "hello GAME SEAT gives no event key"

# a watcher on alice's sealed stream, until the end
"${A[@]}" watch --timeout 120 "$G" 0 >"$T/watch.out" 2>"$T/watch.err" &
watch_pid=$!
sleep 0.5

# --- pending / legal / state / events
expect 0 "${A[@]}" pending "$G" 0
grep -q '^you-must-act yes' "$T/out" || fail "seat 0 has nothing to do at the start"
grep -q '^started yes' "$T/out" || fail "not started after both joined"
expect 0 "${A[@]}" legal "$G" 0
grep -qx 'bid 0' "$T/out" || fail "bid 0 is not among the legal orders"
expect 0 "${A[@]}" legal --limit 1 "$G" 0
[ "$(wc -l <"$T/out")" = 1 ] || fail "--limit 1 gave more than one order"
expect 0 "${A[@]}" state "$G" 0
grep -q '^seq ' "$T/out" || fail "state has no seq"
expect 0 "${A[@]}" events "$G" 0

# --- rejected orders: one line with code and rule
expect 1 "${A[@]}" order "$G" 0 bid 9
grep -qE '^rejected ILLEGAL \[D2\] ' "$T/err" || fail "bid 9 not rejected with [D2]"
[ "$(wc -l <"$T/err")" = 1 ] || fail "a rejection is one line"
expect 1 "${A[@]}" order "$G" 0 charge the guns
grep -q '^rejected BAD_TEXT' "$T/err" || fail "nonsense text not BAD_TEXT"
expect 1 "${A[@]}" order --seq 999 "$G" 0 bid 1
grep -q '^rejected STALE' "$T/err" || fail "a wrong seq is not STALE"

# --- play to the end: each seat gives its first legal order when it must act
ended=""
for _ in $(seq 400); do
  for s in 0 1; do
    if [ "$s" = 0 ]; then C=("${A[@]}"); else C=("${Bb[@]}"); fi
    expect 0 "${C[@]}" pending "$G" "$s"
    if grep -q '^result ' "$T/out"; then ended=1; break 2; fi
    grep -q '^you-must-act yes' "$T/out" || continue
    expect 0 "${C[@]}" legal --limit 1 "$G" "$s"
    order=$(head -n 1 "$T/out")
    set +e; "${C[@]}" order "$G" "$s" $order >"$T/out" 2>"$T/err"; rc=$?; set -e
    [ "$rc" = 0 ] || grep -qE '^rejected (STALE|NOT_YOUR_DECISION)' "$T/err" || fail "order $order: exit $rc"
  done
done
[ -n "$ended" ] || fail "the game did not end"
expect 1 "${A[@]}" order "$G" 0 bid 1
grep -qE '^rejected (GAME_OVER|NOT_YOUR_DECISION)' "$T/err" || fail "an order after the end"

# --- games, log, verify
expect 0 ctl games
grep -q "^$G duel standard seq [0-9]* ended" "$T/out" || fail "games does not show the ended game"
expect 0 ctl log -o "$T/game.log" "$G"
expect 0 "$BIN/berthier-replay" verify "$T/game.log"
grep -q 'inputs seat-signed' "$T/out" || fail "verify does not say the inputs were seat-signed"
# against alice's own record of her join (what \`header\` printed) [docs/log-format.md]
expect 0 "$BIN/berthier-replay" verify --seat-key "0:$ALICE_KEY:$ALICE_HH" "$T/game.log"
expect 1 "$BIN/berthier-replay" verify --seat-key "1:$ALICE_KEY" "$T/game.log"
grep -q "this join is not the seat's" "$T/out" || fail "a wrong seat key is not named"
cmp "$T/game.log" "$D/games/$G.log" || fail "the fetched log differs from the daemon's file"

# --- the watcher saw the result on the sealed stream
for _ in $(seq 50); do kill -0 "$watch_pid" 2>/dev/null || break; sleep 0.1; done
wait "$watch_pid" || fail "watch exited non-zero: $(cat "$T/watch.err")"
watch_pid=""
grep -q '^result ' "$T/watch.out" || fail "watch did not see the result"
grep -q '^event ' "$T/watch.out" || fail "watch saw no events"

# --- dice=contributory: join with a chain file, reveal each batch, play to the end [docs/dice.md]
expect 0 ctl new --ruleset duel --scenario standard --option dice=contributory --seat-key alice.pub --seat-key bob.pub
CG=$(cat "$T/out")
expect 1 "${A[@]}" join "$CG" 0
grep -q 'join with --chain FILE' "$T/err" || fail "no hint to join a contributory game with --chain"
expect 0 "${A[@]}" join --chain chain0 "$CG" 0
[ "$(stat -c %a chain0)" = 600 ] || fail "chain0 is not mode 0600"
grep -qE '^berthier-chain-v1 16384 [0-9a-f]{64}$' chain0 || fail "chain0 format: $(cat chain0)"
expect 4 "${Bb[@]}" join --chain chain0 "$CG" 1      # never overwrites a chain
expect 0 "${Bb[@]}" join --chain chain1 "$CG" 1
expect 2 "${A[@]}" reveal "$CG" 0 0                  # no --chain
expect 1 "${A[@]}" reveal --chain chain1 "$CG" 0 0   # another seat's chain: not the next link
grep -q '^rejected ILLEGAL' "$T/err" || fail "a foreign chain's link was not refused: $(cat "$T/err")"
expect 1 "${A[@]}" reveal --chain chain0 "$CG" 0 5   # not the waiting batch
grep -q '^rejected STALE' "$T/err" || fail "a reveal for another batch was not refused: $(cat "$T/err")"
ended=""
reveals=0
for _ in $(seq 600); do
  for s in 0 1; do
    if [ "$s" = 0 ]; then C=("${A[@]}"); else C=("${Bb[@]}"); fi
    expect 0 "${C[@]}" pending "$CG" "$s"
    if grep -q '^result ' "$T/out"; then ended=1; break 2; fi
    grep -q '^you-must-act yes' "$T/out" || continue
    if grep -q '^kind dice-nonce' "$T/out"; then
      b=$(sed -n 's/^prompt dice batch \([0-9]*\):.*/\1/p' "$T/out")
      expect 0 "${C[@]}" reveal --chain "chain$s" "$CG" "$s" "$b"
      reveals=$((reveals + 1))
      continue
    fi
    expect 0 "${C[@]}" legal --limit 1 "$CG" "$s"
    order=$(head -n 1 "$T/out")
    set +e; "${C[@]}" order "$CG" "$s" $order >"$T/out" 2>"$T/err"; rc=$?; set -e
    [ "$rc" = 0 ] || grep -qE '^rejected (STALE|NOT_YOUR_DECISION)' "$T/err" || fail "order $order: exit $rc"
  done
done
[ -n "$ended" ] || fail "the contributory game did not end"
[ "$reveals" -ge 2 ] || fail "only $reveals reveals in a contributory game (batch 0 needs both seats)"
expect 0 ctl log -o "$T/contrib.log" "$CG"
expect 0 "$BIN/berthier-replay" verify "$T/contrib.log"

# --- no daemon: no reply (3)
kill_daemon
expect 3 ctl --timeout 500 hello
grep -q '^no reply from ' "$T/err" || fail "no-reply line"
echo "ok: berthierctl"
