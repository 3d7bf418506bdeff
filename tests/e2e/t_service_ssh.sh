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

hm_need sshd ssh scp sftp ssh-keygen crontab curl useradd userdel
[ -x /etc/init.d/ssh ] || hm_skip "openssh-server is not installed (scripts/deps.sh test)"
hm_svc_begin
! pgrep -x sshd >/dev/null || hm_skip "an sshd is already running; not touching it"
! getent passwd hm-ssh >/dev/null || hm_fail "a user hm-ssh exists already"

S=/srv/histmac-e2e
hm_svc_tmpfs "$S"
# the session's login uid (pam_loginuid) is in the audited range
useradd -u 4261 -M -d "$S/home" -s /bin/bash hm-ssh
hm_on_exit "userdel hm-ssh; rm -f /var/mail/hm-ssh /var/spool/cron/crontabs/hm-ssh"
mkdir -p "$S/home/.ssh" "$S/tools"
hm_e2e_install tcp_listen "$S/tools/tcp_listen"
export HM_SSH_DIR=$HM_TMP/client
mkdir -p "$HM_SSH_DIR"
ssh-keygen -q -t ed25519 -N '' -f "$HM_SSH_DIR/id"
cp "$HM_SSH_DIR/id.pub" "$S/home/.ssh/authorized_keys"
# the user's own key pair, never used in learning: its read is the theft
ssh-keygen -q -t ed25519 -N '' -f "$S/home/.ssh/id_ed25519"
cp /etc/skel/.profile /etc/skel/.bashrc "$S/home/"
chown -R hm-ssh:hm-ssh "$S/home"
chmod 700 "$S/home/.ssh"
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
