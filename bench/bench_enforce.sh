#!/bin/bash
# bench/bench_enforce.sh - what a fanotify permission listener adds to
# open(): opens per second and latency per open (p50, p99) of one process
# opening 1,000 files round robin on a marked ramfs, side by side:
#   none       no listener
#   trivial    bench_fanlisten: reads each event, allows it, nothing else
#   histmac    histmac enforce --mode enforcing, a policy of 10,000
#              entries that allows every open (steady state: decision
#              cache hits)
#   histmac-nc the same with a 64-entry cache over 1,000 files: every open
#              takes the whole decision path (readlink, name, policy)
#   histmac-use histmac with --record-use --save-interval 1: each open
#              counted on its entry, the counts saved every second
#   histmac-met histmac with --metrics FILE --metrics-interval 1: the
#              metrics file rewritten every second
#   histmac-base histmac as the binary HM_BENCH_BASE names (another
#              build, e.g. of the commit before a change), else left out
#   fapolicyd  Debian's fapolicyd --permissive, its sample rule set, in a
#              private mount namespace with its config in a temp dir
# "added" is the latency minus that of "none" in the same round; the
# table shows the median over rounds, configurations interleaved.
#
# usage: bench/bench_enforce.sh [BUILD_DIR] [OPENS] [ROUNDS]
#   BUILD_DIR  a cmake build of histmac (default /tmp/b-bench, built here)
#   OPENS      opens per measurement (default 200000)
#   ROUNDS     rounds (default 5)
# Needs root and fapolicyd (scripts/deps.sh bench); without fapolicyd its
# row is left out.  HM_BENCH_NICE (default 0) is the nice value of the
# opener and the listeners (fapolicyd sets its own: nice_val = 0); HM_BENCH_CPU="A B" pins the opener to CPU A
# and the listener to CPU B.  HM_BENCH_CONFIGS="none histmac ..." runs
# only those rows (none and trivial are needed for "added").
#
# ramfs, because fapolicyd marks every mount of the file system types it
# watches (watch_fs): no other ramfs is mounted here, so nothing else on
# the machine waits for it.  Everything started is stopped by pid, the
# ramfs is unmounted, and fapolicyd's config never touches /etc.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-/tmp/b-bench}
opens=${2:-200000}
rounds=${3:-5}
nice=${HM_BENCH_NICE:-0}
read -r cpu_open cpu_listen <<<"${HM_BENCH_CPU:-}"

