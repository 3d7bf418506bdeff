#!/usr/bin/env bash
# histmac learn / check / merge / diff / stats on the bundled real audit log
# (samples/audit/apache2-sysv.log): the posting's chain is learned; learning
# the same log again adds nothing (entries 2.6 cannot say survive the
# reload); the log checks clean against its own policy; a domain's entry
# removed is reported by check (exit 1) and by diff; merging is
# independent of the order; stats count what export writes.
. "$(dirname "$0")/lib.sh"
log=$HM_SRC/samples/audit/apache2-sysv.log

"$HISTMAC" learn -p "$tmp/p" -i "$log" >"$tmp/learn1" 2>/dev/null ||
	die "learn exited $?"
chain='<kernel> /etc/init.d/apache2 /usr/bin/env /usr/sbin/apache2ctl /usr/sbin/apache2'
grep -qx "$chain" "$tmp/p/domain_policy.conf" || die "no domain '$chain'"
grep -q 'network inet stream accept 127\.0\.0\.1 1024-65535' "$tmp/p/domain_policy.conf" ||
	die "accept not kept (as a comment) in the 2.6 policy"

# Again: nothing new, the accept comment read back and written again.
"$HISTMAC" learn -p "$tmp/p" -i "$log" >"$tmp/learn2" 2>/dev/null
grep -q 'domains: 0 new' "$tmp/learn2" || die "second learn: $(cat "$tmp/learn2")"
grep -q 'entries: 0 new, 0 widened' "$tmp/learn2" || die "second learn: $(cat "$tmp/learn2")"

check_clean "$HISTMAC" check -p "$tmp/p" -i "$log" ||
	{ cat "$tmp/out" >&2; die "the learning log is not clean against its policy"; }

# Remove the read of apache2.conf from the server's domain: check and diff
# must both find it.
cp -r "$tmp/p" "$tmp/q"
awk -v d="$chain" '$0 == d { on = 1 } /^<kernel>/ && $0 != d { on = 0 }
	!(on && $0 == "file read /etc/apache2/apache2.conf")' \
	"$tmp/p/domain_policy.conf" >"$tmp/q/domain_policy.conf"
cmp -s "$tmp/p/domain_policy.conf" "$tmp/q/domain_policy.conf" &&
	die "the test did not remove anything"
set +e
"$HISTMAC" check -p "$tmp/q" -i "$log" >"$tmp/check2"
rc=$?
"$HISTMAC" diff "$tmp/p" "$tmp/q" >"$tmp/diff"
drc=$?
set -e
[ "$rc" = 1 ] || die "check exit $rc, want 1"
grep -qx 'file read /etc/apache2/apache2.conf' "$tmp/check2" ||
	die "check does not print the missing line: $(cat "$tmp/check2")"
[ "$drc" = 1 ] || die "diff exit $drc, want 1"
grep -qx -- '-file read /etc/apache2/apache2.conf' "$tmp/diff" ||
	die "diff does not show the removed line: $(cat "$tmp/diff")"
"$HISTMAC" diff "$tmp/p" "$tmp/p" >/dev/null || die "diff of a policy with itself"

# Merge: order does not matter; the union holds both.
"$HISTMAC" learn -q -p "$tmp/r" -i "$HM_SRC/tests/data/net.log" 2>/dev/null
"$HISTMAC" merge "$tmp/q" "$tmp/r" -o "$tmp/m1" >/dev/null
"$HISTMAC" merge "$tmp/r" "$tmp/q" -o "$tmp/m2" >/dev/null
diff -r "$tmp/m1" "$tmp/m2" >/dev/null || die "merge depends on the order"
"$HISTMAC" diff "$tmp/m1" "$tmp/q" | grep -q '^-' || die "merge lost r's entries"
"$HISTMAC" diff "$tmp/q" "$tmp/m1" | grep -q '^-' && die "merge lost q's entries"

# stats: the entry count equals the policy lines export writes (1.8 says all).
n=$("$HISTMAC" stats -p "$tmp/p" | awk '$1 == "entries" { print $2 }')
w=$("$HISTMAC" export -p "$tmp/p" --format tomoyo-1.8 2>/dev/null |
	sed -n '/domain_policy.conf <==/,/exception_policy.conf <==/p' |
	grep -Ec '^(file|network|misc|ipc) ')
[ "$n" -le "$w" ] && [ "$n" -gt 100 ] || die "stats says $n entries, export has $w lines"
echo "ok: learn/check/diff/merge/stats on the sample log"
