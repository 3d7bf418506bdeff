# shellcheck shell=bash
# What the ssh tests (t_service_ssh.sh, t_service_sandbox_ssh.sh) start
# with, sourced after service_lib.sh.  ssh_begin [CMD...]: the commands
# needed (and CMD), the audit rules (hm_svc_begin), no sshd running, the
# test's tmpfs $S, and the user the cycles log in as: hm-ssh (uid 4261,
# so that the sessions' login uid, set by pam_loginuid, is in the
# audited range) with its home on $S, a key pair the test generated for
# the client ($HM_SSH_DIR, outside the audited tree), and the user's own
# key pair, never used by the cycles: reading its private key is the
# theft.

ssh_begin() {
	hm_need sshd ssh scp sftp ssh-keygen useradd userdel "$@"
	[ -x /etc/init.d/ssh ] || hm_skip "openssh-server is not installed (scripts/deps.sh test)"
	hm_svc_begin sshd
	S=/srv/histmac-e2e
	hm_svc_tmpfs "$S"
	! getent passwd hm-ssh >/dev/null || hm_fail "a user hm-ssh exists already"
	useradd -u 4261 -M -d "$S/home" -s /bin/bash hm-ssh
	hm_on_exit "userdel hm-ssh; rm -f /var/mail/hm-ssh /var/spool/cron/crontabs/hm-ssh"
	mkdir -p "$S/home/.ssh"
	export HM_SSH_DIR=$HM_TMP/client
	mkdir -p "$HM_SSH_DIR"
	ssh-keygen -q -t ed25519 -N '' -f "$HM_SSH_DIR/id"
	cp "$HM_SSH_DIR/id.pub" "$S/home/.ssh/authorized_keys"
	ssh-keygen -q -t ed25519 -N '' -f "$S/home/.ssh/id_ed25519"
	cp /etc/skel/.profile /etc/skel/.bashrc "$S/home/"
	chown -R hm-ssh:hm-ssh "$S/home"
	chmod 700 "$S/home/.ssh"
}
