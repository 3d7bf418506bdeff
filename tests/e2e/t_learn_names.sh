#!/bin/bash
# t_learn_names.sh - what an unprivileged user
# (uid 65534, unprivileged user namespaces allowed) can make learn and
# check name (docs/PATHS.md "The rule").
#
#   control  a root service reads its pid file through a root's symlink
#            (as /var/run/x.pid), replaced since: learned by its name;
#            nobody reads /etc/hostname in a user namespace, and its own
#            file through /proc/self/fd/N after an O_PATH open: learned
#            as the file; the control log checks clean.
#   swap     nobody reads W/d/file in a world-writable directory, then
#            makes d a symlink to a protected directory: nothing of the
#            protected directory is learned, the access is counted.
#   mount    nobody mounts its own file over /etc/hostname in a user
#            namespace and reads it: check reports an unidentified
#            object, never the allowed /etc/hostname.
#   procfd   a domain allowed proc:/self/fd/\$ only: check reports the
#            file opened through the link.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl setpriv unshare mount

# (made before the trail begins: what is learned is the test's accesses)
chmod 711 "$HM_TMP"
bin=$HM_TMP/bin
mkdir -m 755 "$bin"
hm_e2e_install try_open "$bin/try_open"
as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }

prot=$HM_TMP/prot			# root's, 0700
mkdir -m 700 "$prot"
echo secret >"$prot/file"
w=$HM_TMP/w				# world-writable, as /tmp
mkdir -m 1777 "$w"
own=$HM_TMP/own				# nobody's
mkdir -m 755 "$own"
echo hidden >"$own/secret"
echo mine >"$own/pfile"
chown -R 65534:65534 "$own"
ctl=$(mktemp -d /run/hm-t-names.XXXXXX)	# root-only, as /run
hm_on_exit "rm -rf '$ctl'"
chmod 755 "$ctl"
mkdir -m 755 "$ctl/run"
ln -s run "$ctl/varrun"
echo 1 >"$ctl/run/x.pid"
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"

# ---- control
"$bin/try_open" "$ctl/varrun/x.pid" | grep -q '^allowed' || hm_fail "control: pid file"
as_nobody unshare -Urm "$bin/try_open" /etc/hostname | grep -q '^allowed' ||
	hm_fail "control: /etc/hostname"
as_nobody "$bin/try_open" "@$own/pfile" | grep -q '^allowed' || hm_fail "control: O_PATH"
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/control.log"
# the service runs again: its pid file is another inode now
echo 2 >"$ctl/run/x.new" && mv "$ctl/run/x.new" "$ctl/run/x.pid"

"$HISTMAC" learn -p "$HM_TMP/p" -i "$HM_TMP/control.log" >"$HM_TMP/learn.out" 2>&1 ||
	hm_fail "learn control: $(cat "$HM_TMP/learn.out")"
pol=$HM_TMP/p/domain_policy.conf
grep -q "file read $ctl/run/x.pid\$" "$pol" || hm_fail "replaced pid file not learned by its name"
grep -q "file read /etc/hostname\$" "$pol" || hm_fail "/etc/hostname not learned"
grep -q "file read $own/pfile\$" "$pol" || hm_fail "the file behind /proc/self/fd not learned"
! grep -q 'proc:/self/fd/[^ ]' "$pol" || hm_fail "learned the link: $(grep 'proc:/self/fd/[^ ]' "$pol")"
# (the log holds whatever else the host did meanwhile: judged by lines)
"$HISTMAC" check -p "$HM_TMP/p" -i "$HM_TMP/control.log" >"$HM_TMP/check.out" 2>&1 || true
! grep -q "file read \(/etc/hostname\|$own/pfile\) " "$HM_TMP/check.out" ||
	hm_fail "control check: $(grep "file read \(/etc/hostname\|$own/pfile\)" "$HM_TMP/check.out")"
