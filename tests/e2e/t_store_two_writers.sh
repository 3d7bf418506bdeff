#!/bin/bash
# t_store_two_writers.sh - issue 20: `learn --follow` and the enforcer in
# learning mode write one policy directory at once; one waits for the
# other (the directory's lock) and nothing either learned is lost.
#  1. The enforcer learns and saves; a follower starts (holding the lock
#     for its life); the enforcer's saves wait ("will try again") while
#     it learns more; the follower learns a log, saves and stops; the
#     enforcer's next save reads what the follower saved and adds its own.
#  2. The enforcer saves slowly (a test hook); `learn -i --wait` started
#     while it holds the lock waits for it, then adds its log; the
#     enforcer's last save (SIGTERM) keeps that and what it learned since.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"
. "$(dirname "$0")/store_lib.sh"

hm_store_setup helper
H="<kernel> $T/helper"
holder() { cut -d' ' -f1 "$POL/.histmac.lock" 2>/dev/null; }
# the log's last event, as the learned mark records it
last_of() { tail -n1 "$1" | sed 's/.*audit(\([0-9.:]*\)).*/\1/'; }
learned() { grep -qxF "# histmac: learned - $1" "$dp" 2>/dev/null; }

# ---- 1. the enforcer waits for a follower
hm_enf_start --save-interval 1
hm_enf_ok "$T/helper" read "$T/b"
hm_wait_for "[ \$(saves) -ge 1 ]" 100 || hm_enf_fail "the enforcer did not save"
log=$HM_TMP/audit.log
: >"$log"
"$HISTMAC" learn -q -p "$POL" --follow "$log" --follow-from start --no-resolve \
	--save-interval 1 --wait=30 2>"$HM_TMP/follow.err" &
follower=$!
hm_on_exit "hm_stop_pid $follower"
hm_wait_for "[ \"\$(holder)\" = $follower ]" 300 ||
	hm_enf_fail "the follower did not take the lock"
hm_enf_ok "$T/helper" read "$T/c"	# learned; its save must wait
hm_wait_for "grep -q 'being written by pid $follower' '$DLOG'" 100 ||
	hm_enf_fail "the enforcer's save did not wait for the follower"
cat "$HM_SRC/tests/data/file.log" >>"$log"
mark=$(last_of "$HM_SRC/tests/data/file.log")
hm_wait_for "learned '$mark'" 300 || hm_enf_fail "the follower did not save the log"
n=$(saves)
kill -TERM "$follower"
wait "$follower" || hm_fail "the follower exited $?"
follower=
hm_wait_for "[ \$(saves) -gt $n ]" 100 || hm_enf_fail "the enforcer never saved after the follower"
check1() {
	has "$H" "file read $T/b" "$1"
	has "$H" "file read $T/c" "$1"
	grep -qxF "file read/write/append /tmp/hmrec/f" "$dp" ||
		{ cat "$dp" >&2; hm_enf_fail "$1: the follower's learning is lost"; }
	learned "$mark" || hm_enf_fail "$1: the follower's learned mark is lost"
}
check1 "enforcer after follower"
hm_ok "the enforcer waits for a follower; both learnings are saved"
hm_enf_stop

# ---- 2. a learner waits for the enforcer's (slow) save
HISTMAC_TEST_SAVE_DELAY_US=400000 hm_enf_start --save-interval 1
hm_enf_ok "$T/child" read "$T/a"	# a new domain: a save follows
hm_wait_for "[ \"\$(holder)\" = $DPID ]" 100 ||
	hm_enf_fail "the enforcer did not take the lock to save"
sed 's|/tmp/hmrec/|/tmp/hmrec2/|g; s|/workload|/workload2|g' \
	"$HM_SRC/tests/data/file.log" >"$HM_TMP/two.log"
rc=0
"$HISTMAC" learn -q -p "$POL" -i "$HM_TMP/two.log" --no-resolve --wait=60 \
	2>"$HM_TMP/learn.err" || rc=$?
[ "$rc" = 0 ] || { cat "$HM_TMP/learn.err" >&2; hm_enf_fail "learn --wait exited $rc"; }
grep -qxF "file read/write/append /tmp/hmrec2/f" "$dp" ||
	hm_enf_fail "learn --wait did not save its log"
hm_enf_ok "$T/other" read "$T/b"	# learned after learn's save
hm_enf_stop
check1 "after a learner waited"
has "<kernel> $T/child" "file read $T/a" "after a learner waited"
has "<kernel> $T/other" "file read $T/b" "after a learner waited"
grep -qxF "file read/write/append /tmp/hmrec2/f" "$dp" ||
	{ cat "$dp" >&2; hm_enf_fail "the enforcer's last save lost learn's log"; }
[ ! -e "$POL/.histmac.lock" ] || hm_enf_fail "the lock file outlived its holders"
hm_ok "learn --wait waits for the enforcer's save; nothing either learned is lost"
