#!/usr/bin/env bash
# wem_builds.sh [SRC]: the wem golden games in three builds. Builds the rules, the core and the
# wem replay and random-play tests with gcc -O0, gcc -O2 and clang -O2 (each in its own build
# directory under a temporary one, the daemon, clients and bench left out) and runs, in each,
# test_wem_replay (the final state hashes of tests/golden/wem-hashes.txt, the same file for all
# three) and test_wem_random. The long form of the proof that every build plays the same
# games to the same bytes (docs/wem-whole.md); ctest runs test_wem_replay in the one build it
# has. BERTHIER_LONG=1 also plays the long forms of both tests. Exits 1 on the first build
# that fails or disagrees.
set -euo pipefail
src=${1:-${BERTHIER_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}}
work=$(mktemp -d /tmp/berthier-wem-builds.XXXXXX)
trap 'rm -rf "$work"' EXIT
jobs=${BERTHIER_JOBS:-2}
configs=("gcc-O0 gcc -O0" "gcc-O2 gcc -O2" "clang-O2 clang -O2")
for c in "${configs[@]}"; do
  set -- $c
  name=$1 cc=$2 opt=$3
  if ! command -v "$cc" >/dev/null; then echo "FAIL: $cc is not installed"; exit 1; fi
  echo "== $name: building"
  cmake -S "$src" -B "$work/$name" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE= \
        -DCMAKE_C_FLAGS="$opt" -DBERTHIER_WERROR=ON "-DBERTHIER_SKIP_DIRS=daemon;replay;clients;bench" \
        >"$work/$name.cmake.log" 2>&1 || { cat "$work/$name.cmake.log"; exit 1; }
  cmake --build "$work/$name" --target test_wem_replay test_wem_random -j "$jobs" >"$work/$name.build.log" 2>&1 \
    || { tail -30 "$work/$name.build.log"; exit 1; }
  for t in test_wem_replay test_wem_random; do
    if ! BERTHIER_SRC="$src" "$work/$name/bin/$t" >"$work/$name.$t.log" 2>&1; then
      echo "FAIL: $name: $t"; tail -30 "$work/$name.$t.log"; exit 1
    fi
    echo "   $name: $t passed"
  done
done
echo "wem builds: gcc -O0, gcc -O2 and clang -O2 play the golden games to tests/golden/wem-hashes.txt"