# the pid file was replaced since: not proven now, reported as such
grep -q "^#   file read $ctl/run/x.pid in .*not proven" "$HM_TMP/check.out" ||
	hm_fail "control check: the replaced pid file is not reported"
hm_ok "control: replaced pid file, /etc/hostname and an O_PATH file learned by their names"

# ---- procfd: a domain allowed only the link
sed -i "s|^file read $own/pfile\$|file read proc:/self/fd/\\\\\$|" "$pol"
rc=0
"$HISTMAC" check -p "$HM_TMP/p" -i "$HM_TMP/control.log" >"$HM_TMP/check.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || hm_fail "procfd: check exit $rc: $(cat "$HM_TMP/check.out")"
grep -q "^file read $own/pfile\$" "$HM_TMP/check.out" ||
	hm_fail "procfd: the file not reported: $(cat "$HM_TMP/check.out")"
hm_ok "procfd: the object behind /proc/self/fd is what check judges"

# ---- attacks
as_nobody sh -c "mkdir '$w/d' && echo mine >'$w/d/file' && '$bin/try_open' '$w/d/file' &&
	rm -r '$w/d' && ln -s '$prot' '$w/d'" | grep -q '^allowed' || hm_fail "swap: set up"
as_nobody unshare -Urm sh -c "mount --bind '$own/secret' /etc/hostname &&
	'$bin/try_open' /etc/hostname" | grep -q '^allowed' || hm_fail "mount: set up"
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/all.log"

"$HISTMAC" learn -p "$HM_TMP/a" -i "$HM_TMP/all.log" >"$HM_TMP/learn.out" 2>&1 ||
	hm_fail "learn attacks: $(cat "$HM_TMP/learn.out")"
! grep -q "$prot/" "$HM_TMP/a/domain_policy.conf" ||
	hm_fail "swap: learned $(grep "$prot/" "$HM_TMP/a/domain_policy.conf")"
grep -q 'not learned: object not proven (resolve-unproven) *[1-9]' "$HM_TMP/learn.out" ||
	hm_fail "swap: not counted: $(cat "$HM_TMP/learn.out")"
"$HISTMAC" events --stats -i "$HM_TMP/all.log" >"$HM_TMP/ev" 2>"$HM_TMP/ev.err" || true
grep -q 'resolve-unproven [1-9]' "$HM_TMP/ev.err" || hm_fail "swap: events --stats: $(cat "$HM_TMP/ev.err")"
hm_ok "swap: nothing of the protected directory learned, counted as resolve-unproven"

sed -i "s|^file read proc:/self/fd/\\\\\$\$|file read $own/pfile|" "$pol"
# only the events of this test's try_open: what else the host did
# meanwhile (other tests' files gone since) would fill the report's
# examples
awk -v exe="exe=\"$bin/try_open\"" 'NR == FNR {
	if (/^type=SYSCALL/ && index($0, exe) && match($0, /audit\([0-9.:]+\)/))
		mine[substr($0, RSTART, RLENGTH)] = 1
	next
}
match($0, /audit\([0-9.:]+\)/) && substr($0, RSTART, RLENGTH) in mine' \
	"$HM_TMP/all.log" "$HM_TMP/all.log" >"$HM_TMP/nobody.log"
rc=0
"$HISTMAC" check -p "$HM_TMP/p" -i "$HM_TMP/nobody.log" >"$HM_TMP/check.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || hm_fail "mount: check exit $rc: $(cat "$HM_TMP/check.out")"
grep -q "^#   file read /etc/hostname in .*not proven" "$HM_TMP/check.out" ||
	hm_fail "mount: not reported: $(cat "$HM_TMP/check.out")"
grep -q "^#   file read $w/d/file in .*not proven" "$HM_TMP/check.out" ||
	hm_fail "swap: check does not report it: $(cat "$HM_TMP/check.out")"
! grep -q "$prot/" "$HM_TMP/check.out" || hm_fail "check names the protected file"
hm_ok "mount: check reports the object under /etc/hostname as unidentified"
