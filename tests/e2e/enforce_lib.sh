# shellcheck shell=bash
# tests/e2e/enforce_lib.sh - what the enforcer's end-to-end tests share.
# Source it after lib.sh.
#
#   hm_enf_setup          mount a tmpfs at $T (unmounted at exit), install
#                         tests/e2e/enforce_helper.c's program as $T/helper
#                         and copy
#                         it to $T/child, $T/other, $T/unlearned (each name
#                         is another domain); files $T/a $T/b $T/c
#   hm_enf_start ARGS...  start `histmac enforce --mark $T ARGS...` under
#                         timeout, wait until it has marked; sets DPID (the
#                         daemon's own pid, from --pidfile) and DLOG.
#                         --no-strict unless ARGS say --strict or
#                         --no-strict, or HM_ENF_STRICT is set (empty: the
#                         daemon's default): the test script started before
#                         the daemon, so its own execs of $T's programs are
#                         of unobserved history, which only
#                         t_enforce_strict.sh is about
#   hm_enf_stop           SIGTERM to DPID, wait; fails if it did not exit 0
#   hm_enf_ok CMD...      CMD must succeed (within 20 s; run directly, no
#                         wrapper program, which would be a domain itself)
#   hm_enf_eperm CMD...   CMD must fail with "Operation not permitted"
#   hm_enf_log_has RE     the daemon log matches the extended regex RE
#   hm_enf_stalled CMD... run CMD (as _hm_enf_run) while a read of $T/b
#                         waits in open() for the daemon's answer: with
#                         HISTMAC_TEST_DECISION_DELAY_MS the events CMD
#                         makes queue behind that decision

hm_enf_setup() {
	hm_need mount umount timeout
	T=$HM_TMP/mnt
	POL=$HM_TMP/policy
	mkdir -p "$T"
	chmod o+x "$HM_TMP"	# the unprivileged attacker reaches $T
	mount -t tmpfs -o size=32m,mode=0755 histmac-e2e "$T" ||
		hm_fail "cannot mount a tmpfs on $T"
	hm_on_exit "umount '$T' 2>/dev/null || umount -l '$T'"
	hm_e2e_install enforce_helper "$T/helper"
	for n in child other unlearned; do
		cp "$T/helper" "$T/$n"
	done
	for f in a b c; do
		echo "$f" >"$T/$f"
	done
	HM_ENF_N=0
}

_hm_enf_stop_quiet() {
	[ -n "${DPID:-}" ] && hm_stop_pid "$DPID"
	# no pid file yet: timeout(1) passes the TERM on
	[ -n "${HM_ENF_WRAP:-}" ] && hm_stop_pid "$HM_ENF_WRAP"
	[ -n "${HM_ENF_WRAP:-}" ] && wait "$HM_ENF_WRAP" 2>/dev/null
	DPID=
	HM_ENF_WRAP=
}

hm_enf_start() {
	local strict=${HM_ENF_STRICT---no-strict}
	case " $* " in *" --strict "*|*" --no-strict "*) strict= ;; esac
	HM_ENF_N=$((HM_ENF_N + 1))
	DLOG=$HM_TMP/enforce.$HM_ENF_N.log
	rm -f "$HM_TMP/enforce.pid"
	timeout -s KILL 600 "$HISTMAC" enforce -p "$POL" --mark "$T" \
		--pidfile "$HM_TMP/enforce.pid" ${strict:+"$strict"} "$@" 2>"$DLOG" &
	HM_ENF_WRAP=$!
	hm_on_exit _hm_enf_stop_quiet
	if ! hm_wait_for "grep -qE '(enforcing|dry run)[^:]*: ' '$DLOG'" 200; then
		cat "$DLOG" >&2
		hm_fail "histmac enforce $* did not start"
	fi
	DPID=$(cat "$HM_TMP/enforce.pid")
	[ -n "$DPID" ] || hm_fail "no pid file"
}

