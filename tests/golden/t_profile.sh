#!/usr/bin/env bash
# Profiles are honoured: `histmac profile` lists and sets them; a domain
# set to enforcing is unchanged by a further learn, which reports the
# access its ACL lacks as a violation (exit 1); a learning domain still
# learns; --subtree reaches the domains below.
. "$(dirname "$0")/lib.sh"
log=$HM_SRC/samples/audit/apache2-sysv.log
chain='<kernel> /etc/init.d/apache2 /usr/bin/env /usr/sbin/apache2ctl /usr/sbin/apache2'
ctl='<kernel> /etc/init.d/apache2 /usr/bin/env /usr/sbin/apache2ctl'

"$HISTMAC" learn -q -p "$tmp/p" -i "$log" 2>/dev/null || die "learn exited $?"
"$HISTMAC" profile -p "$tmp/p" >"$tmp/list"
grep -qx "1 learning $chain" "$tmp/list" || die "listing: $(cat "$tmp/list")"

"$HISTMAC" profile -p "$tmp/p" enforcing "$chain" >/dev/null || die "profile exited $?"
grep -qx "3 enforcing $chain" <("$HISTMAC" profile -p "$tmp/p") ||
	die "the domain is not enforcing"
grep -qx "1 learning $ctl" <("$HISTMAC" profile -p "$tmp/p") ||
	die "the parent changed too"
set +e
"$HISTMAC" profile -p "$tmp/p" enforcing '<kernel> /no/such' 2>/dev/null
[ $? = 1 ] || die "an unknown domain was not refused"
"$HISTMAC" profile -p "$tmp/p" bogus "$chain" 2>/dev/null
[ $? = 2 ] || die "a bad mode was not a usage error"
set -e

# Remove one entry from the enforcing domain and one from its learning parent.
drop() {	# drop DOMAIN LINE
	awk -v d="$1" -v l="$2" '$0 == d { on = 1 } /^<kernel>/ && $0 != d { on = 0 }
		!(on && $0 == l)' "$tmp/p/domain_policy.conf" >"$tmp/x"
	cmp -s "$tmp/x" "$tmp/p/domain_policy.conf" && die "nothing to drop: $2"
	mv "$tmp/x" "$tmp/p/domain_policy.conf"
}
drop "$chain" 'file read /etc/apache2/apache2.conf'
ctl_line=$(awk -v d="$ctl" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 }
	on && /^file read / { print; exit }' "$tmp/p/domain_policy.conf")
[ -n "$ctl_line" ] || die "no file read in $ctl"
drop "$ctl" "$ctl_line"
cp "$tmp/p/domain_policy.conf" "$tmp/before"

set +e
"$HISTMAC" learn -p "$tmp/p" -i "$log" >"$tmp/learn2" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$tmp/learn2" >&2; die "learn exit $rc, want 1"; }
grep -qx 'file read /etc/apache2/apache2.conf' "$tmp/learn2" ||
	die "learn does not report the violation: $(cat "$tmp/learn2")"
section() { awk -v d="$1" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 }
	on && !/^# histmac:/' "$2"; }
diff <(section "$chain" "$tmp/before") <(section "$chain" "$tmp/p/domain_policy.conf") ||
	die "learn changed the enforcing domain"
section "$ctl" "$tmp/p/domain_policy.conf" | grep -qxF -- "$ctl_line" ||
	die "the learning parent did not learn '$ctl_line' again"

# A new domain below an enforcing one is enforcing too.
"$HISTMAC" profile -p "$tmp/p" permissive "$ctl" --subtree >/dev/null
grep -qx "2 permissive $chain" <("$HISTMAC" profile -p "$tmp/p") ||
	die "--subtree did not reach $chain"

# A live learner logs a violation when it is first seen, not only at its
# exit: the sample again, one second later on the clock (so its events lie
# after the learned marks), into a policy whose enforcing apache2 lost
# one entry.
"$HISTMAC" learn -q -p "$tmp/live" -i "$log" 2>/dev/null || die "learn exited $?"
"$HISTMAC" profile -p "$tmp/live" enforcing "$chain" >/dev/null
awk -v d="$chain" '/^<kernel>/ { cur = $0 }
	!(cur == d && $0 == "file read /etc/apache2/apache2.conf")' \
	"$tmp/live/domain_policy.conf" >"$tmp/dp" && mv "$tmp/dp" "$tmp/live/domain_policy.conf"
perl -pe 's/audit\((\d+)/"audit(" . ($1 + 1)/e' "$log" >"$tmp/later.log"
timeout 60 "$HISTMAC" learn -p "$tmp/live" --follow "$tmp/later.log" --from start \
	--save-interval 1 >"$tmp/live.out" 2>"$tmp/live.err" &
lpid=$!
want="learn: violation: $chain: file read /etc/apache2/apache2.conf (pid "
for _ in $(seq 200); do
	grep -qF "$want" "$tmp/live.err" && break
	sleep 0.1
done
grep -qF "$want" "$tmp/live.err" || fail "no violation logged while following: $(cat "$tmp/live.err")"
kill -TERM "$lpid"
wait "$lpid" || true
[ "$(grep -cF "$want" "$tmp/live.err")" = 1 ] || fail "the violation was logged more than once"
grep -q "^file read /etc/apache2/apache2.conf" "$tmp/live.out" ||
	fail "the exit report lacks the violation"
finish "t_profile: profiles are honoured"
