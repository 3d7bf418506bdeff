#!/bin/bash
# t_collector_follow.sh - `histmac events --follow LOG --checkpoint FILE`
# across auditd's log rotation (SIGUSR1) while following, across a stop
# and restart with a rotation in between, and across a crash (SIGKILL in
# the middle of a burst: the checkpoint holds the output's size, so what
# was printed after it is cut and printed again once): every event of the
# log from the first marker to the last is printed exactly once.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl awk
hm_build_workload
hm_audit_start
# Beside the system's auditd its log is followed and rotated (SIGUSR1, as
# `service auditd rotate` does; past num_logs auditd drops its oldest
# file, as it does on its own at max_log_file).
# The rules keep only the workload's login uid (4241): the log between
# the markers is the test's own, whatever else the machine runs (beside
# other tests or a build, system-wide rules wrote thousands of events a
# second: after the crash the follower re-read more than its 1,000 kept
# messages, and its "... and N more messages" failed the test).
"$HISTMAC" rules | sed '/^-a always,/s/ -k / -F auid=4241 -k /' >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
workload() {
	(echo 4241 >/proc/self/loginuid && exec "$HM_WORKLOAD" "$@")
}
log=$HM_AUDIT_LOG
ck=$HM_TMP/checkpoint
out=$HM_TMP/follow.tsv
w=$HM_TMP/w
mkdir -p "$w"

fpid=
start_follower() {
	"$HISTMAC" events -v --follow "$log" --checkpoint "$ck" -o "$out" \
		2>>"$HM_TMP/follow.err" &
	fpid=$!
	hm_on_exit "hm_stop_pid $fpid"
}
stop_follower() {
	local rc=0

	kill -TERM "$fpid"
	wait "$fpid" || rc=$?
	# exit 1 is input it skipped: say what (-v names each line)
	[ "$rc" = 0 ] || { tail -n 20 "$HM_TMP/follow.err" >&2
		hm_fail "follower exited $rc"; }
}
wait_serial() {
	hm_wait_for "awk -F'\t' '\$2 == $1 {f=1} END {exit !f}' '$out'" 200 ||
		hm_fail "follower never printed event $1"
}
rotate() {
	local ino
	ino=$(stat -c %i "$log")
	kill -USR1 "$HM_AUDIT_PID"
	hm_wait_for "[ \"\$(stat -c %i '$log' 2>/dev/null)\" != $ino ]" 100 ||
		hm_fail "auditd (pid $HM_AUDIT_PID) did not rotate $log"
}

start_follower
sleep 1
m0=$(hm_audit_marker)
workload bulk "$w" 100
rotate
workload bulk "$w" 100
m1=$(hm_audit_marker)
wait_serial "$(hm_marker_serial "$m1")"
stop_follower
[ -s "$ck" ] || hm_fail "no checkpoint written"
cp "$ck" "$HM_TMP/checkpoint.1"
hm_ok "followed a rotation; checkpoint written"

# while it is down: more events and another rotation
workload bulk "$w" 100
rotate
workload bulk "$w" 50
start_follower
workload bulk "$w" 50
m2=$(hm_audit_marker)
wait_serial "$(hm_marker_serial "$m2")"
stop_follower
hm_ok "resumed from the checkpoint across a rotation"

# a crash: killed while events stream in (the workload's, in small
# bursts 0.2 s apart for about 10 s: the follower idles between them, so
# it checkpoints every 5 s), after some checkpoints
before_crash=$(wc -l <"$HM_TMP/follow.err")
start_follower
for _ in $(seq 50); do workload bulk "$w" 2; sleep 0.2; done &
wpid=$!
sleep 6
kill -KILL "$fpid"
wait "$fpid" 2>/dev/null || true
wait "$wpid"
start_follower
workload bulk "$w" 20
m2=$(hm_audit_marker)
wait_serial "$(hm_marker_serial "$m2")"
stop_follower
hm_ok "resumed after SIGKILL"

s0=$(hm_marker_serial "$m0")
s2=$(hm_marker_serial "$m2")
hm_audit_snapshot "$HM_TMP/snap"
"$HISTMAC" events -i "$HM_TMP/snap"/* >"$HM_TMP/ref.tsv"
# auditd's own events are left out (lib.sh: hm_daemon_stamps): the
# follower started after DAEMON_START, whose serial may lie in the window
hm_daemon_stamps "$HM_TMP/daemon"
pick() {
	awk -F'\t' -v a="$s0" -v b="$s2" -v d="$HM_TMP/daemon" '
		BEGIN { while ((getline l < d) > 0) skip[l] = 1 }
		$2 >= a && $2 <= b && !(($1 " " $2) in skip) {print $2, $4}' "$1" |
		sort -n
}
pick "$HM_TMP/ref.tsv" >"$HM_TMP/want"
pick "$out" >"$HM_TMP/got"
n=$(wc -l <"$HM_TMP/want")
[ "$n" -gt 2000 ] ||
	hm_fail "only $n events in the log between the markers (a rotated file gone past num_logs?)"
# a serial the log itself holds twice (two events) is no repeat
cut -d' ' -f1 "$HM_TMP/want" | uniq -d | sort >"$HM_TMP/want.dups"
dups=$(cut -d' ' -f1 "$HM_TMP/got" | uniq -d | sort |
	comm -13 "$HM_TMP/want.dups" - | head -n 5)
[ -z "$dups" ] || hm_fail "events printed twice: $dups"
diff "$HM_TMP/want" "$HM_TMP/got" >"$HM_TMP/diff" ||
	{ head -20 "$HM_TMP/diff" >&2; hm_fail "followed events differ from the log"; }
# After the crash the follower reads again what came after its last
# checkpoint; an event of it already handed out before the checkpoint is
# skipped, and -v says so (event-before-checkpoint): that, and nothing
# else, may be said then.
head -n "$before_crash" "$HM_TMP/follow.err" | grep -v -e '^$' >&2 &&
	hm_fail "follower wrote errors before the crash"
tail -n +"$((before_crash + 1))" "$HM_TMP/follow.err" | grep -v -e '^$' \
	-e ': event-before-checkpoint: handed out before the checkpoint$' >&2 &&
	hm_fail "follower wrote errors"
hm_ok "$n events, none lost, none twice"
