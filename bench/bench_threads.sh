#!/bin/bash
# bench/bench_threads.sh - `histmac learn` on one thread and on several,
# beside the bare libauparse loop (bench/bench_auparse.c, both ways it
# reads: feed, as the collector does, and a file source), on one log, in
# one run: the tools take turns, ROUNDS times, so load that comes and
# goes on a shared machine falls on each alike.
#
# usage: bench/bench_threads.sh BUILD_DIR LOG [ROUNDS]
#   BUILD_DIR  a Release build of histmac with bench/ (bench_auparse)
#   LOG        the log; a quiet one-writer log of 1 GB:
#                perl bench/genlog.pl 650 >LOG
#              two writers interleaved, from it:
#                perl bench/interleave.pl 2 <LOG >LOG2
#   ROUNDS     turns of each tool (default 3)
#   HM_BENCH_THREADS  the thread counts for learn (default "1 N", N the
#                     online CPUs)
#   HM_BENCH_LEARN    extra learn options (e.g. --no-resolve)
#   HM_BENCH_REF      another histmac binary (an older build), run in the
#                     same turns as "ref-tN"
#   HM_BENCH_ALLOC    an allocator library (e.g. mimalloc, when a build
#                     links histmac with it): the bare loops run under it too
#                     (LD_PRELOAD), as "auparse-feed+a" and "auparse-file+a",
#                     so learn can be set against the loop with the same
#                     allocator as well as against the stock loop
# Prints one line per run (tool, wall s, CPU s, peak KiB, load average),
# then per tool: wall and CPU seconds best and worst, peak RSS, and its
# speed against the bare loop: the faster loop's best wall / the tool's
# best wall, and the range of that ratio within each round.
# Needs /usr/bin/time.  Policies go to a private directory, removed after.
set -eu
build=${1:?usage: bench_threads.sh BUILD_DIR LOG [ROUNDS]}
log=${2:?usage: bench_threads.sh BUILD_DIR LOG [ROUNDS]}
rounds=${3:-3}
threads=${HM_BENCH_THREADS:-1 $(nproc)}
ref=${HM_BENCH_REF:-}
alloc=${HM_BENCH_ALLOC:-}
tmp=$(mktemp -d /tmp/hm-bench-threads.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# run ROUND NAME CMD...: one timed run; appends
# "ROUND NAME wall cpu rss" to $tmp/runs
run() {
	local round=$1 name=$2
	shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" >"$tmp/out" 2>&1 ||
		{ echo "$name failed:" >&2; tail -3 "$tmp/out" >&2; exit 1; }
	read -r wall user sys rss <"$tmp/time"
	echo "$round $name $wall $(echo "$user + $sys" | bc) $rss" >>"$tmp/runs"
	echo "$name $wall $(echo "$user + $sys" | bc) $rss" \
		"load $(cut -d' ' -f1 /proc/loadavg)"
}

# learn ROUND NAME BINARY THREADS
learn() {
	rm -rf "$tmp/p"
	# shellcheck disable=SC2086 # options, split on purpose
	run "$1" "$2" "$3" learn -q ${HM_BENCH_LEARN:-} --threads "$4" \
		-p "$tmp/p" -i "$log"
}

echo "log $log: $(stat -c %s "$log") bytes; $(nproc) CPUs;" \
	"load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$log" >/dev/null		# in the page cache for every run
for r in $(seq "$rounds"); do
	run "$r" auparse-feed "$build/bench/bench_auparse" "$log"
	run "$r" auparse-file "$build/bench/bench_auparse" --file "$log"
	if [ -n "$alloc" ]; then
		run "$r" auparse-feed+a env LD_PRELOAD="$alloc" \
			"$build/bench/bench_auparse" "$log"
		run "$r" auparse-file+a env LD_PRELOAD="$alloc" \
			"$build/bench/bench_auparse" --file "$log"
	fi
	for n in $threads; do
		learn "$r" "learn-t$n" "$build/histmac" "$n"
		[ -z "$ref" ] || learn "$r" "ref-t$n" "$ref" "$n"
	done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
	{ t = $2; n[t]++; order[t] = order[t] ? order[t] : NR
	  if (!(t in w) || $3 < w[t]) w[t] = $3
	  if ($3 > W[t]) W[t] = $3
	  if (!(t in c) || $4 < c[t]) c[t] = $4
	  if ($4 > C[t]) C[t] = $4
	  if ($5 > m[t]) m[t] = $5
	  wall[$1, t] = $3; rounds[$1] = 1 }
	END {
		bare = w["auparse-feed"] < w["auparse-file"] ? "auparse-feed" : "auparse-file"
		# with HM_BENCH_ALLOC: the faster loop under the allocator too
		abare = ""
		if ("auparse-file+a" in w)
			abare = w["auparse-feed+a"] < w["auparse-file+a"] ? \
				"auparse-feed+a" : "auparse-file+a"
		printf "%-14s %13s %13s %8s %9s %13s%s\n", "tool", "wall-s", "cpu-s", \
			"peakRSS", "vs-bare", "per-round", abare ? "  vs-bare+a" : ""
		for (t in order) k[order[t]] = t
		for (i = 1; i <= NR; i++) if (i in k) {
			t = k[i]; lo = 1e9; hi = 0
			for (r in rounds) {
				b = wall[r, "auparse-feed"] < wall[r, "auparse-file"] ? \
					wall[r, "auparse-feed"] : wall[r, "auparse-file"]
				x = b / wall[r, t]
				if (x < lo) lo = x
				if (x > hi) hi = x
			}
			printf "%-14s %5.2f-%-7.2f %5.2f-%-7.2f %4d MiB %8.2fx %5.2f-%.2fx", \
				t, w[t], W[t], c[t], C[t], m[t] / 1024, w[bare] / w[t], lo, hi
			if (abare)
				printf "  %8.2fx", w[abare] / w[t]
			printf "\n"
		}
		printf "(vs-bare: the best wall of %s, the faster bare loop, over the tool'"'"'s best)\n", bare
		if (abare)
			printf "(vs-bare+a: the same against %s, under HM_BENCH_ALLOC)\n", abare
	}' "$tmp/runs"
