#!/usr/bin/env bash
# A learned Python program and a learned `ls DIR` run under the sandbox
# (issue 21 #1, the learning side of t_sandbox_dirs): as nobody, under
# the real auditd with `histmac rules`,
#  1. python3 lists a directory and reads a file, ls lists another one;
#     `histmac learn` writes their domains (initialize_domain makes each a
#     root domain, so learning and the sandboxed run name the same ones),
#     with the directories as "file read DIR/" entries;
#  2. under `histmac sandbox` with that policy both run again and print
#     what they printed unconfined;
#  3. what was not learned fails with EACCES: Python reading another file
#     and listing another directory, ls listing another directory (each
#     works unconfined, so the sandbox is what refuses it).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

hm_need auditd auditctl
sbx_setup
py=$(readlink -f /usr/bin/python3)
[ -x "$py" ] || hm_fail "no /usr/bin/python3 (scripts/deps.sh test installs it)"
lsbin=$(readlink -f /bin/ls)
# other/ lies outside $w: Python may list its script's directory ($w),
# and Landlock's read_dir on a directory holds for every one beneath it
other=$HM_TMP/other
mkdir -p "$w/dir/sub" "$w/lsdir" "$other"
: >"$w/dir/a"
: >"$w/lsdir/x"
: >"$other/o"
chmod -R a+rX "$other"
echo data >"$w/data.txt"
echo s3cret >"$w/secret.txt"
# prog.py MODE [OTHER]: list dir and read data.txt; with "try", also
# read secret.txt and list OTHER
cat >"$w/prog.py" <<'EOS'
import os, sys
w = os.path.dirname(os.path.abspath(sys.argv[0]))
print("listed", sorted(os.listdir(os.path.join(w, "dir"))))
print("read", open(os.path.join(w, "data.txt")).read().strip())
if sys.argv[1] == "try":
    for what, f in (("read-secret", lambda: open(os.path.join(w, "secret.txt")).read()),
                    ("list-other", lambda: os.listdir(sys.argv[2]))):
        try:
            f()
            print("allowed", what)
        except PermissionError as e:
            print("denied", what, e.strerror)
EOS
chmod -R a+rX "$w"
{
	echo "initialize_domain $py from any"
	echo "initialize_domain $lsbin from any"
} >"$pol/exception_policy.conf"

# ------------------------------------------------------------- 1. learn
hm_audit_start
"$bin/histmac" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
as_nobody "$py" "$w/prog.py" learn >"$HM_TMP/learn-py.out" 2>&1 ||
	{ cat "$HM_TMP/learn-py.out" >&2; hm_fail "python3 failed unconfined"; }
as_nobody "$lsbin" "$w/lsdir" >"$HM_TMP/learn-ls.out" 2>&1 ||
	{ cat "$HM_TMP/learn-ls.out" >&2; hm_fail "ls failed unconfined"; }
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/learn.log"
"$bin/histmac" learn -q -i "$HM_TMP/learn.log" -p "$pol" ||
	hm_fail "histmac learn exited $?"
learned() {	# DOMAIN ENTRY: ENTRY is in DOMAIN's ACL
	HM_D=$1 HM_E=$2 awk '/^<kernel>/ { dom = $0; next }
		dom == ENVIRON["HM_D"] && $0 == ENVIRON["HM_E"] { found = 1 }
		END { exit !found }' "$pol/domain_policy.conf" ||
		{ cat "$pol/domain_policy.conf" >&2; hm_fail "'$2' not learned in '$1'"; }
}
learned "<kernel> $py" "file read $w/dir/"
learned "<kernel> $py" "file read $w/data.txt"
learned "<kernel> $lsbin" "file read $w/lsdir/"
sbx_policy_done
hm_ok "learned python3 and ls with their directory reads"

# -------------------------------------------- 3. control: unconfined
as_nobody "$py" "$w/prog.py" try "$other" >"$HM_TMP/free.out" 2>&1 || true
grep -qx "allowed read-secret" "$HM_TMP/free.out" &&
	grep -qx "allowed list-other" "$HM_TMP/free.out" ||
	{ cat "$HM_TMP/free.out" >&2; hm_fail "unconfined, python3 should read and list all"; }

# ---------------------------------------------- 2. the sandboxed runs
run() {	# OUT CMD...
	local out=$1 rc=0
	shift
	as_nobody "$bin/histmac" sandbox -p "$pol" -- "$@" >"$out" 2>"$out.err" || rc=$?
	echo "$rc" >"$out.rc"
}
for i in 1 2 3; do
	run "$HM_TMP/py" "$py" "$w/prog.py" try "$other"
	grep -qxF "listed ['a', 'sub']" "$HM_TMP/py" &&
		grep -qx "read data" "$HM_TMP/py" ||
		{ cat "$HM_TMP/py" "$HM_TMP/py.err" >&2; hm_fail "the learned Python program did not run"; }
	grep -qx "denied read-secret Permission denied" "$HM_TMP/py" &&
		grep -qx "denied list-other Permission denied" "$HM_TMP/py" ||
		{ cat "$HM_TMP/py" "$HM_TMP/py.err" >&2; hm_fail "python3 read or listed what it did not learn"; }
	run "$HM_TMP/ls" "$lsbin" "$w/lsdir"
	[ "$(cat "$HM_TMP/ls.rc")" = 0 ] && grep -qx "x" "$HM_TMP/ls" ||
		{ cat "$HM_TMP/ls" "$HM_TMP/ls.err" >&2; hm_fail "the learned ls did not list its directory"; }
	run "$HM_TMP/ls2" "$lsbin" "$other"
	grep -q "Permission denied" "$HM_TMP/ls2.err" && ! grep -qx "o" "$HM_TMP/ls2" ||
		{ cat "$HM_TMP/ls2" "$HM_TMP/ls2.err" >&2; hm_fail "ls listed a directory it did not learn"; }
done
hm_ok "under the sandbox the learned python3 and ls run; the rest fails with EACCES"