[ "$(id -u)" = 0 ] || { echo "bench_enforce: needs root" >&2; exit 3; }
if [ ! -x "$build/bench/bench_open" ] || [ ! -x "$build/histmac" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$build" -j "$(nproc)" >/dev/null
fi
HISTMAC=$build/histmac
BO=$(readlink -f "$build/bench/bench_open")
FL=$build/bench/bench_fanlisten

. "$here/lib.sh"
bench_setup enf
POL=$tmp/policy
mkdir -p "$POL"
mkdir "$T/f"
for i in $(seq -w 0 999); do
	echo "$i" >"$T/f/$i"
done
files=("$T"/f/*)

# ---- a policy of 10,000 entries: the bench domain holds 1,000 reads of
# the files, 3,900 literal reads of files that do not exist, 100 patterns;
# 50 more domains hold 100 entries each.
{
	echo "<kernel>"
	echo "use_profile 3"
	echo
	echo "<kernel> $BO"
	echo "use_profile 3"
	for f in "${files[@]}"; do
		echo "file read $f"
	done
	for i in $(seq 1 3900); do
		echo "file read $T/none/$i"
	done
	for i in $(seq 1 100); do
		echo "file read $T/pat$i/\\*.conf"
	done
	for d in $(seq 1 50); do
		echo
		echo "<kernel> /usr/bin/prog$d"
		echo "use_profile 3"
		for i in $(seq 1 98); do
			echo "file read /srv/prog$d/data$i"
		done
		echo "file write /srv/prog$d/\\*.log"
		echo "file execute /usr/bin/helper$d"
	done
} >"$POL/domain_policy.conf"
: >"$POL/exception_policy.conf"
n_entries=$(grep -c '^file ' "$POL/domain_policy.conf")

launch() {	# CPU CMD...: exec CMD at nice $nice, pinned to CPU if given;
	# always in a subshell ( & or $(...) ), whose pid becomes CMD's
	local c=$1
	shift
	if [ -n "$c" ]; then
		exec taskset -c "$c" nice -n "$nice" "$@"
	fi
	exec nice -n "$nice" "$@"
}

measure() {	# label -> one result line
	local out
	# no wrapper: taskset or nice in front would be a domain of its own
	out=$("$BO" -n "$opens" -w 5000 -N "$nice" ${cpu_open:+-c "$cpu_open"} \
		"${files[@]}") ||
		{ echo "bench_enforce: $1: opens failed: $out" >&2; exit 1; }
	echo "$1 $out"
}

# ---- fapolicyd, in its own mount namespace (config, database, runtime
# dirs bind-mounted from $tmp); permissive; marks only ramfs
fapo=
if command -v fapolicyd >/dev/null && command -v unshare >/dev/null; then
	fapo=$tmp/fapolicyd
	mkdir -p "$fapo/etc/rules.d" "$fapo/etc/trust.d" "$fapo/lib" "$fapo/run"
	cat >"$fapo/etc/fapolicyd.conf" <<EOF
permissive = 1
nice_val = 0
q_size = 640
uid = root
gid = root
do_stat_report = 0
detailed_report = 0
db_max_size = 50
subj_cache_size = 1549
obj_cache_size = 8191
watch_fs = ramfs
trust = file
integrity = none
syslog_format = rule,dec,perm,auid,pid,exe,:,path,ftype,trust
rpm_sha256_only = 0
allow_filesystem_mark = 1
EOF
	# the rule set fapolicyd's README suggests ("known-libs")
	for r in 10-languages 20-dracut 21-updaters 30-patterns 40-bad-elf \
		41-shared-obj 42-trusted-elf 70-trusted-lang 72-shell \
		90-deny-execute 95-allow-open; do
		cat "/usr/share/fapolicyd/sample-rules/$r.rules"
	done | grep -v '^#' | grep -v '^$' >"$fapo/etc/compiled.rules"
	: >"$fapo/etc/fapolicyd.trust"
fi

start_fapolicyd() {
	launch "${cpu_listen:-}" unshare -m --propagation private sh -c "
		mount --bind '$fapo/etc' /etc/fapolicyd &&
		mount --bind '$fapo/lib' /var/lib/fapolicyd &&
		mkdir -p /run/fapolicyd && mount --bind '$fapo/run' /run/fapolicyd &&
		exec fapolicyd --permissive --debug-deny" >"$tmp/fapolicyd.log" 2>&1 &
	lpid=$!
	bench_track "$lpid"
	hm_wait_for "grep -q 'Starting to listen' '$tmp/fapolicyd.log'" 600 || {
		cat "$tmp/fapolicyd.log" >&2
		echo "bench_enforce: fapolicyd did not start" >&2
		exit 1
	}
	# it must see our opens, and only ramfs may be marked
	grep "mount point" "$tmp/fapolicyd.log" | grep -v "$T" &&
		{ echo "bench_enforce: fapolicyd marked more than $T" >&2; exit 1; }
	true
}

start_histmac() {	# [-b BINARY] extra args
	local bin=$HISTMAC
	[ "${1:-}" = -b ] && { bin=$2; shift 2; }
	rm -f "$tmp/hm.pid"
	launch "${cpu_listen:-}" "$bin" enforce -p "$POL" --mark "$T" \
		--mode enforcing --pidfile "$tmp/hm.pid" "$@" \
		2>>"$tmp/histmac.log" &
	lpid=$!
	bench_track "$lpid"
	hm_wait_for "[ -s '$tmp/hm.pid' ] && grep -q 'enforcing: ' '$tmp/histmac.log'" 300 ||
		{ cat "$tmp/histmac.log" >&2; exit 1; }
}

configs="none trivial histmac histmac-nc histmac-use histmac-met"
[ -n "${HM_BENCH_BASE:-}" ] && configs="$configs histmac-base"
[ -n "$fapo" ] && configs="$configs fapolicyd"
configs=${HM_BENCH_CONFIGS:-$configs}
results=$tmp/results
: >"$results"
for round in $(seq 1 "$rounds"); do
	for c in $configs; do
		lpid=
		case $c in
		none) ;;
		trivial)
			launch "${cpu_listen:-}" "$FL" "$T" >"$tmp/fl.out" &
			lpid=$!
			bench_track "$lpid"
			hm_wait_for "grep -q ready '$tmp/fl.out'" 100 ;;
		histmac) start_histmac ;;
		histmac-nc) start_histmac --cache-size 64 ;;
		histmac-use) start_histmac --record-use --save-interval 1 ;;
		histmac-met) start_histmac --metrics "$tmp/metrics.prom" \
			--metrics-interval 1 ;;
		histmac-base) start_histmac -b "$HM_BENCH_BASE" ;;
		fapolicyd) start_fapolicyd ;;
		esac
		measure "$c" | tee -a "$results" | sed "s/^/round $round: /" >&2
		# taskset, nice, unshare and sh all exec: $lpid is the daemon
		[ -z "$lpid" ] || bench_stop "$lpid"
	done
done
grep -q "fail=[1-9]" "$results" && { echo "bench_enforce: failed opens" >&2; exit 1; }

# ---- the table: medians over rounds
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
		else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
field() {	# config field
	grep "^$1 " "$results" | tr ' ' '\n' | sed -n "s/^$2=//p" | median
}
# added latency per round (config minus none of the same round)
added() {	# config field
	paste -d' ' <(grep "^none " "$results" | tr ' ' '\n' | sed -n "s/^$2=//p") \
		<(grep "^$1 " "$results" | tr ' ' '\n' | sed -n "s/^$2=//p") |
		awk '{ print $2 - $1 }' | median
}
us() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1000 }'; }

echo
echo "$(uname -r), $(nproc) CPUs, $opens opens x $rounds rounds, policy of $n_entries entries, nice $nice${HM_BENCH_CPU:+, pinned $HM_BENCH_CPU}"
echo
echo "| listener | opens/s | p50 | p99 | added p50 | added p99 |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for c in $configs; do
	if [ "$c" = none ]; then
		printf '| %s | %s | %s µs | %s µs | - | - |\n' "$c" \
			"$(field "$c" per_sec)" "$(us "$(field "$c" p50_ns)")" \
			"$(us "$(field "$c" p99_ns)")"
		continue
	fi
	printf '| %s | %s | %s µs | %s µs | %s µs | %s µs |\n' "$c" \
		"$(field "$c" per_sec)" "$(us "$(field "$c" p50_ns)")" \
		"$(us "$(field "$c" p99_ns)")" "$(us "$(added "$c" p50_ns)")" \
		"$(us "$(added "$c" p99_ns)")"
done
t50=$(added trivial p50_ns)
t99=$(added trivial p99_ns)
h50=$(added histmac p50_ns)
h99=$(added histmac p99_ns)
echo
awk -v a="$h50" -v b="$t50" -v c="$h99" -v d="$t99" 'BEGIN {
	printf "histmac added / trivial added: p50 %.2fx, p99 %.2fx (target <= 1.2x)\n",
		a / b, c / d }'
if [[ " $configs " == *" fapolicyd "* ]]; then
	f50=$(added fapolicyd p50_ns)
	f99=$(added fapolicyd p99_ns)
	awk -v a="$h50" -v b="$f50" -v c="$h99" -v d="$f99" 'BEGIN {
		printf "histmac added / fapolicyd added: p50 %.2fx, p99 %.2fx (target < 1)\n",
			a / b, c / d }'
fi
grep -E "cache:|allowed from the decision cache" "$tmp/histmac.log" | tail -2 >&2 || true
