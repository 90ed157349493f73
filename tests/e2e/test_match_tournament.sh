#!/usr/bin/env bash
# berthier-match as a tournament director: a 4-entrant round robin (random, greedy,
# a passive bot that answers @0 to every decision, and a bot that hangs for ever)
# on a short decision clock, checked from the results file:
# - every ordered pair of entrants met equally often on every side (the old runner
#   seated bot (g + s) mod n: with 4 bots 0 never met 2, and each pair always
#   played the same sides, so this fails on the old code);
# - every game of the hung bot ended, forfeited on time against its seat (the old
#   runner had no clock by default: the match hung for ever);
# - the passive bot is not rated first (it topped the old runner's table);
# - log paths are absolute and verify when the runner runs from another directory,
#   each exec entrant's stderr is in its own file, repeated bots are #1, #2;
# - a Swiss schedule plays everyone once a round without a rematch.
. "$(dirname "$0")/lib.sh"
e2e_init tourney
start_daemon

cat >"$T/passive.sh" <<'BOT'
#!/bin/sh
while read -r line; do
  case "$line" in
    go) echo "@0" ;;
    "end "*) exit 0 ;;
  esac
done
BOT
cat >"$T/hang.sh" <<'BOT'
#!/bin/sh
echo "hang.sh: going to sleep" >&2
exec sleep 100000
BOT
chmod +x "$T/passive.sh" "$T/hang.sh"
mkdir -p "$T/elsewhere"
# From another directory, with a relative data dir: the log paths must still work.
# The 3 s clock is only the hung bot's budget (nothing here measures time): it is far
# more than the other bots need for a decision even on a loaded machine.
(cd "$T/elsewhere" && "$BIN/berthier-match" --data-dir ../d --bots "random,greedy,exec:$T/passive.sh,exec:$T/hang.sh" \
  --rounds 2 --parallel 2 --decision-ms 3000 --seed 41 --verify --results "$T/results.jsonl" \
  >"$T/out" 2>"$T/err") || fail "berthier-match exit $?"
grep -q '^24 of 24 games ended$' "$T/out" || fail "not every game ended"
[ "$(grep -c ' verified$' "$T/out")" = 24 ] || fail "not every log verified"
/usr/bin/python3 - "$T/results.jsonl" "$T/out" <<'PY' || fail "results file checks"
import json, sys, os
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 24, len(recs)
names = ["random", "greedy", "passive.sh", "hang.sh"]
met = {}
for r in recs:
    assert len(r["entrants"]) == 2
    key = tuple(r["entrants"])
    met[key] = met.get(key, 0) + 1
    assert os.path.isabs(r["log"]) and os.path.exists(r["log"]), r["log"]
    assert r["verify"] == "ok", r
    assert all(os.path.isabs(x) for x in r["receipts"]), r["receipts"]
    if "hang.sh" in r["entrants"]:
        seat = r["entrants"].index("hang.sh")
        assert r["ended"] == "timeout", r
        assert r["stalled_seat"] == seat, r
        assert "on time" in r["reason"], r["reason"]
        assert r["winners"] == [1 - seat], r
    else:
        assert r["ended"] != "unfinished", r
# every ordered pair exactly twice: each pair met 4 times, twice on each side
for a in names:
    for b in names:
        if a != b:
            assert met.get((a, b)) == 2, (a, b, met.get((a, b)))
assert sum(met.values()) == 24
# the standings: the first row of the table is not the passive bot
lines = open(sys.argv[2]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith("bot ") and "Elo" in l)
first = lines[i + 1].split()[0]
assert first != "passive.sh", lines[i:i + 5]
assert first in names, first
PY
# the hung bot's stderr is in its own file next to the results, not in the runner's
grep -q 'hang.sh: going to sleep' "$T/results.jsonl.bots/hang.sh.stderr" || fail "no stderr file for hang.sh"
! grep -q 'going to sleep' "$T/err" || fail "a bot's stderr went into the runner's"
grep -q 'crosstable' "$T/out" && grep -q 'per seat' "$T/out" || fail "no crosstable or per-seat table"

