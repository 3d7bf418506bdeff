#!/bin/bash
# t_record_stub.sh - auparse is given only the stamp of a record whose
# content the collector does not read (collector/stream.c record_len(),
# hm_record_use()); what the collector tells must not change for that:
# every record still counted, a PROCTITLE whose field the stream marked
# malformed still damages its event when the field is one a decision
# needs (and a literal %malformed% likewise), an unknown record type
# still named, a decision record's text still read, PROCTITLE decoded
# when asked for (JSON), on one thread and on three alike.  (Exit 1:
# the damaged input is reported.)
. "$(dirname "$0")/lib.sh"

log=$tmp/stub.log
sc='arch=c000003e syscall=2 success=yes exit=3 a0=1 a1=0 a2=0 a3=0'
id='auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm="cat" exe="/usr/bin/cat" key=(null)'
cat >"$log" <<LOG
node=h1 type=SYSCALL msg=audit(100.001:5): $sc items=1 ppid=1 pid=10 $id
node=h1 type=CWD msg=audit(100.001:5): cwd="/"
node=h1 type=PATH msg=audit(100.001:5): item=0 name="/etc/passwd" inode=5 dev=fd:00 mode=0100644 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL
node=h1 type=PROCTITLE msg=audit(100.001:5): proctitle=636174 pid="1
type=SYSCALL msg=audit(100.002:6): $sc items=1 ppid=1 pid=11 $id
type=BPRM_FCAPS msg=audit(100.002:6): fver=0 fp=0 fi=0 fe=0 old_pp=0 pid="x
type=UNKNOWN[1999] msg=audit(100.002:6): foo=bar
type=PATH msg=audit(100.002:6): item=0 name="/etc/shadow" inode=6 dev=fd:00 mode=0100640 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL
type=PROCTITLE msg=audit(100.002:6): proctitle=%malformed% exit=%malformed%
type=SYSCALL msg=audit(100.003:7): $sc items=0 ppid=1 pid=12 $id
type=PROCTITLE msg=audit(100.003:7): proctitle=636174
type=USER_AVC msg=audit(100.004:8): pid=1 uid=0 msg='op=histmac-decision domain=3C6B65726E656C3E res=0'
LOG

for n in 1 3; do
	expect_rc 1 "$HISTMAC" events --no-resolve -v -s --threads $n -i "$log"
	mv "$tmp/out" "$tmp/tsv.$n"
	mv "$tmp/err" "$tmp/err.$n"
	expect_rc 1 "$HISTMAC" events --no-resolve -f json --threads $n -i "$log"
	mv "$tmp/out" "$tmp/json.$n"
done
err=$tmp/err.1
grep -q 'event 5: bad-field-value: PROCTITLE pid (event damaged)' "$err" ||
	fail "a PROCTITLE's malformed pid= no longer damages its event"
grep -q 'event 6: bad-field-value: PROCTITLE exit (event damaged)' "$err" ||
	fail "a PROCTITLE's literal %malformed% exit= no longer damages its event"
grep -q 'event 6: unknown-record-type: record type 1999' "$err" ||
	fail "the unknown record type is not named"
grep -q '^events 4 records 12 ' "$err" ||
	fail "not every record counted: $(grep '^events' "$err")"
grep -q 'decision.*domain=<kernel>$' "$tmp/tsv.1" ||
	fail "the decision record's text was not read"
[ "$(grep -c '"proctitle":"cat"' "$tmp/json.1")" = 2 ] ||
	fail "PROCTITLE not decoded in JSON"
grep -q '"serial":7,.*"damaged"' "$tmp/json.1" &&
	fail "event 7 damaged, its records are sound"
for f in tsv err json; do
	cmp -s "$tmp/$f.1" "$tmp/$f.3" || fail "$f: --threads 3 differs from 1"
done
finish t_record_stub
