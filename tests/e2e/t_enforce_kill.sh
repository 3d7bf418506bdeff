#!/bin/bash
# t_enforce_kill.sh - the daemon dies (SIGKILL) while a process is blocked
# in open() on a marked file: the kernel releases the pending permission
# event when the fanotify fd closes, the open completes, and the system
# stays usable (no mark outlives the daemon).  Twice: with the event still
# in the kernel's queue (daemon stopped), and with it read and held for
# the supervisor.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_policy

blocked() {	# is $1 still waiting (alive, and sleeping)?
	kill -0 "$1" 2>/dev/null &&
		grep -qE '^State:.*(S \(sleeping|D \(disk)' "/proc/$1/status"
}

# 1. queued, never read: the daemon is stopped, then killed
hm_enf_start --mode enforcing
hm_enf_eperm "$T/helper" read "$T/c"		# it does enforce
kill -STOP "$DPID"
hm_enf_bg "$T/helper" read "$T/c"
sleep 1
blocked "$BGPID" || hm_fail "the open did not wait for the stopped daemon"
kill -KILL "$DPID"
hm_enf_bg_wait
[ "$HM_ENF_RC" = 0 ] || hm_fail "open after SIGKILL: $HM_ENF_RC $HM_ENF_OUT"
wait "$HM_ENF_WRAP" 2>/dev/null || true
DPID= HM_ENF_WRAP=
hm_enf_ok "$T/other" read "$T/c"		# nothing enforces any more
hm_ok "SIGKILL with a queued event: the open completed"

# 2. read and held for the supervisor, then the daemon is killed
S=$HM_TMP/super.sock
hm_enf_start --mode enforcing --supervisor "$S" --query-timeout 60
mkfifo "$HM_TMP/fifo"
exec 7<>"$HM_TMP/fifo"
"$HISTMAC" query -S "$S" <&7 >"$HM_TMP/q.out" 2>&1 &
QPID=$!
hm_on_exit "kill $QPID 2>/dev/null"
hm_wait_for "grep -q 'supervisor client connected' '$DLOG'" 100 ||
	hm_fail "query client did not connect"
hm_enf_bg "$T/helper" read "$T/c"
hm_wait_for "grep -q 'held pid=$BGPID ' '$DLOG'" 100 || hm_fail "open not held"
sleep 0.5
blocked "$BGPID" || hm_fail "the held open did not wait"
kill -KILL "$DPID"
hm_enf_bg_wait
[ "$HM_ENF_RC" = 0 ] || hm_fail "held open after SIGKILL: $HM_ENF_RC $HM_ENF_OUT"
wait "$HM_ENF_WRAP" 2>/dev/null || true
DPID= HM_ENF_WRAP=
hm_enf_ok "$T/other" read "$T/c"
hm_ok "SIGKILL with a held event: the open completed"