hm_enf_stop() {
	local rc=0
	[ -n "${DPID:-}" ] || hm_fail "no daemon to stop"
	kill -TERM "$DPID"
	wait "$HM_ENF_WRAP" || rc=$?
	DPID=
	HM_ENF_WRAP=
	[ "$rc" = 0 ] || { cat "$DLOG" >&2; hm_fail "enforce exited $rc"; }
}

# Run "$@" as a direct child of this shell (a wrapper such as timeout(1)
# would be a domain of its own that execs it), killed after 20 s.
# Sets HM_ENF_RC and HM_ENF_OUT.
_hm_enf_run() {
	local pid n=0 slept
	HM_ENF_RC=0
	slept=$(_hm_audit_status backlog_wait_time_actual 2>/dev/null || true)
	"$@" >"$HM_TMP/run.out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 200 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		# (wait says 137: under set -e that alone would end the test
		# without a word)
		wait "$pid" 2>/dev/null || true
		hm_enf_fail "'$*' hung for 20 s; its output: $(cat "$HM_TMP/run.out")$(_hm_enf_backlog_why "$slept")"
	fi
	wait "$pid" || HM_ENF_RC=$?
	HM_ENF_OUT=$(cat "$HM_TMP/run.out")
}

# Why a run may hang that is not the enforcer's: the kernel makes a
# process that logs while the audit backlog is full sleep, for up to
# backlog_wait_time (the enforcer warns of a small backlog at start).
_hm_enf_backlog_why() {
	local now
	now=$(_hm_audit_status backlog_wait_time_actual 2>/dev/null || true)
	[ -n "$1" ] && [ -n "$now" ] && [ "$now" != "$1" ] || return 0
	printf '; meanwhile processes slept %s jiffies waiting for the kernel'"'"'s audit backlog (%s)' \
		"$((now - $1))" "$(auditctl -s | grep -E '^(enabled|backlog)' | tr '\n' ' ')"
}

hm_enf_ok() {
	_hm_enf_run "$@"
	[ "$HM_ENF_RC" = 0 ] || {
		[ -n "${DLOG:-}" ] && tail -40 "$DLOG" >&2
		hm_fail "'$*' failed ($HM_ENF_RC): $HM_ENF_OUT"
	}
}

hm_enf_eperm() {
	_hm_enf_run "$@"
	[ "$HM_ENF_RC" != 0 ] || hm_fail "'$*' should fail: $HM_ENF_OUT"
	case "$HM_ENF_OUT" in
	*"Operation not permitted"*) ;;
	*) hm_fail "'$*' failed ($HM_ENF_RC) but not with EPERM: $HM_ENF_OUT" ;;
	esac
}

hm_enf_log_has() {
	grep -qE -e "$1" "$DLOG" || { cat "$DLOG" >&2; hm_fail "log lacks /$1/"; }
}

# hm_enf_policy: a hand-written policy in $POL: "<kernel> $T/helper" may
# read $T/a; every domain enforcing.
hm_enf_policy() {
	mkdir -p "$POL"
	cat >"$POL/domain_policy.conf" <<EOP
<kernel>
use_profile 3

<kernel> $T/helper
use_profile 3
file read $T/a
EOP
	: >"$POL/exception_policy.conf"
}

# hm_enf_bg CMD...: start CMD in the background (a direct child), output
# in $HM_TMP/bg.out; sets BGPID.
hm_enf_bg() {
	"$@" >"$HM_TMP/bg.out" 2>&1 &
	BGPID=$!
	hm_on_exit "_hm_enf_kill_job $BGPID"
}

hm_enf_stalled() {
	local pid
	cat "$T/b" >/dev/null 2>&1 &
	pid=$!
	hm_on_exit "_hm_enf_kill_job $pid"
	hm_wait_for "grep -q fanotify /proc/$pid/wchan" 50 ||
		hm_enf_fail "cat never waited for the daemon: $(cat /proc/$pid/wchan 2>&1)"
	_hm_enf_run "$@"
	wait "$pid" || true
}

# Kill PID at exit only while it is still our job: once waited for, the
# pid may belong to someone else.
_hm_enf_kill_job() {
	jobs -p | grep -qx "$1" && kill -KILL "$1" 2>/dev/null
	return 0
}

