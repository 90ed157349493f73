#!/usr/bin/env bash
# Napoleonic 20 on a real berthierd: every Waterloo 20 scenario the ruleset lists,
# each with no option and with every implemented option at once, plays one
# bot-vs-bot game (berthier-match) to a result, and every log verifies.
# An option the ruleset refuses (not implemented) must be refused with BAD_OPTION,
# never half played. Skipped (exit 0, says so) while the daemon has no n20.
set -euo pipefail
BIN=${BERTHIER_BIN:?set BERTHIER_BIN to the build/bin directory}
T=$(mktemp -d /tmp/brt-n20opt.XXXXXX)
D=$T/d
daemon_pid=""
cleanup() {
  if [ -n "$daemon_pid" ]; then kill -9 "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; cat "$T/out" "$T/err" 2>/dev/null | tail -20 >&2; exit 1; }
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

# Every option name the ruleset knows, and the scenarios: asked of the daemon by creating
# games (a refused option or scenario says so), so this test follows the ruleset.
options="just-like-old-days fog-of-war cavalry-penetration artillery-support rally-locations unit-reduction
breakdown special-units fatigue leaders variable-weather sambre-crossing berthier-is-back look-out-bulow
historical-events lobau-reinforced rapp"
scenarios="waterloo20-standard waterloo20-closing waterloo20-opening waterloo20-extended"
nk=0
create() {
  nk=$((nk + 1))
  "$BIN/berthierctl" --data-dir "$D" --timeout 300 new --ruleset n20 --gen-keys "$T/k$nk-" "$@" >"$T/out" 2>"$T/err"
}

games=0
seed=5
for sc in $scenarios; do
  if ! create --scenario "$sc"; then
    grep -q "BAD_SCENARIO" "$T/out" "$T/err" || fail "$sc: refused, but not as an unknown scenario"
    echo "scenario $sc: not built in"
    continue
  fi
  taken=()
  for o in $options; do
    if create --scenario "$sc" --option "$o"; then
      taken+=("$o")
    else
      grep -q "BAD_OPTION" "$T/out" "$T/err" || fail "$sc --option $o: refused, but not as a bad option"
    fi
  done
  for set in none all; do
    args=()
    if [ "$set" = all ]; then for o in "${taken[@]}"; do args+=(--option "$o"); done; fi
    seed=$((seed + 1))
    "$BIN/berthier-match" --data-dir "$D" --ruleset n20 --scenario "$sc" --games 1 "${args[@]}" \
      --bots greedy,random --seed "$seed" --verify --game-timeout 600 >"$T/out" 2>"$T/err" \
      || fail "$sc ($set: ${taken[*]:-}) berthier-match exit $?"
    grep -Eq '^1 of 1 games? ended$' "$T/out" || fail "$sc ($set): the game did not end"
    grep -q ' verified$' "$T/out" || fail "$sc ($set): the log did not verify"
    echo "ok: $sc with options: ${set/all/${taken[*]:-none}}"
    games=$((games + 1))
  done
done
[ "$games" -ge 2 ] || fail "no n20 game was played"
echo "ok: $games Waterloo 20 games over the scenarios and options ended and verified"
