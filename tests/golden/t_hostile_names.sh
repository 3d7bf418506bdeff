#!/bin/bash
# t_hostile_names.sh - a million distinct file names opened by one process
# (tests/data/hostile/gen.pl names): learning stops at max_learning_entry,
# says so, and its memory does not grow with the names (the model
# interns nothing for a full domain); the collector's memory is flat too.
# Needs $HISTMAC and $HM_SRC; about 15 s on 2 cores (60 s under ASan).
. "$HM_SRC/tests/data/hostile/lib.sh"

# a million names, a quarter under ASan (which is 10 times slower and
# checks memory errors, not bounds)
big=1000000
[ -z "$asan" ] || big=250000

# learn, 100,000 names then $big: the same peak, under 32 MiB
run 0 "$HISTMAC" learn -p "$tmp/p100k" -i - < <($gen names 100000)
rss100k=$rss
rss_below 32768 "learn, 100,000 names"
# (made on the fly: 280 MB of log)
run 0 "$HISTMAC" learn -p "$tmp/p" -i - < <($gen names $big)
rss_below 32768 "learn, $big names"
# (not under ASan: how full its quarantine gets differs with threads)
[ -n "$asan" ] || [ "$rss" -lt $((rss100k + 8192)) ] ||
	fail "learn: peak RSS grew from $rss100k KiB (100,000 names) to $rss KiB ($big)"
has "$tmp/out" "^learned from $((big + 1)) events " "names: every event read"
has "$tmp/out" 'entries: 2048 new, 0 widened, 2048 total$' "names: quota of 2048"
has "$tmp/out" "refused by max_learning_entry: $((big - 2048))\$" "names: the rest counted"
has "$tmp/err" 'hostile-names: max_learning_entry \(2048\) reached' "names: warned"
[ "$(grep -c 'max_learning_entry' "$tmp/err")" -eq 1 ] || fail "names: warned more than once"
has "$tmp/p/domain_policy.conf" '^quota_exceeded$' "names: domain flagged"
has "$tmp/p/domain_policy.conf" '^file read /tmp/m/f0002048$' "names: first 2048 kept"
hasnt "$tmp/p/domain_policy.conf" '^file read /tmp/m/f0002049$' "names: none after the quota"

# an explicit limit is obeyed the same way; 0 means none (then memory
# grows with what is learned, which is what was asked for)
run 0 "$HISTMAC" learn -p "$tmp/p10" --max-learning-entry 10 -i - < <($gen names 5000)
has "$tmp/out" 'refused by max_learning_entry: 4990$' "names: --max-learning-entry 10"
run 0 "$HISTMAC" learn -p "$tmp/p0" --max-learning-entry 0 -i - < <($gen names 5000)
has "$tmp/out" 'entries: 5000 new' "names: --max-learning-entry 0"
hasnt "$tmp/p0/domain_policy.conf" '^quota_exceeded$' "names: no quota, no flag"

# the collector alone: flat
run 0 "$HISTMAC" events -i - -o /dev/null < <($gen names $big)
rss_below 16384 "events, $big names"

# check: distinct violations are listed up to HM_CHECK_MAX_VIOLATIONS
# (100,000); past that they are counted, and memory stops growing
run 1 "$HISTMAC" check -p "$tmp/p" -i - -o "$tmp/check.out" < <($gen names 150000)
rss150k=$rss
has "$tmp/check.out" ' 147952 denied, 100000 missing entries in 1 domain' "check: listed up to the limit"
has "$tmp/check.out" '^# 47952 more denied accesses are not listed' "check: the rest counted"
run 1 "$HISTMAC" check -p "$tmp/p" -i - -o /dev/null < <($gen names 300000)
echo "  check: peak RSS $rss150k KiB for 150,000 names, $rss KiB for 300,000"
rss_below $((rss150k * 5 / 4)) "check, 300,000 names (list full)"

finish t_hostile_names
