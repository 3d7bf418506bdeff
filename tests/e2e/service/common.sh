# shellcheck shell=bash
# What the services' cycles (service/*/cycle.sh, sourced by the audited
# shell of a t_service_*.sh) share.
S=/srv/histmac-e2e

# A four-digit number: the part of a name that differs between periods.
num() { printf '%04d' $((RANDOM % 10000)); }

# hm_until WHAT CMD: up to 30 s for the shell command CMD to succeed.
hm_until() {
	local i
	for i in $(seq 300); do
		eval "$2" && return 0
		sleep 0.1
	done
	echo "$1" >&2
	return 1
}

# postfix has delivered every mail: its queue is empty.
queue_empty() {
	[ -z "$(find /var/spool/postfix/maildrop /var/spool/postfix/incoming \
		/var/spool/postfix/active /var/spool/postfix/deferred -type f)" ]
}
