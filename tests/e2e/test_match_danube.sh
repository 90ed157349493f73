#!/usr/bin/env bash
# Danube 20 on a real berthierd: each Danube 20 scenario (aspern-essling20, wagram20, marchfeld)
# with no option and with every option it takes at once plays one bot-vs-bot game (berthier-match; the greedy player French with no option, Austrian
# with all)
# to a result [15.0], and every log verifies (berthier-replay verify, inside the runner and again
# here). The options a scenario takes are those the daemon accepts one by one; each refused one
# must be refused with BAD_OPTION; and the ones of the Danube 20 book must all be taken (the
# series options [16.1]-[16.9] and the scenario's variants). One log verified twice
# and from a copy gives the same report (the final state hash of a bit-for-bit replay).
# The dice are fixed (dice-seed, docs/dice.md "Fixed dice") and the bots seeded.
# Skipped (exit 0, says so) while the daemon has no n20 or no Danube 20 scenario.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init danube
start_daemon
DICE=d4b0e20c5d9f2e4a6b8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a
if ! daemon_has_ruleset n20; then
  echo "skipped: this berthierd has no ruleset n20 ($(grep '^rulesets' "$T/hello"))"
  exit 0
fi

options="just-like-old-days fog-of-war cavalry-penetration artillery-support rally-locations unit-reduction
breakdown special-units fatigue leaders variable-weather sambre-crossing berthier-is-back look-out-bulow
historical-events lobau-reinforced rapp floridsdorf-pontoon thirteenth-card summoned-from-linz bertrand-miracle"
series="fog-of-war cavalry-penetration artillery-support rally-locations unit-reduction breakdown special-units fatigue leaders"
declare -A own=([aspern-essling20]="thirteenth-card summoned-from-linz bertrand-miracle"
                [wagram20]="floridsdorf-pontoon thirteenth-card" [marchfeld]="thirteenth-card")
nk=0
create() {
  nk=$((nk + 1))
  "$BIN/berthierctl" --data-dir "$D" --timeout 300 new --ruleset n20 --gen-keys "$T/k$nk-" "$@" >"$T/out" 2>"$T/err"
}

games=0
seed=40
one_log=""
for sc in aspern-essling20 wagram20 marchfeld; do
  if ! create --scenario "$sc"; then
    grep -q "BAD_SCENARIO" "$T/out" "$T/err" || fail "$sc: refused, but not as an unknown scenario"
    echo "skipped: scenario $sc is not built in"
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
  for o in $series ${own[$sc]}; do
    [[ " ${taken[*]} " == *" $o "* ]] || fail "$sc refuses option $o of the Danube 20 book"
  done
  [ "${#taken[@]}" = "$(echo $series ${own[$sc]} | wc -w)" ] || fail "$sc takes options not of its book: ${taken[*]}"
  for set in none all; do
    args=()
    if [ "$set" = all ]; then for o in "${taken[@]}"; do args+=(--option "$o"); done; fi
    seed=$((seed + 1))
    bots=greedy,random
    [ "$set" = none ] || bots=random,greedy # the greedy player on each side once
    "$BIN/berthier-match" --data-dir "$D" --ruleset n20 --scenario "$sc" --games 1 "${args[@]}" \
      --bots "$bots" --seed "$seed" --option dice-seed=$DICE --verify --decision-ms 0 --game-timeout 600 \
      >"$T/out" 2>"$T/err" || fail "$sc ($set: ${taken[*]:-}) berthier-match exit $?"
    grep -Eq '^1 of 1 games? ended$' "$T/out" || fail "$sc ($set): the game did not end"
    grep -q ' verified$' "$T/out" || fail "$sc ($set): the log did not verify"
    log=$(grep -E '^[0-9a-f]{16}  ' "$T/out" | sed -n 's/.*  log \([^ ]*\).*/\1/p' | head -1)
    [ -f "$log" ] || fail "$sc ($set): no log at '$log'"
    "$BIN/berthier-replay" verify "$log" >"$T/v1" 2>&1 || { cat "$T/v1" >&2; fail "$sc ($set): the log does not verify"; }
    [ -n "$one_log" ] || one_log=$log
    echo "ok: $sc with options: ${set/all/${taken[*]:-none}}"
    games=$((games + 1))
  done
done
if [ "$games" = 0 ]; then
  echo "skipped: this berthierd has no Danube 20 scenario"
  exit 0
fi
# bit for bit: the same log verified again, and a copy of it, report the same
cp "$one_log" "$T/copy.log"
"$BIN/berthier-replay" verify "$one_log" >"$T/v1" 2>&1 || fail "re-verify failed"
"$BIN/berthier-replay" verify "$T/copy.log" >"$T/v2" 2>&1 || fail "the copy does not verify"
cmp -s "$T/v1" "$T/v2" || { diff "$T/v1" "$T/v2" >&2; fail "the same log replays to another report"; }
"$BIN/berthier-replay" export "$one_log" >"$T/e1" || fail "export failed"
"$BIN/berthier-replay" export "$T/copy.log" >"$T/e2" || fail "export of the copy failed"
cmp -s "$T/e1" "$T/e2" || fail "the same log exports other records"
grep -q '"kind":"end"' "$T/e1" || fail "the re-verified log has no end record"
echo "ok: $games Danube 20 games over the scenarios and options ended and verified; a re-verify replays bit for bit"
