#!/usr/bin/env bash
# berthierctl keeps the daemon's receipts and witnesses its checkpoints; berthier-replay
# verify checks a log against them and pins the signer (docs/protocol.md P9,
# docs/log-format.md "Receipts", "Witnesses", "Pinning the signer").
#
# A duel game is played by hand, alice with --receipts FILE, bob with the default file
# (receipts/GAME.receipts), while alice's seat stream and the spectators' stream are
# witnessed into heads files. Then:
#   - the log holds every receipt and extends every head, pinned by sign.pub (exit 0);
#   - unpinned it still exits 0, and says "signer not pinned";
#   - pinned to another key (--pk, --trust) it is exit 1;
#   - cut in the middle (the operator drops the end of the game), verify alone calls it
#     incomplete (exit 2) but with the receipts or the heads it is exit 1, naming them.
# On the old code berthierctl kept no receipts and had no witness command, and verify had
# none of --receipts, --heads, --trust: this test fails at the first of them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init ctlrcpt
stop_bg() { for p in ${wit_pids:-}; do kill "$p" 2>/dev/null || true; done; }
e2e_extra_cleanup=stop_bg
fail() { echo "FAIL: $*" >&2; echo "--- stdout"; cat "$T/out" 2>/dev/null; echo "--- stderr"; cat "$T/err" 2>/dev/null; exit 1; }
expect() {
  local want=$1; shift
  set +e; "$@" >"$T/out" 2>"$T/err"; local rc=$?; set -e
  [ "$rc" = "$want" ] || fail "exit $rc (wanted $want): $*"
}
ctl() { "$BIN/berthierctl" --data-dir "$D" "$@"; }

start_daemon
cd "$T"
unset BERTHIER_RECEIPTS_DIR
expect 0 "$BIN/berthierctl" keygen alice
expect 0 "$BIN/berthierctl" keygen bob
expect 0 ctl new --ruleset duel --scenario standard --seat-key alice.pub --seat-key bob.pub
G=$(cat "$T/out")
A=("$BIN/berthierctl" --data-dir "$D" --key alice.key --receipts "$T/alice.receipts")
Bb=("$BIN/berthierctl" --data-dir "$D" --key bob.key)

expect 2 "${A[@]}" witness "$G"                      # --out is required
"${A[@]}" witness --seat 0 --timeout 120 --out "$T/alice.heads" "$G" >"$T/wit0.out" 2>"$T/wit0.err" &
wit_pids=$!
ctl witness --timeout 120 --out "$T/spect.heads" "$G" >"$T/wit1.out" 2>"$T/wit1.err" &
wit_pids="$wit_pids $!"
# both have subscribed before the game starts (they say so; no timing is asserted)
for _ in $(seq 600); do
  grep -q '^witnessing' "$T/wit0.out" 2>/dev/null && grep -q '^witnessing' "$T/wit1.out" 2>/dev/null && break
  sleep 0.05
done

expect 0 "${A[@]}" join "$G" 0
expect 0 "${Bb[@]}" join "$G" 1
[ "$(grep -c . "$T/alice.receipts")" = 1 ] || fail "alice's join left no receipt in --receipts FILE"
[ -f "receipts/$G.receipts" ] || fail "bob's join left no receipt in the default receipts/$G.receipts"

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
for p in $wit_pids; do wait "$p" || fail "a witness exited non-zero: $(cat "$T"/wit*.err)"; done
wit_pids=""
[ "$(grep -c . "$T/alice.heads")" -ge 1 ] || fail "alice's witness kept no head"
[ "$(grep -c . "$T/spect.heads")" -ge 1 ] || fail "the spectators' witness kept no head (the final one)"
grep -qE "^$G [0-9]+ [0-9a-f]{64} [0-9a-f]{128}$" "$T/alice.heads" || fail "a heads line is not GAME RECORD HEAD SIG"
n_alice=$(grep -c . "$T/alice.receipts")
[ "$n_alice" -ge 3 ] || fail "alice kept only $n_alice receipts"

expect 0 ctl log -o "$T/game.log" "$G"
R=(--receipts "$T/alice.receipts" --receipts "receipts/$G.receipts" --heads "$T/alice.heads" --heads "$T/spect.heads")
expect 0 "$BIN/berthier-replay" verify "$T/game.log" --trust "$D/sign.pub" "${R[@]}"
grep -q "signer pinned by the trust file; [0-9]* receipts and [0-9]* witnessed heads hold" "$T/out" \
  || fail "the result line does not say the signer was pinned and the evidence holds"
grep -q "^signer: $(cat "$D/sign.pub") (pinned)" "$T/out" || fail "the signer's fingerprint is not sign.pub"
expect 0 "$BIN/berthier-replay" verify "$T/game.log"
grep -q '; signer not pinned$' "$T/out" || fail "unpinned, the result line does not say so"
expect 0 "$BIN/berthier-replay" verify "$T/game.log" --pk "$(cat "$D/sign.pub")"
grep -q 'signer pinned by --pk' "$T/out" || fail "--pk does not pin"
other=0000000000000000000000000000000000000000000000000000000000000001
printf '# another daemon\n%s someone else\n' "$other" >"$T/other.trust"
expect 1 "$BIN/berthier-replay" verify "$T/game.log" --pk "$other"
expect 1 "$BIN/berthier-replay" verify "$T/game.log" --trust "$T/other.trust"
grep -q 'is not in the trust file' "$T/out" || fail "a key outside the trust file is not named"
expect 64 "$BIN/berthier-replay" verify "$T/game.log" --receipts "$T/no-such-file"

# The operator drops the second half of the game.
size=$(stat -c %s "$T/game.log")
head -c $((size / 2)) "$T/game.log" >"$T/cut.log"
expect 2 "$BIN/berthier-replay" verify "$T/cut.log" --trust "$D/sign.pub"
expect 1 "$BIN/berthier-replay" verify "$T/cut.log" --trust "$D/sign.pub" --receipts "$T/alice.receipts"
grep -qE "^receipt [0-9]+ \(game $G, record [0-9]+, seat 0's ORDER; .*\): the log has no record [0-9]+ .*truncated" "$T/out" \
  || fail "the cut log does not name alice's receipt"
expect 1 "$BIN/berthier-replay" verify "$T/cut.log" --trust "$D/sign.pub" --heads "$T/spect.heads"
grep -qE "^head [0-9]+ \(game $G, record [0-9]+; .*\): the log has no record" "$T/out" || fail "the cut log does not name a head"
echo "ok: receipts and witnesses kept by berthierctl, checked by berthier-replay verify"
