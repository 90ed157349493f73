#!/usr/bin/env bash
# Napoleonic 20, Waterloo 20 standard scenario: the greedy bot beats the random
# bot in at least 7 of 8 games (seats alternate), and every log verifies.
# Skipped (exit 0, says so) while the daemon does not list ruleset n20.
set -euo pipefail
BIN=${BERTHIER_BIN:?set BERTHIER_BIN to the build/bin directory}
T=$(mktemp -d /tmp/brt-n20.XXXXXX)
D=$T/d
daemon_pid=""
cleanup() {
  if [ -n "$daemon_pid" ]; then kill -9 "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; cat "$T/out" "$T/err" 2>/dev/null >&2; exit 1; }
"$BIN/berthierd" --data-dir "$D" >>"$T/daemon.log" 2>&1 &
daemon_pid=$!
up=""
for _ in $(seq 100); do
  if [ -f "$D/server.pub" ] && "$BIN/berthierctl" --data-dir "$D" --timeout 300 hello >"$T/hello" 2>/dev/null; then up=1; break; fi
  sleep 0.1
done
[ -n "$up" ] || fail "berthierd did not come up"
if ! grep -q '^rulesets .*\bn20\b' "$T/hello"; then
  echo "skipped: this berthierd has no ruleset n20 ($(grep '^rulesets' "$T/hello"))"
  exit 0
fi
"$BIN/berthier-match" --data-dir "$D" --ruleset n20 --scenario waterloo20-standard --games 8 \
  --bots greedy,random --seed 20 --verify --game-timeout 600 >"$T/out" 2>"$T/err" || fail "berthier-match exit $?: $(tail -3 "$T/out" "$T/err")"
grep -q '^8 of 8 games ended$' "$T/out" || fail "not every game ended"
[ "$(grep -c ' verified$' "$T/out")" = 8 ] || fail "not every log verified"
wins=$(awk '$1 == "greedy" { print $3 }' "$T/out")
[ "${wins:-0}" -ge 7 ] || fail "greedy won only ${wins:-0} of 8 games against random"
echo "ok: greedy beat random in $wins of 8 Waterloo 20 games; every log verified"
