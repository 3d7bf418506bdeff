#!/bin/bash
# t_enforce_watchdog.sh - issue 11 item 5: a decision that comes too late
# (a starved daemon; here every decision stalls 3 s by the test-only
# HISTMAC_TEST_DECISION_DELAY_MS) is answered by the watchdog, and in
# enforcing mode without --default that answer is deny: an unprivileged
# open the policy would allow gets EPERM rather than a forbidden one
# getting through.  Every watchdog answer is logged (the late decision,
# and the open the watchdog read itself while the loop stalled) and sent
# to the audit trail.  With --default allow (the administrator's choice)
# the watchdog allows.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_policy		# "<kernel> $T/helper" may read $T/a
STALL=3000
TMO=200

HISTMAC_TEST_DECISION_DELAY_MS=$STALL \
	hm_enf_start --mode enforcing --decision-timeout 0.$TMO
# one process: $T/a stalls the loop, $T/c comes while it is stalled (a
# new exec now would be read and denied by the watchdog too)
hm_enf_nobody read "$T/a" "$T/c"
case "$HM_ENF_OUT" in
*"read $T/a: Operation not permitted"*) ;;
*) hm_enf_fail "stalled decision, enforcing: not denied: $HM_ENF_OUT" ;;
esac
case "$HM_ENF_OUT" in
*"read $T/c: Operation not permitted"*) ;;
*) hm_enf_fail "open during the stall: not denied: $HM_ENF_OUT" ;;
esac
hm_wait_for "grep -q 'timeout (watchdog: deny) pid=[0-9]* $T/a: answered before the decision' '$DLOG'" 100 ||
	hm_enf_fail "the late decision's watchdog answer is not logged"
hm_enf_stop
hm_enf_log_has "timeout \(watchdog: deny, loop stalled\) pid=[0-9]+ $T/c: answered unjudged"
hm_enf_want "answered by the watchdog (late)" -eq 1
hm_enf_want "answered by the watchdog (loop stalled)" -eq 1
hm_enf_want "audit records not sent" -eq 0
hm_ok "enforcing, no --default: the watchdog denies, and each of its answers is logged"

HISTMAC_TEST_DECISION_DELAY_MS=$STALL \
	hm_enf_start --mode enforcing --decision-timeout 0.$TMO --default allow
hm_enf_nobody read "$T/a"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "--default allow: the watchdog denied: $HM_ENF_OUT"
hm_wait_for "grep -q 'timeout (watchdog: allow) pid=[0-9]* $T/a' '$DLOG'" 100 ||
	hm_enf_fail "the late decision's watchdog answer is not logged"
hm_enf_stop
hm_ok "--default allow: the administrator's choice holds for the watchdog"

# every thread of the daemon (the loop, the watchdog, the policy loader)
# keeps the nice value it was started with
hm_enf_start --mode enforcing
for st in /proc/"$DPID"/task/*/stat; do
	ni=$(sed 's/.*) //' "$st" | awk '{ print $17 }')
	[ "$ni" = "$(nice)" ] || hm_enf_fail "thread $st runs at nice $ni, not $(nice)"
done
hm_enf_stop
hm_ok "every thread keeps the nice value the daemon was started with"
