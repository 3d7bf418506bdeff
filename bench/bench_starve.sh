#!/bin/bash
# bench/bench_starve.sh - how an enforcing daemon fares when an
# unprivileged user saturates the CPUs (issue 11 item 5): SPIN busy
# loops run as nobody at nice 0 while, also as nobody, one process opens
# files the policy allows on a marked ramfs (itself at nice -20, so that
# its latency is the daemon's delay, not its own).  For each scheduling setting
# of the daemon it records the opener's latency (p50, p99, max), the
# opens that failed (in enforcing mode a watchdog answer is a deny) and
# the daemon's watchdog counters.  Settings:
#   nice0     the daemon at nice 0, as a plain start
#   nice-10   nice -10
#   nice-20   nice -20
#   rr        SCHED_RR priority 1 (the unit forbids realtime; measured to
#             show what it would buy)
#
# usage: bench/bench_starve.sh [BUILD_DIR] [SPIN] [OPENS] [ROUNDS] [TIMEOUT] [FLOOD]
#   SPIN     busy loops (default 64)
#   OPENS    opens per measurement (default 20000)
#   ROUNDS   rounds, settings interleaved (default 3)
#   TIMEOUT  the daemon's --decision-timeout in seconds (default 1, the
#            daemon's default)
#   FLOOD    more openers as nobody, opening the same files without pause
#            at nice 0 (default 8): they keep the daemon busy, so that its
#            share of the CPUs, not only its wake-up, is what counts
# Needs root.  Everything started is stopped by pid; the ramfs is
# unmounted.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-/tmp/b-bench}
spin=${2:-64}
opens=${3:-20000}
rounds=${4:-3}
tmo=${5:-1}
flood=${6:-8}

[ "$(id -u)" = 0 ] || { echo "bench_starve: needs root" >&2; exit 3; }
if [ ! -x "$build/bench/bench_open" ] || [ ! -x "$build/histmac" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$build" -j "$(nproc)" >/dev/null
fi
HISTMAC=$build/histmac
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

. "$here/lib.sh"
bench_setup starve
chmod 755 "$tmp"
POL=$tmp/policy
mkdir -p "$POL"
spinners=()
stop_spinners() {
	local p
	for p in "${spinners[@]}"; do
		bench_stop "$p"
	done
	spinners=()
}
trap 'stop_spinners; _bench_cleanup' EXIT
chmod 755 "$T"
mkdir "$T/f"
for i in $(seq -w 0 999); do echo "$i" >"$T/f/$i"; done
files=("$T"/f/*)
BO=$tmp/bench_open	# outside the mark: its exec is not judged
cp "$build/bench/bench_open" "$BO"

# every domain takes <kernel>'s group: nobody may read the files (the
# condition keeps the entry from becoming a kernel ignore mark, so every
# open goes to the daemon)
cat >"$POL/exception_policy.conf" <<EOF
acl_group 0 file read $T/f/\\* task.uid=65534
EOF
cat >"$POL/domain_policy.conf" <<EOF
<kernel>
use_profile 3
use_group 0
EOF

start_daemon() {	# setting
	local pre=()
	case $1 in
	nice0) pre=(nice -n 0) ;;
	nice-10) pre=(nice -n -10) ;;
	nice-20) pre=(nice -n -20) ;;
	rr) pre=(chrt -r 1) ;;
	esac
	rm -f "$tmp/hm.pid"
	: >"$tmp/daemon.log"
	"${pre[@]}" "$HISTMAC" enforce -p "$POL" --mark "$T" --mode enforcing \
		--decision-timeout "$tmo" --pidfile "$tmp/hm.pid" \
		2>>"$tmp/daemon.log" &
	dpid=$!
	bench_track "$dpid"
	hm_wait_for "[ -s '$tmp/hm.pid' ] && grep -q 'enforcing: ' '$tmp/daemon.log'" 300 ||
		{ cat "$tmp/daemon.log" >&2; exit 1; }
}

stop_daemon() {
	bench_stop "$dpid"
}

counter() {	# label -> value from the daemon's exit statistics
	sed -n "s/^ *$1 *\([0-9]*\)\$/\1/p" "$tmp/daemon.log" | tail -n 1
}

start_spinners() {
	local i
	for i in $(seq 1 "$spin"); do
		"${NOBODY[@]}" sh -c 'while :; do :; done' &
		spinners+=("$!")
	done
	for i in $(seq 1 "$flood"); do
		"${NOBODY[@]}" "$BO" -n 2000000 -w 0 "${files[@]}" >/dev/null &
		spinners+=("$!")
	done
}

settings="nice0 nice-10 nice-20 rr"
: >"$tmp/results"
for r in $(seq 1 "$rounds"); do
	for s in $settings; do
		start_daemon "$s"
		start_spinners
		sleep 1
		# the opener fails nothing on its own; a failed open here is a
		# watchdog deny of an open the policy allows
		# the opener at nice -20 (set before setpriv drops to nobody):
		# its own wake-up is not delayed by the loops, so what its
		# latency shows is the daemon's
		out=$(nice -n -20 "${NOBODY[@]}" "$BO" -n "$opens" -w 500 \
			"${files[@]}") || true
		stop_spinners
		stop_daemon
		late=$(counter 'answered by the watchdog (late)')
		stalled=$(counter 'answered by the watchdog (loop stalled)')
		echo "$r $s $out late=${late:-?} stalled=${stalled:-?}" |
			tee -a "$tmp/results" >&2
	done
done

echo "# bench_starve: $(date -u +%Y-%m-%dT%H:%MZ) $(uname -r) $(nproc) CPUs;" \
	"$spin busy loops and $flood flooding openers as nobody; $opens opens x $rounds rounds;" \
	"--decision-timeout $tmo"
awk '
	{ for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	  k = $2; n[k]++; p50[k, n[k]] = f["p50_ns"]; p99[k, n[k]] = f["p99_ns"]
	  mx[k, n[k]] = f["max_ns"]; fail[k] += f["fail"]; calls[k] += f["opens"]
	  late[k] += f["late"]; stalled[k] += f["stalled"] }
	function median(a, k,   m, v, i, j, t) {
		m = n[k]
		for (i = 1; i <= m; i++) v[i] = a[k, i] + 0
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return v[int((m + 1) / 2)]
	}
	END {
		printf "| daemon | p50 | p99 | max | failed opens | watchdog late | watchdog stalled |\n"
		printf "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
		split("nice0 nice-10 nice-20 rr", s, " ")
		for (i = 1; i <= 4; i++) {
			k = s[i]
			printf "| %s | %.1f µs | %.1f µs | %.1f ms | %d/%d | %d | %d |\n",
			       k, median(p50, k) / 1000, median(p99, k) / 1000,
			       median(mx, k) / 1e6, fail[k], calls[k], late[k],
			       stalled[k]
		}
	}' "$tmp/results"
