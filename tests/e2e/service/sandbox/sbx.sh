# shellcheck shell=bash
# What the services under `histmac sandbox` (service/sandbox/*.sh other than this one) share:
# each daemon in the foreground as COMMAND of its own `histmac sandbox`,
# as a service manager would start it.  The sandbox stays as the
# daemon's parent and passes SIGTERM on; its stderr (the reports of
# programs that could not narrow, --stats) goes to $SBX_OUT/NAME.err.
# Each daemon is a root domain (initialize_domain), so its caller's
# domain is <kernel>.  Needs SBX (the histmac binary beside its preload),
# POL and SBX_OUT; SBX_OPTS (default --strict) the sandbox's options.

# sbx_up NAME CMD...: start CMD under the sandbox in the background
# (through $SBX_ENV, a command prefix, when set)
sbx_up() {
	local name=$1
	shift
	# shellcheck disable=SC2086 # word lists
	${SBX_ENV:-} "$SBX" sandbox -p "$POL" --domain '<kernel>' \
		${SBX_OPTS---strict} --stats -- "$@" \
		</dev/null >>"$SBX_OUT/$name.out" 2>>"$SBX_OUT/$name.err" 9>&- &
	echo $! >"$SBX_OUT/$name.pid"
}

# sbx_down NAME: SIGTERM to the sandbox (passed on to the daemon), wait
sbx_down() {
	local pid
	pid=$(cat "$SBX_OUT/$1.pid")
	kill -TERM "$pid" 2>/dev/null || return 0
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

# sbx_kill_all: at a test's exit, by pid, each sandbox of $SBX_OUT and its
# COMMAND (should the sandbox not have passed TERM on); needs lib.sh
sbx_kill_all() {
	local f pid c
	for f in "$SBX_OUT"/*.pid; do
		[ -s "$f" ] || continue
		pid=$(cat "$f")
		c=$(pgrep -P "$pid" || true)
		hm_stop_pid "$pid"
		for pid in $c; do hm_stop_pid "$pid"; done
	done
}
