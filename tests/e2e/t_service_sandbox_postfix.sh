#!/usr/bin/env bash
# postfix under `histmac sandbox` with its learned policy (issue 25's last
# line): local delivery (smtpd, pickup chrooted in /var/spool/postfix)
# learns one period as t_service_postfix.sh does (init script, mail by
# SMTP and sendmail to a user whose ~/.forward pipes it to a filter, a
# reload, a restart; `patternize --apply` as docs/PRODUCTION.md says),
# the master is made a root domain, then the init script's postfix is
# stopped and the master runs in the foreground as COMMAND of `histmac
# sandbox` in its learned domain (service/sandbox/postfix.sh): a second
# period's mail, other subjects and bodies, is delivered through a reload
# and kept by the filter; once an attacker rewrote the filter, its read
# of the user's key fails with EACCES while the mail is still delivered,
# and `check` of that period lists the read as a violation Landlock
# enforced and nothing else Landlock refused the service.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"

. "$HM_SRC/tests/e2e/service/postfix/setup.sh"

pf_setup "$HM_SRC/tests/e2e/service/postfix/filter"
MASTER=/usr/lib/postfix/sbin/master
key=$PF_KEY

# The build's histmac (t_service_sandbox.sh says why).
export SBX=$HISTMAC SBX_OUT=$HM_TMP/sbx POL S
export SBX_ATTACK=$HM_SRC/tests/e2e/service/sandbox/postfix-filter-evil
mkdir -p "$SBX_OUT"
. "$HM_SRC/tests/e2e/service/sandbox/sbx.sh"
svc_cleanup() {
	sbx_kill_all
	/etc/init.d/postfix stop >/dev/null 2>&1
}
hm_on_exit svc_cleanup

# Period 1: learn as t_service_postfix.sh does.
hm_svc_learn_period ". '$D/cycle.sh'; period"
# The master a root domain, as SANDBOX.md advises: started by the init
# script while learning (postfix-script runs it), by the sandbox now; the
# next --apply re-roots what was learned below postfix-script.
echo "initialize_domain $MASTER from any" >>"$POL/exception_policy.conf"
"$HISTMAC" patternize -p "$POL" --apply >"$HM_TMP/patternize2.out" 2>&1 ||
	{ cat "$HM_TMP/patternize2.out" >&2; hm_fail "histmac patternize --apply (re-root) failed"; }
hm_svc_check "$HM_TMP/p1.log" p1root
[ "$SVC_DENIED" = 0 ] || { _hm_svc_list p1root; hm_fail "period 1 against the re-rooted policy: $SVC_DENIED denied"; }
hm_ok "period 1 against the re-rooted policy: 0 of $SVC_ACCESSES accesses denied"
for d in "$MASTER" "$MASTER /usr/lib/postfix/sbin/smtpd" "$MASTER /usr/lib/postfix/sbin/local $S/home/filter"; do
	grep -qxF "<kernel> $d" "$POL/domain_policy.conf" ||
		hm_fail "the policy has no domain <kernel> $d"
done
hm_ok "the master is a root domain, its daemons and the filter below it"

# Landlock lets a file move to another directory only when it gains no
# right there, in every layer: the destination may grant no file right
# the source does not.  qmgr learned to list incoming/ and move its files
# to active/, whose files it reads and writes, and nothing more of
# incoming/'s files: each ruleset the sandbox builds gives incoming/ the
# rights it grants on active/ (SANDBOX.md "Moving a file to another
# directory"); without that the move fails with EXDEV and no mail leaves
# incoming/.  The learned policy alone, and --explain says what qmgr's
# own ruleset adds (the master's adds nothing: cleanup writes incoming/'s
# files, so the union over the master's subtree grants them already).
qmgr="<kernel> $MASTER /usr/lib/postfix/sbin/qmgr"
awk -v d="$qmgr" '$0 == d { on = 1; next } /^</ { on = 0 } on' \
	"$POL/domain_policy.conf" >"$HM_TMP/qmgr.conf"
grep -Eq '^file [a-z/]*rename[a-z/]* /var/spool/postfix/incoming/' "$HM_TMP/qmgr.conf" ||
	{ cat "$HM_TMP/qmgr.conf" >&2; hm_fail "qmgr did not learn to move incoming/'s files"; }
! grep -E '^file [a-z/]*(read|write)[a-z/]* /var/spool/postfix/incoming/[^ ]' "$HM_TMP/qmgr.conf" >&2 ||
	hm_fail "qmgr learned to read or write incoming/'s files: the move would not need the widening"
"$HISTMAC" sandbox -p "$POL" --domain "$qmgr" --explain >"$HM_TMP/explain" ||
	hm_fail "histmac sandbox --explain failed"
grep -E '^sandbox: refer: .*fs\.(read|write)_file.* added on /var/spool/postfix/incoming: files move from it to /var/spool/postfix/active ' \
	"$HM_TMP/explain" >&2 ||
	{ grep '^sandbox: ' "$HM_TMP/explain" >&2; hm_fail "--explain names no rights added on incoming/ for the move to active/"; }
hm_ok "qmgr's learned policy moves incoming/ -> active/ and neither reads nor writes incoming/'s files; its ruleset adds the rights (--explain)"

