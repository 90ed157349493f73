#!/usr/bin/env bash
# [issue 6] Determinism across builds: gcc -O0, gcc -O2 and clang -O2 builds of the
# core and every ruleset play the same seeded random games and replay the same logs;
# every state hash and every record must be byte-identical across the three.
# Short form: a few games per ruleset; BERTHIER_LONG=1 plays many more.
set -euo pipefail
src=${BERTHIER_SRC:?BERTHIER_SRC must point at the source tree}
work=$(mktemp -d /tmp/berthier-determinism.XXXXXX)
trap 'rm -rf "$work"' EXIT
games=3
[ "${BERTHIER_LONG:-0}" = 1 ] && games=40
configs=("gcc-O0 gcc -O0" "gcc-O2 gcc -O2" "clang-O2 clang -O2")
for c in "${configs[@]}"; do
  set -- $c
  name=$1 cc=$2 opt=$3
  if ! command -v "$cc" >/dev/null; then echo "FAIL: $cc is not installed"; exit 1; fi
  cmake -S "$src" -B "$work/$name" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE= \
        -DCMAKE_C_FLAGS="$opt" -DBERTHIER_WERROR=ON "-DBERTHIER_SKIP_DIRS=daemon;replay;clients;bench" >"$work/$name.cmake.log" 2>&1 \
    || { cat "$work/$name.cmake.log"; exit 1; }
  cmake --build "$work/$name" --target berthier-selfplay -j "$(nproc)" >"$work/$name.build.log" 2>&1 \
    || { tail -30 "$work/$name.build.log"; exit 1; }
done
ref=gcc-O0
rulesets=("duel standard")
if "$work/$ref/bin/berthier-selfplay" play n20 waterloo20-standard 1 >/dev/null 2>&1; then
  rulesets+=("n20 waterloo20-standard")
fi
checked=0
for rs in "${rulesets[@]}"; do
  set -- $rs
  for seed in $(seq 1 $games); do
    log="$work/$1-$seed.log"
    "$work/$ref/bin/berthier-selfplay" play "$1" "$2" "$seed" "$log" >"$work/$1-$seed.$ref.play"
    for c in "${configs[@]}"; do
      set -- $c
      name=$1
      set -- $rs
      "$work/$name/bin/berthier-selfplay" play "$1" "$2" "$seed" >"$work/$1-$seed.$name.play"
      "$work/$name/bin/berthier-selfplay" replay "$log" >"$work/$1-$seed.$name.replay"
      cmp -s "$work/$1-$seed.$ref.play" "$work/$1-$seed.$name.play" \
        || { echo "FAIL: $1 seed $seed: $name plays differently from $ref"; diff "$work/$1-$seed.$ref.play" "$work/$1-$seed.$name.play" | head; exit 1; }
      cmp -s "$work/$1-$seed.$ref.play" "$work/$1-$seed.$name.replay" \
        || { echo "FAIL: $1 seed $seed: $name replays $ref's log differently"; diff "$work/$1-$seed.$ref.play" "$work/$1-$seed.$name.replay" | head; exit 1; }
      checked=$((checked + 1))
    done
  done
done
echo "determinism: ${#rulesets[@]} rulesets, $games games each, 3 builds: $checked plays and replays identical"
echo "$checked passed, 0 failed"
