#!/bin/bash
# t_enforce_append_cgi.sh - issue 40: an append open means one thing to
# learn, check and the enforcer (docs/ENFORCE.md "Append is write unless
# the file is append-only").  A CGI-like Perl script opens its log "a+"
# (O_RDWR|O_CREAT|O_APPEND), appends a line and reads the log back:
#  1. learned from the real audit trail as docs/PRODUCTION.md says
#     (learn, patternize, patternize --apply): its domain holds "file
#     write" and "file append" on the log, `policy check` flags nothing,
#     and `check` of the learning run reports nothing;
#  2. under `histmac enforce --mode enforcing` (fanotify on a tmpfs) the
#     script runs and appends, with no denial;
#  3. permissive, under audit, with the learned policy and with the
#     policy a TOMOYO kernel learns ("file append" without "file
#     write"): the enforcer's violations under the mark and check's of
#     the same run are the same (none, then the log's write), check
#     saying the open was an O_APPEND open judged as a write, and
#     `policy check` flags the TOMOYO policy's entry with what to add.
#  The runs have login uid 4262 and the audit rules keep only that range
#  (service_lib.sh), so the trail is the script's and not the machine's.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/service_lib.sh"

hm_need perl
hm_enf_setup
mkdir "$T/logs"
printf 'started\n' >"$T/logs/cgi.log"	# a log that exists, as logs do
cat >"$T/cgi.pl" <<'EOS'
#!/usr/bin/perl
# a CGI script: one line to its log per request, then the log's length
use strict;
my $log = $0 =~ s{[^/]*$}{logs/cgi.log}r;
open(my $fh, '+>>', $log) or die "open $log: $!\n";	# fopen "a+"
print $fh "request $ARGV[0]\n";
seek($fh, 0, 0);
my @lines = <$fh>;
print "logged ", scalar(@lines), " lines\n";
EOS
chmod 755 "$T/cgi.pl"
D="<kernel> $T/cgi.pl"

# run_cgi N: run the script as a request would, expect it to log line N
# (a fork of this shell that takes the login uid and executes it)
_cgi() {
	echo 4262 >/proc/self/loginuid && exec "$T/cgi.pl" "$1"
}
run_cgi() {
	hm_enf_ok _cgi "$1"
	[ "$HM_ENF_OUT" = "logged $1 lines" ] ||
		hm_enf_fail "cgi.pl: '$HM_ENF_OUT', not 'logged $1 lines'"
}

# trail NAME: the login uid's events since hm_audit_from_now, in NAME.log
trail() {
	hm_audit_marker >/dev/null
	hm_audit_copy "$HM_TMP/$1.all"
	_hm_svc_own "$HM_TMP/$1.all" >"$HM_TMP/$1.log"
	grep -q "auid=4262 " "$HM_TMP/$1.log" || hm_fail "no events of the script in $1's trail"
}

# --- 1. learn from the audit trail, as docs/PRODUCTION.md says -------------
hm_svc_begin
hm_audit_from_now
run_cgi 2
run_cgi 3
trail learn
"$HISTMAC" learn -q -i "$HM_TMP/learn.log" -p "$POL" || hm_fail "histmac learn failed"
"$HISTMAC" patternize -p "$POL" >"$HM_TMP/patternize.out" 2>&1 ||
	{ cat "$HM_TMP/patternize.out" >&2; hm_fail "histmac patternize failed"; }
"$HISTMAC" patternize -p "$POL" --apply --yes >"$HM_TMP/apply.out" 2>&1 ||
	{ cat "$HM_TMP/apply.out" >&2; hm_fail "histmac patternize --apply failed"; }
awk -v d="$D" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' \
	"$POL/domain_policy.conf" >"$HM_TMP/cgi.acl"
grep -qxE "file (read/)?write/append $T/logs/cgi\.log" "$HM_TMP/cgi.acl" ||
	{ cat "$POL/domain_policy.conf" >&2; hm_fail "'$D' did not learn write and append on its log"; }
"$HISTMAC" policy check -p "$POL" >"$HM_TMP/pcheck.out" ||
	{ cat "$HM_TMP/pcheck.out" >&2; hm_fail "policy check of the learned policy failed"; }
! grep -q "O_APPEND" "$HM_TMP/pcheck.out" ||
	{ cat "$HM_TMP/pcheck.out" >&2; hm_fail "policy check flags the learned append entry"; }
