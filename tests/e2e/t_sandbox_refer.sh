#!/usr/bin/env bash
# Moving a file to another directory (docs/SANDBOX.md): Landlock refuses
# a rename that would give the file a right at its destination that it
# did not have at its source, whatever fs.refer says.  A domain shaped
# like postfix's qmgr (it moves files from in/ to act/ and reads and
# writes the files in act/, not in in/), hand-written policy, as nobody:
#  - control: unconfined, the move succeeds;
#  - the learned entries alone: the move fails with EXDEV (the gap the
#    translation of `file rename` leaves);
#  - with the destination's file rights given on the source by hand (the
#    workaround t_service_sandbox_postfix.sh uses): the move succeeds.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
sbx_cc try_rename
mkdir -p "$w/in" "$w/act"
chmod 777 "$w/in" "$w/act"

policy() {	# ENTRY...: the domain of try_rename with the learned entries
	echo "initialize_domain $bin/try_rename from any" >"$pol/exception_policy.conf"
	{
		echo "<kernel> $bin/try_rename"
		sbx_libs "$bin/try_rename"
		echo "file rename $w/in/\\* $w/act/\\*"
		echo "file read/write $w/act/\\*"
		printf '%s\n' "$@"
	} >"$pol/domain_policy.conf"
	sbx_policy_done
}
move() {	# NAME: make in/NAME as nobody, move it to act/ under the sandbox
	local rc=0
	as_nobody touch "$w/in/$1"
	as_nobody "$bin/histmac" sandbox -p "$pol" -- \
		"$bin/try_rename" "$w/in/$1" "$w/act/$1" >"$HM_TMP/$1" 2>"$HM_TMP/$1.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$HM_TMP/$1.err" >&2; hm_fail "histmac sandbox exited $rc"; }
}
as_nobody touch "$w/in/free"
as_nobody "$bin/try_rename" "$w/in/free" "$w/act/free" >"$HM_TMP/free"
sbx_expect "$HM_TMP/free" "renamed $w/in/free"
hm_ok "control: unconfined, the move succeeds"

policy
move learned
sbx_expect "$HM_TMP/learned" "refused $w/in/learned: Invalid cross-device link"
[ -e "$w/in/learned" ] && [ ! -e "$w/act/learned" ] || hm_fail "the refused move moved the file"
hm_ok "the learned entries alone: the move fails with EXDEV"

policy "file read/write $w/in/\\*"
move widened
sbx_expect "$HM_TMP/widened" "renamed $w/in/widened"
[ -e "$w/act/widened" ] || hm_fail "the move said it succeeded, no file in act/"
hm_ok "with the destination's file rights on the source: the move succeeds"
