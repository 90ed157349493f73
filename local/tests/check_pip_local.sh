#!/usr/bin/env bash
# check_pip_local.sh SRC LIB: `pip install clients/python` with BERTHIER_LOCAL_LIB=LIB
# puts libberthier_local.so into the package, and from another directory, with no
# PYTHONPATH and no BERTHIER_* variable, berthier.local loads that copy, plays a duel
# game to the end in process and the installed verifier accepts the game's log.
# Before berthier.local there was no in-process game: the import fails.
set -euo pipefail
SRC=$(cd "${1:?SRC}" && pwd)
LIB=${2:?LIB}
PY=${BERTHIER_PYTHON:-/usr/bin/python3}
T=$(mktemp -d /tmp/brt-piplocal.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; tail -30 "$T/log" >&2 2>/dev/null; exit 1; }
unset PYTHONPATH BERTHIER_PYTHON_GEN BERTHIER_BIN || true
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

mkdir -p "$T/src/clients"
cp -r "$SRC/clients/python" "$T/src/clients/python"
cp -r "$SRC/proto" "$T/src/proto"
rm -rf "$T/src/clients/python/build" "$T/src/clients/python"/*.egg-info
"$PY" -m venv --system-site-packages "$T/venv" >"$T/log" 2>&1 || fail "python3 -m venv"
BERTHIER_LOCAL_LIB="$LIB" "$T/venv/bin/python" -m pip install --no-index --no-build-isolation \
  "$T/src/clients/python" >"$T/log" 2>&1 || fail "pip install clients/python"

cd "$T"
"$T/venv/bin/python" - >"$T/log" 2>&1 <<'PY' || fail "the installed berthier.local does not play"
import os, random, sys
from berthier import local, verify
g = local.Game("duel", "standard", seed=bytes(range(32)))
assert os.path.realpath(local._lib._name).startswith(os.path.realpath(sys.prefix)), local._lib._name
rng = random.Random(7)
r = local.play(g, {s: (lambda obs: obs.orders[rng.randrange(len(obs.orders))]) for s in range(2)})
assert r.ended, r
res = verify.verify_bytes(g.log_bytes())
assert res.status == verify.OK, res.message
print("ok", g.game_id, r.level, g.state_hash().hex())
PY
grep -q '^ok ' "$T/log" || fail "no ok from the in-process game"
echo "PASS: pip install clients/python with berthier.local: $(grep '^ok ' "$T/log")"
