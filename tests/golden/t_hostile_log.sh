#!/bin/bash
# t_hostile_log.sh - hostile audit logs (tests/data/hostile, README.md):
# truncated and interleaved records, a 1 MiB argv, every byte value in a
# path, 4,096-component paths, a pid reuse storm and a 100,000-deep fork
# chain.  Each must give a counted, bounded result: no crash, no silent
# drop, peak RSS under a stated bound.
# Needs $HISTMAC and $HM_SRC; about 10 s on 2 cores.
. "$HM_SRC/tests/data/hostile/lib.sh"

# --- truncated records: each kind of damage counted, the rest delivered
run 1 "$HISTMAC" events -s -i "$hostile/truncated.log"
has "$tmp/err" '^events 8 ' "truncated: events"
has "$tmp/err" 'skipped line-without-audit-stamp +1$' "truncated: cut stamp"
# a last line without a newline is read under -i, as ausearch reads it
hasnt "$tmp/err" 'truncated-last-line' "truncated: last line read"
has "$tmp/out" $'^1700000100.008\t8\t.*\t/tmp/last-line-cut\t' "truncated: last line event"
# a name cut inside its quotes: the field is dropped, the event damaged
has "$tmp/err" 'skipped field-with-unpaired-quote +1$' "truncated: cut quote"
has "$tmp/err" 'skipped bad-field-value +1$' "truncated: cut name needed"
has "$tmp/err" 'skipped argv-truncated +1$' "truncated: argc > args"
has "$tmp/out" $'^1700000100.001\t1\t.*\t/tmp/whole\t' "truncated: whole event"
run 0 "$HISTMAC" learn -p "$tmp/trunc" -i "$hostile/truncated.log"
has "$tmp/out" 'not learned: no SYSCALL record +2$' "truncated: orphans counted"
has "$tmp/out" 'not learned: no usable path +2$' "truncated: pathless counted"
has "$tmp/trunc/domain_policy.conf" '^file read /tmp/whole$' "truncated: learned"
has "$tmp/trunc/domain_policy.conf" '^file read /tmp/last-line-cut$' "truncated: last line learned"

# --- an EXECVE record with argc= and not one argument (a crafted or cut
# log): no argument kept, counted, and both formats write the event
cat >"$tmp/noargs.log" <<'EOF'
type=SYSCALL msg=audit(1700000100.005:5): arch=c000003e syscall=59 success=yes exit=0 a0=1 a1=2 a2=3 a3=0 items=1 ppid=1 pid=701 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm="t" exe="/bin/x"
type=EXECVE msg=audit(1700000100.005:5): argc=3
type=PATH msg=audit(1700000100.005:5): item=0 name="/bin/x" inode=2 dev=fe:00 mode=0100755 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL
type=PROCTITLE msg=audit(1700000100.005:5): proctitle=74
EOF
for fmt in tsv json; do
	run 0 "$HISTMAC" events -s --format $fmt -i "$tmp/noargs.log"
	has "$tmp/err" 'skipped argv-truncated +1$' "no arguments: counted ($fmt)"
done
has "$tmp/out" '"argv":\[\],"argv_truncated":true' "no arguments: none written"

