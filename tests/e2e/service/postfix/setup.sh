# shellcheck shell=bash
# What the postfix tests (t_service_postfix.sh,
# t_service_sandbox_postfix.sh) share, sourced after service_lib.sh.
#
#   pf_setup FILTER   the audit rules loaded (hm_svc_begin), the
#                     service's place S (a tmpfs), the local user hm-mail
#                     whose ~/.forward pipes every mail to FILTER (copied
#                     to ~/filter) and whose key ($PF_KEY, its text) is in
#                     ~/.ssh; D the postfix cycle's directory.  At
#                     exit, after postfix stops, the mail to hm-mail a
#                     failed run left in the queue is deleted: postfix's
#                     next start would deliver it to a user that is gone
pf_setup() {
	hm_need postfix sendmail mail curl useradd userdel
	[ -x /etc/init.d/postfix ] || hm_skip "postfix is not installed (scripts/deps.sh test)"
	hm_svc_begin master
	! getent passwd hm-mail >/dev/null || hm_fail "a user hm-mail exists already"
	S=/srv/histmac-e2e
	D=$HM_SRC/tests/e2e/service/postfix
	hm_svc_tmpfs "$S"
	useradd -u 4262 -M -d "$S/home" -s /bin/sh hm-mail
	hm_on_exit "userdel hm-mail; rm -f /var/mail/hm-mail"
	hm_on_exit pf_unqueue
	mkdir -p "$S/home/.ssh" "$S/home/mail"
	cp "$1" "$S/home/filter"
	echo "\"|$S/home/filter\"" >"$S/home/.forward"
	PF_KEY="-----BEGIN OPENSSH PRIVATE KEY----- $RANDOM$RANDOM"
	echo "$PF_KEY" >"$S/home/.ssh/id_ed25519"
	chmod 600 "$S/home/.ssh/id_ed25519"
	chown -R hm-mail:hm-mail "$S/home"
}

pf_unqueue() {
	local f
	for f in $(find /var/spool/postfix/incoming /var/spool/postfix/active \
		/var/spool/postfix/deferred /var/spool/postfix/maildrop -type f); do
		postcat -e "$f" 2>/dev/null | grep -q '^recipient: hm-mail@' &&
			echo "${f##*/}"
	done | postsuper -d - >/dev/null 2>&1
}
