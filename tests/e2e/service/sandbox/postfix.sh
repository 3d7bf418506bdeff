# shellcheck shell=bash
# postfix's local delivery of service/postfix under `histmac sandbox`,
# sourced by the audited shell of t_service_sandbox_postfix.sh after
# service/postfix/cycle.sh (its rounds).  The master runs in the
# foreground (`master -s`, what `postfix start-fg` runs) as COMMAND of
# the sandbox (service/sandbox/sbx.sh), with the environment the init
# script gives it (its PATH; the postfix command and the master then
# keep only import_environment); the chroot the init script sets up in
# /var/spool/postfix (configure-instance.sh) is there from the learned
# period.  Needs SBX_ATTACK: the filter an attacker wrote over the
# user's one (the same file, so the same learned program).
. "$(dirname "${BASH_SOURCE[0]}")/sbx.sh"

svc_start() {
	SBX_ENV="env -i PATH=/bin:/usr/bin:/sbin:/usr/sbin" \
		sbx_up postfix /usr/lib/postfix/sbin/master -s
	wait_up
}

svc_stop() {
	sbx_down postfix
}

# The workload through a reload, then the user's filter rewritten in
# place (its inode, which the sandbox's rules name, stays): the next
# round's mail is still delivered and kept, but the key it reads is not.
sandboxed() {
	svc_start
	round
	/usr/sbin/postfix reload
	sleep 0.5
	round
	cat "$SBX_ATTACK" >"$S/home/filter"
	round
	svc_stop
}
