#!/bin/bash
# bench/identity_threads.sh - the same output on one thread and on N, on
# large logs (tests/golden/t_threads.sh does it on the test logs): for
# each LOG, `events -v -s` (TSV: every event, skip and counter), `learn`
# (the policy directory, its summary and warnings) and `check` against
# that policy, with --threads 1 and --threads N, byte for byte; with
# HM_IDENTITY_REF, the same commands of that binary (an older build, one
# thread) too.
#
# usage: bench/identity_threads.sh BINARY N LOG...
#   HM_IDENTITY_REF  another histmac binary to compare against
#   HM_IDENTITY_DIR  work directory (default: a private one in /var/tmp,
#                    removed after; outputs of a 1 GB log take ~1 GB)
# Exit: 0 identical, 1 some output differs (named), 2 usage, 3 could not run.
set -eu
export LC_ALL=C TZ=UTC
[ $# -ge 3 ] || { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
bin=$1 n=$2
shift 2
ref=${HM_IDENTITY_REF:-}
dir=${HM_IDENTITY_DIR:-$(mktemp -d /var/tmp/hm-identity-threads.XXXXXX)}
trap '[ -n "${HM_IDENTITY_DIR:-}" ] || rm -rf "$dir"' EXIT
status=0

# outputs SIDE BINARY THREADS LOG: into $dir/SIDE
outputs() {
	local d=$dir/$1 rc
	rm -rf "$d" && mkdir -p "$d"
	rc=0; "$2" events -v -s --threads "$3" -i "$4" >"$d/events" 2>"$d/events.err" || rc=$?
	echo "$rc" >"$d/events.rc"
	rc=0; "$2" learn -v --threads "$3" -p "$d/p" -i "$4" >"$d/learn" 2>"$d/learn.err" || rc=$?
	echo "$rc" >"$d/learn.rc"
	rc=0; "$2" check -v --threads "$3" -p "$d/p" -i "$4" >"$d/check" 2>"$d/check.err" || rc=$?
	echo "$rc" >"$d/check.rc"
	# the policy's own directory name is not part of what was learned
	sed -i "s|$d/p|POLICY|g" "$d/learn" "$d/learn.err" "$d/check" "$d/check.err"
}

# same A B LOG: every file of $dir/A and $dir/B equal
same() {
	if diff -r "$dir/$1" "$dir/$2" >"$dir/diff" 2>&1; then
		echo "identical: $3: $1 and $2 ($(find "$dir/$1" -type f | wc -l) files)"
	else
		echo "DIFFERS: $3: $1 and $2:"
		head -20 "$dir/diff"
		status=1
	fi
}

for log in "$@"; do
	[ -r "$log" ] || { echo "identity_threads: $log: cannot read" >&2; exit 3; }
	outputs t1 "$bin" 1 "$log"
	outputs "t$n" "$bin" "$n" "$log"
	same t1 "t$n" "$log"
	if [ -n "$ref" ]; then
		outputs ref "$ref" 1 "$log"
		same ref t1 "$log"
	fi
done
exit "$status"
