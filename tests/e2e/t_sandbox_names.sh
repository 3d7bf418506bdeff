#!/usr/bin/env bash
# The preload finds a program's edge by the name learn gives it: the
# directory's links resolved, the program's own link kept (docs/PATHS.md).
# As nobody, a hand-written policy names the tool $w/real/tool (tool is a
# link to dash.bin) while bash executes it as $w/lnk/tool ($w/lnk is a
# link to real): neither the name executed nor the real path
# ($w/real/dash.bin) is the learned one.  Under --strict the tool must
# find its edge (else it is refused, 126) and narrow: it reads its own
# file, and not the one only bash's domain reads (EACCES).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
bash=$(readlink -f /bin/bash)
mkdir -p "$w/real"
cp "$(readlink -f /bin/dash)" "$w/real/dash.bin"
ln -s dash.bin "$w/real/tool"
ln -s real "$w/lnk"
echo bash-file >"$w/f_bash"
echo tool-file >"$w/f_tool"
chmod -R a+rX "$w"

echo "initialize_domain $bash from any" >"$pol/exception_policy.conf"
{
	echo "<kernel> $bash"
	sbx_libs "$bash"
	echo "file execute $w/real/tool"
	echo "file read $w/f_bash"
	echo
	echo "<kernel> $bash $w/real/tool"
	sbx_libs "$w/real/dash.bin"
	echo "file read $w/f_tool"
	echo
} >"$pol/domain_policy.conf"
sbx_policy_done

out=$HM_TMP/out
as_nobody "$bin/histmac" sandbox -p "$pol" --strict -- "$bash" -c "
	read -r l <'$w/f_bash' && echo \"bash read \$l\"
	'$w/lnk/tool' -c \"read -r l <'$w/f_tool' && echo tool read \\\$l
		read -r l <'$w/f_bash' && echo tool read \\\$l\"
	echo tool exit \$?" >"$out" 2>"$out.err" || true
sbx_expect "$out" 'bash read bash-file'
sbx_expect "$out" 'tool read tool-file'
sbx_expect "$out" 'tool exit 2'
! grep -q 'tool read bash-file' "$out" ||
	hm_fail "the tool read bash's file: it did not narrow to its own domain"
grep -q "f_bash: Permission denied" "$out.err" ||
	{ cat "$out.err" >&2; hm_fail "the tool's read of bash's file did not fail with EACCES"; }
hm_ok "a program executed through a linked directory finds its learned edge and narrows"
