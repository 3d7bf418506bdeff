# shellcheck shell=bash
# The nginx site of service/nginx under `histmac sandbox`, sourced by the
# audited shell of t_service_sandbox.sh after service/nginx/cycle.sh (its
# rounds).  Each daemon runs in the foreground as COMMAND of its own
# `histmac sandbox --strict`, as a service manager would start it: the
# init scripts' `env -i` (fcgiwrap's) would drop the preload, and --strict
# would refuse that exec.  The sandbox stays as the daemon's parent and
# passes SIGTERM on; its stderr (the reports of programs that could not
# narrow) goes to $SBX_OUT/NAME.err.
#
# Each daemon is a root domain (initialize_domain), so its caller's
# domain is <kernel>.  Needs SBX (the histmac binary beside its preload),
# POL and SBX_OUT.

# sbx_up NAME CMD...: start CMD under the sandbox in the background
# (through $SBX_ENV, a command prefix, when set)
sbx_up() {
	local name=$1
	shift
	${SBX_ENV:-} "$SBX" sandbox -p "$POL" --domain '<kernel>' --strict --stats -- "$@" \
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

svc_start() {
	# the socket spawn-fcgi makes; the init script's start does the same
	rm -f /run/fcgiwrap.socket
	# the environment the init script gives it (env -i PATH=...): a
	# locale inherited from here would make its CGI programs read locale
	# files they never read while learning
	SBX_ENV="env -i PATH=$PATH" sbx_up fcgiwrap /usr/bin/spawn-fcgi -n \
		-s /run/fcgiwrap.socket -u www-data -U www-data -g www-data \
		-G www-data -- /usr/sbin/fcgiwrap -f
	hm_until "no fcgiwrap socket" "[ -S /run/fcgiwrap.socket ]"
	sbx_up backend "$S/backend.py" 8082
	wait_up http://127.0.0.1:8082/health
	sbx_up nginx /usr/sbin/nginx -g 'daemon off;'
	wait_up "$U/"
}

svc_stop() {
	sbx_down nginx
	sbx_down fcgiwrap
	sbx_down backend
}

# The workload, then what the policy forbids: a traversal read of the key
# through a CGI script must fail (the kernel refuses it), and the site
# must still serve after it.
sandboxed() {
	svc_start
	round
	/usr/sbin/nginx -s reload
	sleep 0.5
	round
	curl -s "$U/cgi-bin/notes.sh?name=../../secret/key.pem" >"$SBX_OUT/attack.out"
	round
	svc_stop
}
