#!/bin/bash
# t_tree_render.sh - draw the tree of a policy learned from real audit
# logs (tests/data/*.log, recorded by tests/data/record.sh) with libgvc:
# the SVG is well-formed XML (xmllint) with one node per domain, titled
# with the domain's name; the PNG is a real image of plausible size; PDF
# and dot come out too; a check result marks the right domains; a tree of
# 10,000 domains still renders, folded, and says so.  The pictures are
# kept in $HM_BUILD/test-artifacts/tree/.  Needs $HISTMAC, $HM_SRC.
. "$(dirname "$0")/lib.sh"

HM_BUILD=${HM_BUILD:-$HM_SRC/build}
art=$HM_BUILD/test-artifacts/tree
mkdir -p "$art"

run() {
	"$@" >"$tmp/out" 2>"$tmp/err" || { fail "$* exited $?"; cat "$tmp/err" >&2; }
}

# xpath EXPR FILE: xmllint's answer for a count() or string expression.
xpath() {
	xmllint --xpath "$1" "$2" 2>/dev/null
}

# The domain names of a policy directory, sorted.
domains_of() {
	grep '^<' "$1/domain_policy.conf" | sort
}

# --- a policy learned from real logs ----------------------------------------
pol=$tmp/learned
run "$HISTMAC" learn -i "$HM_SRC"/tests/data/{exec,relexec,script,bigargv,file,relfile,fifo,symlink,net,signal,crash,mount}.log -p "$pol"
domains_of "$pol" >"$tmp/domains"
n=$(wc -l <"$tmp/domains")
[ "$n" -ge 5 ] || fail "learned only $n domains"

run "$HISTMAC" tree -p "$pol" -o "$art/learned.svg"
xmllint --noout "$art/learned.svg" || fail "SVG is not well-formed XML"
got=$(xpath "count(//*[local-name()='g'][starts-with(@id,'dom-')])" "$art/learned.svg")
[ "$got" = "$n" ] || fail "SVG has $got domain nodes, the policy $n domains"
# each node's <title> (its tooltip) starts with its full domain name
node_titles() {
	xmllint --xpath "//*[local-name()='g'][starts-with(@id,'dom-')]/*[local-name()='title']/text()" "$1" 2>/dev/null |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g' |
		grep '^<' | sort
}
node_titles "$art/learned.svg" >"$tmp/titles"
diff -u "$tmp/domains" "$tmp/titles" || fail "node titles are not the domain names"
grep -q 'ACL entr' "$art/learned.svg" || fail "no ACL summary in the tooltips"

run "$HISTMAC" tree -p "$pol" -o "$art/learned.png"
magic=$(head -c 8 "$art/learned.png" | od -An -tx1 | tr -d ' \n')
[ "$magic" = 89504e470d0a1a0a ] || fail "PNG magic is $magic"
# IHDR: width and height, big-endian, at offsets 16 and 20
w=$(od -An -tu1 -j16 -N4 "$art/learned.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
h=$(od -An -tu1 -j20 -N4 "$art/learned.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
size=$(stat -c %s "$art/learned.png")
echo "learned.png: ${w}x${h}, $size bytes, $n domains"
[ "$w" -ge 200 ] && [ "$w" -le 9600 ] || fail "PNG width $w"
[ "$h" -ge 100 ] && [ "$h" -le 9600 ] || fail "PNG height $h"
[ "$size" -ge 10000 ] || fail "PNG of $size bytes is too small to hold $n nodes"

run "$HISTMAC" tree -p "$pol" -o "$art/learned.pdf"
[ "$(head -c 5 "$art/learned.pdf")" = "%PDF-" ] || fail "PDF magic"
run "$HISTMAC" tree -p "$pol" -o "$art/learned.gv"
[ "$(head -c 7 "$art/learned.gv")" = "digraph" ] || fail "dot source"
if command -v dot >/dev/null; then
	dot -Tsvg "$art/learned.gv" >"$tmp/from-dot.svg" || fail "dot cannot read our dot"
fi

# --- highlight: a real check result ------------------------------------------
small=$tmp/small
run "$HISTMAC" learn -i "$HM_SRC/tests/data/exec.log" -p "$small"
rc=0
"$HISTMAC" check -p "$small" -i "$HM_SRC/tests/data/file.log" --format json \
	-o "$tmp/check.json" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "check exited $rc, want 1 (violations)"
run "$HISTMAC" tree -p "$small" --highlight "$tmp/check.json" -o "$art/highlight.svg"
xmllint --noout "$art/highlight.svg" || fail "highlight SVG not well-formed"
viol=$(xpath "count(//*[local-name()='g'][contains(@class,'violation')])" "$art/highlight.svg")
[ "$viol" -ge 1 ] || fail "no node marked as violating"
grep -q 'violations in' "$art/highlight.svg" || fail "legend does not count violations"
run "$HISTMAC" tree -p "$small" --highlight "$tmp/check.json"
grep -q 'violation' "$tmp/out" || fail "text tree does not mark violations"

# --- 10,000 domains: folded, and the picture says so -------------------------
big=$tmp/big
mkdir "$big"
awk 'BEGIN {
	print "<kernel>\nuse_profile 1\n"
	print "<kernel> /sbin/init\nuse_profile 1\n"
	for (s = 0; s < 100; s++) {
		svc = sprintf("<kernel> /sbin/init /usr/sbin/svc%02d", s)
		print svc "\nuse_profile " (s % 4) "\n\nfile read /etc/svc" s ".conf\n"
		for (c = 0; c < 99; c++)
			printf "%s /usr/bin/job%02d\nuse_profile 1\n\nfile read /tmp/j%d\n\n", svc, c, c
	}
}' >"$big/domain_policy.conf"
nbig=$(grep -c '^<' "$big/domain_policy.conf")
[ "$nbig" -eq 10002 ] || fail "big policy has $nbig domains"
start=$(date +%s)
run "$HISTMAC" tree -p "$big" -o "$art/big.svg"
run "$HISTMAC" tree -p "$big" -o "$art/big.png"
secs=$(($(date +%s) - start))
echo "10,002 domains: svg and png in ${secs}s"
xmllint --noout "$art/big.svg" || fail "big SVG not well-formed"
drawn=$(xpath "count(//*[local-name()='g'][starts-with(@id,'dom-')])" "$art/big.svg")
more=$(xpath "count(//*[local-name()='g'][starts-with(@id,'more-')])" "$art/big.svg")
[ "$drawn" -le 1500 ] && [ "$drawn" -ge 100 ] || fail "big: $drawn nodes drawn"
[ "$more" -ge 1 ] || fail "big: no '+K more' node"
grep -q 'Collapsed: ' "$art/big.svg" || fail "big: the picture does not say it folded"
grep -q '10002 domains' "$art/big.svg" || fail "big: total not in the legend"
[ "$secs" -le 120 ] || fail "big tree took ${secs}s"
run "$HISTMAC" tree -p "$big" --root '<kernel> /sbin/init /usr/sbin/svc07' -o "$art/big-svc07.svg"
sub=$(xpath "count(//*[local-name()='g'][starts-with(@id,'dom-')])" "$art/big-svc07.svg")
[ "$sub" -eq 41 ] || fail "--root subtree drew $sub nodes, want 41 (root + 40)"

finish t_tree_render
