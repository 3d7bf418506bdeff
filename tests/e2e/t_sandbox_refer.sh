#!/usr/bin/env bash
# Moving a file to another directory (docs/SANDBOX.md): Landlock refuses
# a rename or link that would give the file a right at its destination
# that it did not have at its source, whatever fs.refer says, so each
# ruleset the sandbox builds gives a move's source the file rights it
# grants on the destination.  A domain shaped like postfix's qmgr (it
# moves files from in/ to act/ and reads and writes the files in act/,
# not in in/), hand-written policy, as nobody:
#  - control: unconfined, the move succeeds;
#  - the learned entries alone: the move succeeds (EXDEV before the
#    widening), and --explain names the rights added on in/ and why;
#  - a link from in/ to act/ (file link) likewise;
#  - two layers, --strict: COMMAND is a script whose own domain may also
#    truncate act/'s files and whose child domain moves the file: the
#    script's ruleset (the union) adds truncate on in/ too, the child's
#    own read and write; the move passes both;
#  - still refused: a move to a directory the policy does not allow
#    (EACCES), the file left where it was.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
sbx_cc try_rename
mkdir -p "$w/in" "$w/act" "$w/other"
chmod 777 "$w/in" "$w/act" "$w/other"
bash=$(readlink -f /bin/bash)

mover() {	# the entries of the domain that moves
	sbx_libs "$bin/try_rename"
	echo "file rename $w/in/\\* $w/act/\\*"
	echo "file link $w/in/\\* $w/act/\\*"
	echo "file read/write $w/act/\\*"
}
{
	echo "initialize_domain $bin/try_rename from any"
	echo "initialize_domain $w/mover.sh from any"
} >"$pol/exception_policy.conf"
{
	echo "<kernel> $bin/try_rename"
	mover
	echo
	echo "<kernel> $w/mover.sh"
	sbx_libs "$bash"
	echo "file read $w/mover.sh"
	echo "file execute $bin/try_rename"
	echo "file truncate $w/act/\\*"
	echo
	echo "<kernel> $w/mover.sh $bin/try_rename"
	mover
} >"$pol/domain_policy.conf"
sbx_policy_done
printf '#!/bin/bash\nexec %q "$@"\n' "$bin/try_rename" >"$w/mover.sh"
chmod 755 "$w/mover.sh"

run() {	# OUT ARGS...: try_rename ARGS under the sandbox, as nobody
	local out=$1 rc=0
	shift
	as_nobody "$bin/histmac" sandbox --strict -p "$pol" -- "$@" \
		>"$HM_TMP/$out" 2>"$HM_TMP/$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$HM_TMP/$out.err" >&2; hm_fail "histmac sandbox exited $rc"; }
}

as_nobody touch "$w/in/free"
as_nobody "$bin/try_rename" "$w/in/free" "$w/act/free" >"$HM_TMP/free"
sbx_expect "$HM_TMP/free" "renamed $w/in/free"
hm_ok "control: unconfined, the move succeeds"

as_nobody touch "$w/in/learned"
run learned "$bin/try_rename" "$w/in/learned" "$w/act/learned"
sbx_expect "$HM_TMP/learned" "renamed $w/in/learned"
[ -e "$w/act/learned" ] && [ ! -e "$w/in/learned" ] ||
	hm_fail "the move said it succeeded, the file did not move"
"$bin/histmac" sandbox -p "$pol" --domain "<kernel> $bin/try_rename" \
	--explain >"$HM_TMP/explain"
sbx_expect "$HM_TMP/explain" "sandbox: refer: fs.write_file,fs.read_file added on $w/in: files move from it to $w/act (.*)"
sbx_expect "$HM_TMP/explain" "sandbox: widened: .* refer 1"
hm_ok "the learned entries alone: the move succeeds; --explain names read and write added on in/"

as_nobody touch "$w/in/link"
run link "$bin/try_rename" -l "$w/in/link" "$w/act/link"
sbx_expect "$HM_TMP/link" "linked $w/in/link"
[ "$(stat -c %h "$w/in/link")" = 2 ] || hm_fail "the link said it succeeded, no second link"
hm_ok "the learned entries alone: the link succeeds"

as_nobody touch "$w/in/layers"
run layers "$w/mover.sh" "$w/in/layers" "$w/act/layers"
sbx_expect "$HM_TMP/layers" "renamed $w/in/layers"
[ -e "$w/act/layers" ] || hm_fail "the move said it succeeded, no file in act/"
"$bin/histmac" sandbox -p "$pol" --domain "<kernel> $w/mover.sh" \
	--explain >"$HM_TMP/explain2"
sbx_expect "$HM_TMP/explain2" "sandbox: refer: fs.write_file,fs.read_file,fs.truncate added on $w/in: files move from it to $w/act (.*)"
hm_ok "two layers (--strict): the script's union adds truncate on in/, the child's own layer read/write; the move succeeds"

as_nobody touch "$w/in/stray"
run stray "$bin/try_rename" "$w/in/stray" "$w/other/stray"
sbx_expect "$HM_TMP/stray" "refused $w/in/stray: Permission denied"
[ -e "$w/in/stray" ] && [ ! -e "$w/other/stray" ] || hm_fail "the refused move moved the file"
hm_ok "still refused: a move to a directory the policy does not allow (EACCES)"
