# shellcheck shell=bash
# cron of service/cron under `histmac sandbox`, sourced by the audited
# shell of t_service_sandbox_cron.sh after service/cron/cycle.sh (its
# tick, cron_up, cron_gone).  postfix, which carries the jobs' mail, is
# started by its init script as while learning; cron runs in the
# foreground (`cron -f`) as COMMAND of the sandbox (sbx.sh) with the
# environment its init script gives it (its PATH; TZ from /etc/timezone,
# READ_ENV of /etc/default/cron) and on the fast clock of cycle.sh's
# cron_init.  Needs SBX_ATTACK (the lines an
# attacker appends to the cleanup job) and SBX_COST (to the report job).
. "$(dirname "${BASH_SOURCE[0]}")/sbx.sh"

svc_start() {
	local tz=
	[ ! -r /etc/timezone ] || tz=TZ=$(cat /etc/timezone)
	SBX_ENV="env -i PATH=/bin:/usr/bin:/sbin:/usr/sbin $tz $CRON_CLOCK" \
		sbx_up cron /usr/sbin/cron -f
	hm_until "the sandboxed cron did not start" cron_up
}

# The sandbox passes SIGTERM on; the pid file goes as the init script's
# stop removes it.
svc_stop() {
	sbx_down cron
	hm_until "a cron is left after the stop" cron_gone
	rm -f /run/crond.pid
}

# Two runs of the jobs, the second after an attacker appended lines to
# two of them in place (their inodes, which the rules name, stay); every
# mail delivered before the stop.
sandboxed() {
	/etc/init.d/postfix start
	svc_start
	# cron reads the crontabs again only once their directory's mtime
	# moved on a second (cycle.sh)
	sleep 2
	crontab -u hm-cron "$S/crontab"
	tick
	cat "$SBX_ATTACK" >>"$S/jobs/cleanup"
	cat "$SBX_COST" >>"$S/jobs/report"
	tick
	crontab -u hm-cron -r
	hm_until "cron's job runners did not end" cron_idle
	hm_until "postfix did not deliver" queue_empty
	svc_stop
	/etc/init.d/postfix stop
}