"$HISTMAC" check -p "$POL" -i "$HM_TMP/learn.log" >"$HM_TMP/check1.out" ||
	{ cat "$HM_TMP/check1.out" >&2; hm_fail "check of the learning run reports violations"; }
hm_ok "learned: '$D' holds write and append on its log; policy check and check are clean"
cp -a "$POL" "$HM_TMP/policy.learned"

# --- 2. enforcing: the script runs -------------------------------------------
hm_enf_start --mode enforcing
run_cgi 4
run_cgi 5
hm_enf_stop
# (another enforcer on the machine may read the script to name an exec:
# its process, a histmac, is denied here, not the script)
if grep -F " deny pid=" "$DLOG" | grep -F "domain=\"$D" >&2; then
	hm_fail "the enforcer denied the learned CGI script"
fi
hm_enf_log_has "enforcing"
hm_ok "enforcing: the a+ script appends to its log with the learned policy"

# --- 3. permissive enforce and check agree ------------------------------------
# agree NAME: the enforcer's violations under $T (its log) and check's of
# the same run (NAME.json) are the same (service_lib.sh's sets: one
# operation a line, check's "append" beside "write" left out)
agree() {
	_hm_svc_check_set "$1" "$T" >"$HM_TMP/$1.check"
	_hm_svc_enforce_set "$T" >"$HM_TMP/$1.enforce"
	diff -u "$HM_TMP/$1.check" "$HM_TMP/$1.enforce" >&2 ||
		hm_fail "$1: check's violations (-) and the enforcer's (+) differ"
}
# permissive NAME N RC: run the script (its Nth line) under the enforcer in
# permissive mode with $POL, then check the run's audit trail into
# NAME.json, which must exit RC
permissive() {
	local rc=0
	hm_enf_start --mode permissive
	hm_audit_from_now
	run_cgi "$2"
	trail "$1"
	hm_enf_stop
	"$HISTMAC" check -p "$POL" -i "$HM_TMP/$1.log" --format json \
		>"$HM_TMP/$1.json" || rc=$?
	[ "$rc" = "$3" ] || { cat "$HM_TMP/$1.json" >&2; hm_fail "$1: check exited $rc, not $3"; }
	agree "$1"
}

permissive learned 6 0
[ ! -s "$HM_TMP/learned.check" ] || hm_fail "violations with the learned policy"
hm_ok "permissive, learned policy: no violation from the enforcer or check"

# the policy a TOMOYO kernel learns for the same opens: append, no write
sed -i -E "s|^file (read/)?write/append ($T/logs/cgi\\.log)\$|file \\1append \\2|" \
	"$POL/domain_policy.conf"
grep -qxE "file (read/)?append $T/logs/cgi\.log" "$POL/domain_policy.conf" ||
	hm_fail "no TOMOYO-style append entry made"
"$HISTMAC" policy check -p "$POL" >"$HM_TMP/pcheck2.out" || true
grep -qF "add 'file write $T/logs/cgi.log'" "$HM_TMP/pcheck2.out" ||
	{ cat "$HM_TMP/pcheck2.out" >&2; hm_fail "policy check does not flag the append entry the enforcer denies"; }
permissive tomoyo 7 1
printf '%s\tfile write %s\n' "$D" "$T/logs/cgi.log" >"$HM_TMP/want"
diff -u "$HM_TMP/want" "$HM_TMP/tomoyo.check" >&2 ||
	hm_fail "with append alone, the violation is not the log's write"
jq -e --arg d "$D" '[.violations[] | select(.domain == $d and .append_opens > 0) |
	.line] | length == 1' "$HM_TMP/tomoyo.json" >/dev/null ||
	hm_fail "check does not say the write was an O_APPEND open"
"$HISTMAC" check -p "$POL" -i "$HM_TMP/tomoyo.log" >"$HM_TMP/tomoyo.txt" || true
grep -q "O_APPEND open.* judged as file write: histmac enforce asks write unless the file is append-only" \
	"$HM_TMP/tomoyo.txt" || { cat "$HM_TMP/tomoyo.txt" >&2; hm_fail "check's text does not say why"; }
hm_ok "permissive, TOMOYO's append alone: the enforcer and check both report the log's write, check saying why"
