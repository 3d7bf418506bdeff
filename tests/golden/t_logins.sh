#!/usr/bin/env bash
# t_logins.sh - a domain processes of several logins entered
# (audit's auid; any user can run a service's program) is for review:
# its logins survive save, XML export and import, and merge; `histmac
# stats` and the report list such domains first; `patternize --apply`
# needs --yes while there is one.  A domain of one login is not listed
# and needs no --yes (control).
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/p"
cat >"$tmp/p/domain_policy.conf" <<'EOP'
<kernel>
use_profile 1

<kernel> /usr/sbin/svc
use_profile 1

# histmac: events=3 logins=-,4251
file read /srv/svc/a.1
file read /srv/svc/a.2
file read /srv/svc/a.3

<kernel> /usr/sbin/other
use_profile 1

# histmac: events=1 logins=4250
file read /srv/other
EOP
cp -r "$tmp/p" "$tmp/orig"

"$HISTMAC" stats -p "$tmp/p" >"$tmp/stats" || die "stats exited $?"
sed -n 2,3p "$tmp/stats" | diff -u - <(printf '%s\n' \
	'review first: several logins       1' \
	'  <kernel> /usr/sbin/svc: logins -,4251') || fail "stats does not list it first"
"$HISTMAC" stats --format json -p "$tmp/p" >"$tmp/json" || die "stats --format json exited $?"
[ "$(jq -c .several_logins "$tmp/json")" = \
	'[{"domain":"<kernel> /usr/sbin/svc","logins":"-,4251"}]' ] ||
	fail "JSON: $(jq -c .several_logins "$tmp/json")"
"$HISTMAC" report -p "$tmp/p" -o "$tmp/r" >/dev/null 2>&1 || die "report exited $?"
grep -q '<tr><td>&lt;kernel&gt; /usr/sbin/svc</td><td>-,4251</td></tr>' \
	"$tmp/r/index.html" || fail "the report does not list it"

# the annotation survives XML and a save
"$HISTMAC" export -p "$tmp/p" --format xml -o "$tmp/p.xml" >/dev/null ||
	die "export exited $?"
grep -q 'logins="-,4251"' "$tmp/p.xml" || fail "XML export lost the logins"
"$HISTMAC" import --format xml -i "$tmp/p.xml" -p "$tmp/imp" >/dev/null ||
	die "import exited $?"
grep -q '^# histmac: events=3 logins=-,4251$' "$tmp/imp/domain_policy.conf" ||
	fail "import lost the logins"
# merge unites them
mkdir -p "$tmp/h2"
printf '<kernel>\nuse_profile 1\n\n<kernel> /usr/sbin/other\nuse_profile 1\n\n# histmac: events=1 logins=4252\nfile read /srv/other\n' \
	>"$tmp/h2/domain_policy.conf"
"$HISTMAC" merge -o "$tmp/m" "$tmp/orig" "$tmp/h2" >/dev/null 2>&1 || die "merge exited $?"
grep -q 'logins=4250,4252$' "$tmp/m/domain_policy.conf" ||
	fail "merge does not unite the logins: $(grep logins "$tmp/m/domain_policy.conf")"

# --apply needs --yes; nothing changes without it
rc=0
"$HISTMAC" patternize --apply -p "$tmp/p" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 3 ] && grep -q 'entered by the processes of several logins' "$tmp/err" ||
	fail "--apply without --yes: exit $rc, $(cat "$tmp/err")"
diff -r "$tmp/orig" "$tmp/p" >/dev/null || fail "--apply without --yes changed the policy"
expect_rc 0 "$HISTMAC" patternize --apply --yes -p "$tmp/p"
grep -qxF 'file read /srv/svc/a.\$' "$tmp/p/domain_policy.conf" ||
	fail "--apply --yes did not apply"
# control: one login per domain needs no --yes
mkdir -p "$tmp/one"
sed 's/logins=-,4251/logins=4251/' "$tmp/orig/domain_policy.conf" \
	>"$tmp/one/domain_policy.conf"
expect_rc 0 "$HISTMAC" patternize --apply -p "$tmp/one"
"$HISTMAC" stats -p "$tmp/one" | sed -n 2p |
	grep -qx 'review first: several logins       0' || fail "control listed"
finish logins
