#!/bin/bash
# t_enforce_strict.sh - issue 11 item 6: a shell started before the
# enforcer (of unobserved history: `<kernel> EXE`, EXE its real program)
# cannot exec anything it likes.  An unprivileged /bin/sh is started
# before `histmac enforce --mode enforcing`; the policy lets its domain
# execute $T/allowed only.
#  1. strict mode (the default when enforcing): $T/allowed runs and enters
#     <kernel> $T/allowed (it reads what that domain may); $T/forbidden
#     gets EPERM, logged in the shell's domain;
#  2. --no-strict: $T/forbidden runs, counted as not judged;
#  3. learn, then enforce: with the real auditd and the audit rules loaded
#     after the shell started, `histmac learn --follow` learns the shell's
#     exec of $T/allowed in <kernel> EXE; enforcing that learned policy in
#     strict mode, the same shell's exec of $T/allowed passes and of
#     $T/forbidden (never learned) is denied.
# The shell reads its commands from a fifo, so one process of unobserved
# history serves every step.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need readlink mkfifo auditd auditctl
hm_enf_setup
cp "$T/helper" "$T/allowed"
cp "$T/helper" "$T/forbidden"
echo outside >"$HM_TMP/outside"		# not marked: read by $T/forbidden
chmod 644 "$HM_TMP/outside"
SH=$(readlink -f /bin/sh)
S="<kernel> $SH"

# ------------------------------------------------------------ the shell
FIFO=$HM_TMP/cmd
SHOUT=$HM_TMP/sh.out
mkfifo -m 0600 "$FIFO"
# the fifo is opened by this (root) shell for both ends: the reader (the
# job) blocks until the writer (fd 7) opens
"$T/helper" as 65534 exec /bin/sh -s <"$FIFO" >"$SHOUT" 2>&1 &
SHPID=$!
hm_on_exit "_hm_enf_kill_job $SHPID"
exec 7>"$FIFO"
hm_on_exit "exec 7>&-"
hm_wait_for "[ \"\$(readlink /proc/$SHPID/exe)\" = '$SH' ]" 100 ||
	hm_fail "the unprivileged $SH did not start"
[ "$(stat -c %u /proc/$SHPID)" = 65534 ] || hm_fail "the shell is not uid 65534"
N=0

# sh_run CMD: the shell runs CMD; waits for it and sets OUT (its output).
sh_run() {
	local from
	from=$(($(wc -l <"$SHOUT") + 1))
	N=$((N + 1))
	echo "$1; echo \"rc=\$? end$N\"" >&7
	hm_wait_for "grep -q 'end$N\$' '$SHOUT'" 200 ||
		hm_enf_fail "the shell did not run '$1': $(cat "$SHOUT")"
	OUT=$(tail -n +"$from" "$SHOUT")
}

# sh_allowed: $T/allowed runs and reads $T/a in its domain.
sh_allowed() {
	sh_run "$T/allowed read $T/a"
	case "$OUT" in
	*"read $T/a: ok"*"rc=0 end$N") ;;
	*) hm_enf_fail "$T/allowed from the shell: $OUT" ;;
	esac
}

# strict_round WHAT: with the daemon's default (strict, as --mode
# enforcing), the shell's exec of $T/allowed passes, of $T/forbidden gets
# EPERM and is logged in the shell's domain.
strict_round() {
	HM_ENF_STRICT= hm_enf_start --mode enforcing
	hm_enf_log_has "enforcing: .*, strict \(execs of unobserved history judged\)"
	sh_allowed
	sh_run "$T/forbidden read $HM_TMP/outside"
	case "$OUT" in
	*"$T/forbidden: Operation not permitted"*"rc=126 end$N") ;;
	*) hm_enf_fail "$1: the shell ran $T/forbidden: $OUT" ;;
	esac
	hm_enf_stop
	hm_enf_log_has "deny pid=[0-9]+ domain=\"$S\" file execute $T/forbidden"
	hm_enf_want "exec judged in <kernel> EXE (unobserved)" -eq 2
	hm_enf_want "exec not judged (history unobserved)" -eq 0
	hm_enf_want "denied: enforcing violation" -eq 1
}

# ------------------------------------------- 1. strict, the default
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$S
use_profile 3
file execute $T/allowed

<kernel> $T/allowed
use_profile 3
file read $T/a
EOP
strict_round "hand-written policy"
hm_ok "strict (default when enforcing): a pre-existing shell execs only what <kernel> EXE allows"

# ------------------------------------------------- 2. --no-strict
hm_enf_start --mode enforcing --no-strict
hm_enf_log_has "enforcing: .*, not strict"
sh_allowed
sh_run "$T/forbidden read $HM_TMP/outside"
case "$OUT" in
*"read $HM_TMP/outside: ok"*"rc=0 end$N") ;;
*) hm_enf_fail "--no-strict: $T/forbidden did not run: $OUT" ;;
esac
hm_enf_stop
hm_enf_want "exec not judged (history unobserved)" -eq 2
hm_enf_want "exec judged in <kernel> EXE (unobserved)" -eq 0
hm_enf_want "denied: enforcing violation" -eq 0
hm_ok "--no-strict: the same execs go through unjudged, counted"

# --------------------------------------- 3. learn, then enforce strict
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"	# after the shell started: not in the log
POL=$HM_TMP/learned
"$HISTMAC" learn -q --follow "$HM_AUDIT_LOG" -p "$POL" --save-interval 1 \
	2>"$HM_TMP/learn.err" &
learner=$!
hm_on_exit "hm_stop_pid $learner"
hm_wait_for "[ -s '$POL/domain_policy.conf' ]" 100 ||
	hm_fail "the learner did not start: $(cat "$HM_TMP/learn.err")"
# The shell's first audited call is the fork for $T/allowed: the child's
# exec record may come before that clone record, and is then learned when
# the clone names the shell.
sh_allowed
hm_audit_marker >/dev/null
in_shell_domain() {	# the entries of <kernel> $SH in the learned policy
	awk -v d="$S" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 }
		on && /^file /' "$POL/domain_policy.conf"
}
hm_wait_for "in_shell_domain | grep -q '^file execute $T/allowed\\b'" 100 ||
	hm_fail "not learned in $S: file execute $T/allowed ($(in_shell_domain))"
kill -TERM "$learner"
wait "$learner" || hm_fail "learn --follow exited $? on SIGTERM"
# warnings may come from other processes on the host (a syscall that
# blocked for seconds logs an older time stamp after a newer one)
! grep -v ': warning: ' "$HM_TMP/learn.err" >&2 || hm_fail "the learner wrote errors"
! in_shell_domain | grep -q "$T/forbidden" || hm_fail "$T/forbidden learned"

strict_round "learned policy"
hm_ok "learned under auditd, enforced strict: the pre-existing shell's learned exec passes, another is denied"