# --- interleaved records: two events whose records alternate with other
# events' between them are assembled whole
run 0 "$HISTMAC" events -i "$hostile/interleaved.log"
has "$tmp/out" $'^1700000001.001\t1001\t.*\t600\t.*\t/bin/il-a\t/tmp/il-a\t-\t' "interleaved: event A"
has "$tmp/out" $'^1700000001.002\t1002\t.*\t601\t.*\t/bin/il-b\t/tmp/il-b\t-\t' "interleaved: event B"
hasnt "$tmp/out" $'\tother\t' "interleaved: no fragments"
# 300 events (1,200 lines, under 2 s of log time) between records: whole
$gen interleave 300 >"$tmp/il.log"
run 0 "$HISTMAC" events -i "$tmp/il.log"
has "$tmp/out" $'^1700000001.001\t1001\t.*\t/tmp/il-a\t' "interleave 300: A whole"
hasnt "$tmp/out" $'\tother\t' "interleave 300: no fragments"
# 1,000 events between records, the log's clock moving 1 s per 1,000:
# auparse's end-of-event timeout (2 s of log time) cuts the event up
$gen interleave 1000 >"$tmp/il.log"
run 0 "$HISTMAC" learn -p "$tmp/il" -i "$tmp/il.log"
has "$tmp/out" 'not learned: no SYSCALL record +[1-9]' "interleave 1000: fragments counted"
known_gap "records of one event more than 2 s apart in log time are split (auparse eoe timeout)" \
	"! grep -q '^file read /tmp/il-a\$' '$tmp/il/domain_policy.conf' ||
	 ! grep -q '^file read /tmp/il-b\$' '$tmp/il/domain_policy.conf'"

# --- a 1 MiB argv: 50,000 args and a split one, 269 EXECVE records;
# exactly HM_COLLECTOR_MAX_ARGV bytes is kept, one more is cut and counted
$gen argv 1048576 >"$tmp/argv.log"
run 0 "$HISTMAC" events -s -i "$tmp/argv.log"
hasnt "$tmp/err" 'argv-truncated' "argv 1 MiB: not cut"
has "$tmp/out" $'\texec\t.*argv=/bin/hostile-argv,a000000001,a000000002,' "argv 1 MiB: args in order"
rss_below 65536 "events, 1 MiB argv"
$gen argv 1048577 >"$tmp/argv.log"
run 0 "$HISTMAC" learn -p "$tmp/argv" -i "$tmp/argv.log"
has "$tmp/out" 'skipped argv-truncated +1$' "argv 1 MiB + 1: cut and counted"
has "$tmp/argv/domain_policy.conf" '^file read /tmp/after-argv$' "argv: next event learned"
rss_below 65536 "learn, 1 MiB + 1 argv"

# --- every byte value 0x01..0xff in hex-encoded name= fields: encoded
# as TOMOYO words, written, read back and matched
$gen bytes >"$tmp/bytes.log"
run 0 "$HISTMAC" learn -p "$tmp/bytes" -i "$tmp/bytes.log"
has "$tmp/out" 'entries: 256 new' "bytes: 256 names learned"
d=$tmp/bytes/domain_policy.conf
has "$d" '^file read /tmp/hb/1-\\001-x$' "bytes: 0x01"
has "$d" '^file read /tmp/hb/10-\\012-x$' "bytes: newline"
has "$d" '^file read /tmp/hb/32-\\040-x$' "bytes: space"
has "$d" '^file read /tmp/hb/92-\\\\-x$' "bytes: backslash"
has "$d" '^file read /tmp/hb/255-\\377-x$' "bytes: 0xff"
has "$d" '^file read /tmp/hb/all-\\001\\002.*~\\177\\200.*\\376\\377$' "bytes: all in one name"
run 0 "$HISTMAC" policy check -p "$tmp/bytes"
has "$tmp/out" ', 256 entries, .*: 0 errors, 0 warnings$' "bytes: policy reads back"
run 0 "$HISTMAC" check -p "$tmp/bytes" -i "$tmp/bytes.log"
has "$tmp/out" ' 256 accesses checked, 0 denied' "bytes: learned policy allows all"

