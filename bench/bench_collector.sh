#!/bin/bash
# bench/bench_collector.sh - how fast the collector turns a large real
# audit log into events, and `histmac learn` into a policy, next to a bare
# libauparse loop (feed mode, 64 KiB chunks), `aureport --summary` and
# laurel over the same file.
#
# usage: bench/bench_collector.sh [BUILD_DIR] [SIZE_MB]
#   HM_BENCH_TOOLS  the tools to run (default: auparse collector learn
#                   aureport laurel)
#   BUILD_DIR  a cmake build of histmac (default /tmp/b-bench, built here)
#   SIZE_MB    size of each generated log (default 1024)
# Needs root, auditd, laurel, /usr/bin/time (scripts/deps.sh bench).
#
# Two logs are recorded with the real auditd and `histmac rules`, by the
# workload of tests/e2e/workload.c (opens, creates, unlinks, connects, an
# exec every 50 rounds): normal.log, and crash.log where a child is killed
# with SIGSEGV about every 5000 events (ANOM_ABEND records, the auparse
# trap described in docs/READING.md).  They are kept in $HM_BENCH_DIR
# (default /var/tmp/histmac-bench) and reused when present; nothing is
# committed.  Each tool reads each log once, after one warm-up read that
# puts the file in the page cache.  Rates are computed from the CPU time
# (user + system, /usr/bin/time) of each run, so other load on the machine
# does not count; wall seconds are shown too.  Peak RSS comes from
# /usr/bin/time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-/tmp/b-bench}
size_mb=${2:-1024}
dir=${HM_BENCH_DIR:-/var/tmp/histmac-bench}
export HISTMAC=$build/histmac HM_SRC=$src HM_BUILD=$build

if [ ! -x "$build/bench/bench_collector" ] ||
	[ ! -x "$build/tests/e2e/workload" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$build" -j "$(nproc)" >/dev/null
fi
mkdir -p "$dir"

# ---- generate the logs (a private auditd; see tests/e2e/lib.sh)
generate() {
	(
	HM_AUDIT_MAX_LOG_MB=$((size_mb * 3))
	# shellcheck source=../tests/e2e/lib.sh
	. "$src/tests/e2e/lib.sh"
	hm_need auditd auditctl
	hm_build_workload
	hm_audit_start
	[ "$HM_AUDIT_PRIVATE" = 1 ] || hm_fail "stop the system auditd first"
	"$HISTMAC" rules >"$HM_TMP/rules"
	hm_audit_rules "$HM_TMP/rules"
	for log in normal crash; do
		crash=0
		[ "$log" = crash ] && crash=600	# rounds: ~8 events each
		mkdir -p "$HM_TMP/w1" "$HM_TMP/w2"
		while [ "$(stat -c %s "$HM_AUDIT_LOG")" -lt $((size_mb << 20)) ]; do
			"$HM_WORKLOAD" bulk "$HM_TMP/w1" 20000 "$crash" &
			"$HM_WORKLOAD" bulk "$HM_TMP/w2" 20000 "$crash"
			wait
		done
		kill -USR1 "$HM_AUDIT_PID"
		hm_wait_for "[ -e '$HM_AUDIT_LOG.1' ]" 100 || hm_fail "no rotation"
		mv "$HM_AUDIT_LOG.1" "$dir/$log.log"
		echo "generated $dir/$log.log: $(stat -c %s "$dir/$log.log") bytes" >&2
	done
	)
}
[ -s "$dir/normal.log" ] && [ -s "$dir/crash.log" ] || generate

cat >"$dir/laurel.toml" <<EOF2
directory = "$dir/laurel"
user = "root"
statusreport-period = 0
[auditlog]
file = "laurel.log"
size = 100000000000
generations = 1
[transform]
execve-argv = [ "array" ]
[translate]
universal = false
user-db = false
[enrich]
pid = false
container = false
script = false
EOF2
mkdir -p "$dir/laurel"

# run NAME LOG CMD...: one timed run; prints "NAME LOG wall user sys rss_kib"
run() {
	local name=$1 log=$2
	shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" >"$dir/out.$name" 2>/dev/null ||
		{ echo "$name failed on $log" >&2; return 1; }
	echo "$name $log $(cat "$dir/time.out")"
}

events_of() { awk '{for (i = 1; i < NF; i++) if ($i == "events") print $(i+1)}' "$1"; }

printf '%-10s %-7s %10s %8s %8s %10s %8s %9s\n' tool log events wall-s cpu-s events/s MB/s peakRSS
for log in normal crash; do
	f=$dir/$log.log
	bytes=$(stat -c %s "$f")
	cat "$f" >/dev/null
	for tool in ${HM_BENCH_TOOLS:-auparse collector learn aureport laurel}; do
		case $tool in
		collector) r=$(run collector "$log" "$build/bench/bench_collector" "$f") ;;
		learn) rm -rf "$dir/policy"	# a fresh policy: all of it learned
			r=$(run learn "$log" "$build/histmac" learn -q --no-resolve \
				-p "$dir/policy" -i "$f") ;;
		auparse) r=$(run auparse "$log" "$build/bench/bench_auparse" "$f") ;;
		aureport) r=$(run aureport "$log" aureport --summary -if "$f") ;;
		laurel) rm -f "$dir/laurel/laurel.log"
			r=$(run laurel "$log" sh -c "laurel -c '$dir/laurel.toml' <'$f'") ;;
		esac
		set -- $r
		case $tool in
		auparse) n=$(events_of "$dir/out.auparse")
			cp "$dir/out.auparse" "$dir/auparse.$log"
			ev=$n ;;
		collector) ev=$(events_of "$dir/out.collector")
			cp "$dir/out.collector" "$dir/collector.$log" ;;
		learn) ev=$(events_of "$dir/out.collector") ;;	# the same events
		*) ev=$n ;;	# the events auparse found in the same file
		esac
		awk -v t="$tool" -v l="$log" -v ev="$ev" -v w="$3" -v s="$(echo "$4 $5" | awk '{print $1 + $2}')" \
			-v m="$6" -v b="$bytes" \
			'BEGIN { printf "%-10s %-7s %10d %8.2f %8.2f %10.0f %8.1f %6.0f MiB\n",
				t, l, ev, w, s, ev / s, b / s / 1e6, m / 1024 }'
	done
	echo "  collector: $(cat "$dir/collector.$log")"
	echo "  auparse:   $(cat "$dir/auparse.$log")"
done
