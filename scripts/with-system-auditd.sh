#!/bin/bash
# scripts/with-system-auditd.sh CMD... - run CMD (e.g. `ctest -L e2e`)
# with the system's auditd running, as on a machine that uses histmac.
#
# Takes the e2e tests' global audit lock (/run/histmac-audit.lock) for the
# whole run, so no other run's test starts a private auditd meanwhile, and
# tells the tests it is held (HM_AUDIT_LOCK_HELD=1: tests/e2e/lib.sh then
# does not wait for it).  If no auditd runs, starts the system's through
# /etc/init.d/auditd (which loads /etc/audit/audit.rules), and at the end
# stops it by its pid and puts back the kernel's enabled flag, failure
# mode, backlog settings and rules as they were.  An auditd that was
# already running is left alone.  HM_AUDITD_START=/sbin/auditd starts
# the daemon alone, without its rules (the kernel's backlog_limit stays
# 64: see docs/ENFORCE.md on the audit backlog).  Exit: CMD's status; 3
# when the lock or the daemon could not be had.
set -u

LOCK=/run/histmac-audit.lock

[ $# -gt 0 ] || { echo "usage: $0 CMD..." >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root" >&2; exit 3; }

status() {
	auditctl -s | awk -v k="$1" '$1 == k { print $2 }'
}

exec 9>"$LOCK"
flock -w 1800 9 || { echo "$0: cannot take $LOCK" >&2; exit 3; }

started=
pid=$(status pid)
if [ -z "$pid" ] || [ "$pid" = 0 ] || ! kill -0 "$pid" 2>/dev/null; then
	enabled=$(status enabled)
	failure=$(status failure)
	backlog=$(status backlog_limit)
	wait_time=$(status backlog_wait_time)
	rules=$(auditctl -l)
	${HM_AUDITD_START:-/etc/init.d/auditd start} >/dev/null ||
		{ echo "$0: /etc/init.d/auditd start failed" >&2; exit 3; }
	for _ in $(seq 100); do
		pid=$(status pid)
		[ -n "$pid" ] && [ "$pid" != 0 ] && break
		sleep 0.1
	done
	[ -n "$pid" ] && [ "$pid" != 0 ] ||
		{ echo "$0: auditd did not register with the kernel" >&2; exit 3; }
	started=$pid
	echo "$0: started the system auditd, pid $pid" >&2
fi

HM_AUDIT_LOCK_HELD=1 "$@"
rc=$?

if [ -n "$started" ]; then
	kill -TERM "$started"
	for _ in $(seq 100); do
		kill -0 "$started" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$started" 2>/dev/null && kill -KILL "$started"
	rm -f /var/run/auditd.pid
	auditctl -D >/dev/null
	if [ "$rules" != "No rules" ]; then
		printf '%s\n' "$rules" >"/tmp/hm-rules.$$"
		auditctl -R "/tmp/hm-rules.$$" >/dev/null
		rm -f "/tmp/hm-rules.$$"
	fi
	auditctl -f "$failure" -b "$backlog" \
		--backlog_wait_time "$wait_time" >/dev/null
	auditctl -e "$enabled" >/dev/null
	echo "$0: stopped the system auditd (pid $started); audit state put back" >&2
fi
exit "$rc"
