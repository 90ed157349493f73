#!/usr/bin/env bash
# The README demo (`make run`): start berthierd on its embedded defaults (data in
# ./var/berthier), play one full bot-vs-bot game on it, print the result, verify
# the game's log with berthier-replay and stop the daemon. Exit non-zero on any
# failure. BERTHIER_BIN overrides the directory of the programs (default build/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BERTHIER_BIN:-build/bin}
DATA=./var/berthier
unset STATE_DIRECTORY   # the daemon's default data dir is then ./var/berthier
export BERTHIER_RECEIPTS_DIR=./var/receipts   # where the seats keep their receipts

die() { echo "demo: $*" >&2; exit 1; }
for prog in berthierd berthierctl berthier-match berthier-replay; do
  [ -x "$BIN/$prog" ] || die "$BIN/$prog is missing: build first (make build)"
done
ctl() { "$BIN/berthierctl" --quiet --data-dir "$DATA" "$@"; }

if [ -S "$DATA/berthier.sock" ] && ctl --timeout 500 hello >/dev/null 2>&1; then
  die "a berthierd already answers on $DATA; stop it first"
fi

mkdir -p var
echo "demo: starting $BIN/berthierd (data in $DATA, log in var/berthierd.log)"
"$BIN/berthierd" >var/berthierd.log 2>&1 &
daemon=$!
stop_daemon() {
  if kill -0 "$daemon" 2>/dev/null; then
    kill -TERM "$daemon" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
    echo "demo: berthierd stopped"
  fi
}
trap stop_daemon EXIT

hello=""
for _ in $(seq 100); do
  kill -0 "$daemon" 2>/dev/null || { cat var/berthierd.log >&2; die "berthierd exited at start"; }
  if [ -f "$DATA/server.pub" ] && hello=$(ctl --timeout 500 hello 2>/dev/null); then break; fi
  hello=""
  sleep 0.1
done
[ -n "$hello" ] || die "berthierd did not answer hello within 10 s"
echo "demo: berthierd answers: $(echo "$hello" | tr '\n' ' ')"

rulesets=$(echo "$hello" | sed -n 's/^rulesets //p')
if [[ " $rulesets " == *" n20 "* ]]; then
  ruleset=n20 scenario=waterloo20-standard bots=greedy,random
  echo "demo: playing Waterloo 20 (n20, waterloo20-standard): greedy (French) vs random (Allied)"
else
  ruleset=duel scenario=standard bots=random,random
  echo "demo: this berthierd has no ruleset n20 (it has: $rulesets)."
  echo "demo: playing the duel test game instead, random vs random"
fi

out=$("$BIN/berthier-match" --data-dir "$DATA" --ruleset "$ruleset" --scenario "$scenario" \
        --games 1 --bots "$bots" --seed "${BERTHIER_DEMO_SEED:-20250618}") \
  || { echo "$out"; die "the game did not finish"; }
echo "$out"
line=$(echo "$out" | head -n 1)
log=$(echo "$line" | sed -n 's/.*  log \([^ ]*\).*/\1/p')
[ -n "$log" ] && [ -f "$log" ] || die "no game log found in: $line"

# Pin the daemon's signing key (its sign.pub is a trust file of one key) and check the
# receipts the two seats kept (berthier-match: $BERTHIER_RECEIPTS_DIR/<game>.seat<N>.receipts).
id=$(basename "$log" .log)
receipts=()
for f in "$BERTHIER_RECEIPTS_DIR/$id".seat*.receipts; do [ -f "$f" ] && receipts+=(--receipts "$f"); done
echo "demo: berthier-replay verify $log --trust $DATA/sign.pub ${receipts[*]}"
"$BIN/berthier-replay" verify "$log" --trust "$DATA/sign.pub" "${receipts[@]}" || die "the log did NOT verify"
echo "demo: the log verified: chain, signatures by the pinned key, dice, every outcome reproduced and every receipt held"

# The game to look at: every step's board, order, events and rolls in one page (no network).
page="var/$id.html"
"$BIN/berthier-replay" html "$log" -o "$page" || die "berthier-replay html failed"
echo "demo: the game step by step: open $page in a browser (berthier-replay html; arrow keys step)"
