#!/usr/bin/env bash
# cron under `histmac sandbox --strict` with its learned policy (issue
# 25's last line), its jobs' output mailed through postfix: cron learns
# one period as t_service_cron.sh does (postfix and cron started by their
# init scripts, a user's crontab, two runs of the jobs - reports mailed
# with mail(1), an archive, a cleanup - `patternize --apply` as
# docs/PRODUCTION.md says), cron is made a root domain, then it runs in
# the foreground as COMMAND of a root `histmac sandbox` in that domain
# (service/sandbox/cron.sh) for another period of the same jobs on other
# data: the jobs run and their mail (mail(1)'s and cron's own) reaches
# the user's mailbox through the set-group-ID postdrop, which keeps its
# group because the sandbox marks the domains above it (they keep their
# parent's bound, reported as `setid`, docs/SANDBOX.md "Set-id
# programs") instead of narrowing under no_new_privs.  Once an attacker
# appended lines to a job, its read of the user's key and of cron's own
# /etc/crontab fail with EACCES (the cleanup job, which runs no set-id
# program, narrowed to its own domain), and `check` lists both as
# Landlock denials; the report job, which mails, kept cron's bound (its
# read of /etc/crontab succeeds: the price of the mark).  --stats: no
# program failed to narrow, no exec refused, the marked programs counted.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"

. "$HM_SRC/tests/e2e/service/cron/setup.sh"

cron_setup
mkdir -m 755 "$S/secret"
key=$S/secret/id_ed25519
echo "-----BEGIN OPENSSH PRIVATE KEY----- $RANDOM" >"$key"
chmod 644 "$key"	# readable by its mode: only Landlock refuses it

# The build's histmac, beside its preload (as t_service_sandbox.sh).
export SBX=$HISTMAC SBX_OUT=$HM_TMP/sbx POL S
export SBX_ATTACK=$HM_SRC/tests/e2e/service/sandbox/cron-attack
export SBX_COST=$HM_SRC/tests/e2e/service/sandbox/cron-cost
mkdir -p "$SBX_OUT"
. "$HM_SRC/tests/e2e/service/sandbox/sbx.sh"
# cron_setup's own clean-up stops cron and postfix by their init scripts
hm_on_exit sbx_kill_all

# Period 1: learn as t_service_cron.sh does.
data
hm_svc_learn_period "$cycle; period 2"
[ -s /var/mail/hm-cron ] || hm_fail "no mail delivered to hm-cron while learning"
hm_svc_root_domain /usr/sbin/cron
[ "$SVC_DENIED" = 0 ] || { _hm_svc_list p1root; hm_fail "period 1 against the re-rooted policy: $SVC_DENIED denied"; }

# Period 2: the same jobs on other data, cron under the sandbox.
: >/var/mail/hm-cron
data
ls "$S/spool" >"$HM_TMP/data2"
hm_svc_run 4252 "set -e; $cycle; . '$HM_SRC/tests/e2e/service/sandbox/cron.sh'; sandboxed" \
	"$HM_TMP/p2.log"
err=$SBX_OUT/cron.err
echo "--- the sandbox's stderr" >&2
cat "$err" >&2
! hm_running cron || hm_fail "a cron outlived the sandboxed one: $(pgrep -a -x cron)"

# What the jobs said (cron mails their output) and what Landlock
# refused, for a failure's log.
jobs_said() {
	echo "--- the jobs' errors mailed by cron, and Landlock's denials" >&2
	grep -E 'cannot|denied|rror|^mv:|^[a-z]+: ' /var/mail/hm-cron | sort | uniq -c >&2 || true
	grep -E 'UNKNOWN\[1423\]' "$HM_TMP/p2.log" | sed 's/.*\(blockers=.*\)/\1/' |
		sort | uniq -c | head -n 30 >&2 || true
}

