#!/usr/bin/env bash
# Runs every libFuzzer target for FUZZ_SECONDS each (default 60) with clang,
# ASan and UBSan, starting from the seed corpora in tests/fuzz/corpus/.
# New inputs go to build-fuzz/corpus/<target>/; crashes to build-fuzz/crashes/.
# FUZZ_TIMEOUT: seconds before one input counts as hung (default 20; raise it on a loaded machine).
# Usage: scripts/fuzz.sh [target...]   (targets: request logreader rules_duel rules_n20 rules_n20_all rules_n20_ext rules_wnlb_short rules_wnlb_full rules_wnlb_full3)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-60}
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBERTHIER_FUZZ=ON -DBERTHIER_WERROR=ON "-DBERTHIER_SKIP_DIRS=daemon;replay;clients;bench" >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=()
  for d in tests/fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
fi
mkdir -p build-fuzz/crashes
rc=0
for t in "${targets[@]}"; do
  cmake --build build-fuzz --target "fuzz_$t" -j "$(nproc)" >/dev/null || { echo "fuzz_$t: no such target"; rc=1; continue; }
  mkdir -p "build-fuzz/corpus/$t"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  echo "== fuzz_$t for ${secs}s"
  if ! "build-fuzz/bin/fuzz_$t" "build-fuzz/corpus/$t" "tests/fuzz/corpus/$t" "${dict[@]}" \
        -max_total_time="$secs" -rss_limit_mb=2048 -timeout="${FUZZ_TIMEOUT:-20}" \
        -artifact_prefix="build-fuzz/crashes/$t-" -print_final_stats=1 2>"build-fuzz/fuzz_$t.log"; then
    echo "fuzz_$t FOUND A PROBLEM: see build-fuzz/fuzz_$t.log and build-fuzz/crashes/"; rc=1
  fi
  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "build-fuzz/fuzz_$t.log" || true
done
exit $rc
