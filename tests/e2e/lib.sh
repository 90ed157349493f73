# Sourced by the e2e shell tests (not a test itself): a scratch directory $T with
# the daemon's data dir $D under it, a berthierd started on it, and a cleanup that
# kills it and removes $T whatever happens.
#
#   . "$(dirname "$0")/lib.sh"
#   e2e_init NAME        # T=/tmp/brt-NAME.XXXXXX, D=$T/d, the EXIT trap
#   start_daemon         # berthierd on $D, waits until `hello` answers ($T/hello)
#   kill_daemon          # kill -9, as a crash
#   daemon_has_ruleset R # 0 if the running daemon lists ruleset R
#   fail MESSAGE         # prints MESSAGE and the tail of $T/out and $T/err, exits 1
#
# A test that starts more processes sets e2e_extra_cleanup to a function that stops
# them; a test that wants other diagnostics redefines fail after sourcing.
set -euo pipefail
BIN=${BERTHIER_BIN:?set BERTHIER_BIN to the build/bin directory}
daemon_pid=""
e2e_extra_cleanup=""

e2e_cleanup() {
  if [ -n "$e2e_extra_cleanup" ]; then "$e2e_extra_cleanup" || true; fi
  if [ -n "$daemon_pid" ]; then kill -9 "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$T"
}

e2e_init() {
  T=$(mktemp -d "/tmp/brt-$1.XXXXXX")
  D=$T/d
  trap e2e_cleanup EXIT
}

fail() { echo "FAIL: $*" >&2; cat "$T/out" "$T/err" 2>/dev/null | tail -40 >&2; exit 1; }

start_daemon() {
  "$BIN/berthierd" --data-dir "$D" >>"$T/daemon.log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 100); do
    if [ -f "$D/server.pub" ] && "$BIN/berthierctl" --data-dir "$D" --timeout 300 hello >"$T/hello" 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  cat "$T/daemon.log" >&2
  fail "berthierd did not come up"
}

kill_daemon() { kill -9 "$daemon_pid"; wait "$daemon_pid" 2>/dev/null || true; daemon_pid=""; }

daemon_has_ruleset() { grep -q "^rulesets .*\\b$1\\b" "$T/hello"; }
