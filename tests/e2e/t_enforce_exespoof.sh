#!/bin/bash
# t_enforce_exespoof.sh - issue 24 item 5: a spoofed /proc/PID/exe does
# not choose the domain.  Before the enforcer starts, as uid 65534:
#  - a genuine $T/genuine waits, then reads $T/b (its domain
#    <kernel> $T/genuine may);
#  - "spoof": a process copies its own program to anonymous memory,
#    unshares a user namespace and sets its exe link to $T/genuine with
#    prctl(PR_SET_MM_MAP);
#  - "spoof-mapped": the same, and it maps $T/genuine executable too.
# `histmac enforce --mode enforcing` then places every running process
# from /proc: the genuine one in <kernel> $T/genuine (it reads $T/b), the
# spoofers in <kernel> (denied), each spoofer logged with why its link is
# not believed (no executable mapping; another user namespace).
# The same spoof then meets the two other ways a process is placed from
# /proc: a resync after lost proc-connector messages (the spoofer, known
# in its own domain, keeps it) and a --state import naming the spoofer
# in <kernel> $T/genuine (not imported: <kernel>).  The spoofers started
# after the enforcer may read $T/genuine (to open it for the prctl).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_attack
cp "$HM_TMP/attack" "$T/genuine"
GO=$HM_TMP/go
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

<kernel> $T/genuine
use_profile 3
file read $T/b

<kernel> $T/helper $HM_TMP/attack
use_profile 3
file read $T/genuine
EOP

# start NAME CMD...: CMD as uid 65534 in the background, output in
# $HM_TMP/NAME.out, its pid in PID_NAME
start() {
	local name=$1
	shift
	"$T/helper" as 65534 exec "$@" >"$HM_TMP/$name.out" 2>&1 &
	eval "PID_$name=$!"
	hm_on_exit "_hm_enf_kill_job $!"
}

start genuine "$T/genuine" wait "$GO" "$T/b"
start spoof "$HM_TMP/attack" spoof "$T/genuine" "$GO" "$T/b"
start mapped "$HM_TMP/attack" spoof-mapped "$T/genuine" "$GO" "$T/b"
for n in spoof mapped; do
	hm_wait_for "grep -q '^spoofed\\|^spoof:' '$HM_TMP/$n.out'" 100 ||
		hm_fail "$n did not start: $(cat "$HM_TMP/$n.out")"
	grep -qx "spoofed $T/genuine" "$HM_TMP/$n.out" ||
		hm_fail "$n could not spoof: $(cat "$HM_TMP/$n.out")"
done
pid=$PID_spoof
[ "$(readlink "/proc/$pid/exe")" = "$T/genuine" ] ||
	hm_fail "the spoofed link is not $T/genuine"
[ "$(stat -c %u "/proc/$pid")" = 65534 ] || hm_fail "not uid 65534"

hm_enf_start --mode enforcing
touch "$GO"
for n in genuine spoof mapped; do
	eval "pid=\$PID_$n"
	hm_wait_for "! kill -0 $pid" 200 || hm_enf_fail "$n hung"
	wait "$pid" || true
done
grep -qx "read $T/b: ok" "$HM_TMP/genuine.out" ||
	hm_enf_fail "the genuine process was denied: $(cat "$HM_TMP/genuine.out")"
for n in spoof mapped; do
	grep -qx "read $T/b: Operation not permitted" "$HM_TMP/$n.out" ||
		hm_enf_fail "$n read $T/b: $(cat "$HM_TMP/$n.out")"
done
hm_enf_stop
hm_enf_log_has "pid $PID_spoof: exe link $T/genuine not believed \(no executable mapping of it\)"
hm_enf_log_has "pid $PID_mapped: exe link $T/genuine not believed \(in another user namespace\)"
hm_enf_log_has "deny pid=$PID_spoof domain=\"<kernel>\" file read $T/b"
hm_enf_log_has "deny pid=$PID_mapped domain=\"<kernel>\" file read $T/b"
hm_enf_want "exe links not believed (not mapped, userns)" -ge 2
hm_ok "a spoofed exe link (unmapped, or mapped in a user namespace) places the process in <kernel>"

# wait_spoofed NAME: NAME printed that it spoofed $T/genuine
wait_spoofed() {
	hm_wait_for "grep -q '^spoofed\\|^spoof:' '$HM_TMP/$1.out'" 100 ||
		hm_enf_fail "$1 did not start: $(cat "$HM_TMP/$1.out")"
	grep -qx "spoofed $T/genuine" "$HM_TMP/$1.out" ||
		hm_enf_fail "$1 could not spoof: $(cat "$HM_TMP/$1.out")"
}

# denied NAME: NAME ends, denied $T/b
denied() {
	local pid
	eval "pid=\$PID_$1"
	hm_wait_for "! kill -0 $pid" 200 || hm_enf_fail "$1 hung"
	wait "$pid" || true
	grep -qx "read $T/b: Operation not permitted" "$HM_TMP/$1.out" ||
		hm_enf_fail "$1 read $T/b: $(cat "$HM_TMP/$1.out")"
}

# ------------------------------------------- resync (lost messages)
# (a buffer small enough to overflow at will, large enough that the
# machine's own processes do not overflow it before)
hm_enf_start --mode enforcing --proc-buffer 262144
# the spoof begins once the daemon has placed the spoofer by its exec
HM_SPOOF_AFTER=$HM_TMP/placed start resync "$HM_TMP/attack" spoof "$T/genuine" \
	"$GO.2" "$T/b"
hm_wait_for "[ \"\$(readlink /proc/$PID_resync/exe)\" = '$HM_TMP/attack' ]" 100 ||
	hm_enf_fail "the spoofer did not start"
sleep 0.5
touch "$HM_TMP/placed"
wait_spoofed resync
kill -STOP "$DPID"
for i in $(seq 1 1000); do (:); done
kill -CONT "$DPID"
hm_wait_for "grep -q 'resyncing from /proc' '$DLOG'" 100 ||
	hm_enf_fail "no resync"
touch "$GO.2"
denied resync
hm_enf_stop
hm_enf_log_has "pid $PID_resync: exe link $T/genuine not believed \(no executable mapping of it\): ignored"
hm_enf_log_has "deny pid=$PID_resync domain=\"<kernel> $T/helper $HM_TMP/attack\" file read $T/b"
hm_ok "resync: the spoofer keeps its own domain"

# ------------------------------------------------------- --state
start state "$HM_TMP/attack" spoof "$T/genuine" "$GO.3" "$T/b"
wait_spoofed state
ppid=$(awk '{ print $4 }' "/proc/$PID_state/stat")
printf '# histmac process table v1: pid ppid sec flags exe domain\n%s %s 0 0 %s %s\n' \
	"$PID_state" "$ppid" "$T/genuine" "<kernel> $T/genuine" >"$HM_TMP/state"
hm_enf_start --mode enforcing --state "$HM_TMP/state"
hm_enf_log_has "--state .*: 0 processes imported"
touch "$GO.3"
denied state
hm_enf_stop
hm_enf_log_has "pid $PID_state: exe link $T/genuine not believed \(no executable mapping of it\): not imported"
hm_enf_log_has "deny pid=$PID_state domain=\"<kernel>\" file read $T/b"
hm_ok "--state: a spoofer named in the table is not imported"
