#!/bin/bash
# bench/bench_resolve.sh - what resolving symlinks costs `histmac learn`:
# two builds side by side in one run, on the same logs, with and without
# --no-resolve.  Per build and log: the system calls resolution makes
# (strace -c of newfstatat, lstat, statx, readlink: one learn under
# strace), then wall and CPU seconds (the median of ROUNDS learns into a
# fresh policy directory, the builds alternating, the log in the page
# cache).
#
# usage: bench/bench_resolve.sh OLD_BIN NEW_BIN LOG...
#   HM_BENCH_ROUNDS  learns per build, log and mode (default 3)
#   HM_BENCH_DIR     work directory (default /var/tmp/histmac-bench-resolve)
# Prints one Markdown table row per build, log and mode.
# Exit: 0, 2 usage, 3 could not run.
set -eu
export LC_ALL=C
[ $# -ge 3 ] || { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
old=$1 new=$2
shift 2
rounds=${HM_BENCH_ROUNDS:-3}
dir=${HM_BENCH_DIR:-/var/tmp/histmac-bench-resolve}
for t in strace /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "bench_resolve: no $t" >&2; exit 3; }
done
mkdir -p "$dir"

# calls BIN LOG: resolution's system calls of one learn
calls() {
	rm -rf "$dir/p" && mkdir "$dir/p"
	strace -f -c -o "$dir/strace" -e trace=newfstatat,lstat,statx,readlink \
		"$1" learn -q -p "$dir/p" -i "$2"
	awk '$NF == "total" { print $4 }' "$dir/strace"
}

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| build | log | mode | stat+readlink calls | wall s | CPU s |"
echo "|-------|-----|------|--------------------:|-------:|------:|"
for log in "$@"; do
	cat "$log" >/dev/null
	declare -A c=()
	for b in old new; do
		c[$b]=$(calls "${!b}" "$log")
	done
	for mode in resolve --no-resolve; do
		opt=${mode#resolve}
		: >"$dir/old.t"
		: >"$dir/new.t"
		for _ in $(seq "$rounds"); do
			for b in old new; do
				rm -rf "$dir/p" && mkdir "$dir/p"
				/usr/bin/time -a -o "$dir/$b.t" -f '%e %U %S' \
					"${!b}" learn -q -p "$dir/p" -i "$log" $opt
			done
		done
		for b in old new; do
			wall=$(awk '{ print $1 }' "$dir/$b.t" | median)
			cpu=$(awk '{ printf "%.2f\n", $2 + $3 }' "$dir/$b.t" | median)
			n=-
			[ "$mode" = resolve ] && n=${c[$b]}
			echo "| $b | $(basename "$log") | $mode | $n | $wall | $cpu |"
		done
	done
done