# CSV results, and the same bot twice is numbered #1, #2 (the old runner said #1, #2 only
# for the first two; with three it said random#1 ... random#3 by position).
"$BIN/berthier-match" --data-dir "$D" --bots random,greedy,random --games 2 --seed 42 \
  --results "$T/results.csv" >"$T/out" 2>"$T/err" || fail "berthier-match (csv) exit $?"
head -n 1 "$T/results.csv" | grep -q '^game,round,entrants,score,winners,ended,' || fail "no CSV header"
[ "$(wc -l <"$T/results.csv")" = 3 ] || fail "not 2 CSV records"
grep -qE '^random#1 ' "$T/out" && grep -qE '^random#2 ' "$T/out" || fail "repeated bots not numbered #1, #2"
# Swiss: 3 rounds of 4 entrants, every entrant plays once a round and (with 4 entrants
# and 3 rounds) meets every other exactly once.
"$BIN/berthier-match" --data-dir "$D" --bots random,greedy,random,greedy --schedule swiss --rounds 3 \
  --parallel 2 --seed 44 --results "$T/swiss.jsonl" >"$T/out" 2>"$T/err" || fail "berthier-match (swiss) exit $?"
grep -q '^6 of 6 games ended$' "$T/out" || fail "not 6 Swiss games"
/usr/bin/python3 - "$T/swiss.jsonl" <<'PY' || fail "Swiss checks"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 6
rounds = {}
pairs = set()
for r in recs:
    rounds.setdefault(r["round"], []).extend(r["entrants"])
    pair = frozenset(r["entrants"])
    assert len(pair) == 2 and pair not in pairs, r["entrants"]
    pairs.add(pair)
assert sorted(rounds) == [1, 2, 3], rounds
for k, who in rounds.items():
    assert sorted(who) == ["greedy#1", "greedy#2", "random#1", "random#2"], (k, who)
PY
# A daemon reached by endpoint and keys (no data dir, as a remote one): --verify downloads
# each log next to the results and verifies the copy, from any working directory (the
# old runner verified the daemon's own path, relative to the daemon: it failed).
(cd "$T/elsewhere" && "$BIN/berthier-match" --connect "ipc://$D/berthier.sock" --server-key "$D/server.pub" \
  --key "$D/admin.key" --bots random,greedy --games 2 --seed 45 --verify --results remote.csv \
  >"$T/out" 2>"$T/err") || fail "berthier-match (by endpoint) exit $?"
[ "$(grep -c ' verified$' "$T/out")" = 2 ] || fail "the downloaded logs did not verify"
[ "$(grep -c "log $T/elsewhere/remote.csv.logs/" "$T/out")" = 2 ] || fail "the logs were not downloaded next to the results"

# A log that fails to verify is counted as such, not as unfinished, and the replay
# tool's error is shown (the old runner swallowed it and said "unfinished").
printf '#!/bin/sh\necho "FAIL: record 7: bad signature" >&2\nexit 1\n' >"$T/badreplay.sh"
chmod +x "$T/badreplay.sh"
set +e
BERTHIER_REPLAY="$T/badreplay.sh" "$BIN/berthier-match" --data-dir "$D" --bots random,greedy --games 1 \
  --seed 43 --verify --results "$T/bad.jsonl" >"$T/out" 2>"$T/err"; rc=$?
set -e
[ "$rc" = 1 ] || fail "a failed verify: exit $rc"
grep -q 'verify:FAILED (FAIL: record 7: bad signature)$' "$T/out" || fail "the replay tool's error is not shown"
grep -q '^0 of 1 game ended; 1 ended but failed to verify$' "$T/out" || fail "a failed verify not counted as such"
grep -q '"ended":"normal"' "$T/bad.jsonl" && grep -q '"verify":"failed"' "$T/bad.jsonl" \
  && grep -q '"verify_error":"FAIL: record 7: bad signature"' "$T/bad.jsonl" || fail "results: failed verify"
echo "ok: berthier-match tournament"
