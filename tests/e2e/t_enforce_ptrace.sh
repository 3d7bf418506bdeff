#!/bin/bash
# t_enforce_ptrace.sh - issue 24 item 6: ptrace into a wider domain.  A
# service $T/child (uid 65534, domain <kernel> $T/helper $T/child, may
# read $T/a and $T/b) sleeps; an attacker of the same uid, in the narrower
# <kernel> $T/helper $HM_TMP/attack (may read $T/a only; its exec was
# outside the marks, so never judged), attaches to it with PTRACE_ATTACH
# (no Yama on the test machines) and injects openat() calls into it.  A
# traced process is judged in its tracer's domain: the injected open of
# $T/a passes (the tracer may read it: the injection works), of $T/b is
# denied and logged in the tracer's domain.  The attacker then detaches
# (it could have left code behind): the service keeps the tracer's
# domain, and its own read of $T/b after its sleep is denied too.
# Control: the same service, never traced, reads $T/b.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_attack
H="<kernel> $T/helper"
A="$H $HM_TMP/attack"
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file execute $T/child

$H $T/child
use_profile 3
file read $T/a
file read $T/b

$A
use_profile 3
file read $T/a
EOP
hm_enf_start --mode enforcing

# control: the service's own domain reads $T/b
hm_enf_nobody exec "$T/child" read "$T/b"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "the service may not read $T/b: $HM_ENF_OUT"

hm_enf_bg "$T/helper" as 65534 exec "$T/child" waitread 5000 "$T/b"
svc=$BGPID
hm_wait_for "[ \"\$(readlink /proc/$svc/exe)\" = '$T/child' ] &&
	grep -q '^State:.*S' /proc/$svc/status" 100 ||
	hm_enf_fail "the service did not start"
hm_enf_nobody exec "$HM_TMP/attack" ptrace-open "$svc" "$T/a" "$T/b"
case "$HM_ENF_OUT" in
*"inject open $T/a: ok"*) ;;
*) hm_enf_fail "the injection did not work: $HM_ENF_OUT" ;;
esac
case "$HM_ENF_OUT" in
*"inject open $T/b: Operation not permitted"*) ;;
*) hm_enf_fail "the traced service opened $T/b: $HM_ENF_OUT" ;;
esac
hm_enf_bg_wait
case "$HM_ENF_OUT" in
*"read $T/b: Operation not permitted"*) ;;
*) hm_enf_fail "the service, once traced, read $T/b: $HM_ENF_OUT" ;;
esac
hm_enf_stop
hm_enf_log_has "pid $svc traced by [0-9]+: moved to its domain $A\$"
[ "$(grep -cE "deny pid=$svc domain=\"$A\" file read $T/b" "$DLOG")" = 2 ] ||
	hm_enf_fail "not two denials of $T/b in the tracer's domain"
hm_enf_want "events judged in a tracer's domain" -ge 2
# what is not judged is said at start
if [ "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)" = 0 ]; then
	hm_enf_log_has "(no Yama|Yama ptrace_scope is 0): process_vm_writev, /proc/PID/mem and pidfd_getfd .* not judged"
fi
hm_ok "a traced service is judged in its tracer's domain, and keeps it after the detach"
