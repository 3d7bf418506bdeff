#!/bin/bash
# t_learn_hostile_user.sh - what an ordinary user puts in names, its
# task name, argv and cwd stays data through learn, check and patternize
# (the cases of docs/SECURITY.md "Trust of learning" that must hold).
# uid 65534, in a world-writable directory of the test's, opens files
# named like audit records and policy lines, with TOMOYO's wildcards and
# escapes, a newline, invalid UTF-8 and 255 bytes; runs with a task name
# and an argument that read like records, from such a directory.
# learn learns each name as one encoded literal word and nothing else
# (no /etc/shadow, no wildcard); check of the same log against that
# policy denies nothing, and against the policy without them reports
# each (control); patternize --apply leaves them literal.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl python3
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"

hm_public_dir 1777
pub=$HM_PUB
cat >"$pub/user.py" <<'EOS'
#!/usr/bin/python3
# open every hostile name under argv[1], from a hostile cwd, under a
# hostile task name; argv[2] is only there to be logged
import ctypes, os, sys
d = os.fsencode(sys.argv[1])
names = [b"type=SYSCALL msg=audit(1.1:1): arch=c000003e syscall=2",
         b"file read \\etc\\shadow", b"\\*", b"\\$", b"\\{\\*\\}",
         b"a\nb", b"\xff\xfe", b"x" * 255]
libc = ctypes.CDLL(None)
libc.prctl(15, b"type=PATH name=/etc/shadow", 0, 0, 0)  # PR_SET_NAME
cwd = os.path.join(d, b"cwd type=CWD cwd=\"etc\"\nx")
os.mkdir(cwd)
os.chdir(cwd)
for n in names:
    with open(os.path.join(d, n), "wb") as f:
        f.write(b"x")
    with open(os.path.join(d, n), "rb") as f:
        f.read()
EOS
chmod 755 "$pub/user.py"

hm_audit_from_now
hm_audit_marker >/dev/null
"$pub/setuser" 65534 65534 "$pub/user.py" "$pub" &
upid=$!
wait "$upid" || hm_fail "the user's run failed"
hm_audit_marker >/dev/null
# the user's events alone: the rules see the whole machine, and the
# tests beside this one (ctest -j) remove what they made before check
# runs, their objects then unproven, their entries not learned
hm_audit_copy_tree "$HM_TMP/audit.log" "$upid"

# the words learn must write: bytes outside 0x21-0x7e as \ooo, '\' as \\
enc() { python3 -c 'import sys
b = sys.argv[1].encode("utf-8", "surrogateescape")
print("".join("\\\\" if c == 92 else chr(c) if 0x21 <= c <= 0x7e else "\\%03o" % c for c in b))' "$1"; }
# has_word FILE WORD: a file entry of FILE names WORD, whole
has_word() { W=$2 awk '$1 == "file" && $3 == ENVIRON["W"] { f = 1 } END { exit !f }' "$1"; }
p=$HM_TMP/p
"$HISTMAC" learn -q -p "$p" -i "$HM_TMP/audit.log" || hm_fail "learn failed"
while IFS= read -r -d '' name; do
	enc "$pub/$name"
done < <(cd "$pub" && find . -maxdepth 1 -type f ! -name setuser ! -name user.py -printf '%P\0') \
	>"$HM_TMP/words"
[ "$(wc -l <"$HM_TMP/words")" = 8 ] || hm_fail "$(wc -l <"$HM_TMP/words") hostile names on disk, want 8"
while IFS= read -r w; do
	has_word "$p/domain_policy.conf" "$w" ||
		hm_fail "not learned as one literal word: $w"
done <"$HM_TMP/words"
! grep -q '/etc/shadow$' "$p/domain_policy.conf" ||
	hm_fail "a name, comm, argv or cwd became /etc/shadow"
hm_ok "each hostile name learned as one encoded literal word"

# (files replaced since may be reported as unidentified objects: none
# of the test's)
rc=0
"$HISTMAC" check -p "$p" -i "$HM_TMP/audit.log" >"$HM_TMP/check" || rc=$?
grep -q ' 0 denied, ' "$HM_TMP/check" &&
	! grep ' not proven ' "$HM_TMP/check" | grep -qF "$pub" &&
	[ "$rc" -le 1 ] || hm_fail "check of the learned log: exit $rc: $(head -n 5 "$HM_TMP/check")"
# without_words FILE: its lines that name none of the 8 words
without_words() { awk 'NR == FNR { w[$0]; next } !($1 == "file" && ($3 in w))' "$HM_TMP/words" "$1"; }
without_words "$p/domain_policy.conf" >"$HM_TMP/dp"
cp -r "$p" "$HM_TMP/lacking"
cp "$HM_TMP/dp" "$HM_TMP/lacking/domain_policy.conf"
rc=0
"$HISTMAC" check -p "$HM_TMP/lacking" -i "$HM_TMP/audit.log" >"$HM_TMP/check2" || rc=$?
reported=$(awk 'NR == FNR { w[$0]; next } $1 == "file" && ($3 in w) { print $3 }' \
	"$HM_TMP/words" "$HM_TMP/check2" | sort -u | wc -l)
[ "$rc" = 1 ] && [ "$reported" = 8 ] ||
	hm_fail "check without them: exit $rc, $reported names reported, want 8"
hm_ok "check: the learned log is clean; without the entries each is reported"

"$HISTMAC" patternize --apply -p "$p" >"$HM_TMP/pat" || hm_fail "patternize --apply failed"
while IFS= read -r w; do
	has_word "$p/domain_policy.conf" "$w" ||
		hm_fail "patternize --apply rewrote $w"
done <"$HM_TMP/words"
! grep -q '/etc' "$p/rewrite.conf" 2>/dev/null || hm_fail "a rewrite rule over /etc"
hm_ok "patternize --apply leaves them literal"
