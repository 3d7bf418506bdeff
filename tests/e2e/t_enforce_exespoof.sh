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
