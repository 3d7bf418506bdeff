#!/usr/bin/env bash
# t_check_landlock.sh - `histmac check` of a log recorded under `histmac
# sandbox` (issue 25 #5): a call Landlock denied on an object the policy
# lacks is a violation marked enforced (a directory read too); one on an
# object the policy allows, and one check derives no access from (a
# signal), are each counted with an example, not violations; a read of
# the sandbox's preload library is the sandbox's own; an EACCES without
# Landlock's record stays an attempt.  Expected text:
# check-landlock/expected.txt (regenerate: run check as below and review).
. "$(dirname "$0")/lib.sh"
. "$HM_SRC/tests/golden/check-landlock/gen.sh"
golden=$HM_SRC/tests/golden/check-landlock

# learned unconfined: the program reads a file and lists a directory
{
	exec_app 100 200
	open_at 101 200 /srv/w/data 80000 0100644 103
	open_at 102 200 /srv/w/conf 90800 040755 104
} >"$tmp/learn.log"
# the same program under the sandbox
{
	exec_app 200 300
	open_at 201 300 /opt/hm/libhistmac-sandbox.so 80000 0100644 105
	open_at 202 300 /srv/w/data 80000 0100644 103
	open_at 203 300 /srv/w/private 90800 040755 106 fs.read_dir
	open_at 204 300 /srv/w/data 80000 0100644 107 fs.read_file
	kill_denied 205 300
	open_at 206 300 /srv/w/secret 80000 0100600 108 -
} >"$tmp/sbx.log"

"$HISTMAC" learn -q --no-resolve -p "$tmp/p" -i "$tmp/learn.log" 2>/dev/null ||
	die "learn exited $?"
export HISTMAC_SANDBOX_PRELOAD=/opt/hm/libhistmac-sandbox.so
expect_rc 1 "$HISTMAC" check --no-resolve -p "$tmp/p" -i "$tmp/sbx.log"
sed "s|$tmp/p|POLICY|" "$tmp/out" >"$tmp/text"
diff -u "$golden/expected.txt" "$tmp/text" || fail "text report differs from golden"

expect_rc 1 "$HISTMAC" check --no-resolve -p "$tmp/p" -i "$tmp/sbx.log" --format json
jq -e '.denied == 1 and .landlock_allowed == 1 and .landlock_no_access == 1 and
	.sandbox_own_reads == 1 and .attempted == 1 and
	.violations[0].line == "file read /srv/w/private/" and
	.violations[0].enforced == 1' "$tmp/out" >/dev/null ||
	fail "JSON counts: $(cat "$tmp/out")"

# control: a preload elsewhere than histmac's places is a read like any
export HISTMAC_SANDBOX_PRELOAD=/elsewhere/libhistmac-sandbox.so
expect_rc 1 "$HISTMAC" check --no-resolve -p "$tmp/p" -i "$tmp/sbx.log"
grep -qx 'file read /opt/hm/libhistmac-sandbox.so' "$tmp/out" ||
	fail "a read of a library that is not the sandbox's is not a violation"
grep -q "preload library" "$tmp/out" && fail "another library counted as the preload"
finish t_check_landlock
