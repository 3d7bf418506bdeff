#!/usr/bin/env bash
# A program that re-executes itself (sshd on every connection and
# reload, a daemon's --child) narrows to the re-executed domain (issue
# 21 #2).  As nobody, hand-written policy: self.sh in its own domain may
# read pfile and execute itself; "self.sh self.sh" may read only cfile.
# Each way self.sh re-executes itself, the second generation must read
# cfile and fail on pfile with EACCES:
#   exec     bash's `exec "$0"`: the same process, a new program image
#   fork     `"$0"`: a child process
#   daemon   through closefds, which closes every descriptor above 2
#            first (the re-executed program's table descriptor is gone)
# Control: the first generation reads pfile (so a denial is the
# narrowing's, not the file's).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
sbx_cc closefds
echo p >"$w/pfile"
echo c >"$w/cfile"
chmod 644 "$w/pfile" "$w/cfile"
bash=$(readlink -f /bin/bash)

sbx_try_read_lib
cat >"$w/self.sh" <<'EOS'
#!/bin/bash
w=${0%/*}
gen=$1 mode=$2 bin=$3
. "$w/try_read.sh"
try_read "$mode gen$gen" pfile cfile
[ "$gen" = 1 ] || exit 0
case $mode in
exec)	exec "$0" 2 "$mode" "$bin" ;;
fork)	"$0" 2 "$mode" "$bin"; echo "fork: gen2 exited $?" ;;
daemon)	exec "$bin/closefds" "$0" 2 "$mode" "$bin" ;;
esac
EOS
chmod 755 "$w/self.sh"

S="<kernel> $w/self.sh"
echo "initialize_domain $w/self.sh from any" >"$pol/exception_policy.conf"
libs=$(sbx_libs "$bash" "$bin/closefds")
{
	echo "$S"
	echo "$libs"
	echo "file read $w/self.sh"
	echo "file read $w/try_read.sh"
	echo "file read $w/pfile"
	echo "file execute $w/self.sh"
	echo "file execute $bin/closefds"
	echo
	echo "$S $bin/closefds"
	echo "$libs"
	echo "file execute $w/self.sh"
	for d in "$S $w/self.sh" "$S $bin/closefds $w/self.sh"; do
		echo
		echo "$d"
		echo "$libs"
		echo "file read $w/self.sh"	# bash reads the script it runs
		echo "file read $w/try_read.sh"
		echo "file read $w/cfile"
	done
} >"$pol/domain_policy.conf"
sbx_policy_done

for mode in exec fork daemon; do
	out=$HM_TMP/$mode
	rc=0
	as_nobody "$bin/histmac" sandbox --stats -p "$pol" -- \
		"$w/self.sh" 1 "$mode" "$bin" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out" "$out.err" >&2; hm_fail "$mode: histmac sandbox exited $rc"; }
	for line in "$mode gen1 allowed pfile" "$mode gen2 allowed cfile" \
		"$mode gen2 denied pfile: Permission denied"; do
		grep -qx -- "$line" "$out" ||
			{ cat "$out" "$out.err" >&2; hm_fail "$mode: no line '$line'"; }
	done
	grep -q "^sandbox: programs that could not narrow: 0 " "$out.err" ||
		{ cat "$out.err" >&2; hm_fail "$mode: a program could not narrow"; }
	hm_ok "$mode: the re-executed program is narrowed to its own domain"
done