# hm_enf_bg_wait: wait (at most 20 s) for BGPID; sets HM_ENF_RC, HM_ENF_OUT.
hm_enf_bg_wait() {
	hm_wait_for "! kill -0 $BGPID" 200 || hm_fail "background job hung"
	HM_ENF_RC=0
	wait "$BGPID" || HM_ENF_RC=$?
	HM_ENF_OUT=$(cat "$HM_TMP/bg.out")
}

# hm_enf_policy_from: the domain policy from stdin into $POL (exception
# policy: $1, may be empty).
hm_enf_policy_from() {
	mkdir -p "$POL"
	cat >"$POL/domain_policy.conf"
	printf '%s' "${1:-}" >"$POL/exception_policy.conf"
}

# hm_enf_counter NAME: a counter the stopped daemon printed at exit.
hm_enf_counter() {
	awk -v k="  $1" '{ l = $0; v = $NF
		if (sub(/ +[0-9]+$/, "", l) && l == k) last = v }
		END { print last }' "$DLOG"
}

# hm_enf_want NAME OP N: that counter compares so (test(1) OP).
hm_enf_want() {
	local v
	v=$(hm_enf_counter "$1")
	[ -n "$v" ] || { cat "$DLOG" >&2; hm_fail "no counter '$1'"; }
	[ "$v" "$2" "$3" ] ||
		{ cat "$DLOG" >&2; hm_fail "counter '$1' is $v, want $2 $3"; }
}

# hm_enf_nobody CMD...: "$T/helper" CMD... dropped to uid/gid 65534 (the
# attacker), in the helper's own domain.  Sets HM_ENF_RC, HM_ENF_OUT.
hm_enf_nobody() {
	_hm_enf_run "$T/helper" as 65534 "$@"
}

# hm_enf_fail MSG: fail, showing the end of the daemon's log first.
hm_enf_fail() {
	[ -n "${DLOG:-}" ] && [ -f "$DLOG" ] && tail -40 "$DLOG" >&2
	hm_fail "$@"
}

# hm_enf_userns: let uid 65534 create user namespaces (the attacks of
# t_enforce_userns.sh need them, as on a stock Debian 12): each knob a
# kernel has is set so for the test and put back at exit; then checked
# (refused still: skipped, or failed when CI=true).
hm_enf_userns() {
	local knob want old
	for knob in kernel/unprivileged_userns_clone=1 \
		kernel/apparmor_restrict_unprivileged_userns=0 \
		user/max_user_namespaces=1024; do
		want=${knob#*=}
		knob=/proc/sys/${knob%=*}
		[ -f "$knob" ] || continue
		old=$(cat "$knob")
		case "$knob" in
		*/max_user_namespaces) [ "$old" -gt 0 ] && continue ;;
		*) [ "$old" = "$want" ] && continue ;;
		esac
		echo "$want" >"$knob" || hm_fail "cannot set $knob to $want"
		hm_on_exit "echo '$old' >'$knob'"
	done
	# still refused (a seccomp filter, a kernel without them): the attack
	# cannot happen here; CI=true fails (lib.sh hm_skip)
	_hm_enf_run "$T/helper" as 65534 ns read "$T/a"
	[ "$HM_ENF_RC" = 0 ] ||
		hm_skip "uid 65534 cannot unshare a user namespace: $HM_ENF_OUT"
}

# hm_enf_attack [-static]: install tests/e2e/proc_attack.c's program
# (attacks on process tracking) as $HM_TMP/attack, outside the marks;
# -static: its statically linked variant (tests/e2e/CMakeLists.txt).
hm_enf_attack() {
	case "$*" in
	"") hm_e2e_install proc_attack "$HM_TMP/attack" ;;
	-static) hm_e2e_install proc_attack_static "$HM_TMP/attack" ;;
	*) hm_fail "hm_enf_attack $*: no such variant in tests/e2e/CMakeLists.txt" ;;
	esac
}
