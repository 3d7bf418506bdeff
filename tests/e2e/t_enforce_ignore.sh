#!/bin/bash
# t_enforce_ignore.sh - issue 11 item 3: only an entry that allows every
# process unconditionally becomes a kernel ignore mark.  acl_group 0,
# used by every domain, lets root (task.uid=0) read $T/b and everyone
# read $T/a.  Root reads both; then an unprivileged process reads $T/b:
# EPERM (a conditional entry added no ignore mark), $T/a: allowed (it
# did).  An ignore mark lets every open of the file through, in every
# mode: everyone may read $T/c, but only $T/a is granted every operation,
# so a read of $T/c adds no mark and a write open of it stays denied.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
H="<kernel> $T/helper"
hm_enf_policy_from "acl_group 0 file read $T/a
acl_group 0 file write $T/a
acl_group 0 file append $T/a
acl_group 0 file truncate $T/a
acl_group 0 file read $T/b task.uid=0
acl_group 0 file read $T/c
" <<EOP
<kernel>
use_profile 3
use_group 0

$H
use_profile 3
use_group 0
EOP

hm_enf_start --mode enforcing
chmod 0666 "$T/c"
hm_enf_ok "$T/helper" read "$T/a" "$T/b" "$T/c"
hm_enf_nobody open rdwr "$T/c"
case "$HM_ENF_OUT" in
*"open rdwr $T/c: Operation not permitted"*) ;;
*) hm_enf_fail "uid 65534 opened $T/c O_RDWR after a read: $HM_ENF_OUT" ;;
esac
hm_enf_nobody read "$T/b"
case "$HM_ENF_OUT" in
*"read $T/b: Operation not permitted"*) ;;
*) hm_enf_fail "uid 65534 read $T/b after root did: $HM_ENF_OUT" ;;
esac
hm_enf_nobody read "$T/a"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "uid 65534 read $T/a: $HM_ENF_OUT"
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/b"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file write $T/c"
hm_enf_want "kernel ignore marks added" -eq 1
hm_ok "a task.uid=0 entry and a read-only one stay in the daemon; the unconditional all-operations one became the only ignore mark"
