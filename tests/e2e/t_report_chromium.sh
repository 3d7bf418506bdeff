#!/bin/bash
# t_report_chromium.sh - open `histmac report` pages in headless Chromium
# (Debian's chromium) through the DevTools protocol (report_cdp.js, plain
# Node): the page loads with no console error, no exception and no fetch,
# shows the tree with one node per domain, a click on a node shows that
# domain (name, ACL, violations), the search filters the list.  Pages and
# screenshots are kept in $HM_BUILD/test-artifacts/report/.  Missing
# chromium or node fails the test when CI=true (lib.sh).
. "$(dirname "$0")/lib.sh"

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
hm_need node "$CHROMIUM" xmllint
art=$HM_BUILD/test-artifacts/report
rm -rf "$art"
mkdir -p "$art"
sample=$HM_SRC/samples/policy/apache2-2007
apache2='<kernel> /sbin/init /etc/init.d/rc /etc/init.d/apache2 /usr/bin/env /usr/sbin/apache2ctl /usr/sbin/apache2'

# run_page NAME DIR DOMAINS DRAWN CLICK_ID CLICK_NAME ACL VIOLATIONS SEARCH HITS
run_page() {
	local name=$1
	cat >"$HM_TMP/$name.json" <<JSON
{
  "chromium": "$CHROMIUM",
  "profile": "$HM_TMP/profile-$name",
  "url": "file://$2/index.html",
  "shot": "$art/$name.png",
  "click_shot": "$art/$name-click.png",
  "domains": $3, "drawn": $4,
  "click_id": "$5", "click_name": $(printf '%s' "$6" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify(s)))'),
  "click_acl": $7, "click_violations": $8,
  "search": "$9", "search_hits": ${10}
}
JSON
	mkdir -p "$HM_TMP/profile-$name"
	node "$HM_SRC/tests/e2e/report_cdp.js" "$HM_TMP/$name.json" ||
		hm_fail "$name: the page failed in Chromium"
	for f in "$art/$name.png" "$art/$name-click.png"; do
		[ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] ||
			hm_fail "$name: no screenshot $f"
	done
}

# --- the posting's sample, with a check result --------------------------------
cat >"$HM_TMP/check.json" <<JSON
{"policy":"$sample","violations":[
 {"domain":"$apache2","line":"file read /etc/shadow","count":2},
 {"domain":"$apache2","line":"file write /var/log/apache2/x.log","count":1},
 {"domain":"<kernel> /usr/sbin/cron","no_domain":true,"line":"file read /etc/crontab","count":1}]}
JSON
"$HISTMAC" report -p "$sample" -o "$art/sample" --check "$HM_TMP/check.json" \
	--title 'apache2 <2007> & "co"' >"$HM_TMP/out" || hm_fail "histmac report failed"
grep -q "wrote $art/sample/index.html: 7 domains" "$HM_TMP/out" || hm_fail "report summary"
page=$art/sample/index.html
[ -s "$page" ] || hm_fail "no index.html"
! grep -Eq '(src|href)=|url\(|@import' "$page" || hm_fail "the page refers to something outside"
grep -q "default-src 'none'" "$page" || hm_fail "no Content-Security-Policy"
acl=$("$HISTMAC" export -p "$sample" --format json | node -e '
	let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
		const j = JSON.parse(s);
		const d = j.domains.find(d => d.name === process.argv[1]);
		console.log(d.acl_count + " " + j.domains.indexOf(d));
	});' "$apache2")
set -- $acl
run_page sample "$art/sample" 7 7 "dom-$2" "$apache2" "$1" 2 apache2ctl 2
hm_ok "sample report: loads clean, tree of 7, click shows the apache2 domain"

# --- a policy learned from real logs ---------------------------------------------
"$HISTMAC" learn -i "$HM_SRC"/tests/data/{exec,relexec,script,file,net,signal}.log \
	-p "$HM_TMP/learned" >/dev/null || hm_fail "learn failed"
"$HISTMAC" report -p "$HM_TMP/learned" -o "$art/learned" >/dev/null || hm_fail "report of learned policy"
n=$(grep -c '^<' "$HM_TMP/learned/domain_policy.conf")
read -r lacl lname < <("$HISTMAC" export -p "$HM_TMP/learned" --format json | node -e '
	let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
		const j = JSON.parse(s);
		const d = j.domains.reduce((a, b) => b.acl_count > a.acl_count ? b : a);
		console.log(d.acl_count + " " + j.domains.indexOf(d) + " " + d.name);
	});') || true
lidx=${lname%% *}
lname=${lname#* }
run_page learned "$art/learned" "$n" "$n" "dom-$lidx" "$lname" "$lacl" 0 "kernel" "$n"
hm_ok "learned report: $n domains, click on the busiest one shows its $lacl entries"

# --- 3,000 domains: folded tree, list capped, still no error --------------------
big=$HM_TMP/big
mkdir "$big"
awk 'BEGIN {
	print "<kernel>\nuse_profile 1\n"
	for (s = 0; s < 60; s++) {
		svc = sprintf("<kernel> /usr/sbin/svc%02d", s)
		print svc "\nuse_profile " (s % 4) "\n\nfile read /etc/svc" s ".conf\n"
		for (c = 0; c < 49; c++)
			printf "%s /usr/bin/job%02d\nuse_profile 1\n\nfile read /tmp/j%d\n\n", svc, c, c
	}
}' >"$big/domain_policy.conf"
"$HISTMAC" report -p "$big" -o "$art/big" >/dev/null || hm_fail "report of 3,001 domains"
drawn=$(sed -n 's/.*id="dom&#45;\([0-9]*\)".*/\1/p' "$art/big/index.html" | wc -l)
run_page big "$art/big" 3001 "$drawn" dom-0 "<kernel>" 0 0 "svc07 /usr/bin/job1" 10
hm_ok "3,001-domain report: $drawn nodes drawn, list and search work"

hm_ok "screenshots in $art"
