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
# The learning log is learned while cron runs again (its pid file another
# inode than the log's) and checked once the file is gone, with no denial:
# names do not depend on the host's state (issue 25 item 2).
#
# cron runs jobs at a minute's turn: the test waits for real runs (four
# in all) rather than run the jobs' commands itself, cron's clock ten
# times as fast (service/cron/cycle.sh), so that a minute passes in 6 s.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"

. "$HM_SRC/tests/e2e/service/cron/setup.sh"

hm_need curl
cron_setup
mkdir -m 755 "$S/secret" "$S/tools"
echo "-----BEGIN OPENSSH PRIVATE KEY----- $RANDOM" >"$S/secret/id_ed25519"
chmod 644 "$S/secret/id_ed25519"	# readable by mistake: the read is the attack
hm_e2e_install tcp_listen "$S/tools/tcp_listen"
hm_svc_listen "$S/tools/tcp_listen" 8099

# /run/crond.pid is an inode the log names.
pid_inode_logged() {
	grep -q "crond\.pid\" inode=$(stat -c %i /run/crond.pid) " "$HM_TMP/p1.log"
}

# Period 1 learned (hm_svc_learn_period's steps) while cron runs again:
# /run/crond.pid is there, another inode than the one the log names.  A
# new cron's pid file usually is, but a file system may give a freed
# inode number back at the next create (ext4 does: /run on the root file
# system; loop run 5 of 10 had the log's inode): then a copy is renamed
# over it, which cannot get the number the file still holds.
learn_while_running() {
	local i
	hm_svc_run 4251 "$cycle; period 2" "$HM_TMP/p1.log"
	/etc/init.d/cron start >/dev/null
	hm_until "cron started without its pid in /run/crond.pid" cron_up || hm_fail "no cron"
	hm_on_exit "rm -f /run/crond.pid.hm-e2e"
	for i in 1 2 3; do
		pid_inode_logged || break
		echo "# /run/crond.pid got the log's inode number back: a copy renamed over it"
		cp -p /run/crond.pid /run/crond.pid.hm-e2e
		mv /run/crond.pid.hm-e2e /run/crond.pid
	done
	! pid_inode_logged ||
		hm_fail "/run/crond.pid is the inode the log names: not the case of issue 25 item 2"
	hm_svc_learn "$HM_TMP/p1.log"
	/etc/init.d/cron stop >/dev/null
	hm_until "a cron is left after the stop" cron_gone || hm_fail "cron did not stop"
	[ ! -e /run/crond.pid ] || hm_fail "cron's stop left /run/crond.pid"
	hm_svc_check "$HM_TMP/p1.log" p1
	[ "$SVC_DENIED" = 0 ] || {
		_hm_svc_list p1
		hm_fail "period 1 against its own policy: $SVC_DENIED of $SVC_ACCESSES accesses denied"
	}
	hm_ok "period 1 against its own policy (learned while cron ran, checked after): 0 of $SVC_ACCESSES accesses denied"
}

# The attack happened: the job's read of the key did not fail.
attack_ran() {
	local failed
	failed=$(jq -r '.attempts[] | select(.line | endswith("/secret/id_ed25519")) |
		"\(.errno) in \(.domain)"' "$HM_TMP/p3.json")
	[ -z "$failed" ] || hm_fail "the job's read of the key failed ($failed): no attack to report"
	grep -q "secret/id_ed25519" "$HM_TMP/p3.log" ||
		hm_fail "no record of the key's name in period 3's log (the job did not run, or its records were lost)"
}

data
learn_while_running
[ -s /var/mail/hm-cron ] || hm_fail "no mail delivered to hm-cron"
data
hm_svc_check_period "$cycle; period 1"
data
cp "$D/evil" "$S/jobs/evil"
chown hm-cron "$S/jobs/evil"
hm_svc_attack_period "$cycle; period 1"
attack_ran
hm_svc_reported p3 "^file read $S/secret/id_ed25519\$" "the stolen key's read"
hm_svc_reported p3 '^network inet stream connect 127\.0\.0\.1 8099$' "the connect out"
hm_svc_reported p3 "^file execute $S/out/\\.l( |\$)" "the dropped program's exec"
hm_svc_reported p3 '^network inet stream (bind|listen|bind/listen) 127\.0\.0\.1 8097$' "the listener"
hm_svc_reported p3 '^file execute /usr/bin/crontab( |$)' "the crontab change"
hm_svc_agree p3
