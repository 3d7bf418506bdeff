#!/usr/bin/env bash
# A follower whose log is idle does not save again and again: the periodic
# save (--save-interval) is skipped while nothing new was read since the
# last one, and comes back with the next records; SIGHUP still saves.
# Needs $HISTMAC and $HM_SRC; no root.
. "$(dirname "$0")/lib.sh"
follower=
cleanup() {
	[ -n "$follower" ] && kill -TERM "$follower" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
log=$tmp/audit.log
: >"$log"
saves() { grep -c '^learn: saved ' "$tmp/follow.err" || true; }
saved_at_least() { [ "$(saves)" -ge "$1" ]; }
# wait_saves N: until the follower has said N saves (30 s at most)
wait_saves() { wait_until saved_at_least "$1"; }

"$HISTMAC" learn -p "$tmp/pol" --follow "$log" --save-interval 1 \
	2>"$tmp/follow.err" &
follower=$!
wait_saves 1 || die "the follower never saved"
# three intervals with nothing to read: no save (before: one a second)
sleep 3.5
[ "$(saves)" -eq 1 ] ||
	fail "an idle follower saved $(saves) times in 3.5 s, want once"

# records again: saved, up to the log's last event
cat "$HM_SRC/tests/data/file.log" >>"$log"
last=$(tail -n1 "$HM_SRC/tests/data/file.log" |
	sed 's/.*audit(\([0-9.:]*\)).*/\1/')
wait_until grep -qxF "# histmac: learned - $last" \
	"$tmp/pol/domain_policy.conf" ||
	fail "the records appended were not saved"
n=$(saves)
[ "$n" -ge 2 ] || fail "no save said after the records"
# idle again: the save found on disk may not have been said yet, so one
# more message may come; not one a second
sleep 3.5
[ "$(saves)" -le $((n + 1)) ] ||
	fail "idle again, the follower saved $(($(saves) - n)) more times"

# SIGHUP reloads and saves, idle or not
n=$(saves)
kill -HUP "$follower"
wait_saves $((n + 1)) || fail "SIGHUP did not save"
kill -TERM "$follower"
wait "$follower" || fail "the follower exited $?"
follower=
grep -q '^error' "$tmp/follow.err" && fail "the follower said an error"
finish t_follow_idle
