#!/bin/bash
# t_enforce_interp.sh - issue 11 item 8: a "#!" script's interpreter is
# checked as TOMOYO checks it, as "file read INTERP" in the script's new
# domain.  Two scripts on the tmpfs name a copy of sh there; the domain
# of one may read it, the other's may not: an unprivileged exec of the
# second fails with EPERM, logged in the script's domain.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need sh
hm_enf_setup
cp "$(readlink -f "$(command -v sh)")" "$T/sh"
for s in good bad; do
	printf '#!%s\nexit 0\n' "$T/sh" >"$T/$s"
	chmod 0755 "$T/$s"
done
H="<kernel> $T/helper"
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file execute $T/good
file execute $T/bad

$H $T/good
use_profile 3
file read $T/sh
file read $T/good

$H $T/bad
use_profile 3
file read $T/bad
EOP

hm_enf_start --mode enforcing
hm_enf_nobody exec "$T/good"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "the script whose domain reads $T/sh: $HM_ENF_OUT"
hm_enf_nobody exec "$T/bad"
case "$HM_ENF_OUT" in
*"exec $T/bad: Operation not permitted"*) ;;
*) hm_enf_fail "the interpreter ran unchecked: $HM_ENF_RC $HM_ENF_OUT" ;;
esac
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H $T/bad\" file read $T/sh"
hm_ok "the #! interpreter is read in the script's domain: allowed there, denied where not"
