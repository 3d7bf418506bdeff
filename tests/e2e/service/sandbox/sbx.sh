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

# _sbx_tree PID: the processes below PID
_sbx_tree() {
	local p
	for p in $(pgrep -P "$1"); do
		echo "$p"
		_sbx_tree "$p"
	done
}

# sbx_down NAME: SIGTERM to the sandbox (passed on to the daemon), wait;
# then for what the daemon had started, which may outlive it (sshd's
# sessions end after their listener): 5 s to end, then SIGTERM, so that
# nothing of ours is left for the next test to find
sbx_down() {
	local pid p kids alive n=0
	pid=$(cat "$SBX_OUT/$1.pid")
	kids=$(_sbx_tree "$pid")
	kill -TERM "$pid" 2>/dev/null || return 0
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	while [ -n "$kids" ] && [ "$n" -lt 50 ]; do
		alive=
		for p in $kids; do
			! kill -0 "$p" 2>/dev/null || alive="$alive $p"
		done
		kids=$alive
		[ -z "$kids" ] || sleep 0.1
		n=$((n + 1))
	done
	# shellcheck disable=SC2086 # a list of pids
	[ -z "$kids" ] || kill -TERM $kids 2>/dev/null || true
}

# sbx_kill_all: at a test's exit, by pid, each sandbox of $SBX_OUT and its
# COMMAND (should the sandbox not have passed TERM on); needs lib.sh
sbx_kill_all() {
	local f pid c
	for f in "$SBX_OUT"/*.pid; do
		[ -s "$f" ] || continue
		pid=$(cat "$f")
		c=$(_sbx_tree "$pid")
		hm_stop_pid "$pid"
		for pid in $c; do hm_stop_pid "$pid"; done
	done
}
