# shellcheck shell=bash
# One period of cron's life, sourced by the audited shell of
# t_service_cron.sh: postfix and cron started by their init scripts (and
# cron restarted), the user's crontab installed with crontab(1), N minutes
# of cron running the jobs (run-parts; the reports mailed with mail(1) and
# the run's output mailed by cron through postfix's sendmail, delivered to
# /var/mail), the crontab removed, both stopped.
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

# cron runs jobs at a minute's turn and has no "run now": the tests give
# cron alone (FAKETIME_ONLY_CMDS) a clock ten times as fast, so that its
# minute passes in 6 s.  libfaketime is loaded, and read, by every
# program the init script runs, in every period alike; the jobs run with
# the environment their crontab gives them, at the real clock.
# The variables, as one word list (FAKETIME: no offset, ten times the
# rate; written without a space, for the sandbox's word list).
CRON_FAKETIME=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
CRON_CLOCK="LD_PRELOAD=$CRON_FAKETIME FAKETIME=+0.0x10 FAKETIME_ONLY_CMDS=cron"

# cron_init ACTION: cron's init script, its cron on the fast clock (no
# env(1) between: the domains stay those of the script run by the shell)
cron_init() {
	# shellcheck disable=SC2086 # a word list
	(export $CRON_CLOCK; exec /etc/init.d/cron "$@")
}

# Wait for the next run of the jobs: cron starts them at a minute's turn.
tick() {
	local before i
	before=$(cat "$S/out/last-run" 2>/dev/null || echo none)
	for i in $(seq 800); do
		[ "$(cat "$S/out/last-run" 2>/dev/null || echo none)" != "$before" ] &&
			! pgrep -u hm-cron -x run-parts >/dev/null && return 0
		sleep 0.1
	done
	echo "cron did not run the jobs" >&2
	return 1
}

# The cron the init script started is up: its pid file names it.  A
# restart before the new daemon wrote its pid stops nothing, removes the
# file it has locked and starts a second cron, which the last stop leaves
# running (loop run 14 of t_service_cron: a cron of period 3 ran on).
cron_up() {
	local pid
	pid=$(cat /run/crond.pid 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# cron has no job runner left: the forks that run a job and then mail
# its output (through sendmail, into postfix's queue) are done.  A job's
# end is not its mail's: under load the mail of the last run came after
# the queue was found empty, and was not delivered before the stop.
cron_idle() {
	local pid
	pid=$(cat /run/crond.pid 2>/dev/null) || return 0
	! pgrep -P "$pid" >/dev/null
}

# No cron left, its job runners (forks named cron) included; zombies
# (ended, not yet reaped by a slow pid 1) are not cron running.
cron_gone() {
	! pgrep -x -r D,R,S,T,t,I cron >/dev/null
}

period() {
	local runs=${1:-1} i
	/etc/init.d/postfix start
	cron_init start
	hm_until "cron did not start" cron_up
	cron_init restart
	hm_until "cron did not start again" cron_up
	# cron reads the crontabs again only when their directory's mtime
	# (in seconds) changed since it last read them: one installed in the
	# second the new cron read them at start was never run
	sleep 2
	crontab -u hm-cron "$S/crontab"
	for i in $(seq "$runs"); do
		tick || return 1
	done
	crontab -u hm-cron -r
	hm_until "cron's job runners did not end" cron_idle
	hm_until "postfix did not deliver" queue_empty
	cron_init stop
	hm_until "a cron is left after the stop" cron_gone
	/etc/init.d/postfix stop
}
