#!/bin/bash
# t_tree_badnames.sh - names that need care in every output: spaces and
# non-UTF-8 bytes (TOMOYO-encoded as \040, \377), quotes, '<', '&', '--',
# backslashes, a very long name; and an empty policy.  Each must render
# (text, SVG well-formed per xmllint, PNG), export to XML that validates
# and round trips, to JSON that jq reads, and to a report page.  Needs
# $HISTMAC, $HM_SRC.
. "$(dirname "$0")/lib.sh"

schema=$HM_SRC/formats/schema/histmac.rng

run() {
	"$@" >"$tmp/out" 2>"$tmp/err" || { fail "$* exited $?"; cat "$tmp/err" >&2; }
}

long=$(printf '/x%.0s' $(seq 1 1500))	# a 3000-byte program name
pol=$tmp/pol
mkdir "$pol"
cat >"$pol/domain_policy.conf" <<POLICY
<kernel>
use_profile 1

file read /etc/"quoted"<&>--x

<kernel> /usr/bin/my\\040prog
use_profile 2

file write /tmp/\\377\\376\\\\back

<kernel> /usr/bin/my\\040prog /opt/"q"&<b>--c
use_profile 3
quota_exceeded

<kernel> /opt/\\343\\201\\202\\377
use_profile 0
# histmac: history_unobserved

<kernel> $long
use_profile 1
POLICY
want=5
n=$(grep -c '^<' "$pol/domain_policy.conf")
[ "$n" -eq "$want" ] || fail "policy has $n domains"
run "$HISTMAC" tree -p "$pol"
grep -qF '+ /usr/bin/my\040prog' "$tmp/out" || fail "text: encoded space lost"
grep -qF '  + /opt/"q"&<b>--c (profile 3, 0 entries, quota-exceeded)' "$tmp/out" ||
	fail "text: quotes or flags"
grep -qF '+ /opt/\343\201\202\377 (profile 0, 0 entries, history-unobserved)' "$tmp/out" ||
	fail "text: bytes"
[ "$(wc -l <"$tmp/out")" -eq "$want" ] || fail "text: not one line per domain"

for empty in no yes; do
	p=$pol
	[ "$empty" = yes ] && { p=$tmp/empty; mkdir -p "$p"; : >"$p/domain_policy.conf"; want=0; }
	run "$HISTMAC" tree -p "$p" -o "$tmp/t.svg"
	xmllint --noout "$tmp/t.svg" || fail "empty=$empty: SVG not well-formed"
	got=$(xmllint --xpath "count(//*[local-name()='g'][starts-with(@id,'dom-')])" "$tmp/t.svg")
	[ "$got" -eq "$want" ] || fail "empty=$empty: $got nodes, want $want"
	run "$HISTMAC" tree -p "$p" -o "$tmp/t.png"
	[ "$(head -c 4 "$tmp/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] ||
		fail "empty=$empty: not a PNG"
	run "$HISTMAC" tree -p "$p" -o "$tmp/t.gv"
	if command -v dot >/dev/null; then
		dot -Tsvg "$tmp/t.gv" >/dev/null 2>"$tmp/dot.err" ||
			{ fail "empty=$empty: dot cannot read our dot"; cat "$tmp/dot.err" >&2; }
	fi
	run "$HISTMAC" export -p "$p" --format xml -o "$tmp/p.xml"
	xmllint --noout --relaxng "$schema" "$tmp/p.xml" 2>/dev/null ||
		fail "empty=$empty: XML does not validate"
	[ "$empty" = yes ] || grep -qF 'name="&lt;kernel&gt; /usr/bin/my\040prog /opt/&quot;q&quot;&amp;&lt;b&gt;--c"' "$tmp/p.xml" ||
		fail "XML: name not escaped as expected"
	rm -rf "$tmp/back"
	run "$HISTMAC" import -i "$tmp/p.xml" -p "$tmp/back"
	run "$HISTMAC" export -p "$tmp/back" --format xml -o "$tmp/p2.xml"
	cmp -s "$tmp/p.xml" "$tmp/p2.xml" || fail "empty=$empty: XML round trip differs"
	run "$HISTMAC" export -p "$p" --format json -o "$tmp/p.json"
	iconv -f UTF-8 -t UTF-8 "$tmp/p.json" >/dev/null || fail "empty=$empty: JSON not UTF-8"
	if command -v jq >/dev/null; then
		[ "$(jq '.domains | length' "$tmp/p.json")" -eq "$want" ] ||
			fail "empty=$empty: JSON domain count"
	fi
	run "$HISTMAC" report -p "$p" -o "$tmp/r"
	xmllint --html --noout "$tmp/r/index.html" 2>"$tmp/html.err" || true
	! grep -q 'htmlParseEntityRef\|Unexpected end tag' "$tmp/html.err" ||
		{ fail "empty=$empty: report HTML broken"; head "$tmp/html.err" >&2; }
done

finish t_tree_badnames
