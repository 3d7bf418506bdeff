#!/usr/bin/env bash
# `histmac check` of a sandboxed run lists what the programs did, not
# what the sandbox did for them (issue 25 #5), under the real auditd with
# `histmac rules`, as nobody:
#  1. learn a small tree: top.sh (bash) runs mid.sh (sh), which runs
#     cat, then a dynamic program (tool, a copy of true) and a static one;
#  2. run it under `histmac sandbox --mode enforcing`: the table says
#     what each program is (static or not, through its #! line), so the
#     preload's exec wrappers read none of them; `check` of that run
#     lists, in the learned domains, only the read of a secret Landlock
#     denied, marked enforced (a denial, not an access the policy
#     allows), no "file read" of an executed program, and counts the
#     reads of libhistmac-sandbox.so as the sandbox's own, and so the
#     preload's read of the table's copy (mid.sh runs with the table's
#     descriptor closed) and its write of the report FIFO (the static
#     program's report): no access to the sandbox's private directory is
#     listed; the static program is reported as keeping its parent's
#     bound;
#  3. tool replaced by a static program after the table was built (a
#     stale "dynamic"): the preload sees the file changed, reads it,
#     and reports that it cannot narrow;
#  4. a deploy, then a restart: mid.sh and tool replaced right before
#     the sandbox starts (issue 40): the build waits until they are a
#     second old and vouches for them, so check lists none of the
#     preload's reads, while top.sh's own read of mid.sh is listed, once.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

