#!/usr/bin/env bash
# boardgame.io 0.50.2 against berthierd on duel, side by side on this machine (docs/bench.md,
# "Against boardgame.io"). Installs boardgame.io from npm into this folder (package-lock.json
# pins every package) the first time, then alternates ROUNDS runs of each:
#   - berthier-bench --only throughput --ruleset duel --seconds S (64 games, durable orders)
#   - node run.js --games 64 --seconds S (a boardgame.io server, in-memory storage, 64 games)
# and prints the medians as one berthier-bench line (value: boardgame.io moves/s; floor
# column: berthierd's durable duel orders/s; ratio = boardgame.io / berthierd).
#
#   bench/compare/compare.sh [PATH/TO/berthier-bench] [--seconds S] [--rounds N] [--games N]
#   bench/compare/compare.sh --self-check     # no network, no npm: the script and duel.js
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=""
seconds=5
rounds=3
games=64
self_check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --self-check) self_check=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) bench=$1; shift ;;
  esac
done
command -v node >/dev/null || { echo "compare: node is needed (Node.js 18 or later)" >&2; exit 2; }

if [ $self_check = 1 ]; then
  # what can be checked with no network: the rules file plays 2000 random games, the lock
  # file pins boardgame.io 0.50.2, and run.js parses
  node "$here/run.js" --self-check
  node -e 'const l=require(process.argv[1]); const v=(l.packages||{})["node_modules/boardgame.io"];
           if(!v||v.version!=="0.50.2"){console.error("compare: package-lock.json does not pin boardgame.io 0.50.2");process.exit(1)}
           console.log("self-check: package-lock.json pins boardgame.io "+v.version)' "$here/package-lock.json"
  node --check "$here/run.js" && node --check "$here/duel.js" && echo "self-check: run.js and duel.js parse"
  exit 0
fi

[ -n "$bench" ] || bench="$here/../../build/bin/berthier-bench"
[ -x "$bench" ] || { echo "compare: no berthier-bench at $bench (give its path)" >&2; exit 2; }
command -v npm >/dev/null || { echo "compare: npm is needed" >&2; exit 2; }

installed=$(node -e 'try{console.log(require(process.argv[1]+"/node_modules/boardgame.io/package.json").version)}catch(e){console.log("")}' "$here")
if [ "$installed" != "0.50.2" ]; then
  echo "compare: installing boardgame.io 0.50.2 and its dependencies from npm into $here/node_modules" >&2
  (cd "$here" && npm ci --no-audit --no-fund --ignore-scripts >&2)
fi

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else print a[int((NR + 1) / 2)]}'; }
bt=(); bg=()
for r in $(seq 1 "$rounds"); do
  echo "compare: round $r of $rounds: berthier-bench (duel, $games games, $seconds s)" >&2
  line=$("$bench" --only throughput --ruleset duel --seconds "$seconds" 2>/dev/null | grep -E '^throughput ' || true)
  v=$(echo "$line" | awk '{print $2}')
  [ -n "$v" ] && [ "$v" != "-" ] || { echo "compare: berthier-bench gave no throughput line" >&2; exit 1; }
  bt+=("$v")
  echo "compare: round $r of $rounds: boardgame.io 0.50.2 (duel, $games games, $seconds s)" >&2
  js=$(node "$here/run.js" --games "$games" --seconds "$seconds")
  m=$(node -e 'console.log(JSON.parse(process.argv[1]).moves_per_s.toFixed(1))' "$js")
  bg+=("$m")
  echo "compare:   berthierd $v orders/s, boardgame.io $m moves/s ($js)" >&2
done
b=$(printf '%s\n' "${bt[@]}" | median)
g=$(printf '%s\n' "${bg[@]}" | median)
ratio=$(awk -v g="$g" -v b="$b" 'BEGIN { if (b > 0) printf "%.3f", g / b; else print "-" }')
echo "# berthier-bench compare: boardgame.io $(node -e 'console.log(require(process.argv[1]+"/node_modules/boardgame.io/package.json").version)' "$here") against berthierd, duel, $games games, $rounds alternated rounds of $seconds s, $(nproc) cpus online"
printf '%-22s %12s %12s %8s %-14s %s\n' NAME VALUE FLOOR RATIO GOAL MET
printf '%-22s %12s %12s %8s %-14s %s\n' compare_bgio_duel "$g" "$b" "$ratio" - n/a
echo "# note compare_bgio_duel: medians of $rounds; value = boardgame.io 0.50.2 moves/s (Server with its default in-memory storage, nothing on disk; socket.io clients, a random legal move whenever a seat must act); floor column = berthier-bench's throughput line on duel in the same run of this script (durable: fdatasync before each acknowledgement); runs: berthierd ${bt[*]}, boardgame.io ${bg[*]}"
