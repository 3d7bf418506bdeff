#!/usr/bin/env bash
# The 2007 posting's example, for real: start Debian's apache2 the SysV way
# under the real auditd with `histmac rules`, fetch a page, stop it, learn,
# and find the chain .../etc/init.d/apache2 ... /usr/sbin/apache2ctl
# /usr/sbin/apache2 with the posting's ACL.  Then learn-then-check is clean,
# a second run checked against the first run's policy shows no violation
# from pids, temp names or ephemeral ports, and the server reading
# /etc/shadow or connecting out to a new port is reported (exit 1).
set -eu
. "$HM_SRC/tests/e2e/lib.sh"

hm_need auditd auditctl ausearch curl apache2ctl tomoyo-checkpolicy
[ -x /etc/init.d/apache2 ] || hm_skip "apache2 is not installed"
if hm_running apache2; then
	hm_skip "an apache2 is already running; not touching it"
fi

hm_audit_start
"$HISTMAC" rules >"$HM_TMP/histmac.rules"
hm_audit_rules "$HM_TMP/histmac.rules"

# Runs $2 (a shell command) with login uid $1, which every process it
# starts inherits (daemons too), and keeps exactly its events in $3:
# whatever else the machine does meanwhile stays out of the log.
run_as_auid() {
	local auid=$1 cmd=$2 out=$3
	hm_audit_marker >/dev/null
	hm_audit_from_now
	HM_CMD=$cmd bash -c "echo $auid >/proc/self/loginuid && eval \"\$HM_CMD\"" \
		>"$HM_TMP/run.out" 2>&1 || { cat "$HM_TMP/run.out" >&2; return 1; }
	hm_audit_marker >/dev/null
	hm_audit_copy "$HM_TMP/all.log"
	ausearch -if "$HM_TMP/all.log" --loginuid "$auid" --raw >"$out" ||
		hm_fail "no events with auid $auid in the $(wc -l <"$HM_TMP/all.log") records logged since the run's first marker (HM_KEEP_TMP=1 keeps $HM_TMP/all.log)"
}

# One run: start, fetch, stop.
apache_cycle='
	/etc/init.d/apache2 start
	for i in $(seq 100); do curl -sf http://127.0.0.1/ -o /dev/null && break; sleep 0.1; done
	curl -sf http://127.0.0.1/ -o /dev/null
	/etc/init.d/apache2 stop
	for i in $(seq 100); do hm_running apache2 || break; sleep 0.1; done
'
run_apache() {
	hm_on_exit "/etc/init.d/apache2 stop >/dev/null 2>&1"
	run_as_auid "$2" "$apache_cycle" "$1" || hm_fail "the apache2 run failed"
	! hm_running apache2 || hm_fail "apache2 did not stop"
}

run_apache "$HM_TMP/run1.log" 4242
pol=$HM_TMP/policy
# The log comes from this host: resolve symlinks (/var/run -> /run) as the
# enforcer will see them.  Then patternize (below): apache2 writes its pid
# file through a mkstemp() name, which differs on every start.
"$HISTMAC" learn -q --resolve -p "$pol" -i "$HM_TMP/run1.log" ||
	hm_fail "histmac learn failed"

# The chain: a domain ending in /etc/init.d/apache2 ... apache2ctl apache2.
domain=$(grep -E '^<kernel>( [^ ]+)* /etc/init.d/apache2( [^ ]+)* /usr/sbin/apache2ctl /usr/sbin/apache2$' \
	"$pol/domain_policy.conf" | head -n 1)
[ -n "$domain" ] || {
	grep '^<' "$pol/domain_policy.conf" >&2
	hm_fail "no domain chain .../etc/init.d/apache2 ... /usr/sbin/apache2ctl /usr/sbin/apache2"
}
hm_ok "chain: $domain"
# patternize --apply: a rule for the pid file, and apache2ctl (the init
# script runs it through env, which executes nothing else) a root domain
# with apache2 below it, as the tracker names them from now on
"$HISTMAC" patternize -p "$pol" --apply >"$HM_TMP/patternize.out" ||
	hm_fail "histmac patternize --apply failed"
grep -q 'apache2\.pid' "$HM_TMP/patternize.out" || {
	cat "$HM_TMP/patternize.out" >&2
	# not learned, or learned and not generalised?
	echo "the pid file in the policy and in the log:" >&2
	grep 'apache2\.pid' "$pol/domain_policy.conf" >&2 || true
	grep -c 'apache2\.pid' "$HM_TMP/run1.log" >&2 || true
	hm_fail "no rule for the pid file's temp name"
}
domain='<kernel> /usr/sbin/apache2ctl /usr/sbin/apache2'
grep -qxF "$domain" "$pol/domain_policy.conf" || {
	cat "$HM_TMP/patternize.out" >&2
	hm_fail "patternize --apply did not re-root the chain to $domain"
}
hm_ok "re-rooted: $domain"
tomoyo-checkpolicy d <"$pol/domain_policy.conf" | grep -q ' 0 Error' ||
	hm_fail "tomoyo-checkpolicy rejects the learned domain policy"