# Period 2: the same mail, the master under the sandbox.
find "$S/home/mail" -type f | sort >"$HM_TMP/kept1"
hm_svc_run 4252 "set -e; . '$D/cycle.sh'; . '$HM_SRC/tests/e2e/service/sandbox/postfix.sh'; sandboxed" \
	"$HM_TMP/p2.log"
cat "$SBX_OUT/postfix.err" >&2
# every file the master's tree writes existed (SANDBOX.md "A file to
# write that does not exist yet": the learned period made them)
! grep -q 'files to write do not exist' "$SBX_OUT/postfix.err" ||
	hm_fail "the sandbox reports learned files to write that do not exist"
find "$S/home/mail" -type f | sort | comm -13 "$HM_TMP/kept1" - >"$HM_TMP/kept2"
# 3 rounds of 9 mails by SMTP and 3 by sendmail, each kept under its
# subject's word
n=$(wc -l <"$HM_TMP/kept2")
[ "$n" = 36 ] || hm_fail "the sandboxed postfix delivered $n of 36 mails to the filter"
n=$(grep -Ec "^$S/home/mail/(invoice|order|news)/in\\.[A-Za-z0-9]+\$" "$HM_TMP/kept2" || true)
[ "$n" = 36 ] || hm_fail "the filter kept $n of 36 mails under their subject"
hm_ok "the sandboxed postfix delivered every mail of 3 rounds (SMTP, sendmail) through a reload"
# the last round's 12 mails went through the rewritten filter
n=$(xargs grep -l "^cat: $S/home/.ssh/id_ed25519: Permission denied\$" <"$HM_TMP/kept2" | wc -l)
[ "$n" = 12 ] || hm_fail "$n of 12 mails through the rewritten filter say its key read was refused"
! xargs grep -qF -- "$key" <"$HM_TMP/kept2" ||
	hm_fail "the rewritten filter read the user's key"
hm_ok "the rewritten filter's read of the key failed with EACCES (12 mails), the mail still kept"

hm_svc_check "$HM_TMP/p2.log" p2
jq -e --arg l "file read $S/home/.ssh/id_ed25519" '
	.violations[] | select(.line == $l) | select(.enforced >= 1 and .errno == "EACCES")' \
	"$HM_TMP/p2.json" >/dev/null ||
	{ _hm_svc_list p2; hm_fail "the read of the key is not an enforced Landlock denial with EACCES in check"; }
hm_ok "check: the read of the key is a Landlock denial (EACCES, enforced)"
svc_dom="^<kernel> $MASTER( |\$)"
jq -r --arg d "$svc_dom" '.violations[] | select(.domain | test($d)) |
	"\(.count)\t\(.enforced // 0)\t\(.errno // "-")\t\(.domain)\t\(.line)"' \
	"$HM_TMP/p2.json" | sort -t"$(printf '\t')" -k4,4 -k5,5 >&2
other=$(jq -r --arg d "$svc_dom" --arg l "file read $S/home/.ssh/id_ed25519" '
	.violations[] | select(.domain | test($d)) |
	select((.enforced // 0) > 0 and .line != $l) | "\(.domain): \(.line)"' "$HM_TMP/p2.json")
[ -z "$other" ] || hm_fail "Landlock refused the service more than the key: $other"
hm_ok "Landlock refused postfix nothing but the read of the key"
# the preload's reads of the root sandbox's table copy (daemons close
# their descriptors) and writes of its report FIFO (each environment it
# puts back) are the sandbox's own: in the trail, not listed
grep -Eq '^type=PATH .* name="[^"]*/histmac-sandbox\.[A-Za-z0-9]{6}/[0-9a-f]{32}/report" .*nametype=NORMAL' \
	"$HM_TMP/p2.log" || hm_fail "the trail holds no write of the sandbox's report FIFO"
own=$(jq -r --arg d "$svc_dom" '.violations[], .attempts[] | select(.domain | test($d)) |
	select(.line | test("/histmac-sandbox[.]")) | "\(.domain): \(.line)"' "$HM_TMP/p2.json")
[ -z "$own" ] || hm_fail "check lists the sandbox's table copy or report FIFO: $own"
hm_ok "check of the sandboxed period: $(jq -r '"\(.violations | length) violations, \(.landlock_allowed) Landlock denials of allowed calls, \(.sandbox_own_reads) accesses of the sandbox'"'"'s own files (none listed)"' "$HM_TMP/p2.json")"
grep -q 'could not narrow: 0 table 0 preload 0 static 0 layers 0 edge 0 error 0; execs refused (--strict): 0$' \
	"$SBX_OUT/postfix.err" || hm_fail "a program below the sandbox could not narrow to its domain"
back=$(sed -n 's/^sandbox: execs whose environment lacked the preload and got it back: //p' \
	"$SBX_OUT/postfix.err")
# the master keeps only import_environment, local gives the filter
# export_environment: each of their execs lacked the preload
[ "${back:-0}" -gt 0 ] || hm_fail "no exec below the master got its environment back"
hm_ok "every program below the master (its daemons, the filter and what it runs) narrowed to its domain (--strict); $back execs got the preload back"
