#!/bin/bash
# bench/bench_threads.sh - `histmac learn` on one thread and on several,
# beside the bare libauparse loop (bench/bench_auparse.c), on one log, in
# one run: the tools take turns, ROUNDS times, so load that comes and goes
# on a shared machine falls on each alike; the best wall time and the best
# CPU time (user + system) of each are kept, with the peak RSS.
#
# usage: bench/bench_threads.sh BUILD_DIR LOG [ROUNDS]
#   BUILD_DIR  a Release build of histmac with bench/ (bench_auparse)
#   LOG        the log; a quiet one-writer log of 1 GB:
#              perl bench/genlog.pl 650 >LOG
#   ROUNDS     turns of each tool (default 3)
#   HM_BENCH_THREADS  the thread counts for learn (default "1 N", N the
#                     online CPUs)
#   HM_BENCH_LEARN    extra learn options (e.g. --no-resolve)
# Prints one line per run, then per tool: best wall s, best CPU s, peak
# RSS, and the speed against the bare loop (its best wall / the tool's).
# Needs /usr/bin/time.  Policies go to a private directory, removed after.
set -eu
build=${1:?usage: bench_threads.sh BUILD_DIR LOG [ROUNDS]}
log=${2:?usage: bench_threads.sh BUILD_DIR LOG [ROUNDS]}
rounds=${3:-3}
threads=${HM_BENCH_THREADS:-1 $(nproc)}
tmp=$(mktemp -d /tmp/hm-bench-threads.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: one timed run; appends "NAME wall cpu rss" to $tmp/runs
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" >"$tmp/out" 2>&1 ||
		{ echo "$name failed:" >&2; tail -3 "$tmp/out" >&2; exit 1; }
	read -r wall user sys rss <"$tmp/time"
	echo "$name $wall $(echo "$user + $sys" | bc) $rss" | tee -a "$tmp/runs"
}

echo "log $log: $(stat -c %s "$log") bytes; $(nproc) CPUs;" \
	"load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$log" >/dev/null		# in the page cache for every run
for r in $(seq "$rounds"); do
	run auparse "$build/bench/bench_auparse" "$log"
	for n in $threads; do
		rm -rf "$tmp/p"
		# shellcheck disable=SC2086 # options, split on purpose
		run "learn-t$n" "$build/histmac" learn -q ${HM_BENCH_LEARN:-} \
			--threads "$n" -p "$tmp/p" -i "$log"
	done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
	{ n[$1]++; if (!($1 in w) || $2 < w[$1]) w[$1] = $2
	  if (!($1 in c) || $3 < c[$1]) c[$1] = $3
	  if ($4 > m[$1]) m[$1] = $4; order[$1] = order[$1] ? order[$1] : NR }
	END {
		printf "%-10s %8s %8s %9s %10s\n", "tool", "wall-s", "cpu-s", "peakRSS", "vs-auparse"
		for (t in order) k[order[t]] = t
		for (i = 1; i <= NR; i++) if (i in k) {
			t = k[i]
			printf "%-10s %8.2f %8.2f %6d MiB %9.2fx\n", t, w[t], c[t],
				m[t] / 1024, w["auparse"] / w[t]
		}
	}' "$tmp/runs"
