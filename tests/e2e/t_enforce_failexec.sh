#!/bin/bash
# t_enforce_failexec.sh - issue 11 item 4: an allowed exec that fails
# (execve with a bad argv: EFAULT after the kernel opened the program)
# changes nothing.  The unprivileged process then (a) opens the program
# O_RDWR|O_APPEND: its domain holds only "file execute", so EPERM, and
# (b) execs a program outside the marks: that one is entered by its own
# name, not the failed exec's, so it cannot use the failed exec's domain.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need cat
hm_enf_setup
chmod 0777 "$T/child"		# writable: only the enforcer stands between
H="<kernel> $T/helper"
CAT=$(readlink -f "$(command -v cat)")
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file execute $T/child

$H $T/child
use_profile 3
file read $T/a
EOP

hm_enf_start --mode enforcing
hm_enf_nobody exec "$T/child" read "$T/a"	# the exec itself is allowed
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "the allowed exec failed: $HM_ENF_OUT"
hm_enf_nobody failexec "$T/child" exec "$CAT" "$T/a"
case "$HM_ENF_OUT" in
*"failexec $T/child: Bad address"*) ;;
*) hm_enf_fail "the exec did not fail as planned: $HM_ENF_OUT" ;;
esac
case "$HM_ENF_OUT" in
*"append $T/child: Operation not permitted"*) ;;
*) hm_enf_fail "appended to $T/child after a failed exec: $HM_ENF_OUT" ;;
esac
case "$HM_ENF_OUT" in
*"$T/a: Operation not permitted"*) ;;
*) hm_enf_fail "$CAT read $T/a in the failed exec's domain: $HM_ENF_OUT" ;;
esac
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file (read/)?(append|write) $T/child"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H $CAT\" file read $T/a"
hm_ok "a failed exec: no domain change, and a write open of the program is judged"
