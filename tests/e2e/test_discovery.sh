#!/usr/bin/env bash
# What a user can find out from the daemon (issue 12, discoverability):
# - `berthierctl rulesets` and `python3 -m berthier.rulesets` list every ruleset's
#   scenarios, seats and options (Hello.rulesets_info) and the core options;
# - `new --scenario waterloo` and `--option fog` are refused with the valid names;
# - a key the daemon does not know gets "the daemon refused this key" from the C
#   client and from the Python client, not a bare timeout.
# On the old code: no `rulesets` command (usage error), hello held ids only, the
# refusals named no valid option, and an unknown key waited for the whole timeout
# and printed "timed out after N ms". No timing is asserted: the message is.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init disc
expect() {
  local want=$1; shift
  set +e; "$@" >"$T/out" 2>"$T/err"; local rc=$?; set -e
  [ "$rc" = "$want" ] || fail "exit $rc (wanted $want): $*"
}
has() { grep -qF -- "$1" "$2" || fail "no \"$1\" in $2"; }
ctl() { "$BIN/berthierctl" --data-dir "$D" "$@"; }
start_daemon

# --- the list
expect 0 ctl rulesets
for s in waterloo20-standard waterloo20-extended waterloo20-opening waterloo20-closing; do
  has "scenario $s: 2 seats (seat 0..): french, allied" "$T/out"
done
has "ruleset duel " "$T/out"
has "scenario standard: 2 to 3 seats (seat 0..): red, blue, green" "$T/out"
has "options: just-like-old-days, fog-of-war," "$T/out"
has "core options (every ruleset): dice=standard, dice=contributory, spectators=live" "$T/out"
# every option listed for a scenario is one `new` accepts (sambre-crossing only where listed)
opts=$(awk '/scenario waterloo20-extended:/{getline; sub(/^ *options: /, ""); print; exit}' "$T/out")
[ -n "$opts" ] || fail "no options line for waterloo20-extended"
case "$opts" in *sambre-crossing*) ;; *) fail "waterloo20-extended does not list sambre-crossing: $opts";; esac
std=$(awk '/scenario waterloo20-standard:/{getline; print; exit}' "$T/out")
case "$std" in *sambre-crossing*) fail "waterloo20-standard lists sambre-crossing, which it refuses";; esac
expect 0 ctl new --ruleset n20 --scenario waterloo20-extended --option sambre-crossing --gen-keys "$T/ok"
expect 0 ctl rulesets
cp "$T/out" "$T/list.c"
expect 0 /usr/bin/python3 -m berthier.rulesets --data-dir "$D"
diff "$T/list.c" "$T/out" >/dev/null || fail "berthier.rulesets and berthierctl rulesets differ"

# --- refusals name the valid names
expect 1 ctl new --ruleset n20 --scenario waterloo --gen-keys "$T/a"
has 'rejected BAD_SCENARIO' "$T/err"
has 'unknown scenario "waterloo" for n20; valid: waterloo20-standard, waterloo20-closing, waterloo20-extended, waterloo20-opening' "$T/err"
expect 1 ctl new --ruleset n20 --scenario waterloo20-standard --option fog --gen-keys "$T/b"
has 'rejected BAD_OPTION' "$T/err"
has 'unknown option "fog" for waterloo20-standard; valid: just-like-old-days, fog-of-war,' "$T/err"
has 'variable-weather' "$T/err"
expect 1 ctl new --ruleset duel --scenario standard --option fog --gen-keys "$T/c"
has 'valid: none' "$T/err"
expect 1 ctl new --ruleset nope --scenario standard --gen-keys "$T/d"
has 'unknown ruleset "nope"; valid: n20, duel' "$T/err"

# --- a key the daemon does not know
expect 0 "$BIN/berthierctl" keygen "$T/stranger"
expect 3 ctl --key "$T/stranger.key" hello
has "the daemon refused this key: it is not an admin key nor a seat or spectator key of any game" "$T/err"
grep -q "timed out" "$T/err" && fail "the refusal still reads as a timeout"
cat > "$T/py_refused.py" <<'PY'
import sys
from berthier.client import Client, KeyRefused
c = Client(data_dir=sys.argv[1], key_file=sys.argv[2], timeout=5.0, retries=5)
try:
    c.hello()
except KeyRefused as e:
    print("refused:", e)
    sys.exit(0)
finally:
    c.close()
print("hello answered a key the daemon does not know")
sys.exit(1)
PY
expect 0 /usr/bin/python3 "$T/py_refused.py" "$D" "$T/stranger.key"
has "refused: no reply from" "$T/out"
has "the daemon refused this key: it is not an admin key nor a seat or spectator key of any game" "$T/out"
# a client made while its key was unknown works once a game names the key: the
# refusal its socket saw before the create is not taken for a refusal of later calls
cat > "$T/py_late.py" <<'PY'
import sys
from berthier.client import Client, KeyRefused, keygen
admin = Client(data_dir=sys.argv[1])
k0, k1 = keygen(), keygen()
me = Client(data_dir=sys.argv[1], keypair=k0, timeout=5.0, retries=5)
try:
    me.hello()
    sys.exit("hello answered before the key was in any game")
except KeyRefused:
    pass
g = admin.create_game("duel", "standard", seats=[k0, k1])
h = me.hello().hello
assert not h.admin
print("late key admitted, rulesets:", ",".join(r.id for r in h.rulesets_info))
PY
expect 0 /usr/bin/python3 "$T/py_late.py" "$D"
has "late key admitted, rulesets: n20,duel" "$T/out"
# a seat key of a game is admitted (the monitor does not refuse known keys)
expect 0 ctl --key "$T/ok0.key" hello
has "admin no" "$T/out"

# --- a data dir that is not there: a clear error, no traceback
expect 4 /usr/bin/python3 -m berthier.rulesets --data-dir "$T/nowhere"
has "no berthierd data dir at $T/nowhere" "$T/err"
grep -q Traceback "$T/err" && fail "a traceback for a missing data dir"
expect 4 /usr/bin/python3 -m berthier.example_bot --data-dir "$T/nowhere" --key "$T/stranger.key" --game g --seat 0
has "no berthierd data dir" "$T/err"
# --- keygen keys/NAME: its own directory, 0700, and ignored by the repository
(cd "$T" && expect 0 "$BIN/berthierctl" keygen keys/alice)
[ "$(stat -c %a "$T/keys")" = 700 ] || fail "keygen made keys/ with mode $(stat -c %a "$T/keys")"
[ "$(stat -c %a "$T/keys/alice.key")" = 600 ] || fail "keys/alice.key is not 0600"
SRC=${BERTHIER_SRC:-}
if [ -n "$SRC" ] && git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  for f in keys/alice.key keys/alice.pub alice.key alice.pub; do
    git -C "$SRC" check-ignore -q "$f" || fail "$f in the source tree is not ignored by git"
  done
fi
echo "PASS"
