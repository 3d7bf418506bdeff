#!/usr/bin/env bash
# nginx, CGI scripts through fcgiwrap and a proxied python backend, through
# docs/PRODUCTION.md's workflow (issue 25): learn one period (start by the
# init scripts, requests, reload, log rotation with logrotate -f, restarts,
# stop), `patternize --apply`, then a second period of the same kinds of
# work with other names and data checks with at most 5 false denials per
# 1,000 accesses; a third period with the attacks (traversal reads through
# a CGI script, injected execs, a connect out, a dropped web shell) is
# reported by check, and `histmac enforce --mode permissive` on the site's
# files reports the same violations there as check.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"

hm_need nginx curl logrotate chattr
[ -x /etc/init.d/nginx ] && [ -x /etc/init.d/fcgiwrap ] ||
	hm_skip "nginx or fcgiwrap is not installed (scripts/deps.sh test)"
# the audit lock first: it keeps the per-service tests (which share
# /srv/histmac-e2e) apart
hm_svc_begin nginx fcgiwrap

S=/srv/histmac-e2e
D=$HM_SRC/tests/e2e/service/nginx
. "$D/site.sh"
nginx_site
# the script directory is the web user's too: a misconfiguration the web
# shell needs
chown -R www-data "$S/cgi-bin"
# the backend appends to its log: append-only, as a log under a mark
# should be (an O_APPEND open of an ordinary file asks the enforcer for
# `file write`, docs/ENFORCE.md; learn and check see `file append`)
: >"$S/log/backend.log"
chattr +a "$S/log/backend.log"

hm_e2e_install tcp_listen "$HM_TMP/tcp_listen"
hm_svc_listen "$HM_TMP/tcp_listen" 8099

# Whatever happens, nothing of ours stays running.
svc_cleanup() {
	/etc/init.d/nginx stop >/dev/null 2>&1
	/etc/init.d/fcgiwrap stop >/dev/null 2>&1
	[ -s "$S/run/backend.pid" ] && hm_stop_pid "$(cat "$S/run/backend.pid")"
	rm -f /run/fcgiwrap.socket
}
hm_on_exit svc_cleanup

cycle=". '$D/cycle.sh'"
# Both daemons become root domains by `patternize --apply` alone, as
# PRODUCTION.md section 3 says, with no hand-added line: nginx (its init
# script runs it through start-stop-daemon, and runs nginx -t itself)
# and fcgiwrap (its init script starts it through `env -i ... spawn-fcgi`:
# outside the marks, since the test may mark no directory of the host's
# such as /usr/bin, the enforcer cannot name that chain, unseen-exec:/,
# docs/ENFORCE.md "Exec naming").  Checked below: both are suggested,
# and no helper is.
unset HM_SVC_INIT_DOMAINS

# Period 1: learn, then generalise as PRODUCTION.md says; period 2: the
# same kinds of work, other names and data; period 3: the attacks, under
# the enforcer in permissive mode.
hm_svc_learn_period "$cycle; period"
hm_svc_suggested "$HM_TMP/patternize.out" /usr/sbin/nginx /usr/sbin/fcgiwrap
hm_svc_check_period "$cycle; period"
hm_svc_attack_period "$cycle; attacks"
hm_svc_reported p3 '^file read /etc/passwd$' "the traversal read of /etc/passwd"
hm_svc_reported p3 "^file read $S/secret/key\\.pem\$" "the traversal read of the key"
hm_svc_reported p3 '^file execute /usr/bin/id( |$)' "the injected exec of id"
hm_svc_reported p3 '^network inet stream connect 127\.0\.0\.1 8099$' "the connect out"
hm_svc_reported p3 "^file (create|write)[a-z/]* $S/cgi-bin/shell\\.sh( |\$)" "the dropped web shell's write"
hm_svc_reported p3 "^file execute $S/cgi-bin/shell\\.sh( |\$)" "the web shell's exec"
hm_svc_reported p3 "^file read $S/secret/key\\.pem\$" "the web shell's read of the key" 'shell\.sh /usr/bin/cat$'
hm_svc_agree p3
