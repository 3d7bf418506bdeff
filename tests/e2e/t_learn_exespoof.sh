#!/bin/bash
# t_learn_exespoof.sh - a spoofed exe= does not choose
# the domain learn learns into and check checks in.  With histmac's
# audit rules loaded:
#  - control: root runs $W/service, which reads $W/own: learned in
#    <kernel> $W/service (the test script is of unobserved history);
#  - as uid 65534, $W/attack (domain <kernel> $W/helper $W/attack)
#    copies its program to anonymous memory, unshares a user namespace,
#    sets its exe link to $W/service with prctl(PR_SET_MM_MAP) and reads
#    $W/marker: the audit trail says exe="$W/service";
#  - the same in a vfork child of $W/attack (the user namespace made
#    before it), which reads $W/child: its first audited call carries
#    the spoofed exe=, and its parent's clone record comes only after it
#    exited.
# learn puts both reads in the attacker's own domain, none in the
# service's, and counts the exe changes; check against that policy
# without the two reads reports them in the attacker's domain, and
# its summary counts the exe changes.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl
W=$HM_TMP/w
mkdir -p "$W"
chmod o+x "$HM_TMP"	# uid 65534 reaches $W
hm_e2e_install proc_attack "$W/attack"
hm_e2e_install enforce_helper "$W/helper"
cp "$W/attack" "$W/service"
for f in own marker child; do
	echo "$f" >"$W/$f"
done
touch "$W/go"	# wait_read() finds it at once
chmod 755 "$W"
chmod 644 "$W/own" "$W/marker" "$W/child"
SERVICE="<kernel> $W/service"
ATTACKER="<kernel> $W/helper $W/attack"

hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"

"$W/service" wait "$W/go" "$W/own" >"$HM_TMP/control.out" 2>&1 ||
	hm_fail "control: $(cat "$HM_TMP/control.out")"
# attack MODE FILE: as uid 65534, spoof $W/service (MODE), then read FILE
attack() {
	"$W/helper" as 65534 exec "$W/attack" "$1" "$W/service" "$W/go" \
		"$2" >"$HM_TMP/$1.out" 2>&1 ||
		hm_fail "$1: $(cat "$HM_TMP/$1.out")"
	grep -qx "spoofed $W/service" "$HM_TMP/$1.out" &&
		grep -qx "read $2: ok" "$HM_TMP/$1.out" ||
		hm_fail "$1 did not spoof and read: $(cat "$HM_TMP/$1.out")"
}
attack spoof "$W/marker"
attack spoof-vfork "$W/child"
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/audit.log"

# the trail carries the spoofed exe= on both reads (the attack worked)
for f in marker child; do
	serial=$(grep -a "type=PATH .* name=\"$W/$f\"" "$HM_TMP/audit.log" |
		sed -n 's/.*msg=audit([0-9.]*:\([0-9]*\)).*/\1/p' | head -n 1)
	[ -n "$serial" ] || hm_fail "no open of $W/$f in the trail"
	grep -a "type=SYSCALL msg=audit([0-9.]*:$serial)" "$HM_TMP/audit.log" |
		grep -q "uid=65534 .*exe=\"$W/service\"" ||
		hm_fail "the open of $W/$f is not by uid 65534 with exe=$W/service"
done
# the vfork child's first audited call already says exe=$W/service
pid=$(grep -a "type=SYSCALL msg=audit([0-9.]*:$serial)" "$HM_TMP/audit.log" |
	sed -n 's/.* pid=\([0-9]*\) .*/\1/p')
grep -a "^type=SYSCALL .* pid=$pid " "$HM_TMP/audit.log" | head -n 1 |
	grep -q "exe=\"$W/service\"" ||
	hm_fail "the vfork child's first audited call is not by exe=$W/service"

# domains_with FILE ENTRY: the domains of policy FILE holding ENTRY
domains_with() {
	awk -v e="$2" '/^<kernel>/ { d = $0; next } $0 == e { print d }' "$1" |
		sort -u
}

P=$HM_TMP/policy
"$HISTMAC" learn -i "$HM_TMP/audit.log" -p "$P" >"$HM_TMP/learn.out" 2>&1 ||
	hm_fail "learn: $(cat "$HM_TMP/learn.out")"
[ "$(domains_with "$P/domain_policy.conf" "file read $W/own")" = "$SERVICE" ] ||
	hm_fail "control: file read $W/own not (only) in $SERVICE"
for f in marker child; do
	got=$(domains_with "$P/domain_policy.conf" "file read $W/$f")
	[ "$got" = "$ATTACKER" ] ||
		hm_fail "file read $W/$f learned in '$got', not in '$ATTACKER'"
done
n=$(sed -n 's/^  processes whose exe changed without an exec (domain kept): //p' \
	"$HM_TMP/learn.out")
[ "${n:-0}" -ge 2 ] ||
	hm_fail "learn counted ${n:-no} exe changes: $(cat "$HM_TMP/learn.out")"
hm_ok "learn: a spoofed exe= keeps the process in its own domain ($n exe changes counted)"

# check, against the policy without the two reads
cp -r "$P" "$HM_TMP/lacking"
grep -vx "file read $W/marker\|file read $W/child" "$P/domain_policy.conf" \
	>"$HM_TMP/lacking/domain_policy.conf"
rc=0
"$HISTMAC" check -i "$HM_TMP/audit.log" -p "$HM_TMP/lacking" \
	>"$HM_TMP/check.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || hm_fail "check exited $rc: $(cat "$HM_TMP/check.out")"
for f in marker child; do
	got=$(domains_with "$HM_TMP/check.out" "file read $W/$f")
	[ "$got" = "$ATTACKER" ] ||
		hm_fail "check reports file read $W/$f in '$got', not in '$ATTACKER'"
done
[ -z "$(domains_with "$HM_TMP/check.out" "file read $W/own")" ] ||
	hm_fail "check reports the control's read"
grep -Eq '^# [2-9][0-9]* processes changed exe= without an exec' "$HM_TMP/check.out" ||
	hm_fail "check's summary does not count the exe changes"
hm_ok "check: the spoofer's reads are reported in its own domain"
