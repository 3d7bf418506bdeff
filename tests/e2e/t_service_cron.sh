#!/usr/bin/env bash
# cron (its jobs' output mailed through postfix) through
# docs/PRODUCTION.md's workflow (issue 25): learn one period (postfix and
# cron started by their init scripts, cron restarted, a user's crontab
# installed, two minutes of its jobs - run-parts of reports mailed with
# mail(1), an archive, a cleanup - the crontab removed, both stopped),
# `patternize --apply`, then a second period of the same jobs on other data
# checks with at most 5 false denials per 1,000 accesses; a third period
# whose job an attacker changed (a stolen key read, a connect out, a
# listener of a dropped program, a crontab line) is reported by check, and
# `histmac enforce --mode permissive` on the jobs' files reports the same
# violations there as check.
#
# cron runs jobs at a minute's turn: the test waits for real runs (about a
# minute each, four in all) rather than run the jobs' commands itself.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"

hm_need cron crontab run-parts postfix mail curl useradd userdel
[ -x /etc/init.d/cron ] && [ -x /etc/init.d/postfix ] ||
	hm_skip "cron or postfix is not installed (scripts/deps.sh services)"
hm_svc_begin
for p in cron master; do
	! pgrep -x "$p" >/dev/null || hm_skip "a $p is already running; not touching it"
done
! getent passwd hm-cron >/dev/null || hm_fail "a user hm-cron exists already"

S=/srv/histmac-e2e
D=$HM_SRC/tests/e2e/service/cron
hm_svc_tmpfs "$S"
# the crontab's owner: its login uid (pam_loginuid) is in the audited range
useradd -u 4260 -M -d "$S" -s /bin/sh hm-cron
hm_on_exit "userdel hm-cron; rm -f /var/mail/hm-cron /var/spool/cron/crontabs/hm-cron"
mkdir -p "$S/jobs" "$S/spool" "$S/done" "$S/out" "$S/backup" "$S/secret" "$S/tools"
cp "$D/report" "$D/backup" "$D/cleanup" "$S/jobs/"
cp "$D/crontab" "$S/crontab"
echo "-----BEGIN OPENSSH PRIVATE KEY----- $RANDOM" >"$S/secret/id_ed25519"
chmod 644 "$S/secret/id_ed25519"	# readable by mistake: the read is the attack
hm_e2e_install tcp_listen "$S/tools/tcp_listen"
chown -R hm-cron "$S/jobs" "$S/spool" "$S/done" "$S/out" "$S/backup"
hm_svc_listen "$S/tools/tcp_listen" 8099

svc_cleanup() {
	crontab -u hm-cron -r 2>/dev/null
	/etc/init.d/cron stop >/dev/null 2>&1
	/etc/init.d/postfix stop >/dev/null 2>&1
}
hm_on_exit svc_cleanup

# A period's data: five files of other names.
data() {
	local i f
	for i in 1 2 3 4 5; do
		f=$S/spool/sales-$(printf %04d $((RANDOM % 10000))).csv
		printf 'a,%d\nb,%d\n' $RANDOM $RANDOM >"$f"
		chown hm-cron "$f"
	done
}
cycle=". '$D/cycle.sh'"

data
hm_svc_learn_period "$cycle; period 2"
[ -s /var/mail/hm-cron ] || hm_fail "no mail delivered to hm-cron"
data
hm_svc_check_period "$cycle; period 1"
data
cp "$D/evil" "$S/jobs/evil"
chown hm-cron "$S/jobs/evil"
hm_svc_attack_period "$cycle; period 1"
hm_svc_reported p3 "^file read $S/secret/id_ed25519\$" "the stolen key's read"
hm_svc_reported p3 '^network inet stream connect 127\.0\.0\.1 8099$' "the connect out"
hm_svc_reported p3 "^file execute $S/out/\\.l( |\$)" "the dropped program's exec"
hm_svc_reported p3 '^network inet stream (bind|listen|bind/listen) 127\.0\.0\.1 8097$' "the listener"
hm_svc_reported p3 '^file execute /usr/bin/crontab( |$)' "the crontab change"
hm_svc_agree p3
