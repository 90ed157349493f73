#!/usr/bin/env bash
# A match survives the daemon being killed with -9 and restarted mid-game, twice:
# every game ends, every log verifies, and no order is applied twice: the orders
# the bots saw accepted equal the order records in each log, and no request id
# appears twice in a log.
set -euo pipefail
BIN=${BERTHIER_BIN:?set BERTHIER_BIN to the build/bin directory}
T=$(mktemp -d /tmp/brt-restart.XXXXXX)
D=$T/d
daemon_pid=""
match_pid=""
cleanup() {
  if [ -n "$match_pid" ]; then kill "$match_pid" 2>/dev/null || true; wait "$match_pid" 2>/dev/null || true; fi
  if [ -n "$daemon_pid" ]; then kill -9 "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; cat "$T/out" "$T/err" 2>/dev/null >&2; exit 1; }
start_daemon() {
  "$BIN/berthierd" --data-dir "$D" >>"$T/daemon.log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 100); do
    if [ -f "$D/server.pub" ] && "$BIN/berthierctl" --data-dir "$D" --timeout 300 hello >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  cat "$T/daemon.log" >&2; fail "berthierd did not come up"
}
kill_daemon() { kill -9 "$daemon_pid"; wait "$daemon_pid" 2>/dev/null || true; daemon_pid=""; }

# A bot that thinks 0.1 s per decision, so that the games last long enough to be cut.
cat >"$T/slow.sh" <<'BOT'
#!/bin/sh
first=""
while read -r line; do
  case "$line" in
    "legal "*) n=${line#legal }; i=0
       while [ "$i" -lt "$n" ]; do read -r o; [ "$i" = 0 ] && first=$o; i=$((i+1)); done ;;
    go) sleep 0.1; echo "$first" ;;
    "end "*) exit 0 ;;
  esac
done
BOT
chmod +x "$T/slow.sh"

start_daemon
"$BIN/berthier-match" --data-dir "$D" --games 3 --bots "exec:$T/slow.sh,random" --seed 21 \
  >"$T/out" 2>"$T/err" &
match_pid=$!

live_game() {  # a game has started and not ended
  # Into a file first: with pipefail, grep -q closing the pipe early would fail berthierctl.
  "$BIN/berthierctl" --data-dir "$D" --timeout 2000 games >"$T/games" 2>/dev/null || return 1
  grep -q ' playing' "$T/games"
}
for round in 1 2; do
  # Remember what the loop saw: asking again afterwards raced with the game ending.
  seen=""
  for _ in $(seq 100); do if live_game; then seen=1; break; fi; sleep 0.05; done
  [ -n "$seen" ] || fail "no game in progress to interrupt (round $round)"
  sleep 0.3
  kill_daemon
  sleep 1
  start_daemon
done

wait "$match_pid" || { rc=$?; match_pid=""; fail "berthier-match exit $rc after restarts"; }
match_pid=""
grep -q '^3 of 3 games ended$' "$T/out" || fail "not every game ended"
while read -r id rest; do
  log=$(echo "$rest" | sed -n 's/.*  log \([^ ]*\).*/\1/p')
  "$BIN/berthier-replay" verify "$log" >/dev/null || fail "game $id: the log does not verify"
  n=$(echo "$rest" | sed -n 's/.*  orders \([0-9]*\) .*/\1/p')
  "$BIN/berthier-replay" export "$log" | grep '"kind":"order"' >"$T/orders"
  m=$(wc -l <"$T/orders")
  [ "$n" = "$m" ] || fail "game $id: the bots had $n orders accepted, the log holds $m"
  ids=$(grep -o '"request_id":[^,}]*' "$T/orders" | sort | uniq -d)
  [ -z "$ids" ] || fail "game $id: request ids applied twice: $ids"
done < <(grep -E '^[0-9a-f]{16}  ' "$T/out")
echo "ok: berthier-match survives kill -9 of the daemon"
