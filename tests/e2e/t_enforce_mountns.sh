#!/bin/bash
# t_enforce_mountns.sh - issue 11 item 2: --mark on the root of a mount
# covers the file system, so another mount of it is covered too.  An
# unprivileged process unshares a user and a mount namespace (its copy
# of the tmpfs mount is another vfsmount, which a mount mark missed) and
# reads a file its domain may not read: EPERM; one it may read: allowed.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
H="<kernel> $T/helper"
hm_enf_policy		# $H may read $T/a; all enforcing
hm_enf_userns		# uid 65534 may unshare, for the test's run

hm_enf_start --mode enforcing
hm_enf_log_has "marked file system $T "
hm_enf_nobody ns read "$T/a"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "allowed read through another mount: $HM_ENF_OUT"
hm_enf_nobody ns read "$T/c"
case "$HM_ENF_OUT" in
*"read $T/c: Operation not permitted"*) ;;
*) hm_enf_fail "a new mount namespace sidestepped the mark: $HM_ENF_OUT" ;;
esac
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/c"
hm_ok "another mount namespace's copy of the marked file system is judged"