hm_need auditd auditctl jq
sbx_setup
hm_e2e_install try_open_static "$w/try_static"
cp "$(readlink -f /usr/bin/true)" "$w/dyn_tool"
cp "$w/try_static" "$w/static_tool"
cp "$w/dyn_tool" "$w/tool.next"
echo data >"$w/data"
echo s3cret >"$w/secret"
# top.sh MODE: learn, run or stale (learn and stale first copy tool.next
# over tool, as an upgrade would)
cat >"$w/top.sh" <<'EOS'
#!/bin/bash
w=${0%/*}
case $1 in learn|stale) cat "$w/tool.next" >"$w/tool" ;; esac
# sandboxed, mid.sh finds its table's descriptor closed: it reads the copy
( fd=${HISTMAC_SANDBOX%%:*}; [ -z "$fd" ] || eval "exec $fd<&-"; exec "$w/mid.sh" )
"$w/tool"
echo "tool exited $?"
"$w/try_static" "$w/data"
if [ "$1" != learn ]; then
	if read -r _ <"$w/secret"; then echo "allowed secret"; else echo "denied secret"; fi
fi
[ "$1" != reread ] || { read -r _ <"$w/mid.sh" && echo "read mid.sh"; }
exit 0
EOS
cat >"$w/mid.sh" <<'EOS'
#!/bin/sh
cat "${0%/*}/data"
EOS
chmod 755 "$w/top.sh" "$w/mid.sh"
: >"$w/tool"
chown nobody:nogroup "$w/tool"	# top.sh (as nobody) writes it
chmod 755 "$w/tool"
chmod -R a+rX "$w"
echo "initialize_domain $w/top.sh from any" >"$pol/exception_policy.conf"
top_dom="<kernel> $w/top.sh"

# ------------------------------------------------------------- 1. learn
hm_audit_start
"$bin/histmac" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
as_nobody "$w/top.sh" learn >"$HM_TMP/learn.out" 2>&1 ||
	{ cat "$HM_TMP/learn.out" >&2; hm_fail "top.sh failed unconfined"; }
grep -qx "tool exited 0" "$HM_TMP/learn.out" &&
	grep -qx "allowed $w/data" "$HM_TMP/learn.out" ||
	{ cat "$HM_TMP/learn.out" >&2; hm_fail "the learning run did not run the tree"; }
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/learn.log"
"$bin/histmac" learn -q -i "$HM_TMP/learn.log" -p "$pol" ||
	hm_fail "histmac learn exited $?"
for d in "$top_dom" "$top_dom $w/mid.sh" "$top_dom $w/tool" \
	"$top_dom $w/try_static"; do
	grep -qxF "$d" "$pol/domain_policy.conf" ||
		{ grep '^<kernel>' "$pol/domain_policy.conf" >&2; hm_fail "'$d' was not learned"; }
done
sbx_policy_done
hm_ok "learned top.sh, mid.sh, cat, tool and the static program"

# control: unconfined, the secret is readable
as_nobody "$w/top.sh" run 2>&1 | grep -qx "allowed secret" ||
	hm_fail "unconfined, top.sh should read the secret"

# --------------------------------------------------- 2. the sandboxed run
sandboxed() {	# NAME MODE: run top.sh MODE under the sandbox, its log NAME.log
	local rc=0
	hm_audit_from_now
	as_nobody "$bin/histmac" sandbox -p "$pol" --mode enforcing -- \
		"$w/top.sh" "$2" >"$HM_TMP/$1.out" 2>"$HM_TMP/$1.err" || rc=$?
	[ "$rc" = 0 ] ||
		{ cat "$HM_TMP/$1.out" "$HM_TMP/$1.err" >&2; hm_fail "histmac sandbox exited $rc"; }
	grep -qx "data" "$HM_TMP/$1.out" && grep -qx "tool exited 0" "$HM_TMP/$1.out" &&
		grep -qx "allowed $w/data" "$HM_TMP/$1.out" &&
		grep -qx "denied secret" "$HM_TMP/$1.out" ||
		{ cat "$HM_TMP/$1.out" "$HM_TMP/$1.err" >&2; hm_fail "$1: the tree did not run as learned"; }
	hm_audit_marker >/dev/null
	hm_audit_copy "$HM_TMP/$1.log"
	rc=0
	"$bin/histmac" check -p "$pol" -i "$HM_TMP/$1.log" >"$HM_TMP/$1.check" || rc=$?
	[ "$rc" = 1 ] || { cat "$HM_TMP/$1.check" >&2; hm_fail "$1: check exited $rc, not 1"; }
	rc=0
	"$bin/histmac" check -p "$pol" -i "$HM_TMP/$1.log" --format json \
		>"$HM_TMP/$1.json" || rc=$?
	[ "$rc" = 1 ] || hm_fail "$1: check --format json exited $rc, not 1"
}
# listed DOMAIN_PREFIX CHECK_OUT: "DOMAIN<TAB>ENTRY" of each violation
# listed in a domain starting with DOMAIN_PREFIX; "ENTRY enforced" when
# the comment above it says Landlock denied it
listed() {
	HM_D=$1 awk '
		/^<kernel>/ { dom = $0; next }
		/^#/ { prev = $0; next }
		/^$/ { next }
		index(dom, ENVIRON["HM_D"]) == 1 {
			print dom "\t" $0 (prev ~ /enforced: Landlock denied [1-9]/ ? " enforced" : "")
		}
		{ prev = "" }' "$2"
}

sandboxed run run
listed "$top_dom" "$HM_TMP/run.check" >"$HM_TMP/run.listed"
printf '%s\t%s\n' "$top_dom" "file read $w/secret enforced" >"$HM_TMP/want"
diff -u "$HM_TMP/want" "$HM_TMP/run.listed" >&2 ||
	{ cat "$HM_TMP/run.check" >&2; hm_fail "check lists more than the secret in the learned domains"; }
for p in "$w/top.sh" "$w/mid.sh" "$w/tool" "$w/try_static" /bin/sh /usr/bin/sh \
	"$(readlink -f /bin/sh)" /bin/cat /usr/bin/cat /bin/bash /usr/bin/bash; do
	! listed "$top_dom" "$HM_TMP/run.check" | cut -f2 | grep -qxF "file read $p" ||
		{ cat "$HM_TMP/run.check" >&2; hm_fail "check lists a read of the executed $p"; }
done
hm_ok "check of the sandboxed run lists no read of an executed program"
jq -e '.sandbox_own_reads > 0 and .landlock_allowed == 0 and .denied >= 1' \
	"$HM_TMP/run.json" >/dev/null ||
	hm_fail "JSON counts: $(jq -c '{denied, landlock_allowed, landlock_no_access, sandbox_own_reads}' "$HM_TMP/run.json")"
! listed "$top_dom" "$HM_TMP/run.check" | grep -q "	file .*libhistmac-sandbox\.so" ||
	{ cat "$HM_TMP/run.check" >&2; hm_fail "check lists the preload library as a violation"; }
hm_ok "the Landlock denial is an enforced denial; the preload's own reads are counted, not listed"
# the trail holds the preload's accesses to the sandbox's directory ...
sbx_dir='/histmac-sandbox\.[A-Za-z0-9]{6}/[0-9a-f]{32}'
for f in table report; do
	grep -Eq "^type=PATH .* name=\"[^\"]*$sbx_dir/$f\" .*nametype=NORMAL" "$HM_TMP/run.log" ||
		hm_fail "the sandboxed run's trail has no access to the sandbox's $f"
done
# ... and check lists none in the domains below the sandbox (histmac
# sandbox's own process, which makes and removes them, is not one of
# them), and counts them as its own
! listed "$top_dom" "$HM_TMP/run.check" | grep -q "	file .*/histmac-sandbox\." ||
	{ cat "$HM_TMP/run.check" >&2; hm_fail "check lists an access to the sandbox's table copy or report FIFO"; }
jq -e --arg d "$top_dom" '[.violations[], .attempts[] | select(.domain | startswith($d)) |
	select(.line | test("/histmac-sandbox[.]"))] | length == 0' \
	"$HM_TMP/run.json" >/dev/null || hm_fail "the JSON report lists the sandbox's private files"
