#!/bin/bash
# t_enforce_append.sh - issue 24 item 7: "file append" gave write and
# truncate.  uid 65534, whose domain may only append to $T/log, opens it
# O_WRONLY|O_APPEND, clears O_APPEND (fcntl F_SETFL 0), pwrites at
# offset 0 and truncates: the open is judged as "file write", so EPERM
# and the log is untouched.  Controls: $T/alog is append-only (chattr
# +a): its append open is allowed by "file append", and the kernel itself
# refuses the rewrite (fcntl: EPERM); a domain granted "file write"
# $T/wlog rewrites it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
H="<kernel> $T/helper"
for f in log alog wlog; do
	echo 0123456789 >"$T/$f"
	chmod 0666 "$T/$f"		# DAC lets uid 65534 write; the policy decides
done
"$T/helper" setappend "$T/alog" || hm_fail "cannot make $T/alog append-only"
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file append $T/log
file append $T/alog
file write $T/wlog
file truncate $T/wlog
EOP

hm_enf_start --mode enforcing
hm_enf_nobody rewrite "$T/log"
case "$HM_ENF_OUT" in
*"rewrite $T/log: open: Operation not permitted"*) ;;
*) hm_enf_fail "an append-only grant rewrote $T/log: $HM_ENF_OUT" ;;
esac
hm_enf_nobody open append "$T/log"
case "$HM_ENF_OUT" in
*"open append $T/log: Operation not permitted"*) ;;
*) hm_enf_fail "\"file append\" opened a file that is not +a: $HM_ENF_OUT" ;;
esac

# controls
hm_enf_nobody open append "$T/alog"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "append to an append-only file: $HM_ENF_OUT"
hm_enf_nobody rewrite "$T/alog"
case "$HM_ENF_OUT" in
*"rewrite $T/alog: fcntl: Operation not permitted"*) ;;
*) hm_enf_fail "the kernel let O_APPEND go on a +a file: $HM_ENF_OUT" ;;
esac
hm_enf_nobody rewrite "$T/wlog"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "a domain that may write: $HM_ENF_OUT"
hm_enf_stop			# (cat would be judged too)
[ "$(cat "$T/log")" = 0123456789 ] || hm_fail "$T/log changed: $(cat "$T/log")"
[ "$(cat "$T/alog")" = 0123456789 ] || hm_fail "$T/alog changed: $(cat "$T/alog")"
[ "$(cat "$T/wlog")" = X ] || hm_fail "$T/wlog not rewritten: $(cat "$T/wlog")"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file write $T/log"
if grep -qE "deny .* $T/alog" "$DLOG"; then
	hm_enf_fail "an append to an append-only file was denied"
fi
hm_ok "\"file append\" opens only append-only files; any other append is judged as a write"
