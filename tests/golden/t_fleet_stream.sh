#!/bin/bash
# t_fleet_stream.sh - a fleet through audisp-remote: two hosts' events in
# one central log (node= prefixes, records interleaved by time: web2's
# clock is 1.5 s later, so its events fall between web1's) learned by one
# `histmac learn`, give what learning each host and merging gives.  Here
# the hosts' pids do not collide; t_fleet_stream_pids.sh is the case where
# they do.
. "$(dirname "$0")/lib.sh"
. "$HM_SRC/tests/golden/fleet_lib.sh"
log=$HM_SRC/samples/audit/apache2-sysv.log

fleet_host web1 0 0 "$log" >"$tmp/web1.log"
fleet_host web2 1500 100000 "$log" >"$tmp/web2.log"
fleet_check "$tmp"
# interleaved for real: some web2 record comes before web1's last
first2=$(grep -n -m1 '^node=web2 ' "$tmp/fleet.log" | cut -d: -f1)
last1=$(grep -n '^node=web1 ' "$tmp/fleet.log" | tail -n 1 | cut -d: -f1)
[ "$first2" -lt "$last1" ] || die "the hosts' records do not interleave"
finish "t_fleet_stream"
