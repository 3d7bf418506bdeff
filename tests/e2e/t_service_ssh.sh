#!/usr/bin/env bash
# openssh-server through docs/PRODUCTION.md's workflow (issue 25): learn one
# period (sshd started by its init script; sessions of a user with a key
# the test generated: commands, scp both ways, sftp, a shell on a pty; a
# reload and a restart; stopped), `patternize --apply`, then a second
# period of the same kinds of work with other names and data checks with
# at most 5 false denials per 1,000 accesses; a third period with the
# attacks of a stolen key (the user's private key read, a connect out, a
# listener of a dropped program, a crontab line) is reported by check, and
# `histmac enforce --mode permissive` on the user's home (a tmpfs) reports
# the same violations there as check.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"
. "$HM_SRC/tests/e2e/service/ssh/begin.sh"

ssh_begin crontab curl
mkdir -p "$S/tools"
hm_e2e_install tcp_listen "$S/tools/tcp_listen"
hm_svc_listen "$S/tools/tcp_listen" 8099
hm_on_exit "/etc/init.d/ssh stop >/dev/null 2>&1"

cycle=". '$HM_SRC/tests/e2e/service/ssh/cycle.sh'"
hm_svc_learn_period "$cycle; period"
hm_svc_check_period "$cycle; period"
hm_svc_attack_period "$cycle; attacks"
hm_svc_reported p3 "^file read $S/home/\\.ssh/id_ed25519\$" "the read of the user's private key"
hm_svc_reported p3 '^network inet stream connect 127\.0\.0\.1 8099$' "the connect out"
hm_svc_reported p3 "^file execute $S/home/\\.l( |\$)" "the dropped program's exec"
hm_svc_reported p3 '^network inet stream (bind|listen|bind/listen) 127\.0\.0\.1 8097$' "the listener"
hm_svc_reported p3 '^file execute /usr/bin/crontab( |$)' "the crontab change"
hm_svc_agree p3
