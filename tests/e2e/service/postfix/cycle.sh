# shellcheck shell=bash
# One period of postfix's life, sourced by the audited shell of
# t_service_postfix.sh: started by its init script, mail to the local user
# hm-mail by SMTP (curl to smtpd) and by sendmail (mail(1)), delivered to
# /var/mail and through the user's ~/.forward to a filter program; a
# reload and a restart between rounds; stopped.  Subjects and bodies differ
# at every call.
S=/srv/histmac-e2e

num() { printf '%04d' $((RANDOM % 10000)); }

delivered() {
	local i
	for i in $(seq 300); do
		[ -z "$(find /var/spool/postfix/maildrop /var/spool/postfix/incoming \
			/var/spool/postfix/active /var/spool/postfix/deferred -type f)" ] &&
			return 0
		sleep 0.1
	done
	echo "postfix did not deliver" >&2
	return 1
}

wait_up() {
	local i
	for i in $(seq 100); do
		(exec 3<>/dev/tcp/127.0.0.1/25) 2>/dev/null && return 0
		sleep 0.1
	done
	echo "smtpd never answered" >&2
	return 1
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
	delivered
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
