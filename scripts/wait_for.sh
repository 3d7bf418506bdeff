# scripts/wait_for.sh - sourced by tests/e2e/lib.sh and bench/lib.sh.
# hm_wait_for CMD N: wait up to N tenths of a second for CMD (evaluated,
# output discarded) to succeed; 1 when it never did.
hm_wait_for() {
	local n=0
	while ! eval "$1" >/dev/null 2>&1; do
		n=$((n + 1))
		[ "$n" -le "$2" ] || return 1
		sleep 0.1
	done
}
