#!/usr/bin/env bash
# A match survives the daemon being killed with -9 and restarted mid-game, twice:
# every game ends, every log verifies, and no order is applied twice: the orders
# the bots saw accepted equal the order records in each log, and no request id
# appears twice in a log.
. "$(dirname "$0")/lib.sh"
e2e_init restart
match_pid=""
stop_match() { if [ -n "$match_pid" ]; then kill "$match_pid" 2>/dev/null || true; wait "$match_pid" 2>/dev/null || true; fi; }
e2e_extra_cleanup=stop_match

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
