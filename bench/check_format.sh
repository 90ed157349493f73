#!/usr/bin/env bash
# Runs `berthier-bench --quick` and checks only the shape of its output: the
# header, one well-formed line per measurement, a `# why` line for every goal
# marked missed. No figure is compared with anything (docs/bench.md).
set -uo pipefail
bench=${1:?usage: check_format.sh PATH/TO/berthier-bench}
out=$(mktemp /tmp/berthier-bench-check.XXXXXX)
trap 'rm -f "$out"' EXIT
"$bench" --quick >"$out"
rc=$?
cat "$out"
fail=0
if [ $rc -ne 0 ]; then echo "FAIL: berthier-bench --quick exited $rc"; fail=1; fi
grep -Eq '^# berthier-bench ' "$out" || { echo "FAIL: no banner line"; fail=1; }
grep -Eq '^NAME +VALUE +FLOOR +RATIO +GOAL +MET$' "$out" || { echo "FAIL: no header line"; fail=1; }
num='(-|[0-9]+(\.[0-9]+)?)'
for name in order_latency_p50 order_latency_p99 flood_latency_p99 throughput events_latency_p50 replay_verify \
            replay_verify_inproc replay_verify_reexec replay_verify_jobs inproc_games_duel inproc_games inproc_games_wnlb inproc_games_wem memory_per_game \
            startup_per_finished_game memory_per_finished_game; do
  n=$(grep -Ec "^$name " "$out")
  if [ "$n" != 1 ]; then echo "FAIL: $name printed $n times"; fail=1; continue; fi
  line=$(grep -E "^$name " "$out")
  if ! echo "$line" | grep -Eq "^$name +$num +$num +$num +[^ ]+ +(yes|no|n/a)$"; then
    echo "FAIL: malformed line: $line"; fail=1; continue
  fi
  if echo "$line" | grep -Eq ' no$' && ! grep -Eq "^# why $name: ." "$out"; then
    echo "FAIL: $name misses its goal but no '# why $name:' line says where the time goes"; fail=1
  fi
done
# The floors the lines must name (issue 17): the durable echo with the requests per order the
# bots needed, both replay floors of the same run, the latency floor's sizes.
grep -Eq '^# note throughput: .*[0-9.]+ requests per accepted order.*floor = durable echo' "$out" ||
  { echo "FAIL: the throughput note names no requests per order or no durable echo"; fail=1; }
grep -Eq '^# note replay_verify: .*BLAKE2b.*bare re-execution of the same inputs: [0-9]+ records/s' "$out" ||
  { echo "FAIL: the replay_verify note does not give both floors"; fail=1; }
grep -Eq '^# note order_latency_p50: .*[0-9]+-byte request, [0-9]+-byte padded reply' "$out" ||
  { echo "FAIL: the latency note does not give the sizes its floor moved"; fail=1; }
# Every other line is a comment.
bad=$(grep -Ev '^(#|NAME )' "$out" | grep -Ev '^[a-z0-9_]+ ' || true)
[ -z "$bad" ] || { echo "FAIL: unexpected lines:"; echo "$bad"; fail=1; }
[ $fail = 0 ] && echo "bench_quick: output well formed"
exit $fail
