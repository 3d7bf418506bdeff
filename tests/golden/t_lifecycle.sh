#!/usr/bin/env bash
# A policy directory lived with for weeks: one writer at a time, edits made
# under a running learner survive, re-learning changes nothing, bad input
# is refused and a failed run changes nothing on disk (sha256 and inode of
# every file), import and merge do not overwrite without --force.
# Needs $HISTMAC and $HM_SRC; no root.
. "$(dirname "$0")/lib.sh"
set +e	# each step counts its own failure (fail) and the next goes on
follower=
cleanup() {
	[ -n "$follower" ] && kill -TERM "$follower" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
said() { grep -qF -- "$1" "$tmp/err" || fail "stderr lacks '$1'"; }
# Every file of a directory: name, inode, sha256.
fingerprint() {
	(cd "$1" && for f in $(ls -A | sort); do
		printf '%s %s %s\n' "$f" "$(stat -c %i "$f")" \
			"$(sha256sum <"$f" | cut -d' ' -f1)"
	done)
}
sample=$HM_SRC/samples/audit/apache2-sysv.log
pol=$tmp/pol

# 1. Re-learning the same log leaves the directory as it was, byte for
# byte and inode for inode (no counter doubles, no file is rewritten).
expect_rc 0 "$HISTMAC" learn -q -p "$pol" -i "$sample"
fingerprint "$pol" >"$tmp/fp1"
grep -q '^# histmac: learned - ' "$pol/domain_policy.conf" ||
	fail "no learned mark in the policy"
expect_rc 0 "$HISTMAC" learn -q -p "$pol" -i "$sample"
fingerprint "$pol" >"$tmp/fp2"
cmp -s "$tmp/fp1" "$tmp/fp2" || { diff "$tmp/fp1" "$tmp/fp2" >&2; fail "re-learning changed the directory"; }

# 2. A failed run changes nothing: one missing input among several, a file
# without audit records; each error names its file.
expect_rc 3 "$HISTMAC" learn -q -p "$pol" -i "$HM_SRC/tests/data/file.log" "$tmp/missing.log"
said "$tmp/missing.log: No such file or directory"
printf 'not an audit record\n' >"$tmp/junk.log"
expect_rc 3 "$HISTMAC" learn -q -p "$pol" -i "$tmp/junk.log"
said "$tmp/junk.log: warning: no audit records"
said "learn: not one audit record in the input"
fingerprint "$pol" >"$tmp/fp3"
cmp -s "$tmp/fp1" "$tmp/fp3" || { diff "$tmp/fp1" "$tmp/fp3" >&2; fail "a failed learn changed the directory"; }
expect_rc 3 "$HISTMAC" check -p "$pol" -i "$tmp/junk.log"
said "$tmp/junk.log: warning: no audit records"
# one input without records among good ones is named, and the run goes on
: >"$tmp/empty.log"
check_clean "$HISTMAC" check -p "$pol" -i "$tmp/empty.log" "$sample" "$tmp/junk.log"
said "$tmp/empty.log: warning: no audit records"
said "$tmp/junk.log: warning: no audit records"
grep -qF "$sample: warning" "$tmp/err" && fail "a good input was named as empty"
# ... and leaves no directory behind for an unreadable log
expect_rc 3 "$HISTMAC" learn -q -p "$tmp/new" -i "$tmp/missing.log"
[ ! -e "$tmp/new" ] || fail "a failed learn created its policy directory"

# 3. A directory without a policy is refused by the readers.
mkdir "$tmp/empty"
for cmd in "tree -p $tmp/empty" "check -p $tmp/empty -i $sample" \
	   "export -p $tmp/empty --format json" "stats -p $tmp/empty"; do
	# shellcheck disable=SC2086
	expect_rc 3 "$HISTMAC" $cmd
	said "$tmp/empty: no policy"
done

# 4. import and merge -o do not overwrite a policy unless told.
"$HISTMAC" learn -q -p "$tmp/other" -i "$HM_SRC/tests/data/file.log" 2>/dev/null
"$HISTMAC" export -p "$tmp/other" --format xml -o "$tmp/other.xml" 2>/dev/null
cp -a "$pol" "$tmp/keep"
fingerprint "$tmp/keep" >"$tmp/fpk"
expect_rc 3 "$HISTMAC" import --format xml -i "$tmp/other.xml" -p "$tmp/keep"
said "already holds a policy"
expect_rc 3 "$HISTMAC" merge "$tmp/other" -o "$tmp/keep"
said "already holds a policy"
fingerprint "$tmp/keep" >"$tmp/fpk2"
cmp -s "$tmp/fpk" "$tmp/fpk2" || fail "a refused import or merge changed the directory"
domains() { grep -c '^<kernel>' "$1/domain_policy.conf"; }
n_pol=$(domains "$pol") n_other=$(domains "$tmp/other")
expect_rc 0 "$HISTMAC" import --format xml -i "$tmp/other.xml" -p "$tmp/keep" --force
[ "$(domains "$tmp/keep")" -eq "$n_other" ] || fail "import --force did not replace"
cp -a "$pol" "$tmp/app" && rm -f "$tmp/app/.histmac.lock"
expect_rc 0 "$HISTMAC" import --format xml -i "$tmp/other.xml" -p "$tmp/app" --append
[ "$(domains "$tmp/app")" -gt "$n_pol" ] || fail "import --append added no domain"
cp -a "$pol" "$tmp/mrg"
expect_rc 0 "$HISTMAC" merge "$tmp/other" -o "$tmp/mrg" --append
[ "$(domains "$tmp/mrg")" -eq "$(domains "$tmp/app")" ] ||
	fail "merge --append and import --append differ"

# 5. One writer at a time: while a learner follows a log, a second
# writer is refused at once, naming the holder; --wait gives up in time.
log=$tmp/audit.log
: >"$log"
"$HISTMAC" learn -q -p "$tmp/live" --follow "$log" --save-interval 1 \
	2>"$tmp/follow.err" &
follower=$!
# A follower without checkpoint starts at the end of the log: wait for its
# first save (the checkpoint), which comes after it opened the log; the
# lock file appears before that (an append then would be skipped).
wait_until test -e "$tmp/live/follow.checkpoint"
cat "$HM_SRC/tests/data/file.log" >>"$log"
# A save may come between two events of the log; wait for the one whose
# learned mark is the log's last event, so step 6 finds its entries.
last=$(tail -n1 "$HM_SRC/tests/data/file.log" | sed 's/.*audit(\([0-9.:]*\)).*/\1/')
wait_until grep -qxF "# histmac: learned - $last" \
	"$tmp/live/domain_policy.conf" ||
	fail "the follower did not save all of the log"
expect_rc 3 "$HISTMAC" learn -q -p "$tmp/live" -i "$sample"
said "is being written by pid $follower"
said "learn -q -p $tmp/live --follow"
start=$(date +%s)
expect_rc 3 "$HISTMAC" patternize -p "$tmp/live" --apply --wait=1
[ $(($(date +%s) - start)) -ge 1 ] || fail "--wait=1 did not wait"
expect_rc 3 "$HISTMAC" merge "$tmp/other" -o "$tmp/live" --force
said "is being written by pid $follower"
expect_rc 3 "$HISTMAC" profile -p "$tmp/live" enforcing '<kernel>'
said "is being written by pid $follower"

# 6. An edit made under the running learner survives its saves: a profile
# set to enforcing, a deleted entry; new learning is still added.
dom=$(grep -m1 '^<kernel> ' "$tmp/live/domain_policy.conf")
entry=$(awk -v d="$dom" '$0 == d { f = 1; next } f && /^file / { print; exit }' \
	"$tmp/live/domain_policy.conf")
[ -n "$entry" ] || fail "no entry to delete in '$dom'"
awk -v d="$dom" -v e="$entry" '
	$0 == d { f = 1; print; next }
	f && /^use_profile / { print "use_profile 3"; next }
	f && $0 == e { next }
	/^<kernel>/ { f = 0 }
	{ print }' "$tmp/live/domain_policy.conf" >"$tmp/edited"
cat "$tmp/edited" >"$tmp/live/domain_policy.conf"	# as an editor saves
kill -HUP "$follower"
# new learning, by another program (the edited domain now enforces)
sed 's|/tmp/hmrec/|/tmp/hmrec-new/|g; s|/workload|/workload2|g; s/pid=1/pid=2/g' \
	"$HM_SRC/tests/data/file.log" >>"$log"
wait_until grep -q '/tmp/hmrec-new/' "$tmp/live/domain_policy.conf"
kill -TERM "$follower"
wait "$follower" || fail "the follower exited $?"
follower=
grep -q '/tmp/hmrec-new/' "$tmp/live/domain_policy.conf" ||
	fail "new learning was not saved"
awk -v d="$dom" '$0 == d { getline; print; exit }' "$tmp/live/domain_policy.conf" |
	grep -qx 'use_profile 3' || fail "the profile edit was reverted"
awk -v d="$dom" '$0 == d { f = 1; next } /^<kernel>/ { f = 0 } f' \
	"$tmp/live/domain_policy.conf" | grep -qxF "$entry" &&
	fail "the deleted entry '$entry' came back"
[ ! -e "$tmp/live/.histmac.lock" ] || fail "the lock file outlived its holder"
rc=0
"$HISTMAC" learn -q -p "$tmp/live" -i "$sample" >/dev/null 2>&1 || rc=$?
[ "$rc" -ne 3 ] || fail "the lock is still held after the follower stopped"

finish t_lifecycle
