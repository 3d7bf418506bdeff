#!/bin/bash
# t_enforce_supervisor.sh - TOMOYO's query supervisor in user space: an
# enforcing-mode violation waits while `histmac query` is asked; grant
# lets it through once, learn lets it through and adds it to the policy,
# reject gives EPERM.  No answer before --query-timeout, or a client that
# dies, rejects; with no client connected nothing waits at all.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_policy
S=$HM_TMP/super.sock

# Start a query client answering $1 to $2 queries; waits until connected.
query() {
	"$HISTMAC" query -S "$S" --answer "$1" --count "$2" --timeout 60 \
		>"$HM_TMP/q.out" 2>&1 &
	QPID=$!
	hm_on_exit "kill $QPID 2>/dev/null"
	hm_wait_for "[ \$(grep -c 'supervisor client connected' '$DLOG') -ge $3 ]" 100 ||
		hm_fail "query client did not connect"
}

hm_enf_start --mode enforcing --supervisor "$S" --query-timeout 30
[ "$(stat -c %a "$S")" = 600 ] || hm_fail "supervisor socket is not 0600"

# grant once
query grant 1 1
hm_enf_ok "$T/helper" read "$T/c"
wait "$QPID" || hm_fail "query (grant) exited $?"
grep -q "^query 1: pid [0-9]* open" "$HM_TMP/q.out" || { cat "$HM_TMP/q.out"; hm_fail "no query shown"; }
grep -qxF "  domain: <kernel> $T/helper" "$HM_TMP/q.out" || hm_fail "query lacks the domain"
grep -qxF "  acl:    file read $T/c" "$HM_TMP/q.out" || hm_fail "query lacks the ACL line"
grep -qx "DONE 1 grant" "$HM_TMP/q.out" || hm_fail "no DONE grant"
hm_ok "grant: the held open succeeded"

# reject
query reject 1 2
hm_enf_eperm "$T/helper" read "$T/c"
wait "$QPID" || hm_fail "query (reject) exited $?"
grep -qx "DONE 2 reject" "$HM_TMP/q.out" || hm_fail "no DONE reject"
hm_ok "reject: EPERM"

# grant and learn: allowed now and from then on (saved at exit)
query learn 1 3
hm_enf_ok "$T/helper" read "$T/b"
wait "$QPID" || hm_fail "query (learn) exited $?"
grep -qx "DONE 3 learned" "$HM_TMP/q.out" || hm_fail "no DONE learned"
hm_enf_ok "$T/helper" read "$T/b"	# no client now: the policy allows it

# no client connected: no waiting
t0=$(date +%s%N)
hm_enf_eperm "$T/helper" read "$T/c"
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -lt 3000 ] || hm_fail "waited without a client"
hm_ok "learn: allowed and kept; no client: no waiting"

# a client that dies while the process waits: rejected at once
mkfifo "$HM_TMP/fifo"
exec 7<>"$HM_TMP/fifo"
"$HISTMAC" query -S "$S" <&7 >"$HM_TMP/q.out" 2>&1 &
QPID=$!
hm_on_exit "kill $QPID 2>/dev/null"
hm_wait_for "[ \$(grep -c 'supervisor client connected' '$DLOG') -ge 4 ]" 100 ||
	hm_fail "silent client did not connect"
hm_enf_bg "$T/helper" read "$T/c"
hm_wait_for "grep -q 'held pid=$BGPID ' '$DLOG'" 100 || hm_fail "open not held"
sleep 0.5
kill -0 "$BGPID" 2>/dev/null || hm_fail "held open returned before an answer"
kill -KILL "$QPID"
wait "$QPID" 2>/dev/null || true
hm_enf_bg_wait
case "$HM_ENF_OUT" in
*"Operation not permitted"*) ;;
*) hm_fail "dead client: $HM_ENF_OUT" ;;
esac
hm_enf_log_has "supervisor client gone"
hm_enf_stop
grep -qxF "file read $T/b" "$POL/domain_policy.conf" ||
	hm_fail "granted-and-learned entry not saved"
hm_ok "a dead client rejects what it held"

# no answer within --query-timeout: rejected
hm_enf_start --mode enforcing --supervisor "$S" --query-timeout 1
"$HISTMAC" query -S "$S" <&7 >"$HM_TMP/q.out" 2>&1 &
QPID=$!
hm_on_exit "kill $QPID 2>/dev/null"
hm_wait_for "grep -q 'supervisor client connected' '$DLOG'" 100 ||
	hm_fail "silent client did not connect"
t0=$(date +%s%N)
hm_enf_eperm "$T/helper" read "$T/c"
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
[ "$ms" -ge 900 ] && [ "$ms" -lt 5000 ] || hm_fail "timeout after $ms ms, want ~1000"
hm_enf_log_has "supervisor timeout pid=[0-9]+ domain=\"<kernel> $T/helper\""
kill "$QPID"
hm_enf_stop
hm_ok "no answer in time: rejected after ${ms} ms"

# only root may supervise
if command -v setpriv >/dev/null; then
	hm_enf_start --mode enforcing --supervisor "$S"
	# even when the socket is reachable, the daemon checks the peer
	chmod 0711 "$HM_TMP"
	chmod 0666 "$S"
	rc=0
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HISTMAC" query -S "$S" --count 1 --timeout 5 2>&1) || rc=$?
	chmod 0700 "$HM_TMP"
	hm_enf_stop
	case "$out" in
	*"root only"*) ;;
	*) hm_fail "a non-root client was not refused ($rc): $out" ;;
	esac
	hm_ok "a non-root client is refused"
fi
