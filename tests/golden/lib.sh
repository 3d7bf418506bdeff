# shellcheck shell=bash
# tests/golden/lib.sh - what every tests/golden/t_*.sh script shares;
# sourced first:  . "$(dirname "$0")/lib.sh"
# Needs $HISTMAC (the binary); sets $HM_SRC (when unset, the source tree
# this file is in), $tmp (a private directory, removed on exit) and the
# helpers below.  Scripts count failures with fail() and end with finish.
set -eu
export LC_ALL=C

: "${HISTMAC:?set HISTMAC to the histmac binary}"
HM_SRC=${HM_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fail MSG: count a failure and go on; finish reports them.
fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# die MSG: fail and stop here (what follows depends on this step).
die() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_rc WANT CMD...: run CMD, stdout to $tmp/out, stderr to $tmp/err;
# a failure unless it exits WANT (its stderr is shown then).
# check_clean CMD...: a check that denies nothing.  A hand-written log,
# or another host's, read on this host names files that are other inodes
# here: accesses of unidentified objects, findings it may report
# (docs/PATHS.md "The rule").  Output in $tmp/out, $tmp/err.
check_clean() {
	local rc=0
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 0 ] && return 0
	[ "$rc" = 1 ] && grep -q ', 0 denied, ' "$tmp/out" &&
		grep -q '^# [0-9]* access.* of unidentified objects' "$tmp/out" &&
		return 0
	fail "$* exited $rc, want a clean check"
}

expect_rc() {
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] && return 0
	fail "$* exited $rc, want $want"
	head -c 2000 "$tmp/err" >&2
}

# wait_until CMD...: run CMD (stderr dropped) every 0.1 s until it
# succeeds, for 30 s at most; its last status.  For a follower's saves.
wait_until() {
	local _
	for _ in $(seq 300); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# finish NAME: exit 1 if anything failed, else say NAME passed.
finish() {
	[ "$fails" -eq 0 ] || { echo "$1: $fails failure(s)" >&2; exit 1; }
	echo "$1: ok"
}
