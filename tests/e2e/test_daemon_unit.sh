#!/bin/bash
# The hardened unit: systemd-analyze security must rate the unit (made from
# systemd/berthierd.service.in into <build>/systemd/berthierd.service at configure time)
# at an exposure of 1.5 or less, and the unit must be Type=notify with a watchdog.
# (The installed unit is checked by test_install.sh.)
set -u
src=${BERTHIER_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${BERTHIER_BIN:+$(cd "$BERTHIER_BIN/.." && pwd)}
[ -n "$build" ] || { echo "FAIL: BERTHIER_BIN must point at the build tree bin/"; exit 1; }
unit="$build/systemd/berthierd.service"
fail() { echo "FAIL: $*"; exit 1; }

[ -f "$unit" ] || fail "$unit is missing"
grep -q '^Type=notify$' "$unit" || fail "the unit is not Type=notify"
grep -q '^WatchdogSec=' "$unit" || fail "the unit has no WatchdogSec"
grep -q '^DynamicUser=yes$' "$unit" || fail "the unit does not use DynamicUser"
grep -q '^StateDirectory=berthier$' "$unit" || fail "the unit has no StateDirectory=berthier"
grep -q '^ProtectSystem=strict$' "$unit" || fail "the unit is not ProtectSystem=strict"

if ! command -v systemd-analyze >/dev/null; then
    echo "SKIP: systemd-analyze is not installed (Debian package systemd)"; exit 0
fi
if ! systemd-analyze security --help 2>&1 | grep -q -- '--offline'; then
    echo "SKIP: this systemd-analyze has no --offline (systemd 250 or later needed)"; exit 0
fi
out=$(systemd-analyze security --offline=true "$unit" 2>&1)
line=$(printf '%s\n' "$out" | grep 'Overall exposure level')
[ -n "$line" ] || { printf '%s\n' "$out"; fail "no exposure level in systemd-analyze output"; }
score=$(printf '%s\n' "$line" | sed -E 's/.*: ([0-9]+\.[0-9]+).*/\1/')
echo "exposure: $score ($line)"
awk -v s="$score" 'BEGIN { exit !(s + 0 <= 1.5) }' || fail "exposure $score is above 1.5"

# systemd-analyze verify catches unknown keys and typos (the binary path need not exist here).
vout=$(systemd-analyze verify --man=no "$unit" 2>&1 | grep -v -e 'Command .*/berthierd' -e 'is not executable' -e 'No such file' || true)
if printf '%s\n' "$vout" | grep -qi -e 'unknown key' -e 'unknown lvalue' -e 'failed to parse'; then
    printf '%s\n' "$vout"; fail "systemd-analyze verify reports problems"
fi
echo "PASS"
