#!/usr/bin/env bash
# t_check_landlock.sh - `histmac check` of a log recorded under `histmac
# sandbox` (issue 25 #5): a call Landlock denied on an object the policy
# lacks is a violation marked enforced (a directory read too); one on an
# object the policy allows, and one check derives no access from (a
# signal), are each counted with an example, not violations; a read of
# the sandbox's preload library is the sandbox's own, and so are the
# preload's read of the table's copy and write of the report FIFO in the
# sandbox's private directory (a root sandbox's 0444/0622 files owned by
# root, a user's 0400/0600 owned by the process's own user), while
# look-alikes are judged: a 0444 copy its reader owns (anyone may make
# the directory in /tmp), a regular file named report, five X's, upper
# case hex digits, a directory more, a prefix glued to the name, a read
# of the FIFO; an EACCES without Landlock's record stays an attempt.
# Expected text:
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
	# the sandbox's private directory (sandbox/launch.c)
	d=/tmp/histmac-sandbox.Ab3xY9
	r=0123456789abcdef0123456789abcdef
	open_at 207 300 $d/$r/table 80000 0100444 109		# root's: own
	open_at 208 300 $d/$r/report 80801 010622 110		# root's: own
	open_at 209 300 $d/$r/table 80000 0100400 111 "" 65534	# own user's: own
	open_at 210 300 $d/$r/report 80801 010600 112 "" 65534	# own user's: own
	# look-alikes: judged
	open_at 211 300 $d/${r%?}1/table 80000 0100444 113 "" 65534
	open_at 212 300 $d/${r%?}2/report 80801 0100622 114
	open_at 213 300 ${d%?}/$r/table 80000 0100444 115
	open_at 214 300 $d/0123456789ABCDEF0123456789ABCDEF/table 80000 0100444 116
	open_at 215 300 $d/$r/x/table 80000 0100444 117
	open_at 216 300 /tmp/evil-histmac-sandbox.Ab3xY9/$r/table 80000 0100444 118
	open_at 217 300 $d/${r%?}3/report 80000 010622 119
} >"$tmp/sbx.log"

"$HISTMAC" learn -q --no-resolve -p "$tmp/p" -i "$tmp/learn.log" 2>/dev/null ||
	die "learn exited $?"
export HISTMAC_SANDBOX_PRELOAD=/opt/hm/libhistmac-sandbox.so
expect_rc 1 "$HISTMAC" check --no-resolve -p "$tmp/p" -i "$tmp/sbx.log"
sed "s|$tmp/p|POLICY|" "$tmp/out" >"$tmp/text"
diff -u "$golden/expected.txt" "$tmp/text" || fail "text report differs from golden"

expect_rc 1 "$HISTMAC" check --no-resolve -p "$tmp/p" -i "$tmp/sbx.log" --format json
jq -e '.denied == 8 and .landlock_allowed == 1 and .landlock_no_access == 1 and
	.sandbox_own_reads == 5 and .attempted == 1 and
	([.violations[] | select(.line == "file read /srv/w/private/")][0].enforced == 1) and
	([.violations[] | select(.line | test("histmac-sandbox"))] | length == 7)' \
	"$tmp/out" >/dev/null ||
	fail "JSON counts: $(cat "$tmp/out")"

# control: a preload elsewhere than histmac's places is a read like any
export HISTMAC_SANDBOX_PRELOAD=/elsewhere/libhistmac-sandbox.so
expect_rc 1 "$HISTMAC" check --no-resolve -p "$tmp/p" -i "$tmp/sbx.log"
grep -qx 'file read /opt/hm/libhistmac-sandbox.so' "$tmp/out" ||
	fail "a read of a library that is not the sandbox's is not a violation"
grep -q "^# 4 accesses of the sandbox's own files" "$tmp/out" ||
	fail "another library counted as the preload: $(grep "sandbox's own" "$tmp/out")"
finish t_check_landlock