# The jobs ran: each data file reported and moved out of the spool (the
# cleanup job deletes it from done/ at the next run), the archive made.
while read -r f; do
	n=${f%.csv}
	[ -s "$S/out/$n.report" ] || { jobs_said; hm_fail "no report of $f: the report job did not run"; }
	[ ! -e "$S/spool/$f" ] || { jobs_said; hm_fail "$f was not moved out of the spool"; }
	grep -q "^Subject: report $n\$" /var/mail/hm-cron ||
		hm_fail "the report of $n was not mailed (mail(1), postdrop)"
done <"$HM_TMP/data2"
tar -tzf "$S/backup/out.tar.gz" | grep -q "sales-" || hm_fail "the archive job did not run"
n=$(grep -c '^Subject: Cron <hm-cron@' /var/mail/hm-cron || true)
[ "$n" -ge 2 ] || hm_fail "$n mails of cron itself (the jobs' output) of 2 runs"
hm_ok "the sandboxed cron ran every job twice; $(wc -l <"$HM_TMP/data2") reports (mail(1)) and $n outputs (cron) were mailed through postdrop"

# The attack, from cron's mail of the jobs' output.
grep -q "cannot open $key: Permission denied" /var/mail/hm-cron && ! grep -q '^stolen:' /var/mail/hm-cron ||
	hm_fail "the job's read of the key did not fail with EACCES"
grep -q 'cannot open /etc/crontab: Permission denied' /var/mail/hm-cron &&
	! grep -q '^cleanup read /etc/crontab' /var/mail/hm-cron ||
	hm_fail "the cleanup job read /etc/crontab: it did not narrow below cron"
hm_ok "the cleanup job's reads of the key and of cron's /etc/crontab failed with EACCES (it narrowed)"
grep -q '^report read /etc/crontab: ' /var/mail/hm-cron ||
	hm_fail "the report job could not read /etc/crontab: it did not keep cron's bound"
hm_ok "the report job (it runs set-group-ID postdrop through mail) kept cron's bound: it read /etc/crontab"

hm_svc_check "$HM_TMP/p2.log" p2
hm_svc_enforced p2 "file read $key" "the job's read of the key"
hm_svc_enforced p2 "file read /etc/crontab" "the cleanup job's read of /etc/crontab" \
	"$(jq -r '[.violations[] | select(.line == "file read /etc/crontab") | .domain |
		select(endswith("/jobs/cleanup"))][0] // ""' "$HM_TMP/p2.json")"
hm_svc_reported p2 '^file read /etc/crontab$' "the report job's read of /etc/crontab" \
	'/jobs/report$'
hm_svc_refused_only p2 '^<kernel> /usr/sbin/cron( |$)' "cron's domains" \
	"file read $key" "file read /etc/crontab"

# --stats: nothing lost, nothing refused; the marked programs and
# postdrop itself said once each as setid.
grep -q 'could not narrow: 0 table 0 preload 0 static 0 layers 0 edge 0 error 0; execs refused (--strict): 0$' "$err" ||
	hm_fail "a program below the sandbox could not narrow, or an exec was refused"
grep -q '^sandbox: [1-9][0-9]* execs of set-id programs (the first: .*); [1-9][0-9]* domains run one or reach one (setid)' "$err" ||
	hm_fail "--stats does not say which set-id programs the table marked"
grep -q '^histmac sandbox: /usr/sbin/postdrop (pid [0-9]*) keeps its parent.s bound: a set-user-ID' "$err" ||
	hm_fail "postdrop was not reported as a set-id program"
n=$(sed -n "s/^sandbox: programs that kept their parent's bound for a set-id program (setid): //p" "$err")
[ "${n:-0}" -gt 1 ] || hm_fail "no domain kept its bound for a set-id program (setid: ${n:-none})"
hm_ok "--stats: 0 programs could not narrow, 0 execs refused; $n programs kept their parent's bound for set-id programs: $(sed -n 's/^histmac sandbox: \([^ ]*\) (pid [0-9]*) keeps.*set-user-ID.*/\1/p' "$err" | sort -u | paste -sd ' ')"
! grep -q 'files to write do not exist' "$err" ||
	hm_fail "the sandbox reports learned files to write that do not exist"
