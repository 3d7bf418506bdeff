#!/bin/sh
# A daemonising service: start-stop-daemon forks a detached sleep with a
# pid file, then stops it with a signal (TOMOYO 2.6 has no signal ACL:
# the kill is neither learned nor checked by the kernel).
set -e
start-stop-daemon --start --background --make-pidfile --pidfile /run/hm-daemon.pid \
	--exec /usr/bin/sleep -- 300
start-stop-daemon --stop --pidfile /run/hm-daemon.pid --retry 5
rm -f /run/hm-daemon.pid
