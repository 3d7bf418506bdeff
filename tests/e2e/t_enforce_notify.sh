#!/bin/bash
# t_enforce_notify.sh - the enforcer under histmac-enforce.service's
# Type=notify contract, with systemd's side played by a datagram socket
# ($NOTIFY_SOCKET): READY=1 once the marks are in place (an open of a
# marked file is then decided), WATCHDOG=1 every second while the loop
# turns ($WATCHDOG_USEC set), STOPPING=1 on SIGTERM.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need python3
hm_enf_setup
hm_enf_policy
sock=$HM_TMP/notify.sock
msgs=$HM_TMP/notify.log
: >"$msgs"
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "ab", buffering=0) as f:
    while True:
        f.write(s.recv(4096).replace(b"\n", b" ") + b"\n")
' "$sock" "$msgs" &
listener=$!
hm_on_exit "hm_stop_pid $listener"
hm_wait_for "[ -S '$sock' ]" 50 || hm_fail "no notify socket"

NOTIFY_SOCKET=$sock WATCHDOG_USEC=2000000 hm_enf_start
hm_wait_for "grep -q '^READY=1' '$msgs'" 50 || hm_fail "no READY=1"
hm_enf_ok "$T/helper" read "$T/a"
hm_enf_eperm "$T/helper" read "$T/b"
hm_ok "READY=1 after marking; decisions follow"
sleep 3
n=$(grep -c '^WATCHDOG=1$' "$msgs" || true)
[ "$n" -ge 2 ] || hm_fail "$n WATCHDOG=1 in 3 s"
hm_ok "WATCHDOG=1 from the loop ($n in 3 s)"
hm_enf_stop
grep -q '^STOPPING=1$' "$msgs" || hm_fail "no STOPPING=1"
[ "$(grep -c '^READY=1' "$msgs")" = 1 ] || hm_fail "READY=1 more than once"
hm_ok "STOPPING=1 on SIGTERM"
