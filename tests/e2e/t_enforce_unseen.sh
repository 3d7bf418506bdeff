#!/bin/bash
# t_enforce_unseen.sh - issue 25: an exec the daemon could not see.  A
# program outside the marks ($U/a, statically linked so that it execs at
# once) execs another outside them ($U/b), which execs $T/child: an init
# script's `env spawn-fcgi ...`.  Nothing judged $U/a's exec, and by the
# time its exec event is read /proc/PID/exe (and argv) show $U/b already.
# A stalled decision (HISTMAC_TEST_DECISION_DELAY_MS) of another process
# makes the daemon read both exec events at once, every time:
#   1. $T alone marked: $U/a's exec is never named after $U/b (the domain
#      "<kernel> $U/b $U/b" of the bug); it is named unseen-exec:/, logged
#      and counted, and $T/child's exec is denied (fail closed: that
#      domain is no policy's).  Three runs.
#   2. An exec event read alone, applied after the process executed
#      again but before that exec's event was read: the later event takes
#      the name back (below).  Three runs.
#   3. $U marked too (its programs' execs judged, FAN_OPEN_EXEC_PERM):
#      the chain is named as learn names it, <kernel> $U/a $U/b $T/child,
#      which may read $T/a.  Three runs.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_attack -static
U=$HM_TMP/bin
mkdir -p "$U"
mount -t tmpfs -o size=16m,mode=0755 histmac-e2e "$U" ||
	hm_fail "cannot mount a tmpfs on $U"
hm_on_exit "umount '$U' 2>/dev/null || umount -l '$U'"
cp "$HM_TMP/attack" "$U/a"
cp "$HM_TMP/attack" "$U/b"
C="<kernel> $U/a $U/b"
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

<kernel> $U/a
use_profile 3
file execute $U/b

$C
use_profile 3
file execute $T/child

$C $T/child
use_profile 3
file read $T/a
EOP

# One stalled decision (cat's open of $T/b, denied: no domain of the
# policy) while the chain runs, so both of its exec events wait in the
# proc connector's socket: the chain starts once cat waits in open() for
# the daemon's answer (its wchan), which takes 400 ms.
chain() {
	hm_enf_stalled "$U/a" exec "$U/b" exec "$T/child" read "$T/a"
}

# unseen RUN WHY: three runs of the shell function RUN under a daemon
# whose decisions stall: $T/child's exec is denied every time, in
# <kernel> unseen-exec:/ $U/b (the log says WHY), never in
# <kernel> $U/b $U/b.
unseen() {
	HISTMAC_TEST_DECISION_DELAY_MS=400 hm_enf_start --mode enforcing \
		--verbose --decision-timeout 10
	for i in 1 2 3; do
		"$1"
		[ "$HM_ENF_RC" != 0 ] ||
			hm_enf_fail "$1, run $i: $T/child ran: $HM_ENF_OUT"
	done
	hm_enf_stop
	if grep -qF "$U/b $U/b" "$DLOG"; then
		grep -F "$U/b $U/b" "$DLOG" >&2
		hm_fail "$1: an exec outside the marks was named after the program it executed next"
	fi
	hm_enf_log_has "an exec outside the marks has no name \\($2\\): in <kernel> unseen-exec:/ "
	hm_enf_log_has "deny pid=[0-9]+ domain=\"<kernel> unseen-exec:/ $U/b\" file execute $T/child"
	hm_enf_want "execs not seen, named unseen-exec:/" -ge 3
}

unseen chain "it executed again before it was read"
hm_ok "an exec not seen is named unseen-exec:/, never after the next program (3 of 3)"

# 2. An exec event read alone, applied once the process executed
#    again, before that exec's event is read: $U/sh (outside the marks)
#    spins until $GO exists, then execs $U/b.  Its exec event is read
#    with a stalled decision (cat's open of $T/c, queued behind that of
#    $T/b), $GO made during that stall, and the exec applied after it:
#    /proc shows $U/b.  The next event (that of $U/b) takes the name
#    back: <kernel> unseen-exec:/ $U/b, never <kernel> $U/b $U/b.
cp "$(readlink -f /bin/sh)" "$U/sh"
GO=$HM_TMP/go
late() {
	local c1 c2
	rm -f "$GO"
	cat "$T/b" >/dev/null 2>&1 &
	c1=$!
	hm_on_exit "_hm_enf_kill_job $c1"
	hm_wait_for "grep -q fanotify /proc/$c1/wchan" 50 ||
		hm_enf_fail "cat never waited for the daemon"
	hm_enf_bg "$U/sh" -c "while [ ! -e '$GO' ]; do :; done; exec '$U/b' exec '$T/child' read '$T/a'"
	sleep 0.1
	cat "$T/c" >/dev/null 2>&1 &
	c2=$!
	hm_on_exit "_hm_enf_kill_job $c2"
	wait "$c1" || true	# the first stall is over: the second begins
	sleep 0.1
	touch "$GO"
	wait "$c2" || true
	hm_enf_bg_wait
}
unseen late "/proc may have shown the program it executed next"
hm_ok "an exec read late is taken back at the next exec's event (3 of 3)"

# 3.
HISTMAC_TEST_DECISION_DELAY_MS=400 hm_enf_start --mode enforcing --verbose \
	--decision-timeout 10 --mark "$U"
for i in 1 2 3; do
	chain
	[ "$HM_ENF_RC" = 0 ] ||
		hm_enf_fail "run $i with $U marked: $HM_ENF_OUT"
done
hm_enf_stop
if grep -F "unseen-exec:/ $U/" "$DLOG"; then
	hm_fail "with $U marked, the chain was still named unseen-exec:/"
fi
hm_ok "with the programs' directory marked the chain is named as learn names it (3 of 3)"
