# shellcheck shell=bash
# One period of sshd's life, sourced by the audited shell of
# t_service_ssh.sh: sshd started by its init script, sessions of the user
# hm-ssh with the test's key (commands, scp both ways, an sftp batch, a
# shell on a pty), a reload and a restart between rounds, stopped.  Names
# and data differ at every call.
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
K=$HM_SSH_DIR	# the client's key and known_hosts, outside the audited tree

c() {
	ssh -i "$K/id" -o UserKnownHostsFile="$K/known_hosts" \
		-o StrictHostKeyChecking=accept-new -o BatchMode=yes "$@"
}

# scp_up FILE DEST, scp_down SRC FILE: scp to and from the user's home
scp_up() {
	scp -q -i "$K/id" -o UserKnownHostsFile="$K/known_hosts" "$1" "hm-ssh@127.0.0.1:$2"
}

scp_down() {
	scp -q -i "$K/id" -o UserKnownHostsFile="$K/known_hosts" "hm-ssh@127.0.0.1:$1" "$2"
}

# sftp_batch: an sftp session running the commands on stdin
sftp_batch() {
	sftp -q -b - -i "$K/id" -o UserKnownHostsFile="$K/known_hosts" \
		hm-ssh@127.0.0.1 >/dev/null
}

wait_up() {
	hm_until "sshd never answered" 'c hm-ssh@127.0.0.1 true 2>/dev/null'
}

round() {
	local i n d
	for i in 1 2 3; do
		n=doc-$(num).txt
		d=$(mktemp -d "$K/dl.XXXXXX")
		echo "doc $n $RANDOM" >"$d/$n"
		# commands
		c hm-ssh@127.0.0.1 "mkdir -p work; ls -l work; date; wc -l .profile"
		# scp up and down
		scp_up "$d/$n" "work/$n"
		scp_down "work/$n" "$d/$n.back"
		# an sftp batch
		sftp_batch <<EOB
ls work
get work/$n $d/$n.sftp
rename work/$n work/old-$n
put $d/$n work/$n
rm work/old-$n
EOB
		# a shell on a pty: what is typed comes from stdin
		printf 'cd work\ngrep -c doc %s\nhead -n 1 %s | tr a-z A-Z\nexit\n' "$n" "$n" |
			c -tt hm-ssh@127.0.0.1 >/dev/null
		rm -rf "$d"
	done
}

period() {
	/etc/init.d/ssh start
	wait_up
	round
	/etc/init.d/ssh reload
	sleep 0.5
	wait_up
	round
	/etc/init.d/ssh restart
	wait_up
	round
	/etc/init.d/ssh stop
}

# What an attacker with the user's stolen key does: reads the user's own
# private key, connects out, listens with a dropped program, adds a
# crontab line.
attacks() {
	/etc/init.d/ssh start
	wait_up
	round
	c hm-ssh@127.0.0.1 'cat .ssh/id_ed25519 >/dev/null'
	c hm-ssh@127.0.0.1 'curl -s http://127.0.0.1:8099/ >/dev/null'
	scp_up "$S/tools/tcp_listen" .l
	c hm-ssh@127.0.0.1 'chmod 755 .l; timeout 1 ./.l 8097 >/dev/null; true'
	c hm-ssh@127.0.0.1 '(crontab -l 2>/dev/null; echo "@reboot sh .l") | crontab -'
	round
	/etc/init.d/ssh stop
}