# --- comm, exe, program and path holding newlines and policy lines: all
# TOMOYO-encoded, nothing injected into the policy, the report or events
$gen inject >"$tmp/inject.log"
run 0 "$HISTMAC" learn -p "$tmp/inject" -i "$tmp/inject.log"
d=$tmp/inject/domain_policy.conf
hasnt "$d" '^(file read /etc/shadow|<kernel> /evil)$' "inject: policy line injected"
has "$d" '^<kernel> /tmp/x\\012<kernel>\\040/evil\\012file\\040read\\040/etc/shadow\\012$' "inject: domain encoded"
run 0 "$HISTMAC" policy check -p "$tmp/inject"
has "$tmp/out" ', 2 domains, 1 entries, .*: 0 errors' "inject: policy reads back"
run 1 "$HISTMAC" check -p "$hostile/policy-groups" -i "$tmp/inject.log"
hasnt "$tmp/out" '^(file read /etc/shadow|<kernel> /evil)$' "inject: check report"
[ "$(grep -c '^file ' "$tmp/out")" -eq 1 ] || fail "inject: check: $(cat "$tmp/out")"
run 0 "$HISTMAC" events -i "$tmp/inject.log"
[ "$(wc -l <"$tmp/out")" -eq 2 ] || fail "inject: events: $(cat "$tmp/out")"

# --- 4,096 components (CWD and name of 2,047/2,048 each), empty ones,
# .. past the root, . and x/..: normalised, or counted when too long
$gen deeppath >"$tmp/deep.log"
run 0 "$HISTMAC" learn -p "$tmp/deep" -i "$tmp/deep.log"
has "$tmp/out" 'entries: 5 new' "deep: 5 names learned"
has "$tmp/out" 'not learned: name too long +1$' "deep: 8,191 bytes counted"
has "$tmp/out" 'skipped bad-field-value +1$' "deep: 8,192-byte name= counted"
d=$tmp/deep/domain_policy.conf
has "$d" '^file read /f$' "deep: empty components"
has "$d" '^file read /up$' "deep: .. above the root"
has "$d" '^file read /tmp/deep$' "deep: . and x/.."
has "$d" '^file read (/c){2047}(/d){2047}/f$' "deep: 4,095 components kept"
check_clean "$HISTMAC" check -p "$tmp/deep" -i "$tmp/deep.log"
has "$tmp/out" ' 5 accesses checked, 0 denied' "deep: reads back and matches"

# --- pid reuse storm: pid 500 alternating between parents 1000, 1001
# and 1 (99,999 times); each incarnation learns in its parent's domain
$gen pidreuse 99999 >"$tmp/reuse.log"
run 0 "$HISTMAC" learn --no-resolve -p "$tmp/reuse" -i "$tmp/reuse.log"
has "$tmp/out" 'processes: 10000[0-9] pid reuse, 0 evicted' "reuse: counted"
d=$tmp/reuse/domain_policy.conf
for dom in a b; do
	awk -v d="<kernel> /bin/parent-$dom" '/^</ { cur = $0 } cur == d && /^file/' "$d" \
		>"$tmp/acl"
	printf 'file execute /bin/child\nfile read /tmp/reuse-%s\n' "$dom" |
		diff -u - "$tmp/acl" >/dev/null || fail "reuse: domain $dom: $(cat "$tmp/acl")"
done
has "$d" '^<kernel> /bin/orphan$' "reuse: ppid 1 is a new, unobserved process"
rss_below 32768 "learn, pid reuse storm"

# --- a 100,000-deep fork chain below one exec: the deepest child still
# acts in (and execs from) the domain at the top, without recursion
$gen forkchain 100000 >"$tmp/fork.log"
run 0 "$HISTMAC" learn --no-resolve -p "$tmp/fork" -i "$tmp/fork.log"
d=$tmp/fork/domain_policy.conf
awk '/^</ { cur = $0 } cur == "<kernel> /bin/forker" && /^file/' "$d" >"$tmp/acl"
printf 'file execute /bin/fork-leaf\nfile read /tmp/fork-end\n' |
	diff -u - "$tmp/acl" >/dev/null || fail "fork: $(cat "$tmp/acl")"
has "$d" '^<kernel> /bin/forker /bin/fork-leaf$' "fork: leaf domain"
rss_below 65536 "learn, 100,000-deep fork chain"

finish t_hostile_log
