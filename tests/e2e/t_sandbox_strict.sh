#!/usr/bin/env bash
# Narrowing that cannot happen is never silent (issue 21 #3), and a
# cleaned environment no longer stops it (issue 25 #5).  As nobody,
# hand-written policy: parent.sh runs a statically linked child (no
# loader, so no preload), a child under `env -i` (the preload's exec
# wrapper in env puts LD_PRELOAD and HISTMAC_SANDBOX back) and one under
# `env -i` with 1,100 variables (too many to put them back in).  env's
# domain may read efile, the child's not.
#  - the env -i child narrows: it reads cfile, and efile fails with
#    EACCES (env's bound would allow it), with and without --strict;
#    the restored environment is counted in --stats;
#  - without --strict the static and the big-environment children run at
#    their parent's bound (the latter reads efile), and the sandbox says
#    so once per program on its stderr, counted in --stats;
#  - with --strict neither starts (the exec fails with EPERM) and the
#    refusals are counted;
#  - a static COMMAND is refused by --strict before anything runs.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
hm_e2e_install try_open_static "$bin/try_static"
echo p >"$w/pfile"
echo c >"$w/cfile"
echo e >"$w/efile"
chmod 644 "$w/pfile" "$w/cfile" "$w/efile"
bash=$(readlink -f /bin/bash)
envp=$(readlink -f /usr/bin/env)

cat >"$w/parent.sh" <<'EOS'
#!/bin/bash
w=${0%/*} bin=$1
out=$("$bin/try_static" "$w/cfile" "$w/pfile")
rc=$?
[ -n "$out" ] && (IFS=$'\n'; printf 'static %s\n' $out)
echo "static exited $rc"
/usr/bin/env -i "$w/child.sh" env-i
echo "env exited $?"
/usr/bin/env -i $(printf 'V%d=x ' {1..1100}) "$w/child.sh" big-env
echo "big env exited $?"
exit 0
EOS
sbx_try_read_lib
cat >"$w/child.sh" <<'EOS'
#!/bin/bash
w=${0%/*}
. "$w/try_read.sh"
echo "$1 child: HISTMAC_SANDBOX ${HISTMAC_SANDBOX:+set}"
try_read "$1 child" cfile efile
EOS
chmod 755 "$w/parent.sh" "$w/child.sh"

P="<kernel> $w/parent.sh"
E="$P $envp"
libs=$(sbx_libs "$bash" "$envp")
{
	echo "initialize_domain $w/parent.sh from any"
	echo "initialize_domain $bin/try_static from any"
} >"$pol/exception_policy.conf"
cat >"$pol/domain_policy.conf" <<EOF
$P
$libs
file read $w/parent.sh
file read $w/pfile
file execute $bin/try_static
file execute $envp

$P $bin/try_static
file read $w/cfile

$E
$libs
file execute $w/child.sh
file read $w/efile

$E $w/child.sh
$libs
file read $w/child.sh
file read $w/try_read.sh
file read $w/cfile

<kernel> $bin/try_static
file read $w/cfile
EOF
sbx_policy_done

run() {	# OUT [OPTION...]
	local out=$1 rc=0
	shift
	as_nobody "$bin/histmac" sandbox --stats -p "$pol" "$@" -- \
		"$w/parent.sh" "$bin" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out" "$out.err" >&2; hm_fail "histmac sandbox exited $rc"; }
}

envi() {	# FILE: the env -i child narrowed to its own domain
	sbx_expect "$1" "env-i child: HISTMAC_SANDBOX set"
	sbx_expect "$1" "env-i child allowed cfile"
	sbx_expect "$1" "env-i child denied efile: Permission denied"
	sbx_expect "$1" "env exited 0"
	sbx_expect "$1.err" "sandbox: execs whose environment lacked the preload and got it back: 1"
}

run "$HM_TMP/report"
sbx_expect "$HM_TMP/report" "static allowed $w/cfile"
sbx_expect "$HM_TMP/report" "static allowed $w/pfile"
envi "$HM_TMP/report"
sbx_expect "$HM_TMP/report" "big-env child allowed efile"
sbx_once "$HM_TMP/report" "^histmac sandbox: $bin/try_static (pid [0-9]*) keeps its parent's bound: statically linked"
sbx_once "$HM_TMP/report" "^histmac sandbox: $w/child.sh (pid [0-9]*) keeps its parent's bound: executed without the preload"
sbx_expect "$HM_TMP/report.err" "sandbox: programs that could not narrow: 2 table 0 preload 1 static 1 .*; execs refused (--strict): 0"
hm_ok "without --strict: the env -i child narrows (efile: EACCES); the static and the big-environment children run at their parent's bound, each reported once"

run "$HM_TMP/strict" --strict
grep -q "^static allowed\|big-env child" "$HM_TMP/strict" &&
	{ cat "$HM_TMP/strict" >&2; hm_fail "--strict: a child that cannot narrow ran"; }
envi "$HM_TMP/strict"
sbx_expect "$HM_TMP/strict" "static exited 126"
sbx_expect "$HM_TMP/strict" "big env exited 126"
sbx_once "$HM_TMP/strict" "^histmac sandbox: $bin/try_static (pid [0-9]*) refused (--strict), it cannot narrow: statically linked"
sbx_once "$HM_TMP/strict" "^histmac sandbox: $w/child.sh (pid [0-9]*) refused (--strict), it cannot narrow: executed without the preload"
sbx_expect "$HM_TMP/strict.err" "sandbox: programs that could not narrow: 2 .*; execs refused (--strict): 2"
hm_ok "--strict: the env -i child starts and narrows; the static and the big-environment children do not, both refusals reported and counted"

rc=0
as_nobody "$bin/histmac" sandbox --strict -p "$pol" -- "$bin/try_static" "$w/cfile" \
	>"$HM_TMP/cmd" 2>"$HM_TMP/cmd.err" || rc=$?
[ "$rc" = 125 ] || { cat "$HM_TMP/cmd.err" >&2; hm_fail "a static COMMAND under --strict: exit $rc, not 125"; }
[ -s "$HM_TMP/cmd" ] && hm_fail "a static COMMAND ran under --strict"
grep -q "refused (--strict): statically linked" "$HM_TMP/cmd.err" ||
	{ cat "$HM_TMP/cmd.err" >&2; hm_fail "no refusal message"; }
hm_ok "--strict refuses a static COMMAND"
