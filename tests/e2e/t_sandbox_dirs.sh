#!/usr/bin/env bash
# Directories opened for reading (issue 21 #1, the Landlock side): TOMOYO
# names them "file read DIR/"; the sandbox grants fs.read_dir on DIR
# (and, Landlock's rights holding beneath, on every directory under it).
# As nobody, a hand-written policy:
#  - a Python program (imports list /usr/lib/python3.X) and `ls DIR` run
#    under the sandbox;
#  - the control: the same policy without its "file read DIR/" entries,
#    Python does not start and ls cannot list (EACCES), so the entries
#    are what makes them work;
#  - --explain shows the grant as fs.read_dir with its [dir] widening.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
py=$(readlink -f /usr/bin/python3)
[ -x "$py" ] || hm_skip "no /usr/bin/python3"
pylib=$("$py" -c 'import os, sys; print(os.path.dirname(os.__file__))')
lsbin=$(readlink -f /bin/ls)
mkdir -p "$w/dir/sub"
: >"$w/dir/a"
: >"$w/dir/sub/b"
chmod -R a+rX "$w"
printf '%s\n' 'import json, os, sys' \
	'print("python listed", json.dumps(sorted(os.listdir(sys.argv[1]))))' \
	>"$w/prog.py"
chmod 644 "$w/prog.py"

{
	echo "initialize_domain $py from any"
	echo "initialize_domain $lsbin from any"
} >"$pol/exception_policy.conf"
policy() {	# DIR WITH_DIRS
	mkdir -p "$1"
	cp "$pol/exception_policy.conf" "$1/"
	{
		echo "<kernel> $py"
		sbx_libs "$py"
		echo "file read $pylib/\\{\\*\\}/\\*"
		echo "file read $w/prog.py"
		[ "$2" = 1 ] && echo "file read $pylib/" && echo "file read $w/dir/"
		echo
		echo "<kernel> $lsbin"
		sbx_libs "$lsbin"
		[ "$2" = 1 ] && echo "file read $w/dir/"
		echo
	} >"$1/domain_policy.conf"
	chmod -R a+rX "$1"
}
policy "$HM_TMP/with" 1
policy "$HM_TMP/without" 0

run() {	# OUT POLICY CMD...
	local out=$1 p=$2
	shift 2
	as_nobody "$bin/histmac" sandbox -p "$p" -- "$@" >"$out" 2>"$out.err" || true
}

for i in 1 2 3; do
	run "$HM_TMP/py" "$HM_TMP/with" "$py" "$w/prog.py" "$w/dir"
	grep -qx 'python listed \["a", "sub"\]' "$HM_TMP/py" ||
		{ cat "$HM_TMP/py" "$HM_TMP/py.err" >&2; hm_fail "the Python program did not run"; }
	run "$HM_TMP/ls" "$HM_TMP/with" "$lsbin" "$w/dir" "$w/dir/sub"
	grep -qx "b" "$HM_TMP/ls" && grep -qx "a" "$HM_TMP/ls" ||
		{ cat "$HM_TMP/ls" "$HM_TMP/ls.err" >&2; hm_fail "ls did not list the directory"; }
done
hm_ok "a Python program and ls DIR run under the sandbox"

run "$HM_TMP/py0" "$HM_TMP/without" "$py" "$w/prog.py" "$w/dir"
grep -q "python listed" "$HM_TMP/py0" &&
	hm_fail "control: Python ran without its directory entries"
grep -q "encodings" "$HM_TMP/py0.err" ||
	{ cat "$HM_TMP/py0.err" >&2; hm_fail "control: Python did not fail on its imports"; }
run "$HM_TMP/ls0" "$HM_TMP/without" "$lsbin" "$w/dir"
grep -q "Permission denied" "$HM_TMP/ls0.err" ||
	{ cat "$HM_TMP/ls0" "$HM_TMP/ls0.err" >&2; hm_fail "control: ls listed without the entry"; }
hm_ok "control: without the file read DIR/ entries both fail"

as_nobody "$bin/histmac" sandbox -p "$HM_TMP/with" --domain "<kernel> $lsbin" \
	--explain >"$HM_TMP/explain"
grep -A1 -xF "  file read $w/dir/" "$HM_TMP/explain" |
	grep -qx "      fs.read_dir on $w/dir  \[dir\]" ||
	{ cat "$HM_TMP/explain" >&2; hm_fail "--explain does not show fs.read_dir [dir]"; }
hm_ok "--explain: file read DIR/ is fs.read_dir on DIR [dir]"
