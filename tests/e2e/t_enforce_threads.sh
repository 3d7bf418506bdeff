#!/bin/bash
# t_enforce_threads.sh - issue 11 item 1: a process whose main thread has
# exited keeps its domain.  An unprivileged process's leader calls
# SYS_exit; another thread of the group then opens a file its domain may
# not read, or execs a program it may not run: EPERM, logged in the
# group's domain.  What the domain allows still works from that thread.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
H="<kernel> $T/helper"
hm_enf_policy		# $H may read $T/a; all enforcing

hm_enf_start --mode enforcing
hm_enf_nobody thread-exit 300 read "$T/a"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "allowed read from a leaderless group: $HM_ENF_OUT"
hm_enf_nobody thread-exit 300 read "$T/c"
case "$HM_ENF_OUT" in
*"read $T/c: Operation not permitted"*) ;;
*) hm_enf_fail "leaderless group read $T/c: $HM_ENF_OUT" ;;
esac
hm_enf_nobody thread-exit 300 exec "$T/unlearned" read "$T/a"
case "$HM_ENF_OUT" in
*"exec $T/unlearned: Operation not permitted"*) ;;
*) hm_enf_fail "leaderless group exec: $HM_ENF_OUT" ;;
esac
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/c"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file execute $T/unlearned"
hm_ok "a thread whose leader exited keeps the group's domain (read and exec denied)"
