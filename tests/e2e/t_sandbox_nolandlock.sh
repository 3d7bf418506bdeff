#!/usr/bin/env bash
# histmac sandbox on a kernel without Landlock (docs/SANDBOX.md, "Which
# domain", bad input): it exits 125 with a clear message and never runs the
# command; with --best-effort it runs the command unconfined and says so
# on stderr.  The kernels the tests run on have Landlock, so a seccomp
# filter (tests/e2e/no_landlock.c) stands in for one without it: the
# Landlock system calls fail with ENOSYS (not built in) or EOPNOTSUPP
# (disabled at boot), as such a kernel's do.  A control run without the
# filter shows the same command confined by the real Landlock, writing a
# file that did not exist when the ruleset was applied (granted on its
# nearest existing parent).  Everything runs as user nobody.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need setpriv ldd

chmod 755 "$HM_TMP"
w=$HM_TMP/w
pol=$HM_TMP/policy
mkdir -p "$w" "$pol"
chmod 777 "$w"
hm_e2e_install no_landlock "$HM_TMP/no_landlock"
cp "$HISTMAC" "$HM_TMP/histmac"
[ -r "$HM_BUILD/libhistmac-sandbox.so" ] && cp "$HM_BUILD/libhistmac-sandbox.so" "$HM_TMP/"

touch=$(command -v touch)
{
	echo "<kernel> $touch"
	echo "use_profile 3"
	echo "file read /etc/ld.so.cache"
	ldd "$touch" | awk '$3 ~ /^\// { print "file read " $3 } $1 ~ /^\// { print "file read " $1 }'
	echo "file create $w/marker 0644"
	echo "file write $w/marker"
} >"$pol/domain_policy.conf"
: >"$pol/exception_policy.conf"
chmod -R a+rX "$pol"

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
}

# sandbox ERRNO|- [OPTION...]: touch the marker under histmac sandbox,
# behind the filter failing Landlock with ERRNO (- : no filter); sets rc.
sandbox() {
	local errno=$1 pre=()
	shift
	[ "$errno" = - ] || pre=("$HM_TMP/no_landlock" "$errno")
	rm -f "$w/marker"
	rc=0
	as_nobody "${pre[@]}" "$HM_TMP/histmac" sandbox -p "$pol" --domain "<kernel>" "$@" \
		-- "$touch" "$w/marker" >"$HM_TMP/out" 2>"$HM_TMP/err" || rc=$?
}

for errno in ENOSYS EOPNOTSUPP; do
	case $errno in
	ENOSYS) why="not in this kernel" ;;
	EOPNOTSUPP) why="disabled at boot" ;;
	esac
	sandbox "$errno"
	[ "$rc" = 125 ] || { cat "$HM_TMP/err" >&2; hm_fail "$errno: exited $rc, not 125"; }
	[ ! -e "$w/marker" ] || hm_fail "$errno: the command ran"
	grep -q "Landlock is $why: nothing can be enforced" "$HM_TMP/err" ||
		{ cat "$HM_TMP/err" >&2; hm_fail "$errno: no message saying Landlock is $why"; }
	hm_ok "$errno: exit 125, '$why', the command did not run"

	sandbox "$errno" --best-effort
	[ "$rc" = 0 ] || { cat "$HM_TMP/err" >&2; hm_fail "$errno --best-effort: exited $rc"; }
	[ -e "$w/marker" ] || hm_fail "$errno --best-effort: the command did not run"
	grep -q "Landlock is $why: running $touch UNCONFINED" "$HM_TMP/err" ||
		{ cat "$HM_TMP/err" >&2; hm_fail "$errno --best-effort: stderr does not say it ran unconfined"; }
	hm_ok "$errno --best-effort: ran, unconfined, and said so"
done

# Control: the real Landlock confines the same command, which does its
# learned work (and nothing is said about running unconfined).
sandbox -
[ "$rc" = 0 ] || { cat "$HM_TMP/err" >&2; hm_fail "control: exited $rc"; }
[ -e "$w/marker" ] || { cat "$HM_TMP/err" >&2; hm_fail "control: no marker"; }
! grep -q UNCONFINED "$HM_TMP/err" || hm_fail "control: ran unconfined"
rc=0
as_nobody "$HM_TMP/histmac" sandbox -p "$pol" --domain "<kernel>" -- \
	"$touch" "$HM_TMP/elsewhere" 2>"$HM_TMP/err" || rc=$?
[ "$rc" != 0 ] && [ ! -e "$HM_TMP/elsewhere" ] ||
	hm_fail "control: an unlearned create was not denied"
hm_ok "control: without the filter the command runs confined"
