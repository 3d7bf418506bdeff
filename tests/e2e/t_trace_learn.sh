#!/usr/bin/env bash
# histmac learn -- COMMAND as an ordinary user (issue 41 #1, #3): no root,
# no auditd, no audit rules.  As uid 65534 (nobody), in a directory of
# its own:
#  1. learn the workload of trace_lib.sh (programs, files, a thread that
#     writes, an exec from a non-leader thread, posix_spawn, a failed
#     open, failed execs, a death by SIGTERM); learn exits with the
#     command's status, 143, and the policy has each domain and entry;
#  2. learning it again adds nothing (the same names each run);
#  3. the learned policy runs the command under `histmac sandbox`
#     without a denial, with the same status; a read it did not learn
#     fails there with EACCES;
#  4. check -- COMMAND reports, as nobody, the read the policy lacks;
#  5. SIGTERM sent to learn reaches the command (exit 143); SIGSTOP
#     stops it (group-stop, PTRACE_LISTEN) until SIGCONT.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"
. "$(dirname "$0")/trace_lib.sh"

sbx_setup
t=$w/t
mkdir -p "$t"
trace_workload "$t"
echo s3cret >"$t/d/secret"
chown -R nobody:nogroup "$t"
pol=$t/policy

# ------------------------------------------------------------- 1. learn
rc=0
as_nobody "$bin/histmac" learn -p "$pol" -- "${trace_cmd[@]}" \
	>"$HM_TMP/learn.out" 2>"$HM_TMP/learn.err" || rc=$?
[ "$rc" = 143 ] || { cat "$HM_TMP/learn.err" >&2; hm_fail "learn exited $rc, not 143 (SIGTERM)"; }
grep -q "^learned from [0-9]* traced calls into $pol" "$HM_TMP/learn.err" ||
	{ cat "$HM_TMP/learn.err" >&2; hm_fail "no summary on stderr"; }
[ ! -s "$HM_TMP/learn.out" ] || { cat "$HM_TMP/learn.out" >&2; hm_fail "output beside the command's"; }
[ "$(stat -c %U "$pol/domain_policy.conf")" = nobody ] ||
	hm_fail "the policy is not nobody's"
trace_check_policy "$pol"
hm_ok "as nobody, learn -- COMMAND learns every domain and entry, exit 143"

# ------------------------------------------------------- 2. once more
rm -f "$t/d/thread"
cp "$pol/domain_policy.conf" "$HM_TMP/first.conf"
rc=0
as_nobody "$bin/histmac" learn -p "$pol" -- "${trace_cmd[@]}" \
	>/dev/null 2>"$HM_TMP/learn2.err" || rc=$?
[ "$rc" = 143 ] || { cat "$HM_TMP/learn2.err" >&2; hm_fail "learn exited $rc again"; }
grep -q "entries: 0 new, 0 widened" "$HM_TMP/learn2.err" ||
	{ cat "$HM_TMP/learn2.err" >&2; hm_fail "the same run learned new entries"; }
hm_ok "the same run learned again adds nothing"

# ------------------------------------------------------ 3. the sandbox
rm -f "$t/d/thread"
rc=0
as_nobody "$bin/histmac" sandbox -p "$pol" --domain '<kernel>' -- \
	"${trace_cmd[@]}" >"$HM_TMP/sbx.out" 2>"$HM_TMP/sbx.err" || rc=$?
[ "$rc" = 143 ] || { cat "$HM_TMP/sbx.err" >&2; hm_fail "sandboxed, the command exited $rc"; }
grep -qi "denied\|refused" "$HM_TMP/sbx.err" &&
	{ cat "$HM_TMP/sbx.err" >&2; hm_fail "the sandbox denied what was learned"; }
[ -s "$t/d/thread" ] || hm_fail "sandboxed, the thread did not write"
# the control: the learned cat reads only what it learned
rc=0
as_nobody "$bin/histmac" sandbox -p "$pol" --domain '<kernel> /usr/bin/sh' -- \
	/usr/bin/cat "$t/d/in" "$t/d/secret" >"$HM_TMP/cat.out" 2>"$HM_TMP/cat.err" || rc=$?
grep -qx in "$HM_TMP/cat.out" && ! grep -q s3cret "$HM_TMP/cat.out" &&
	grep -q "Permission denied" "$HM_TMP/cat.err" ||
	{ cat "$HM_TMP/cat.out" "$HM_TMP/cat.err" >&2; hm_fail "cat read what it did not learn"; }
hm_ok "the traced policy runs the command sandboxed; an unlearned read gets EACCES"

# ---------------------------------------------- 4. check -- COMMAND
rc=0
as_nobody "$bin/histmac" check -p "$pol" -- sh -c "cat '$t/d/in' '$t/d/secret' >/dev/null" \
	>"$HM_TMP/check.out" 2>"$HM_TMP/check.err" || rc=$?
[ "$rc" = 1 ] || { cat "$HM_TMP/check.out" "$HM_TMP/check.err" >&2; hm_fail "check -- exited $rc, not 1"; }
awk '/^<kernel>/ { dom = $0; next } dom == "<kernel> /usr/bin/sh /usr/bin/cat"' \
	"$HM_TMP/check.out" | grep -qx "file read $t/d/secret" ||
	{ cat "$HM_TMP/check.out" >&2; hm_fail "the unlearned read is not reported in cat's domain"; }
grep -q "$t/d/in" "$HM_TMP/check.out" &&
	{ cat "$HM_TMP/check.out" >&2; hm_fail "a learned read is reported"; }
hm_ok "check -- COMMAND, as nobody, reports what the policy lacks (exit 1)"

# ------------------------------------------------------------- 5. signals
# SIGTERM sent to histmac reaches the command: learn exits 143 at once.
# (setpriv executes histmac: $! is histmac's pid.)
nobody_bg() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@" &
	learner=$!
}
nobody_bg "$bin/histmac" learn -q -p "$t/pol-sig" -- sleep 60 2>"$HM_TMP/sig.err"
hm_wait_for "pgrep -P $learner -x sleep >/dev/null" 100 || hm_fail "sleep did not start"
start=$(date +%s)
kill -TERM "$learner"
rc=0
wait "$learner" || rc=$?
[ "$rc" = 143 ] || { cat "$HM_TMP/sig.err" >&2; hm_fail "after SIGTERM learn exited $rc, not 143"; }
[ $(($(date +%s) - start)) -lt 20 ] || hm_fail "SIGTERM did not end the command"
# SIGSTOP stops the command as without a tracer, SIGCONT goes on.
nobody_bg "$bin/histmac" learn -q -p "$t/pol-stop" -- \
	sh -c "while [ ! -e '$t/go' ]; do sleep 0.1; done; echo done >'$t/stopped'" \
	2>"$HM_TMP/stop.err"
hm_wait_for "pgrep -P $learner -x sh >/dev/null" 100 || hm_fail "sh did not start"
child=$(pgrep -P "$learner" -x sh)
kill -STOP "$child"
touch "$t/go"
sleep 1
[ ! -e "$t/stopped" ] || hm_fail "a stopped command went on"
kill -CONT "$child"
wait "$learner" || hm_fail "learn exited $? after SIGCONT"
[ -s "$t/stopped" ] || hm_fail "the command did not finish after SIGCONT"
hm_ok "signals pass through: SIGTERM ends the command (143), SIGSTOP stops it until SIGCONT"
