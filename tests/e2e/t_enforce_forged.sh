#!/bin/bash
# t_enforce_forged.sh - issue 11 item 7: proc-connector messages count
# only when the kernel sent them.  A process in "<kernel> $T/other" (no
# read of $T/a) waits; a FORK message saying it was forked by a process
# of "<kernel> $T/helper" (which may read $T/a) is sent to the daemon's
# netlink port: by uid 65534 it cannot even be sent (EPERM); by root it
# arrives, is logged as ignored, and the waiting process is still denied.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

<kernel> $T/helper
use_profile 3
file read $T/a

<kernel> $T/other
use_profile 3
EOP

# the daemon's NETLINK_CONNECTOR (11) socket: its port id, by inode
port_of() {
	local inodes
	inodes=$(ls -l "/proc/$1/fd" 2>/dev/null |
		sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | tr '\n' ' ')
	awk -v ino=" $inodes" 'NR > 1 && $2 == 11 && index(ino, " " $NF " ") {
		print $3 }' /proc/net/netlink
}

hm_enf_start --mode enforcing
port=$(port_of "$DPID")
[ -n "$port" ] || hm_enf_fail "no proc-connector socket found for $DPID"
"$T/helper" linger 4000 "$T/a" >"$HM_TMP/parent.out" 2>&1 &
parent=$!
"$T/other" waitread 1500 "$T/a" >"$HM_TMP/victim.out" 2>&1 &
victim=$!
hm_on_exit "_hm_enf_kill_job $parent; _hm_enf_kill_job $victim"
sleep 0.3
hm_enf_nobody forge "$port" "$victim" "$parent"
case "$HM_ENF_OUT" in
*"forge: Operation not permitted"*) ;;
*) hm_enf_fail "uid 65534 could send to the daemon's netlink port: $HM_ENF_OUT" ;;
esac
hm_enf_ok "$T/helper" forge "$port" "$victim" "$parent"
rc=0
wait "$victim" || rc=$?
grep -q "read $T/a: Operation not permitted" "$HM_TMP/victim.out" ||
	{ cat "$DLOG" >&2; hm_fail "the forged fork moved the process: $(cat "$HM_TMP/victim.out")"; }
wait "$parent" || hm_enf_fail "the real parent could not read $T/a"
hm_enf_stop
hm_enf_log_has "ignored a proc-connector message from port [1-9][0-9]* \(not the kernel\)"
hm_enf_log_has "deny pid=$victim domain=\"<kernel> $T/other\" file read $T/a"
hm_enf_want "proc connector messages not from the kernel" -ge 1
hm_ok "a forged FORK message is ignored (and uid 65534 cannot send one)"
