# shellcheck shell=bash
# One period of postfix's life, sourced by the audited shell of
# t_service_postfix.sh: started by its init script, mail to the local user
# hm-mail by SMTP (curl to smtpd) and by sendmail (mail(1)), delivered to
# /var/mail and through the user's ~/.forward to a filter program; a
# reload and a restart between rounds; stopped.  Subjects and bodies differ
# at every call.
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

wait_up() {
	hm_until "smtpd never answered" '(exec 3<>/dev/tcp/127.0.0.1/25) 2>/dev/null'
}

round() {
	local i f subj
	f=$(mktemp)
	for i in 1 2 3; do
		for subj in invoice order news; do
			printf 'From: a@localhost\nTo: hm-mail@localhost\nSubject: %s %s\n\nbody %s\n' \
				"$subj" "$(num)" "$RANDOM" >"$f"
			curl -s --url smtp://127.0.0.1 --mail-from a@localhost \
				--mail-rcpt hm-mail@localhost -T "$f"
		done
		echo "body $RANDOM" | mail -s "order $(num)" hm-mail
	done
	rm -f "$f"
	hm_until "postfix did not deliver" queue_empty
}

period() {
	/etc/init.d/postfix start
	wait_up
	round
	/etc/init.d/postfix reload
	sleep 0.5
	round
	/etc/init.d/postfix restart
	wait_up
	round
	/etc/init.d/postfix stop
}
