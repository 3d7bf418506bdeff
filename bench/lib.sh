# shellcheck shell=bash
# bench/lib.sh - what the root benchmarks (bench_enforce.sh,
# bench_sandbox.sh, bench_starve.sh) share; sourced after set -eu:
#   bench_setup NAME    $tmp, a private directory, and $T, a ramfs
#                       mounted on $tmp/mnt; both gone on exit, with
#                       every process bench_track was given
#   bench_track PID     stop PID (SIGTERM, then wait) on exit
#   bench_stop PID      stop PID now
#   hm_wait_for CMD TENTHS   poll CMD every 0.1 s, at most TENTHS times
# Only processes started here are stopped, each by its pid.

_bench_pids=()

bench_track() {
	_bench_pids+=("$1")
}

bench_stop() {
	kill -TERM "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

_bench_cleanup() {
	local p
	# every one signalled first: stopping one may wait for another
	for p in "${_bench_pids[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
	done
	for p in "${_bench_pids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	mountpoint -q "$T" && umount "$T"
	rm -rf "$tmp"
}

bench_setup() {
	tmp=$(mktemp -d "/tmp/hm-bench-$1.XXXXXX")
	T=$tmp/mnt
	trap _bench_cleanup EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$T"
	mount -t ramfs "histmac-bench-$1" "$T"
}

# hm_wait_for CMD N: up to N tenths of a second for CMD to succeed.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/wait_for.sh"