# The ACL of that domain in each dialect.
acl_of() {
	"$HISTMAC" export -p "$pol" --format "$1" 2>/dev/null |
		awk -v d="$domain" '/^<kernel>/ { on = ($0 == d); next } on'
}
acl_of tomoyo >"$HM_TMP/acl26"
acl_of tomoyo-1.8 >"$HM_TMP/acl18"
acl_of tomoyo-2.1 >"$HM_TMP/acl21"

want() {	# want FILE EXTENDED-REGEX WHAT
	grep -Eq "$2" "$1" || { cat "$1" >&2; hm_fail "$(basename "$1"): no $3"; }
}
want "$HM_TMP/acl26" '^file read(/[a-z_]+)* /etc/apache2/apache2\.conf$' "read of apache2.conf"
# 2007's apache2 created its pid file; today's writes a mkstemp() name and
# renames it over the pid file: create of that name (patterned), rename.
pid='(/var)?/run/apache2/apache2\.pid'
want "$HM_TMP/acl26" "^file create $pid(\\.[^ ]+)? " "create of the pid file"
want "$HM_TMP/acl26" "^file rename $pid\\.[^ ]+ $pid\$" "rename onto the pid file"
want "$HM_TMP/acl26" "^file [a-z/]*unlink[a-z/]* $pid\$" "unlink of the pid file"
want "$HM_TMP/acl26" '^network inet stream (bind/listen|bind|listen)[a-z/]* [0-9.:]+ 80$' "bind/listen on port 80"
want "$HM_TMP/acl26" '^# .*network inet stream accept 127\.0\.0\.1 ' "accept written as a comment in 2.6"
want "$HM_TMP/acl18" '^network inet stream [a-z/]*accept[a-z/]* 127\.0\.0\.1 1024-65535$' "accept from 127.0.0.1 in 1.8"
want "$HM_TMP/acl21" '^4 /etc/apache2/apache2\.conf$' "4 /etc/apache2/apache2.conf in 2.1"
want "$HM_TMP/acl21" "^allow_create $pid(\\.[^ ]+)?\$" "allow_create of the pid file in 2.1"
want "$HM_TMP/acl21" "^allow_unlink $pid\$" "allow_unlink of the pid file in 2.1"
want "$HM_TMP/acl21" '^allow_network TCP bind [0-9.:]+ 80$' "allow_network TCP bind in 2.1"
want "$HM_TMP/acl21" '^allow_network TCP listen [0-9.:]+ 80$' "allow_network TCP listen in 2.1"
want "$HM_TMP/acl21" '^allow_network TCP accept 127\.0\.0\.1 1024-65535$' "allow_network TCP accept in 2.1"
hm_ok "the posting's ACL is there in 2.6, 1.8 and 2.1"

# check --resolve of LOG against the policy into OUT: no denial, and no
# object of apache's unidentified.  What else the host did meanwhile is in
# the log too: a file another process replaced since (an atomic save) is
# an unidentified object, a finding (docs/PATHS.md "The rule").
check_clean() {
	local rc=0
	"$HISTMAC" check --resolve -p "$pol" -i "$1" >"$2" || rc=$?
	[ "$rc" = 0 ] && return 0
	[ "$rc" = 1 ] && grep -q ', 0 denied, ' "$2" &&
		! grep -q '^#   file .* in .*apache2.*not proven' "$2"
}

# Learn-then-replay: the log the policy came from is clean.
check_clean "$HM_TMP/run1.log" "$HM_TMP/check1.out" || {
	cat "$HM_TMP/check1.out" >&2
	hm_fail "check of the learning log against its own policy is not clean"
}
hm_ok "learn-then-check: no violations"

# Generalization: a second run (new pids, temp names, ports) is clean too.
run_apache "$HM_TMP/run2.log" 4243
check_clean "$HM_TMP/run2.log" "$HM_TMP/check2.out" || {
	cat "$HM_TMP/check2.out" >&2
	hm_fail "a second run shows violations against the first run's policy"
}
hm_ok "second run: no violations"

# Detection: the server's domain reading /etc/shadow.  Make apache2 itself
# read it: its configuration includes the file (it then refuses to start,
# having read it - which is what a compromised server would do).
cp /etc/apache2/apache2.conf "$HM_TMP/apache2.conf.orig"
hm_on_exit "cp '$HM_TMP/apache2.conf.orig' /etc/apache2/apache2.conf"
printf 'IncludeOptional /etc/shadow\n' >>/etc/apache2/apache2.conf
run_as_auid 4244 '/etc/init.d/apache2 start; /etc/init.d/apache2 stop; true' \
	"$HM_TMP/run3.log" || hm_fail "the broken apache2 run"
cp "$HM_TMP/apache2.conf.orig" /etc/apache2/apache2.conf
set +e
"$HISTMAC" check --resolve -p "$pol" -i "$HM_TMP/run3.log" --format json >"$HM_TMP/check3.json"
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$HM_TMP/check3.json" >&2; hm_fail "check exit $rc, want 1"; }
grep -q '"line":"file read /etc/shadow"' "$HM_TMP/check3.json" || {
	cat "$HM_TMP/check3.json" >&2
	hm_fail "reading /etc/shadow is not reported"
}
hm_ok "reading /etc/shadow is reported (exit 1)"
