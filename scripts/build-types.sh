#!/usr/bin/env bash
# Builds every standard CMake build type (Debug, Release, RelWithDebInfo, MinSizeRel) with gcc
# and with clang, warnings as errors (BERTHIER_WERROR=ON), each in its own build dir
# ($BUILD_TYPES_DIR/<cc>-<type>, default /tmp/berthier-build-types), one after the other.
# Long: eight full builds. `make build-types` runs it; it is not part of `make test`.
#   BUILD_TYPES_DIR  where the build dirs go (kept, so that a second run is incremental)
#   JOBS             parallel jobs per build (default: nproc)
#   COMPILERS, TYPES override the lists, e.g. COMPILERS=clang TYPES="Release MinSizeRel"
# Exit 0 when all build; 1 otherwise, naming each failure and the first errors of its log.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${BUILD_TYPES_DIR:-/tmp/berthier-build-types}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
compilers=${COMPILERS:-gcc clang}
types=${TYPES:-Debug Release RelWithDebInfo MinSizeRel}
mkdir -p "$out"
failed=()
for cc in $compilers; do
  if ! command -v "$cc" >/dev/null; then echo "FAIL: $cc is not installed"; failed+=("$cc"); continue; fi
  for bt in $types; do
    dir="$out/$cc-$bt" log="$out/$cc-$bt.log"
    echo "== $cc $bt ($dir)"
    if cmake -S "$src" -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="$bt" -DBERTHIER_WERROR=ON \
         >"$log" 2>&1 && cmake --build "$dir" -j "$jobs" >>"$log" 2>&1; then
      echo "ok: $cc $bt"
    else
      echo "FAIL: $cc $bt (log: $log)"
      grep -m 10 -E 'error|warning' "$log" | sed 's/^/  /'
      failed+=("$cc-$bt")
    fi
  done
done
if [ ${#failed[@]} -gt 0 ]; then echo "build types FAILED: ${failed[*]}"; exit 1; fi
echo "build types: all built ($compilers x $types)"