# counted: with the library elsewhere, at least mid.sh's and cat's reads
# of the copy and the static program's report remain
n=$(HISTMAC_SANDBOX_PRELOAD=/nowhere/libhistmac-sandbox.so "$bin/histmac" check \
	-p "$pol" -i "$HM_TMP/run.log" --format json 2>/dev/null | jq .sandbox_own_reads)
[ "$n" -ge 3 ] || hm_fail "own accesses without the library's reads: $n, not at least 3"
hm_ok "the table copy's reads and the FIFO's write are the sandbox's own: not listed, counted ($n of $(jq .sandbox_own_reads "$HM_TMP/run.json") own accesses)"
grep -q "^histmac sandbox: $w/try_static (pid [0-9]*) keeps its parent's bound: statically linked" \
	"$HM_TMP/run.err" ||
	{ cat "$HM_TMP/run.err" >&2; hm_fail "the static program was not reported"; }
! grep -q "$w/tool (pid" "$HM_TMP/run.err" ||
	{ cat "$HM_TMP/run.err" >&2; hm_fail "the dynamic tool was reported as not narrowing"; }
hm_ok "the static program is reported from the table, without a read"

# ------------------------------------ 3. a program changed after the build
cp "$w/static_tool" "$w/tool.next"
sandboxed stale stale
grep -q "^histmac sandbox: $w/tool (pid [0-9]*) keeps its parent's bound: statically linked" \
	"$HM_TMP/stale.err" ||
	{ cat "$HM_TMP/stale.err" >&2; hm_fail "tool, static since the table was built, was not reported"; }
# the preload read it to know: the trail says so
listed "$top_dom" "$HM_TMP/stale.check" | grep -qxF "$top_dom	file read $w/tool" ||
	{ cat "$HM_TMP/stale.check" >&2; hm_fail "no read of the changed tool in check"; }
hm_ok "a program that became static after the build is read and reported"

# ------------------------------------- 4. a deploy right before the start
cp "$w/mid.sh" "$w/mid.new" && mv "$w/mid.new" "$w/mid.sh"	# a new inode
cp "$w/dyn_tool" "$w/tool"					# rewritten in place
sandboxed deploy reread
grep -qx "read mid.sh" "$HM_TMP/deploy.out" ||
	{ cat "$HM_TMP/deploy.out" "$HM_TMP/deploy.err" >&2; hm_fail "top.sh did not read mid.sh"; }
listed "$top_dom" "$HM_TMP/deploy.check" | sort >"$HM_TMP/deploy.listed"
printf '%s\t%s\n' "$top_dom" "file read $w/mid.sh" "$top_dom" "file read $w/secret enforced" |
	sort >"$HM_TMP/want"
diff -u "$HM_TMP/want" "$HM_TMP/deploy.listed" >&2 ||
	{ cat "$HM_TMP/deploy.check" >&2; hm_fail "check of a run started right after a deploy lists more than top.sh's own reads"; }
n=$(jq --arg d "$top_dom" --arg l "file read $w/mid.sh" \
	'[.violations[] | select(.domain == $d and .line == $l) | .count] | add' "$HM_TMP/deploy.json")
[ "$n" = 1 ] || hm_fail "file read $w/mid.sh listed $n times, not once (top.sh's own read)"
hm_ok "a run started right after a deploy: none of the preload's reads listed, the program's own read is"
