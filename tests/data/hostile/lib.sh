# shellcheck shell=bash
# lib.sh - what the tests/golden/t_hostile_*.sh scripts share; sourced.
# Needs $HISTMAC and $HM_SRC; sets $gen and the helpers below, on top of
# tests/golden/lib.sh ($tmp, fail, finish).  Peak RSS comes from GNU time
# (Debian package `time`, in scripts/deps.sh's test set), never from the
# shell's own counters.
. "$HM_SRC/tests/golden/lib.sh"
hostile=$HM_SRC/tests/data/hostile
gen="perl $hostile/gen.pl"

if [ ! -x /usr/bin/time ]; then
	echo "FAIL: /usr/bin/time missing (scripts/deps.sh test)" >&2
	exit 1
fi

# run WANT_RC CMD...: stdout in $tmp/out, stderr in $tmp/err, peak RSS in
# KiB in $rss; fails unless CMD exits WANT_RC.
rss=0
run() {
	local want=$1 rc=0
	shift
	/usr/bin/time -f %M -o "$tmp/rss" "$@" >"$tmp/out" 2>"$tmp/err" ||
		rc=$?
	rss=$(tail -n 1 "$tmp/rss")
	# GNU time prefixes "Command exited with non-zero status N"
	[ "$rc" -eq "$want" ] || fail "$* exited $rc, want $want: $(head -c 400 "$tmp/err")"
}

# has FILE REGEX WHAT: FILE must hold a line matching REGEX (grep -E).
has() {
	grep -Eq -- "$2" "$1" || fail "$3: no /$2/ in $1: $(head -c 600 "$1")"
}

# hasnt FILE REGEX WHAT: no line of FILE may match REGEX.
hasnt() {
	! grep -Eq -- "$2" "$1" || fail "$3: /$2/ in $1: $(grep -E -m 3 -- "$2" "$1" | head -c 400)"
}

# ASan's shadow memory and quarantine (hundreds of MiB) say nothing about
# histmac's own: under a sanitizer build RSS bounds are printed, not held.
asan=
if ldd "$HISTMAC" 2>/dev/null | grep -q 'libasan\|libclang_rt.asan'; then
	asan=1
fi

# rss_below KIB WHAT: the last run() peaked under KIB KiB.
rss_below() {
	if [ -n "$asan" ]; then
		echo "  $2: peak RSS ${rss} KiB (ASan build: bound $1 not checked)"
		return
	fi
	[ "$rss" -lt "$1" ] || fail "$2: peak RSS ${rss} KiB, bound $1 KiB"
	echo "  $2: peak RSS ${rss} KiB (bound $1)"
}

# known_gap WHAT STILL: a gap reported in docs/SECURITY.md, not fixed
# yet.  STILL is a shell condition that holds while the gap is there: the
# test says so and passes; once it no longer holds the gap was fixed and
# the test fails, so that the check is turned into a hard one.
known_gap() {
	if eval "$2"; then
		echo "  KNOWN GAP (docs/SECURITY.md): $1"
	else
		fail "$1: looks fixed; make this a hard check"
	fi
}
