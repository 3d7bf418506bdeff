#!/bin/bash
# t_threads.sh - --threads N gives what one thread reading the log
# straight (as a followed log is read: fed to auparse as it comes, no
# batches, nothing taken out for the memo) gives: events (TSV and JSON,
# with every skip named and the counters), learn (policy files, summary,
# warnings) and check (report), byte for byte, with one parser and with
# three, on every log of the test data and the sample, on a rotated pair
# read as one stream, and on logs large enough to be cut into many
# batches (an interleaved one with damaged lines among them, so the
# diagnostics of one batch must be told between the events of others
# exactly as one thread does).
. "$(dirname "$0")/lib.sh"

gen=$HM_SRC/tests/data/hostile/gen.pl

# same WHAT: $tmp/o.s $tmp/e.s $tmp/rc.s against the .1 and .3 ones.
same() {
	local n

	for n in 1 3; do
		cmp -s "$tmp/o.s" "$tmp/o.$n" ||
			fail "$1: stdout differs ($n)" \
			"$(diff "$tmp/o.s" "$tmp/o.$n" | head -5)"
		cmp -s "$tmp/e.s" "$tmp/e.$n" ||
			fail "$1: stderr differs ($n)" \
			"$(diff "$tmp/e.s" "$tmp/e.$n" | head -5)"
		[ "$(cat "$tmp/rc.s")" = "$(cat "$tmp/rc.$n")" ] ||
			fail "$1: exit $(cat "$tmp/rc.s") vs $(cat "$tmp/rc.$n")"
	done
}

# both N CMD...: CMD with --threads N (s: one, read straight), output in
# $tmp/{o,e,rc}.N.  Every parser uses a private copy of libauparse
# (loaded with dlmopen; the first one otherwise uses the program's), so
# that a log of one batch is parsed by such a copy every time.
both() {
	local n=$1 rc=0
	shift
	if [ "$n" = s ]; then
		HISTMAC_TEST_STRAIGHT=1 "$@" --threads 1 >"$tmp/o.$n" \
			2>"$tmp/e.$n" || rc=$?
	else
		HISTMAC_TEST_PRIVATE_AUPARSE=1 "$@" --threads "$n" \
			>"$tmp/o.$n" 2>"$tmp/e.$n" || rc=$?
	fi
	echo "$rc" >"$tmp/rc.$n"
}

# compare WHAT LOG...: events, learn and check on LOG... straight, with
# one parser and with three.
compare() {
	local what=$1 n
	shift
	for fmt in tsv json; do
		for n in s 1 3; do
			both $n "$HISTMAC" events -v -s --format $fmt -i "$@"
		done
		same "$what: events $fmt"
	done
	for n in s 1 3; do
		rm -rf "$tmp/p"
		both $n "$HISTMAC" learn -v -p "$tmp/p" -i "$@"
		rm -rf "$tmp/p.$n"
		mv "$tmp/p" "$tmp/p.$n"
	done
	same "$what: learn"
	diff -r "$tmp/p.s" "$tmp/p.1" >/dev/null ||
		fail "$what: learned policies differ (1)"
	diff -r "$tmp/p.s" "$tmp/p.3" >/dev/null ||
		fail "$what: learned policies differ (3)"
	mv "$tmp/p.s" "$tmp/p"
	for n in s 1 3; do
		both $n "$HISTMAC" check -v -p "$tmp/p" -i "$@"
	done
	same "$what: check"
	checked=$((checked + 1))
}

checked=0
for log in "$HM_SRC"/tests/data/*.log "$HM_SRC"/tests/data/hostile/*.log \
	   "$HM_SRC"/samples/audit/*.log; do
	compare "$(basename "$log")" "$log"
done
compare "rotated pair" "$HM_SRC/tests/data/rotated.log.1" \
	"$HM_SRC/tests/data/rotated.log"

# many batches: 3 MB of one writer's events; interleaved events with a
# line of each kind of damage every 500 lines (the last: a stamp past the
# 80 bytes where auparse looks for it, after a record of its event)
perl "$HM_SRC/bench/genlog.pl" 2 >"$tmp/quiet.log"
compare "quiet, 2 copies" "$tmp/quiet.log"
perl "$gen" interleave 3000 | awk '
	NR % 500 == 100 { print "garbage without a stamp" }
	NR % 500 == 200 { print "type=PATH msg=audit(1.000:" NR "): name=\"a b" }
	NR % 500 == 300 { print "type=CWD msg=audit(1.000:" NR "): cwd=\"/\" cwd=\"/x\"" }
	NR % 500 == 400 { print "type=PATH msg=audit(1700000000.000:" NR "): item=0 name=\"/x\""
			  print "type=PROCTITLE_NAMED_LONGER_THAN_AUPARSE_LOOKS_FOR_ITS_STAMP msg=audit(1700000000.000:" NR "): x=1" }
	{ print }' >"$tmp/damaged.log"
[ "$(wc -c <"$tmp/damaged.log")" -gt $((2 << 20)) ] ||
	fail "the damaged log is smaller than the window it must overflow"
compare "interleaved, damaged" "$tmp/damaged.log"
grep -q 'line-without-audit-stamp' "$tmp/e.1" ||
	fail "the damaged log's skips were not named"

# events older than the one before them (a system call is stamped when it
# began and written when it ended: one that blocked comes after younger
# ones): every other event of file.log 7 ms older.  auparse hands back the
# oldest event it holds first, so how the log was cut into reads decided
# their order; now they come out as the log has them, read straight, on
# one parser and on three, in reads of 97 bytes, 4 KiB and 64 KiB
perl -pe 'if (/msg=audit\((\d+)\.(\d+):(\d+)\)/ && $3 % 2 == 0 && $2 >= 7) {
	my $t = sprintf("%d.%03d", $1, $2 - 7); s/msg=audit\(\d+\.\d+:/msg=audit($t:/ }' \
	"$HM_SRC/tests/data/file.log" >"$tmp/older.log"
grep -o 'audit([0-9.]*:[0-9]*)' "$tmp/older.log" | tr -d 'audit()' |
	uniq >"$tmp/older.stamps"
! cut -d: -f1 "$tmp/older.stamps" | sort -n -c 2>/dev/null ||
	fail "older.log: no event is older than the one before it"
cut -d: -f2 "$tmp/older.stamps" >"$tmp/older.want"
for chunk in 97 4096 0; do
	export HISTMAC_TEST_READ_CHUNK=$chunk
	compare "events older than the one before, reads of ${chunk/#0/65536}" \
		"$tmp/older.log"
	for n in 1 3; do
		"$HISTMAC" events --threads $n -i "$tmp/older.log" |
			cut -f2 >"$tmp/older.got"
		cmp -s "$tmp/older.got" "$tmp/older.want" ||
			fail "older.log, reads of $chunk, $n threads: not in" \
			"log order: $(tr '\n' ' ' <"$tmp/older.got")"
	done
	unset HISTMAC_TEST_READ_CHUNK
done

# --threads takes 1 and up; follow and plugin keep one thread
expect_rc 2 "$HISTMAC" events --threads 0 -i "$HM_SRC/tests/data/file.log"
grep -q -- '--threads takes 1 to' "$tmp/err" || fail "--threads 0 not refused"

echo "  $checked inputs: events, learn and check alike on 1 and 3 threads"
finish t_threads
