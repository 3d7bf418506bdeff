#!/bin/bash
# t_fleet_stream_pids.sh - as t_fleet_stream.sh, but the two hosts are
# alike (the same image booted twice): the same pids in both, records
# interleaved.  Only processes tracked per node keep them apart; without
# that, the stream learns domains such as
# "<kernel> /etc/init.d/apache2 /etc/init.d/apache2" that neither host ran.
. "$(dirname "$0")/lib.sh"
. "$HM_SRC/tests/golden/fleet_lib.sh"
log=$HM_SRC/samples/audit/apache2-sysv.log

fleet_host web1 0 0 "$log" >"$tmp/web1.log"
fleet_host web2 1500 0 "$log" >"$tmp/web2.log"
fleet_check "$tmp"
finish "t_fleet_stream_pids"
