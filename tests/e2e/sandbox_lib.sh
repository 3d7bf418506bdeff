# shellcheck shell=bash
# tests/e2e/sandbox_lib.sh - what the t_sandbox_*.sh tests with a
# hand-written policy share (source it after lib.sh).
#
#   sbx_setup             $bin (histmac, the preload), $w (work tree) and
#                         $pol (policy dir) in HM_TMP, readable by nobody
#   as_nobody CMD...      run CMD as uid 65534 (nobody), no groups
#   sbx_cc NAME           install tests/e2e/NAME.c's program as $bin/NAME
#                         (lib.sh hm_e2e_install)
#   sbx_libs PROG...      "file read" entries for what the loader reads to
#                         run PROG (its libraries by real path, ld.so.cache)
#   sbx_policy_done       make the policy readable by nobody
#   sbx_expect FILE LINE  FILE has a line LINE (a grep -x pattern); else
#                         fail, showing FILE and FILE.err
#   sbx_once FILE PATTERN exactly one line of FILE.err (the sandbox's
#                         stderr) matches PATTERN (a grep pattern)
#   sbx_try_read_lib      write $w/try_read.sh, which a script under the
#                         sandbox sources for try_read LABEL FILE... (each
#                         FILE of $w: "LABEL allowed FILE" or "LABEL denied
#                         FILE: ERROR"); its domains need "file read" of it

sbx_setup() {
	hm_need setpriv ldd
	[ -r "$HM_BUILD/libhistmac-sandbox.so" ] ||
		hm_fail "no $HM_BUILD/libhistmac-sandbox.so"
	chmod 755 "$HM_TMP"
	bin=$HM_TMP/bin
	w=$HM_TMP/w
	pol=$HM_TMP/policy
	mkdir -p "$bin" "$w" "$pol"
	cp "$HISTMAC" "$bin/histmac"
	cp "$HM_BUILD/libhistmac-sandbox.so" "$bin/"
	chmod 755 "$bin" "$w"
}

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
}

sbx_cc() {
	hm_e2e_install "$1" "$bin/$1"
}

sbx_libs() {
	echo "file read /etc/ld.so.cache"
	ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// && $1 !~ /:$/ { print $1 }' | xargs -r -n1 readlink -f |
		sort -u | sed 's/^/file read /'
}

sbx_policy_done() {
	chmod -R a+rX "$pol"
}

sbx_expect() {
	grep -qx -- "$2" "$1" && return
	cat "$1" >&2
	[ ! -f "$1.err" ] || cat "$1.err" >&2
	hm_fail "no line '$2' in $(basename "$1")"
}

sbx_once() {
	local n
	n=$(grep -c -- "$2" "$1.err" || true)
	[ "$n" = 1 ] || { cat "$1.err" >&2; hm_fail "$(basename "$1"): $n lines '$2', not 1"; }
}

sbx_try_read_lib() {
	cat >"$w/try_read.sh" <<'EOS'
try_read() {
	local label=$1 f err
	shift
	for f; do
		if err=$( { read -r _ <"$w/$f"; } 2>&1 ); then
			echo "$label allowed $f"
		else
			echo "$label denied $f: ${err##*: }"
		fi
	done
}
EOS
	chmod 644 "$w/try_read.sh"
}
