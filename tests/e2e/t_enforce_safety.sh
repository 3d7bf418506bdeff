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
expect_exit 1 "domain_policy.conf:4:.*refusing to enforce|refusing to enforce" \
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

# dry run: nothing waits, nothing is denied, denials are reported
hm_enf_start --mode enforcing --dry-run
hm_enf_ok "$T/helper" read "$T/a" "$T/c"
hm_enf_ok "$T/other" read "$T/a"
hm_enf_stop
hm_enf_log_has "would-deny pid=[0-9]+ domain=\"<kernel> $T/helper\" file read $T/c"
hm_enf_log_has "would-deny pid=[0-9]+ domain=\"<kernel> $T/other\" file read $T/a"
if grep -q "would-deny.*file read $T/a\$" "$DLOG" | grep -q helper; then
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
