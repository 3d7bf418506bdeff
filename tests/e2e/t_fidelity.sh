#!/usr/bin/env bash
# What TOMOYO's hooks would have seen, under the real auditd:
#  1. a local service and a non-blocking client (curl): the client's
#     connect (EINPROGRESS) is learned in the client's domain;
#  2. a daemon whose parent exits before it execs keeps its chain, whether
#     it is given to init or to a subreaper;
#  3. after learning, a non-blocking connect of the service to a port it
#     never used is reported by check (exit 1), and a read refused by DAC
#     is listed as an attempt, which alone leaves the exit status at 0.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl curl setpriv
hm_build_workload
w=$HM_TMP/w
mkdir -p "$w"
chmod 755 "$HM_TMP" "$w"
echo public >"$w/public"
chmod 644 "$w/public"
# ports outside the ephemeral range, which learning widens to the range
port=$((20000 + RANDOM % 5000))
other=$((port + 5000))
wl=$HM_WORKLOAD
bash_dom="<kernel> /usr/bin/bash"

hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"

# One service run: it listens, curl asks, it answers (then, with a second
# port, connects there without blocking).
serve() {
	rm -f "$w/ready"
	bash -c "exec $wl serve $w $*" &
	local srv=$!
	hm_wait_for "[ -e $w/ready ]" 100 || hm_fail "the service did not start"
	bash -c "exec curl -s -o /dev/null http://127.0.0.1:$port/" ||
		hm_fail "curl failed"
	wait "$srv" || hm_fail "the service failed"
}

# nobody reads a file: allowed by DAC for $w/public, refused for /etc/shadow
read_as_nobody() {
	bash -c "exec setpriv --reuid=65534 --regid=65534 --clear-groups cat $1" \
		>/dev/null 2>&1 || true
}

# phase LOG FUNCTION: run FUNCTION in a subshell of its own and copy the
# events of its process tree to LOG.
phase() {
	local root
	hm_audit_from_now
	("$2") &
	root=$!
	wait "$root" || hm_fail "$2 failed"
	hm_audit_marker >/dev/null
	hm_audit_copy_tree "$1" "$root"
}

# ------------------------------------------------------------- learning
learning() {
	serve "$port"
	bash -c "exec $wl daemon $w"
	bash -c "exec $wl daemon $w reaper"
	read_as_nobody "$w/public"
}
phase "$HM_TMP/learn.log" learning
"$HISTMAC" learn -q -p "$HM_TMP/p" -i "$HM_TMP/learn.log" 2>"$HM_TMP/learn.err" ||
	{ cat "$HM_TMP/learn.err" >&2; hm_fail "learn exited $?"; }
pol=$HM_TMP/p/domain_policy.conf

in_domain() {
	awk -v d="$1" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' "$pol" |
		grep -qx -- "$2"
}
grep -q -- "-S socket,bind,connect" "$HM_TMP/rules" || hm_fail "rules lack connect"
grep -a 'comm="curl"' "$HM_TMP/learn.log" | grep -q 'syscall=42 success=no exit=-115' ||
	hm_fail "curl's connect did not return EINPROGRESS: the test proves nothing"
in_domain "$bash_dom /usr/bin/curl" "network inet stream connect 127.0.0.1 $port" ||
	hm_fail "curl's non-blocking connect is not in its domain"
hm_ok "a non-blocking connect (EINPROGRESS) is learned in the client's domain"

grep -qx "$bash_dom $wl /usr/bin/true" "$pol" ||
	hm_fail "the daemon lost its chain: $(grep '^<kernel>' "$pol")"
grep -qx "<kernel> /usr/bin/true" "$pol" &&
	hm_fail "a daemon was learned as <kernel> /usr/bin/true"
grep -a 'comm="true"' "$HM_TMP/learn.log" | grep -q ' ppid=1 ' ||
	hm_fail "no daemon exec with ppid 1 in the log"
hm_ok "a daemon that execs after its parent exited keeps its chain"

# ------------------------------------------------------------- checking
checking() {
	serve "$port" "$other"
	read_as_nobody /etc/shadow
}
phase "$HM_TMP/check.log" checking
set +e
"$HISTMAC" check -p "$HM_TMP/p" -i "$HM_TMP/check.log" --attempts >"$HM_TMP/check.out" 2>&1
rc=$?
"$HISTMAC" check -p "$HM_TMP/p" -i "$HM_TMP/check.log" --format json \
	>"$HM_TMP/check.json" 2>/dev/null
set -e
[ "$rc" = 1 ] || { cat "$HM_TMP/check.out" >&2; hm_fail "check exit $rc, want 1"; }
grep -qx "network inet stream connect 127.0.0.1 $other" "$HM_TMP/check.out" ||
	{ cat "$HM_TMP/check.out" >&2; hm_fail "the service's new connect is not reported"; }
hm_ok "check reports the service's non-blocking connect to a new port (exit 1)"

attempts=$(sed -n '/^# ---- attempts:/,$p' "$HM_TMP/check.out")
printf '%s\n' "$attempts" | grep -qx '# file read /etc/shadow' ||
	{ cat "$HM_TMP/check.out" >&2; hm_fail "no attempt to read /etc/shadow"; }
sed '/^# ---- attempts:/,$d' "$HM_TMP/check.out" | grep -q '/etc/shadow' &&
	hm_fail "the refused read is listed as a violation"
grep -q '"attempts":\[' "$HM_TMP/check.json" &&
	grep -q '"errno":"EACCES"' "$HM_TMP/check.json" ||
	hm_fail "the JSON report has no EACCES attempt"

# An attempt alone does not make check fail.
attempting() {
	read_as_nobody /etc/shadow
}
phase "$HM_TMP/attempt.log" attempting
"$HISTMAC" check -p "$HM_TMP/p" -i "$HM_TMP/attempt.log" --attempts >"$HM_TMP/attempt.out" 2>&1 ||
	{ cat "$HM_TMP/attempt.out" >&2; hm_fail "check exit $? on attempts alone"; }
grep -qx '# file read /etc/shadow' "$HM_TMP/attempt.out" ||
	hm_fail "the attempt is not listed"
hm_ok "a DAC-refused read is in the attempts section, not a violation"
