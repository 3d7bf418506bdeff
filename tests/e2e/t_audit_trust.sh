#!/bin/bash
# t_audit_trust.sh - an ordinary user cannot step out of `histmac rules`.
#  exclusion  uid 65534 runs /usr/sbin/auditd (world-executable) with an
#             LD_PRELOAD library that opens a file: the open is in the
#             trail, learned, and reported by check once the policy lacks
#             it.  Control: root doing the same is left out (the rule
#             that keeps the real daemon from auditing itself).
#  blind      uid 65534 makes one successful call of each kind after
#             which the trail cannot name what it reaches (unshare of a
#             user and mount namespace, open_tree, prctl(PR_SET_MM),
#             io_uring_setup): learn and check count each and name the
#             domain that made it, in text and JSON.  Control: a run
#             without those calls has no such line.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl ausearch
[ -x /usr/sbin/auditd ] || hm_fail "no /usr/sbin/auditd"
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
grep -qx -- '-a never,exit -F exe=/usr/sbin/auditd -F uid=0' "$HM_TMP/rules" ||
	hm_fail "the exclusion of auditd is not limited to uid 0"
hm_audit_rules "$HM_TMP/rules"

hm_public_dir 755
pub=$HM_PUB
hm_e2e_install open_exit.so "$pub/open_exit.so"
hm_e2e_install blind_calls "$pub/blind_calls"
echo user >"$pub/user-file"
echo root >"$pub/root-file"
chmod 644 "$pub/user-file" "$pub/root-file"

# the preload goes to auditd alone (setuser would run it first)
cat >"$pub/preloaded-auditd" <<EOS
#!/bin/sh
LD_PRELOAD=$pub/open_exit.so HM_PRELOAD_OPEN=\$1 exec /usr/sbin/auditd
EOS
chmod 755 "$pub/preloaded-auditd"

hm_audit_from_now
hm_audit_marker >/dev/null
"$pub/setuser" 65534 65534 "$pub/preloaded-auditd" "$pub/user-file" &
plain_pid=$!
wait "$plain_pid" ||
	hm_fail "the preloaded auditd could not open the file as uid 65534"
"$pub/preloaded-auditd" "$pub/root-file" ||
	hm_fail "the preloaded auditd failed as root"
"$pub/setuser" 65534 65534 "$pub/blind_calls" >"$HM_TMP/blind.out" &
blind_pid=$!
wait "$blind_pid" ||
	hm_fail "blind_calls failed as uid 65534: $(cat "$HM_TMP/blind.out")"
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/audit.log"

# --- exclusion
"$HISTMAC" events -i "$HM_TMP/audit.log" |
	awk -F '\t' '$4 == "open" && $17 == "/usr/sbin/auditd"' >"$HM_TMP/opens"
grep -qF "$pub/user-file" "$HM_TMP/opens" ||
	hm_fail "uid 65534's open through /usr/sbin/auditd is not in the trail"
! grep -qF "$pub/root-file" "$HM_TMP/opens" ||
	hm_fail "control: root's run of /usr/sbin/auditd was audited"
p=$HM_TMP/policy
"$HISTMAC" learn -p "$p" -i "$HM_TMP/audit.log" >"$HM_TMP/learn.out" ||
	hm_fail "learn failed"
grep -qx "file read $pub/user-file" "$p/domain_policy.conf" ||
	hm_fail "the open through the preloaded auditd was not learned"
grep -vx "file read $pub/user-file" "$p/domain_policy.conf" >"$HM_TMP/dp"
cp "$HM_TMP/dp" "$p/domain_policy.conf"
rc=0
"$HISTMAC" check -p "$p" -i "$HM_TMP/audit.log" >"$HM_TMP/check.out" || rc=$?
[ "$rc" = 1 ] && grep -qx "file read $pub/user-file" "$HM_TMP/check.out" ||
	hm_fail "check did not report the open (exit $rc)"
hm_ok "a user's run of /usr/sbin/auditd is audited, learned and checked; root's is left out"

# --- blind
# (tests running beside this one make such calls too, in the same trail:
# the calls are counted from blind_calls' own events, pid $blind_pid)
ausearch -if "$HM_TMP/audit.log" -p "$blind_pid" --raw >"$HM_TMP/blind.log" ||
	hm_fail "ausearch found no event of blind_calls (pid $blind_pid)"
"$HISTMAC" check -p "$p" -i "$HM_TMP/blind.log" >"$HM_TMP/blind-check.out" || true
for kind in namespace mount-api set-mm io-uring; do
	grep -qx "$kind ok" "$HM_TMP/blind.out" || hm_fail "blind_calls: no $kind"
done
dom="<kernel> $pub/setuser $pub/blind_calls"
for text in "unshare or setns" "new mount API (open_tree, move_mount, fsmount...)" \
	"prctl(PR_SET_MM): exe= no longer the program" \
	"io_uring set up: its opens are not audited"; do
	grep -qxF "#   1 $text, first in $dom" "$HM_TMP/blind-check.out" ||
		hm_fail "check does not name '$text' in $dom"
	grep -qF "trail blind after: $text" "$HM_TMP/learn.out" ||
		hm_fail "learn's summary does not count '$text'"
done
grep -qx '# 4 calls after which the trail cannot name what a process reaches:' \
	"$HM_TMP/blind-check.out" || hm_fail "check's summary does not count 4 blind calls"
grep -q '^# not in any audit trail: .*io_uring operations$' "$HM_TMP/blind-check.out" ||
	hm_fail "check's summary does not say what no trail shows"
"$HISTMAC" check --format json -p "$p" -i "$HM_TMP/blind.log" >"$HM_TMP/check.json" || true
for id in namespace mount_api set_mm io_uring; do
	jq -e --arg id "$id" --arg d "$dom" \
		'.blind[$id].count == 1 and .blind[$id].first_domain == $d' \
		"$HM_TMP/check.json" >/dev/null || hm_fail "JSON: no blind.$id"
done
# control: another run of uid 65534 (the preloaded auditd's) has no such line
ausearch -if "$HM_TMP/audit.log" -p "$plain_pid" --raw >"$HM_TMP/plain.log" ||
	hm_fail "ausearch found no event of the control run (pid $plain_pid)"
"$HISTMAC" check -p "$p" -i "$HM_TMP/plain.log" >"$HM_TMP/plain.out" || true
! grep -q 'after which the trail cannot name' "$HM_TMP/plain.out" ||
	hm_fail "control: blind calls counted in a log without them"
hm_ok "calls that blind the trail are counted and named in learn and check"
