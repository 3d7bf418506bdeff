#!/bin/sh
# Run every unit test (BUILD/test_*) under valgrind's memcheck: any
# invalid access, use of uninitialised memory or definite/indirect leak
# fails it.  tests/valgrind.supp lists the third-party leaks (Graphviz and
# its font stack) and why each is not ours.  Logs: BUILD/valgrind/*.log.
# usage: scripts/valgrind.sh BUILD [JOBS]        (make valgrind)
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)

# --one TEST LOGDIR: one test, then "PASS|FAIL name seconds".
if [ "${1:-}" = --one ]; then
	name=$(basename "$2")
	start=$(date +%s)
	status=PASS
	# HM_UNDER_VALGRIND: valgrind answers Landlock's and seccomp's calls
	# with ENOSYS, so test_sandbox skips applying a ruleset and
	# test_trace tracing a command here (not in other runs).
	HM_UNDER_VALGRIND=1 HM_TEST_DATA="$src/tests/data" valgrind --tool=memcheck \
		--leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --error-exitcode=1 \
		--track-origins=yes --num-callers=30 \
		--suppressions="$src/tests/valgrind.supp" \
		"$2" >"$3/$name.log" 2>&1 || status=FAIL
	echo "$status $name $(($(date +%s) - start))s"
	exit 0
fi

build=${1:?usage: scripts/valgrind.sh BUILD [JOBS]}
jobs=${2:-$(nproc)}
logs=$build/valgrind

command -v valgrind >/dev/null || {
	echo "valgrind.sh: valgrind missing (scripts/deps.sh test)" >&2
	exit 3
}
tests=$(find "$build" -maxdepth 1 -type f -name 'test_*' -perm -u+x | sort)
[ -n "$tests" ] || { echo "valgrind.sh: no unit tests in $build" >&2; exit 3; }
rm -rf "$logs"
mkdir -p "$logs"

start=$(date +%s)
results=$(echo "$tests" | xargs -P "$jobs" -I{} "$0" --one {} "$logs" | sort -k2)
echo "$results"
failed=$(echo "$results" | grep -c '^FAIL' || true)
echo "valgrind.sh: $(echo "$tests" | wc -l) unit tests in" \
	"$(($(date +%s) - start))s, $failed failed (logs in $logs)"
[ "$failed" -eq 0 ] && exit 0
for name in $(echo "$results" | awk '/^FAIL/ { print $2 }'); do
	echo "--- $logs/$name.log" >&2
	grep -E '^==[0-9]+==' "$logs/$name.log" | head -n 60 >&2
	# the test's own words: a failed assertion is not a memcheck error
	echo "--- $name's output (last lines)" >&2
	grep -vE '^(==|--)[0-9]+(==|--)' "$logs/$name.log" | tail -n 20 >&2
done
exit 1
