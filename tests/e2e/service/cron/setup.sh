# shellcheck shell=bash
# What the cron tests (t_service_cron.sh, t_service_sandbox_cron.sh)
# share, sourced after service_lib.sh: cron_setup makes the service's
# place (a tmpfs at $S: the jobs run by run-parts, their spool and
# outputs), the crontab's owner hm-cron, and stops cron and postfix at
# exit; data puts a period's input there; $cycle is the shell command
# that sources the period's steps (cycle.sh) for hm_svc_run.
S=/srv/histmac-e2e
D=$HM_SRC/tests/e2e/service/cron
cycle=". '$D/cycle.sh'"
# its cron_up and cron_gone for the test's own starts and stops
. "$D/cycle.sh"

cron_setup() {
	hm_need cron crontab run-parts postfix mail useradd userdel
	[ -x /etc/init.d/cron ] && [ -x /etc/init.d/postfix ] ||
		hm_skip "cron or postfix is not installed (scripts/deps.sh test)"
	[ -r "$CRON_FAKETIME" ] ||
		hm_fail "no libfaketime for cron's fast clock (scripts/deps.sh test)"
	hm_svc_begin cron master
	! getent passwd hm-cron >/dev/null || hm_fail "a user hm-cron exists already"
	hm_svc_tmpfs "$S"
	# the crontab's owner: its login uid (pam_loginuid) is in the audited range
	useradd -u 4260 -M -d "$S" -s /bin/sh hm-cron
	hm_on_exit "userdel hm-cron; rm -f /var/mail/hm-cron /var/spool/cron/crontabs/hm-cron"
	# modes given, whatever the umask: the jobs read and write through
	# them (under umask 077 the attacks of t_service_cron.sh failed with
	# EACCES: attempts, not the violations that test looks for)
	mkdir -m 755 "$S/jobs" "$S/spool" "$S/done" "$S/out" "$S/backup"
	cp "$D/report" "$D/backup" "$D/cleanup" "$S/jobs/"
	cp "$D/crontab" "$S/crontab"
	chown -R hm-cron "$S/jobs" "$S/spool" "$S/done" "$S/out" "$S/backup"
	hm_on_exit cron_cleanup
}

cron_cleanup() {
	crontab -u hm-cron -r 2>/dev/null
	/etc/init.d/cron stop >/dev/null 2>&1
	/etc/init.d/postfix stop >/dev/null 2>&1
}

# A period's data: five files of other names.
data() {
	local i f
	for i in 1 2 3 4 5; do
		f=$S/spool/sales-$(printf %04d $((RANDOM % 10000))).csv
		printf 'a,%d\nb,%d\n' $RANDOM $RANDOM >"$f"
		chown hm-cron "$f"
	done
}
