#!/usr/bin/env bash
# Duplicate matches (docs/dice.md "Fixed dice"): with berthier-match --duplicate the
# games of a round that seat the same entrants in swapped seats share one operator
# seed (dice-seed=HEX).
# Both games must roll the same value at every roll index they share, keep the
# seed out of their headers (only "dice-seed=fixed"), and both verifiers must say
# "dice fixed by the operator". On the old code the option is refused
# ("unknown core option") and --duplicate is a usage error.
. "$(dirname "$0")/lib.sh"
e2e_init dup
start_daemon
SRC=${BERTHIER_SRC:-$(dirname "$0")/../..}

"$BIN/berthier-match" --data-dir "$D" --ruleset duel --scenario standard --rounds 2 --duplicate \
  --bots random,greedy --seed 21 --verify >"$T/out" 2>"$T/err" || fail "berthier-match --duplicate exit $?"
grep -q '^4 of 4 games ended$' "$T/out" || fail "not 4 games (2 pairs) ended"
[ "$(grep -c ' verified$' "$T/out")" = 4 ] || fail "not every duplicate game verified"
grep -E '^[0-9a-f]{16}  ' "$T/out" >"$T/games"
sed -n 1p "$T/games" | grep -q '0=random 1=greedy' || fail "pair 1, game 1 seats"
sed -n 2p "$T/games" | grep -q '0=greedy 1=random' || fail "pair 1, game 2: the seats are not swapped"
sed -n 3p "$T/games" | grep -q '0=random 1=greedy' || fail "pair 2, game 1 seats"
sed -n 4p "$T/games" | grep -q '0=greedy 1=random' || fail "pair 2, game 2: the seats are not swapped"

logof() { sed -n "${1}p" "$T/games" | sed -n 's/.*  log \([^ ]*\).*/\1/p'; }
# index value per roll, and the revealed seed, of the game on line $1
rolls() {
  "$BIN/berthier-replay" export "$(logof "$1")" | grep '"kind":"dice"' \
    | sed -n 's/.*"index":\([0-9]*\).*"value":\([0-9]*\).*/\1 \2/p'
}
seed_of() { "$BIN/berthier-replay" export "$(logof "$1")" | grep '"kind":"reveal"' | sed -n 's/.*"seed":"\([0-9a-f]*\)".*/\1/p'; }

for pair in 1 3; do
  a=$pair; b=$((pair + 1))
  rolls "$a" >"$T/ra"; rolls "$b" >"$T/rb"
  [ -s "$T/ra" ] && [ -s "$T/rb" ] || fail "pair at line $a: no dice rolled"
  n=$(wc -l <"$T/ra"); m=$(wc -l <"$T/rb"); k=$((n < m ? n : m))
  [ "$(head -n "$k" "$T/ra")" = "$(head -n "$k" "$T/rb")" ] || fail "pair at line $a: the swapped games roll different values"
  sa=$(seed_of "$a"); sb=$(seed_of "$b")
  [ -n "$sa" ] && [ "$sa" = "$sb" ] || fail "pair at line $a: the revealed seeds differ ($sa, $sb)"
  for g in "$a" "$b"; do
    log=$(logof "$g")
    "$BIN/berthier-replay" export "$log" | sed -n 1p >"$T/header"
    grep -q '"dice-seed=fixed"' "$T/header" || fail "game $g: the header does not mark the fixed dice"
    grep -q '"dice_mode":"fixed"' "$T/header" || fail "game $g: the header's dice mode is not fixed"
    ! grep -q "$sa" "$T/header" || fail "game $g: the header gives the seed away"
    "$BIN/berthier-replay" verify "$log" >"$T/v" || fail "game $g: berthier-replay verify exit $?"
    grep -q '^OK: .*dice fixed by the operator' "$T/v" || fail "game $g: verify does not say the operator fixed the dice"
    (cd "$SRC/clients/python" && /usr/bin/python3 -m berthier.verify "$log") >"$T/pv" 2>&1 || fail "game $g: berthier.verify exit $?"
    grep -q 'dice fixed by the operator' "$T/pv" || fail "game $g: the Python verifier does not say the operator fixed the dice"
  done
done
# Different pairs have different seeds.
[ "$(seed_of 1)" != "$(seed_of 3)" ] || fail "two pairs share a seed"

# The option itself: malformed, twice, or with another dice mode is BAD_OPTION.
hex=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
nk=0
bad() {
  nk=$((nk + 1))
  set +e
  "$BIN/berthierctl" --data-dir "$D" new --ruleset duel --scenario standard --gen-keys "$T/k$nk-" "$@" >"$T/out" 2>"$T/err"; rc=$?
  set -e
  [ "$rc" != 0 ] && grep -q 'BAD_OPTION' "$T/out" "$T/err" || fail "create with $* was not refused with BAD_OPTION (exit $rc)"
}
bad --option dice-seed=zz
bad --option "dice-seed=${hex}00"
bad --option "dice-seed=$hex" --option "dice-seed=$hex"
bad --option "dice-seed=$hex" --option dice=contributory
bad --option dice-seed=fixed
# A good one is accepted; the unfinished game's log says so too, and its header
# keeps only the mark; the daemon's seed file holds the operator's seed.
G=$("$BIN/berthierctl" --quiet --data-dir "$D" new --ruleset duel --scenario standard --gen-keys "$T/good-" \
  --option "dice-seed=$hex" 2>"$T/err") || fail "create with a good dice-seed exit $?"
[ "$(od -An -tx1 -v "$D/games/$G.seed" | tr -d ' \n')" = "$hex" ] || fail "the seed file does not hold the operator's seed"
! grep -qa "$hex" "$D/games/$G.log" || fail "the log gives the seed away"
set +e
"$BIN/berthier-replay" verify "$D/games/$G.log" >"$T/v" 2>&1; rc=$?
set -e
[ "$rc" = 2 ] && grep -q '^INCOMPLETE: .*dice fixed by the operator' "$T/v" || fail "an unfinished fixed-dice game: exit $rc"
echo "ok: duplicate matches with fixed dice"
