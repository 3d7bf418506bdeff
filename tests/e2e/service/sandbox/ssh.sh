# shellcheck shell=bash
# openssh-server of service/ssh under `histmac sandbox`, sourced by the
# audited shell of t_service_sandbox_ssh.sh after service/ssh/cycle.sh
# (its rounds: commands, scp both ways, sftp, a shell on a pty).  sshd
# runs in the foreground (-D) as COMMAND of the sandbox, in its learned
# root domain, as a service manager would start it, with what its init
# script gives it: umask 022, PATH with /usr/sbin and /sbin appended, the
# privilege separation directory.  The sandbox stays as sshd's parent and
# passes SIGHUP (a reload: sshd re-executes itself) and SIGTERM on; its
# stderr (--stats, and the programs that could not narrow) goes to
# $SBX_OUT/sshd.err.
#
# Needs SBX (the histmac binary beside its preload), POL, SBX_OUT, and
# SBX_STRICT (--strict or empty).
. "$(dirname "${BASH_SOURCE[0]}")/sbx.sh"

sbx_sshd_up() {
	[ -d /run/sshd ] || { mkdir /run/sshd && chmod 0755 /run/sshd; }
	(
		umask 022
		export PATH=$PATH:/usr/sbin:/sbin
		# shellcheck disable=SC2086
		exec "$SBX" sandbox -p "$POL" --domain '<kernel>' ${SBX_STRICT:-} \
			--stats -- /usr/sbin/sshd -D
	) </dev/null >>"$SBX_OUT/sshd.out" 2>>"$SBX_OUT/sshd.err" 9>&- &
	echo $! >"$SBX_OUT/sshd.pid"
	wait_up
}

# A reload: SIGHUP through the sandbox; sshd closes its listeners and
# executes itself again (the preload narrows it anew).
sbx_sshd_reload() {
	kill -HUP "$(cat "$SBX_OUT/sshd.pid")"
	sleep 0.5
	wait_up
}

# One pass of each kind of the rounds' work with its results kept for the
# test to judge ($SBX_OUT/served.*): what a command printed, the file
# copied up and back by scp and got by sftp (each compared with the
# original), what the pty shell printed.
served() {
	local n d o=$SBX_OUT/served
	n=doc-$(num).txt
	d=$(mktemp -d "$K/sv.XXXXXX")
	echo "doc $n $RANDOM" >"$o.orig"
	cp "$o.orig" "$d/$n"
	c hm-ssh@127.0.0.1 "mkdir -p work; ls -l work; date; wc -l .profile" >"$o.cmd"
	scp_up "$d/$n" "work/$n"
	scp_down "work/$n" "$o.scp"
	echo "get work/$n $o.sftp" | sftp_batch
	printf 'cd work\ngrep -c doc %s\nhead -n 1 %s | tr a-z A-Z\nexit\n' "$n" "$n" |
		c -tt hm-ssh@127.0.0.1 >"$o.pty"
	rm -rf "$d"
}

# sbx_try NAME FILE: a session's shell opens FILE itself (no program the
# policy never ran), its first line and error into $SBX_OUT/NAME.*
sbx_try() {
	c hm-ssh@127.0.0.1 "read -r l <$2 && echo \"\$l\"" \
		>"$SBX_OUT/$1.out" 2>"$SBX_OUT/$1.err" || true
}

# The workload, then what the stolen key's holder tries: reading the
# user's own private key must fail (Landlock, EACCES; the file's mode
# lets the user read it), and the service must still serve after it.
# Whether sessions narrowed to their own domains: sshd's configuration
# is readable by its mode and read by sshd's domain, never by the
# session shell's.
sandboxed() {
	sbx_sshd_up
	round
	sbx_sshd_reload
	round
	sbx_try attack .ssh/id_ed25519
	sbx_try narrow /etc/ssh/sshd_config
	round
	served
	sbx_down sshd
}
