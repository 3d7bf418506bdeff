#!/usr/bin/env bash
# A planted symlink does not widen the next sandbox (issue 24 #4).  A
# domain that may replace $w/data/cfg (the atomic-replace pattern) makes
# it a symlink to "/"; the next `histmac sandbox` run must not grant read
# on "/" (or anything the link names): the rule is skipped, counted in
# --stats and shown by --explain.  As nobody, hand-written policy.
#  - before: data/cfg is a file: read allowed, $w/secret denied;
#  - control: unconfined, reading through the link reaches any file;
#  - after: through the link nothing is readable, data/cfg itself is
#    denied, --stats counts 1 symlink skipped, --explain marks it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
sbx_cc try_open
mkdir -p "$w/data"
echo cfg >"$w/data/cfg"
echo s3cret >"$w/secret"
chmod 777 "$w/data"
chmod 644 "$w/data/cfg" "$w/secret"

echo "initialize_domain $bin/try_open from any" >"$pol/exception_policy.conf"
{
	echo "<kernel> $bin/try_open"
	sbx_libs "$bin/try_open"
	echo "file read $w/data/cfg"
} >"$pol/domain_policy.conf"
sbx_policy_done

sandboxed() {	# OUT ARG...: try_open ARG... under the sandbox, as nobody
	local out=$1 rc=0
	shift
	as_nobody "$bin/histmac" sandbox --stats -p "$pol" -- \
		"$bin/try_open" "$@" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out.err" >&2; hm_fail "histmac sandbox exited $rc"; }
}
expect() {	# FILE LINE
	grep -qx -- "$2" "$1" || { cat "$1" "$1.err" >&2; hm_fail "no line '$2' in $(basename "$1")"; }
}

sandboxed "$HM_TMP/before" "$w/data/cfg" "$w/secret"
expect "$HM_TMP/before" "allowed $w/data/cfg"
expect "$HM_TMP/before" "denied $w/secret: Permission denied"
hm_ok "before: the learned file is read, another is not"

# the confined domain replaces its file by a link to "/"
as_nobody ln -s / "$w/data/cfg.new"
as_nobody mv -T "$w/data/cfg.new" "$w/data/cfg"
[ -L "$w/data/cfg" ] || hm_fail "the link was not planted"

as_nobody "$bin/try_open" "$w/data/cfg$w/secret" "$w/data/cfg/etc/passwd" \
	"$w/data/cfg/" >"$HM_TMP/free"
expect "$HM_TMP/free" "allowed $w/data/cfg$w/secret"
expect "$HM_TMP/free" "allowed $w/data/cfg/etc/passwd"
expect "$HM_TMP/free" "allowed $w/data/cfg/"
hm_ok "control: unconfined, the link reaches every file"

for i in $(seq 3); do
	sandboxed "$HM_TMP/after" "$w/data/cfg$w/secret" \
		"$w/data/cfg/etc/passwd" "$w/data/cfg/" "/etc/passwd" "$w/secret"
	for p in "$w/data/cfg$w/secret" "$w/data/cfg/etc/passwd" \
		"$w/data/cfg/" /etc/passwd "$w/secret"; do
		expect "$HM_TMP/after" "denied $p: Permission denied"
	done
	grep -q "rules applied (.* 1 symlinks skipped)" "$HM_TMP/after.err" ||
		{ cat "$HM_TMP/after.err" >&2; hm_fail "--stats does not count the symlink"; }
done
hm_ok "after: nothing is granted through the planted link, --stats counts it"

as_nobody "$bin/histmac" sandbox -p "$pol" --domain "<kernel> $bin/try_open" \
	--explain >"$HM_TMP/explain"
grep -A1 -xF "  file read $w/data/cfg" "$HM_TMP/explain" |
	grep -q "fs.read_file on $w/data/cfg .*\[symlink: not granted\]" ||
	{ cat "$HM_TMP/explain" >&2; hm_fail "--explain does not mark the symlink"; }
grep -q "^sandbox: 1 objects are symlinks" "$HM_TMP/explain" ||
	{ cat "$HM_TMP/explain" >&2; hm_fail "--explain does not count the symlink"; }
hm_ok "--explain marks and counts the symlink"
