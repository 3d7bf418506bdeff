#!/bin/bash
# t_enforce_safety.sh - what the enforcer refuses and how it stays safe:
# a policy with errors is not enforced (and says where); / , the policy
# directory and a missing --mark are refused; --dry-run blocks nothing
# and reports what it would deny; SIGHUP reloads the policy while opens
# keep being answered, and a broken policy on reload keeps the old one.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_policy

# refusals (nothing is marked: every one exits before)
expect_exit() {	# WANT REGEX ARGS...
	local want=$1 re=$2 rc=0
	shift 2
	"$HISTMAC" enforce --pidfile "$HM_TMP/x.pid" "$@" >"$HM_TMP/out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$HM_TMP/out" >&2; hm_fail "enforce $*: exit $rc, want $want"; }
	grep -qE -e "$re" "$HM_TMP/out" || { cat "$HM_TMP/out" >&2; hm_fail "enforce $*: no /$re/"; }
	[ ! -e "$HM_TMP/x.pid" ] || hm_fail "enforce $*: left a pid file"
}
expect_exit 2 "refusing to mark /" -p "$POL" --mark / --mode enforcing
expect_exit 2 "--mark PATH is required" -p "$POL" --mode enforcing
mkdir -p "$T/pol"
cp "$POL"/* "$T/pol/"
expect_exit 2 "covers the policy directory" -p "$T/pol" --mark "$T"
expect_exit 2 "refusing to mark /proc" -p "$POL" --mark /proc
expect_exit 2 "unknown mode" -p "$POL" --mark "$T" --mode strict
mkdir -p "$HM_TMP/bad"
printf '<kernel> %s\nuse_profile 3\nfile read %s/a\nfile frobnicate %s/b\n' \
	"$T/helper" "$T" "$T" >"$HM_TMP/bad/domain_policy.conf"
expect_exit 4 "domain_policy.conf:4:.*refusing to enforce|refusing to enforce" \
	-p "$HM_TMP/bad" --mark "$T" --mode enforcing
grep -q "domain_policy.conf:4:" "$HM_TMP/out" || hm_fail "the error does not say where"
hm_enf_ok "$T/other" read "$T/c"
hm_ok "refusals: /, /proc, no --mark, policy under the mark, a broken policy"

# a broken policy runs in permissive mode
P0=$POL
POL=$HM_TMP/bad
hm_enf_start --mode permissive
hm_enf_ok "$T/helper" read "$T/a" "$T/c"
hm_enf_stop
hm_enf_log_has "permissive pid=[0-9]+ domain=\"<kernel> $T/helper\" file read $T/c"
POL=$P0
hm_ok "a broken policy still runs with --mode permissive"

# dry run: nothing waits, nothing is denied, denials are reported (it
# judges after the fact: the processes stay a moment to be found)
hm_enf_start --mode enforcing --dry-run
hm_enf_ok "$T/helper" linger 500 "$T/a" "$T/c"
hm_enf_ok "$T/other" linger 500 "$T/a"
hm_enf_stop
hm_enf_log_has "would-deny pid=[0-9]+ domain=\"<kernel> $T/helper\" file read $T/c"
hm_enf_log_has "would-deny pid=[0-9]+ domain=\"<kernel> $T/other\" file read $T/a"
if grep -qF "would-deny pid=" "$DLOG" &&
	grep "would-deny" "$DLOG" | grep -qF "\"<kernel> $T/helper\" file read $T/a"; then
	hm_fail "dry run would deny a learned read"
fi
hm_ok "--dry-run reports what it would deny and blocks nothing"

# reload on SIGHUP, under load, without losing an answer
hm_enf_start --mode enforcing
hm_enf_eperm "$T/helper" read "$T/c"
hm_enf_bg "$T/helper" loop 20000 "$T/a"
for i in 1 2 3 4 5; do
	kill -HUP "$DPID"
	hm_wait_for "[ \$(grep -c 'policy reloaded' '$DLOG') -ge $i ]" 100 ||
		hm_fail "reload $i did not finish"
done
hm_enf_bg_wait
[ "$HM_ENF_RC" = 0 ] || hm_fail "opens failed during reloads: $HM_ENF_OUT"
echo "file read $T/c" >>"$POL/domain_policy.conf"
kill -HUP "$DPID"
hm_wait_for "[ \$(grep -c 'policy reloaded' '$DLOG') -ge 6 ]" 100 ||
	hm_fail "reload with the new entry did not finish"
hm_enf_ok "$T/helper" read "$T/c"
echo "file frobnicate $T/b" >>"$POL/domain_policy.conf"
kill -HUP "$DPID"
hm_wait_for "grep -q 'reload refused' '$DLOG'" 100 || hm_fail "broken reload not refused"
hm_enf_ok "$T/helper" read "$T/c"		# the old policy stays
hm_enf_eperm "$T/other" read "$T/a"
kill -USR1 "$DPID"
hm_wait_for "grep -q 'policy reloads  *6' '$DLOG'" 50 || hm_fail "no counters on SIGUSR1"
hm_enf_stop
hm_enf_log_has "policy reloads refused +1"
hm_ok "SIGHUP reloads without dropping an answer; a broken reload is refused"

# capabilities after setup: only SYS_PTRACE, DAC_OVERRIDE, DAC_READ_SEARCH,
# AUDIT_WRITE and CHECKPOINT_RESTORE, in the effective, permitted and
# bounding sets
hm_enf_policy		# the one without the broken line
hm_enf_start --mode enforcing
want=0000010020080006
for set in CapEff CapPrm CapBnd; do
	got=$(awk -v k="$set:" '$1 == k { print $2 }' "/proc/$DPID/status")
	[ "$got" = "$want" ] || hm_fail "$set of the daemon is $got, want $want"
done
grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$DPID/status" || hm_fail "no_new_privs not set"
hm_enf_stop
hm_ok "capabilities dropped after setup"

# lost proc events: a tiny socket buffer overflows while the daemon is
# stopped; it resyncs from /proc and still judges the right domains
hm_enf_start --mode enforcing --proc-buffer 4096
kill -STOP "$DPID"
for i in $(seq 1 300); do /bin/true; done
kill -CONT "$DPID"
hm_enf_ok "$T/helper" read "$T/a"
hm_enf_eperm "$T/helper" read "$T/b"
hm_enf_eperm "$T/other" read "$T/a"
hm_enf_stop
hm_enf_log_has "lost events \(ENOBUFS\): resyncing from /proc"
hm_enf_log_has "resyncs from /proc +[1-9]"
hm_ok "ENOBUFS: counted, logged, resynced"

# --state: the process table of a running learner says this shell is in
# a domain whose execs are judged; without it its history is unobserved
exe=$(readlink /proc/$$/exe)
ppid=$(awk '{ print $4 }' /proc/$$/stat)
D="<kernel> $exe $T/fake"
printf '# histmac process table v1: pid ppid sec flags exe domain\n%s %s 0 0 %s %s\n' \
	"$$" "$ppid" "$exe" "$D" >"$HM_TMP/state"
cat >>"$POL/domain_policy.conf" <<EOP

$D
use_profile 3
file execute $T/helper

$D $T/helper
use_profile 3
file read $T/a
EOP
hm_enf_start --mode enforcing --state "$HM_TMP/state"
hm_enf_log_has "--state .*: 1 processes imported"
hm_enf_ok "$T/helper" read "$T/a"
hm_enf_eperm "$T/other" read "$T/c"
grep -q "deny pid=[0-9]* domain=\"$D\" file execute $T/other" "$DLOG" ||
	{ cat "$DLOG" >&2; hm_fail "exec of other not judged in the imported domain"; }
hm_enf_stop
hm_ok "--state imports a learner's process table"

# a cached allow outlives a rename of a parent directory by at most the
# cache's time to live (3 s: the second read must come within it, on a
# loaded machine too; at 0.5 s it did not, beside other tests)
mkdir -p "$T/d1"
echo x >"$T/d1/x"
printf '<kernel>\nuse_profile 3\n\n<kernel> %s/helper\nuse_profile 3\nfile read %s/d1/x\n' \
	"$T" "$T" >"$POL/domain_policy.conf"
: >"$POL/exception_policy.conf"
hm_enf_start --mode enforcing --cache-ttl 3
hm_enf_ok "$T/helper" read "$T/d1/x"
hm_enf_ok "$T/helper" read "$T/d1/x"	# now from the cache
mv "$T/d1" "$T/d2"
sleep 3.2
hm_enf_eperm "$T/helper" read "$T/d2/x"
hm_enf_stop
hm_enf_log_has "allowed from the decision cache +[1-9]"
hm_enf_log_has "cache: .* [1-9][0-9]* expired"
hm_ok "a cached allow expires (parent directory renamed)"

# globally open (an acl_group every domain uses grants every operation):
# allowed to all, and cached in the kernel with an ignore mark (which
# lets every open through, in any mode), taken back on reload
echo g >"$T/g"
for op in read write append truncate; do
	printf 'acl_group 0 file %s %s/g\n' "$op" "$T"
done >"$POL/exception_policy.conf"
cat >"$POL/domain_policy.conf" <<EOP
<kernel>
use_profile 3
use_group 0

<kernel> $T/helper
use_profile 3
use_group 0
file read $T/a
EOP
hm_enf_start --mode enforcing
hm_enf_ok "$T/other" read "$T/g"
hm_enf_ok "$T/helper" loop 200 "$T/g"
hm_enf_eperm "$T/other" read "$T/a"
kill -HUP "$DPID"
hm_wait_for "grep -q 'policy reloaded' '$DLOG'" 100 || hm_fail "no reload"
hm_enf_ok "$T/helper" loop 200 "$T/g"
hm_enf_stop
hm_enf_log_has "kernel ignore marks added +2$"
opens=$(awk '/FAN_OPEN_PERM events/ { print $NF }' "$DLOG")
# 2 x 200 opens of g; with the mark only the first of each round is seen
[ "$opens" -lt 100 ] || hm_fail "$opens open events: the ignore mark did not work"
hm_ok "globally readable: allowed to every domain, kernel ignore mark ($opens open events)"

# a script whose interpreter is under the mark too: the interpreter's
# exec open is part of the script's exec (named by its #! line) and is
# judged as "file read" of the interpreter in the script's domain, which
# is entered by the script's name, and in it the interpreter reads the
# script (as learning would have learned)
cp "$(readlink -f /bin/sh)" "$T/sh"
printf '#!%s\nexit 0\n' "$T/sh" >"$T/s.sh"
chmod 755 "$T/s.sh"
cat >"$POL/domain_policy.conf" <<EOP
<kernel>
use_profile 3

<kernel> $T/helper
use_profile 3
file execute $T/s.sh

<kernel> $T/helper $T/s.sh
use_profile 3
file read $T/sh
file read $T/s.sh
EOP
: >"$POL/exception_policy.conf"
hm_enf_start --mode enforcing --verbose
hm_enf_ok "$T/helper" exec "$T/s.sh"
hm_enf_eperm "$T/helper" exec "$T/sh" -c true
hm_enf_stop
hm_enf_log_has "exec $T/s.sh: <kernel> $T/helper $T/s.sh$"
hm_enf_log_has "opens that are part of an exec +[1-9]"
hm_ok "a script's interpreter under the mark is part of its exec (read in the script's domain)"
