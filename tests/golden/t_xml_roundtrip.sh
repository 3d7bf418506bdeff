#!/bin/bash
# t_xml_roundtrip.sh - `histmac export --format xml` validates against the
# shipped RELAX NG schema (xmllint), matches the golden file, and round
# trips through `histmac import` losslessly (XML -> policy -> XML, same
# bytes) for the posting's sample, a policy with every kind, and one
# learned from real logs; a document that fails the schema is refused
# with FILE:LINE and nothing is written.  Needs $HISTMAC and $HM_SRC.
. "$(dirname "$0")/lib.sh"

golden=$HM_SRC/tests/golden/export-xml
schema=$HM_SRC/formats/schema/histmac.rng

# round_trip NAME POLICYDIR: export, validate, import, export, compare.
round_trip() {
	local name=$1 pol=$2
	expect_rc 0 "$HISTMAC" export -p "$pol" --format xml -o "$tmp/$name.xml"
	xmllint --noout --relaxng "$schema" "$tmp/$name.xml" 2>"$tmp/xmllint" ||
		{ fail "$name: XML does not validate"; cat "$tmp/xmllint" >&2; }
	expect_rc 0 "$HISTMAC" import --format xml -i "$tmp/$name.xml" -p "$tmp/$name.pol"
	grep -q "^imported " "$tmp/out" || fail "$name: no import summary"
	expect_rc 0 "$HISTMAC" export -p "$tmp/$name.pol" --format xml -o "$tmp/$name.2.xml"
	cmp -s "$tmp/$name.xml" "$tmp/$name.2.xml" ||
		{ fail "$name: XML -> policy -> XML differs"; diff -u "$tmp/$name.xml" "$tmp/$name.2.xml" | head -20 >&2; }
	# and the policy text itself survives
	expect_rc 0 "$HISTMAC" export -p "$tmp/$name.pol" --format xml -o "$tmp/$name.3.xml"
}

round_trip apache2 "$HM_SRC/samples/policy/apache2-2007"
diff -u "$golden/apache2-2007.xml" "$tmp/apache2.xml" || fail "apache2: differs from golden"
grep -q 'dialect="tomoyo-2.1"' "$tmp/apache2.2.xml" || fail "apache2: dialect lost"
grep -q '^1 /sbin/init$' "$tmp/apache2.pol/domain_policy.conf" ||
	fail "apache2: imported policy is not TOMOYO 2.1 text"

round_trip rich "$golden/rich"
for want in 'kind="mkdev"' 'kind="mount"' 'kind="signal"' 'kind="unix"' \
	'perm="accept"' '<cond text=' 'use-groups="0"' '<deny-autobind' \
	'<address-group' 'radix="hex"' 'history-unobserved'; do
	grep -q -- "$want" "$tmp/rich.xml" || fail "rich: no $want"
done

learned=$tmp/learned
expect_rc 0 "$HISTMAC" learn -i "$HM_SRC"/tests/data/{exec,file,net,signal,mount}.log -p "$learned"
round_trip learned "$learned"
grep -q 'events="' "$tmp/learned.xml" || fail "learned: no counters"

# --- what must fail, and leave nothing behind ---------------------------------
sed 's/perm="read"/perm="read fly"/' "$tmp/apache2.xml" >"$tmp/bad.xml"
line=$(grep -n 'perm="read fly"' "$tmp/bad.xml" | head -1 | cut -d: -f1)
expect_rc 4 "$HISTMAC" import --format xml -i "$tmp/bad.xml" -p "$tmp/bad.pol"
grep -q "bad.xml:$line: error: schema:" "$tmp/err" ||
	{ fail "schema error without FILE:LINE ($line)"; cat "$tmp/err" >&2; }
[ ! -e "$tmp/bad.pol" ] || fail "a refused import created the policy"

# an existing policy is left exactly as it was
cp -r "$tmp/apache2.pol" "$tmp/keep.pol"
sum_before=$(cat "$tmp/keep.pol"/* | md5sum)
sed 's/<\/histmac-policy>/<domain name="x" profile="1"\/><\/histmac-policy>/' \
	"$tmp/learned.xml" >"$tmp/bad2.xml"
expect_rc 4 "$HISTMAC" import --format xml -i "$tmp/bad2.xml" -p "$tmp/keep.pol"
grep -q "not a valid domain name" "$tmp/err" || fail "bad domain name not reported"
[ "$(cat "$tmp/keep.pol"/* | md5sum)" = "$sum_before" ] || fail "a refused import changed the policy"

printf '<?xml version="1.0"?>\n<histmac-policy version="1"\n' >"$tmp/cut.xml"
expect_rc 4 "$HISTMAC" import -i "$tmp/cut.xml" --dry-run
grep -q "cut.xml:[0-9]*: error: xml:" "$tmp/err" || fail "truncated XML: no FILE:LINE"
expect_rc 0 "$HISTMAC" import -i "$tmp/apache2.xml" --dry-run
grep -q "^valid " "$tmp/out" || fail "--dry-run summary"
expect_rc 3 "$HISTMAC" import -i "$tmp/no-such.xml" --dry-run
expect_rc 2 "$HISTMAC" import --format json -i "$tmp/apache2.xml" --dry-run
expect_rc 2 "$HISTMAC" import -i "$tmp/apache2.xml"
expect_rc 3 "$HISTMAC" import -i "$tmp/apache2.xml" --dry-run --schema "$tmp/none.rng"

# an empty policy round trips too
mkdir "$tmp/empty"
: >"$tmp/empty/domain_policy.conf"
round_trip empty "$tmp/empty"

finish t_xml_roundtrip
