#!/bin/bash
# t_collector_events.sh - the real auditd with `histmac rules` records a
# workload (execs, file ops, a fifo, a symlink, TCP/UDP/unix sockets on
# 127.0.0.1, a signal); `histmac events -i LOG` must show every action
# with the right kind, paths and addresses, in TSV and JSON.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl awk
hm_build_workload
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
grep -q "exe=$(readlink -f "$HISTMAC") -F uid=0\$" "$HM_TMP/rules" ||
	hm_fail "histmac rules does not exclude the binary itself"
hm_audit_rules "$HM_TMP/rules"

w=$HM_TMP/w
mkdir -p "$w"
hm_audit_marker >/dev/null
for step in exec relexec script file relfile fifo symlink net signal; do
	"$HM_WORKLOAD" "$step" "$w" 47100 >/dev/null
done
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/audit.log"

ev=$HM_TMP/ev.tsv
"$HISTMAC" events --no-resolve -i "$HM_TMP/audit.log" >"$ev" ||
	hm_fail "histmac events failed on a real log"
hm_expect "$ev" exec /bin/echo - '(^| )argv=echo,hello( |$)'
hm_expect "$ev" exec /usr/bin/true - 'argv=true,arg\\040with\\040space,quote"d'
hm_expect "$ev" exec /usr/bin/true - 'argv=true,rel .*cwd=/usr/lib'
hm_expect "$ev" exec "$w/script.sh" - 'interp=/bin/sh'
hm_expect "$ev" open "$w/f" - 'flags=01101 mode=0640 created=1'
hm_expect "$ev" open "$w/f" - 'flags=02001'
hm_expect "$ev" rename "$w/f" "$w/g" ''
hm_expect "$ev" link "$w/g" "$w/h" ''
hm_expect "$ev" unlink "$w/h" - ''
hm_expect "$ev" truncate "$w/g" - ''
hm_expect "$ev" chmod "$w/g" - 'mode=0600'
hm_expect "$ev" chown "$w/g" - 'owner=0:0'
hm_expect "$ev" mkdir "$w/d/" - 'mode=0750 created=1'
hm_expect "$ev" rmdir "$w/d/" - 'removedir=1'
hm_expect "$ev" open "$w/c" - 'flags=01101'
hm_expect "$ev" open "$w/sp\\040ace" - 'created=1'
hm_expect "$ev" open "$w/rel" - 'created=1'
hm_expect "$ev" mknod "$w/fifo" - 'mode=010600 created=1'
hm_expect "$ev" mknod "$w/null" - 'mode=020600 created=1 dev=1:3'
hm_expect "$ev" symlink "$w/link" - "linkto=target"
hm_expect "$ev" open "$w/linkdir/obj" - 'created=1'
hm_expect "$ev" socket - - 'family=inet type=stream'
hm_expect "$ev" bind - - 'family=inet type=stream fd=[0-9]+ addr=127.0.0.1 port=47100'
hm_expect "$ev" listen - - 'family=inet type=stream fd=[0-9]+ addr=127.0.0.1 port=47100'
hm_expect "$ev" connect - - 'family=inet type=stream fd=[0-9]+ addr=127.0.0.1 port=47100'
hm_expect "$ev" accept - - 'family=inet type=stream'
hm_expect "$ev" send - - 'family=inet type=dgram fd=[0-9]+ addr=127.0.0.1 port=47101'
hm_expect "$ev" bind "$w/usock" - "family=unix type=stream fd=[0-9]+ unix=$w/usock"
hm_expect "$ev" signal - - 'sig=15 target=[0-9]+ tcomm=workload'
hm_ok "every action of the workload is in the TSV output"

# symlinks resolved (the default for every source, docs/PATHS.md): the
# object opened through linkdir/
"$HISTMAC" events -i "$HM_TMP/audit.log" >"$HM_TMP/res.tsv"
hm_expect "$HM_TMP/res.tsv" open "$w/real/obj" - 'created=1'
# the program's directory resolved as TOMOYO does, its last component
# kept (/bin/echo is /usr/bin/echo on a merged-/usr system)
echo_name=$(readlink -f /bin)/echo
hm_expect "$HM_TMP/res.tsv" exec "$echo_name" - 'interp=/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2'
hm_ok "-i resolves symlinks by default, a program's directory but not its last component"

"$HISTMAC" events --format json -i "$HM_TMP/audit.log" >"$HM_TMP/ev.json"
grep -q '"kind":"bind".*"sockaddr":{"family":"inet","addr":"127.0.0.1","port":47100}' "$HM_TMP/ev.json" ||
	hm_fail "no bind in JSON"
grep -q "\"kind\":\"rename\".*\"paths\":\\[{\"path\":\"$w/f\"" "$HM_TMP/ev.json" ||
	hm_fail "no rename in JSON"
[ "$(wc -l <"$HM_TMP/ev.json")" = "$(wc -l <"$ev")" ] ||
	hm_fail "JSON and TSV differ in event count"
hm_ok "JSON output"

# what must fail does fail
rc=0; "$HISTMAC" events --checkpoint "$HM_TMP/ck" >/dev/null 2>&1 </dev/null || rc=$?
[ "$rc" = 2 ] || hm_fail "--checkpoint without --follow: exit $rc, want 2"
# no input named: stdin, as with -i -
rc=0; "$HISTMAC" events </dev/null >"$HM_TMP/empty.out" 2>"$HM_TMP/empty.err" || rc=$?
[ "$rc" = 0 ] && [ ! -s "$HM_TMP/empty.out" ] || hm_fail "empty stdin: exit $rc"
grep -qx '(stdin): warning: no audit records' "$HM_TMP/empty.err" ||
	hm_fail "empty stdin not named: $(cat "$HM_TMP/empty.err")"
rc=0; "$HISTMAC" events -i "$HM_TMP/none" >/dev/null 2>&1 || rc=$?
[ "$rc" = 3 ] || hm_fail "missing file: exit $rc, want 3"
rc=0; printf 'garbage\n' | "$HISTMAC" events -i - >/dev/null 2>"$HM_TMP/err" || rc=$?
[ "$rc" = 1 ] && grep -q line-without-audit-stamp "$HM_TMP/err" ||
	hm_fail "garbage: exit $rc, want 1 and a count"
hm_ok "usage and input errors"
