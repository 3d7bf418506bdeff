#!/usr/bin/env bash
# Record samples/audit/apache2-sysv.log, the sample `make demo` learns from:
# the real audit trail of Debian's apache2 started the SysV way
# (/etc/init.d/apache2 start), a page fetched with curl on 127.0.0.1, and
# a stop, under the real auditd with `histmac rules`.
#
# usage (root): HISTMAC=build/histmac samples/audit/record-apache2.sh [OUT]
#
# The workload runs with its own login uid (auid 4242, set through
# /proc/self/loginuid), which every process it starts inherits, daemons
# included; `ausearch --loginuid 4242 --raw` then keeps exactly its events,
# whole and unedited, whatever else the machine did meanwhile.
set -eu
HM_SRC=${HM_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
out=${1:-$HM_SRC/samples/audit/apache2-sysv.log}
. "$HM_SRC/tests/e2e/lib.sh"

hm_need auditd auditctl ausearch curl apache2ctl
pgrep -x apache2 >/dev/null && hm_fail "apache2 is running; stop it first"

hm_audit_start
"$HISTMAC" rules >"$HM_TMP/histmac.rules"
hm_audit_rules "$HM_TMP/histmac.rules"
hm_audit_marker >/dev/null

# from a neutral directory: the log carries the cwd, and the recording
# machine's working directory is nobody's business
mkdir -p /srv/histmac-demo
(cd /srv/histmac-demo && bash -c '
	echo 4242 >/proc/self/loginuid
	/etc/init.d/apache2 start
	for i in $(seq 50); do curl -sf http://127.0.0.1/ -o /dev/null && break; sleep 0.1; done
	curl -sf http://127.0.0.1/ -o /dev/null
	/etc/init.d/apache2 stop
') >"$HM_TMP/run.out" 2>&1 || { cat "$HM_TMP/run.out" >&2; hm_fail "apache2 run"; }
hm_wait_for '! pgrep -x apache2' 100 || hm_fail "apache2 did not stop"
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/all.log"
ausearch -if "$HM_TMP/all.log" --loginuid 4242 --raw >"$out" ||
	hm_fail "ausearch found no events of the workload"
echo "recorded $(grep -c . "$out") records into $out"
