#!/usr/bin/env bash
# Crash safety of the policy: SIGKILL `histmac learn` at random points
# while it saves, again and again, and show that the policy directory
# always holds the old or the new complete policy (histmac rolls an
# interrupted commit forward on load) and `histmac policy check` accepts it.
#
# Each round learns one more small log (tests/data/file.log with its paths
# renamed by the round number, so every round adds entries).  Saves are
# slowed down with HISTMAC_TEST_SAVE_DELAY_US so kills land inside them.
# HM_KILL_ROUNDS (default 200) rounds, and on, up to 200, until kills
# have left the old policy, the new one and a commit to roll forward
# (the sanitizer build, six times slower a round, asks for 40).
. "$(dirname "$0")/lib.sh"
rounds=${HM_KILL_ROUNDS:-200}
max_rounds=$((rounds > 200 ? rounds : 200))

pol=$tmp/policy
"$HISTMAC" learn -q -p "$pol" -i "$HM_SRC/samples/audit/apache2-sysv.log" 2>/dev/null
snapshot() {	# the policy as histmac reads it, in one canonical text
	"$HISTMAC" export -p "$1" --format tomoyo-1.8 2>/dev/null
}

killed_mid=0 old=0 new=0
for ((i = 1; i <= max_rounds; i++)); do
	[ "$i" -gt "$rounds" ] && [ "$old" -gt 0 ] && [ "$new" -gt 0 ] &&
		[ "$killed_mid" -gt 0 ] && break
	sed "s|/tmp/hmrec/|/tmp/hmrec$i/|g" "$HM_SRC/tests/data/file.log" >"$tmp/in.log"
	# What the new policy is: learn the same into a copy, unkilled.
	rm -rf "$tmp/want"
	cp -r "$pol" "$tmp/want"
	t0=$(date +%s%N)
	"$HISTMAC" learn -q -p "$tmp/want" -i "$tmp/in.log" 2>"$tmp/want.err" ||
		{ cat "$tmp/want.err" >&2; die "round $i: learn failed"; }
	took=$(($(date +%s%N) - t0))
	snapshot "$tmp/want" >"$tmp/want.txt"
	snapshot "$pol" >"$tmp/old.txt"
	cmp -s "$tmp/old.txt" "$tmp/want.txt" && die "round $i learns nothing new"

	# Each step of the save waits up to 3 ms, or a fiftieth of an
	# unkilled run where that is longer (ASan: a run of a second), so
	# the commit (about ten steps) keeps its share of the kill window
	# whatever the build: with 3 ms under ASan, 0 of 200 kills once
	# landed inside a commit.
	delay_max=$((took / 1000 / 50))
	[ "$delay_max" -ge 3000 ] || delay_max=3000
	HISTMAC_TEST_SAVE_DELAY_US=$(((RANDOM * 32768 + RANDOM) % delay_max)) \
		"$HISTMAC" learn -q -p "$pol" -i "$tmp/in.log" 2>/dev/null &
	pid=$!
	# Kill anywhere in up to 1.5 times an
	# unkilled run's time (a slow build, ASan, a busy machine: the window
	# scales with it; the save delays make this run a little longer).
	sleep "$(awk -v t="$took" -v r="$RANDOM" 'BEGIN { printf "%.4f", t / 1e9 * r / 32768 * 1.5 }')"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ -e "$pol/.histmac-commit" ] && killed_mid=$((killed_mid + 1))

	"$HISTMAC" policy check -p "$pol" >"$tmp/check.out" 2>&1 ||
		{ cat "$tmp/check.out" >&2; die "round $i: policy check failed"; }
	snapshot "$pol" >"$tmp/got.txt"
	if cmp -s "$tmp/got.txt" "$tmp/old.txt"; then
		old=$((old + 1))
	elif cmp -s "$tmp/got.txt" "$tmp/want.txt"; then
		new=$((new + 1))
	else
		diff "$tmp/want.txt" "$tmp/got.txt" | head -20 >&2
		die "round $i: neither the old nor the new policy"
	fi
	ls -a "$pol" | grep -q '\.hmnew$' && die "round $i: a stale .hmnew file"
done
echo "ok: $((i - 1)) kills: $old left the old policy, $new the new one," \
	"$killed_mid inside a commit (rolled forward on load)"
# Kills that never hit a save, or always after it, would prove nothing.
[ "$old" -gt 0 ] && [ "$new" -gt 0 ] && [ "$killed_mid" -gt 0 ] ||
	die "the kills did not land both before and inside saves"
