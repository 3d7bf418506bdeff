#!/bin/bash
# t_enforce_flood.sh - an ordinary user who floods the enforcer with
# opens and forks slows nobody else down into a wrong answer.  uid 65534
# opens a file its domain may not read as fast as it can in two
# processes (20,000 opens each), and forks 2,000 short-lived children
# that each open it once, while root reads an allowed file 40 times,
# 50 ms apart; the daemon runs --mode enforcing --default allow.  Every
# one of the flood's opens is denied, every one of root's allowed, and
# the watchdog answers nothing (the --default never decides).  Root's
# read times with no flood, in the same run, are the control.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_policy		# "<kernel> $T/helper" may read $T/a, not $T/c
hm_enf_start --mode enforcing --default allow
hm_enf_ok "$T/helper" every 20 20 "$T/a"
CONTROL=$HM_ENF_OUT

"$T/helper" as 65534 every 0 20000 "$T/c" >"$HM_TMP/flood1.out" 2>&1 &
f1=$!
hm_on_exit "_hm_enf_kill_job $f1"
"$T/helper" as 65534 every 0 20000 "$T/c" >"$HM_TMP/flood2.out" 2>&1 &
f2=$!
hm_on_exit "_hm_enf_kill_job $f2"
# the fork storm: a shell of uid 65534 whose children each open $T/c
setpriv --reuid 65534 --regid 65534 --clear-groups bash -c "
	for i in \$(seq 2000); do
		( exec 3<'$T/c' ) 2>/dev/null &
	done
	wait" >"$HM_TMP/forks.out" 2>&1 &
fk=$!
hm_on_exit "_hm_enf_kill_job $fk"
sleep 0.2	# the floods run
_hm_enf_run "$T/helper" every 50 40 "$T/a"
ROOT=$HM_ENF_OUT
wait "$f1" || true
wait "$f2" || true
wait "$fk" || true
F1=$(cat "$HM_TMP/flood1.out")
F2=$(cat "$HM_TMP/flood2.out")
hm_enf_stop
echo "  control, root: $CONTROL"
echo "  flood, root:   $ROOT"
echo "  flood:         $F1"
echo "  flood:         $F2"
for f in "$F1" "$F2"; do
	case "$f" in
	*"every $T/c: 20000 of 20000 failed"*) ;;
	*) hm_enf_fail "the flood's forbidden opens were not all denied: $f" ;;
	esac
done
case "$ROOT" in
*"every $T/a: 0 of 40 failed"*) ;;
*) hm_enf_fail "root's allowed reads were not all allowed during the flood: $ROOT" ;;
esac
hm_enf_want "answered by the watchdog (late)" -eq 0
hm_enf_want "answered by the watchdog (loop stalled)" -eq 0
hm_ok "an open and fork flood: every forbidden open denied, root's reads allowed, no watchdog answer"
