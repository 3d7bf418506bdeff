# shellcheck shell=bash
# The nginx site of service/nginx under `histmac sandbox`, sourced by the
# audited shell of t_service_sandbox.sh after service/nginx/cycle.sh (its
# rounds).  Each daemon runs in the foreground as COMMAND of its own
# `histmac sandbox --strict` (service/sandbox/sbx.sh): the init
# scripts' `env -i` (fcgiwrap's) would drop the preload, and --strict
# would refuse that exec.
. "$(dirname "${BASH_SOURCE[0]}")/sbx.sh"

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
