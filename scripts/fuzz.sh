#!/bin/sh
# Run the libFuzzer binaries of a -DHISTMAC_FUZZ=ON build, each for
# SECONDS, seeded from tests/fuzz/corpus/<target>/, which is only read:
# new inputs go to a scratch directory, BUILD/fuzz-work/<target>/corpus/,
# never into the committed corpus (minimized crashers are added there by
# hand, see docs/FUZZING.md).  Exit 1 if any target crashed, leaked,
# timed out or ran out of memory; the reproducer and the log are in
# BUILD/fuzz-work/<target>/.
# usage: scripts/fuzz.sh BUILD SECONDS [TARGET...]     (make fuzz)
#        FUZZ_JOBS=N runs N targets at once (default 1).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)

# Per target: the longest input worth trying, and a dictionary (- none).
#   check_json   JSON of `histmac check --format json`; 16 KiB holds
#                nesting, escapes and many domains
#   encode       raw bytes; 8 KiB reaches past HM_MAX_WORD (the target
#                ignores more than 4 * HM_MAX_WORD)
#   exception    one dialect byte + exception policy text
#   match        PATTERN NUL NAME; words with many wildcards are short,
#                and the reference matcher runs only on small inputs
#   policy       one dialect byte + domain policy text
#   xml_import   an xml export; every exporter runs on what imports
#   collector    audit log text, when that target exists
settings() {
	case $1 in
	check_json) echo "16384 $src/tests/fuzz/json.dict" ;;
	encode) echo "8192 -" ;;
	exception) echo "8192 $src/tests/fuzz/policy.dict" ;;
	match) echo "1024 $src/tests/fuzz/match.dict" ;;
	policy) echo "8192 $src/tests/fuzz/policy.dict" ;;
	xml_import) echo "16384 $src/tests/fuzz/xml.dict" ;;
	collector) echo "65536 -" ;;
	*) echo "4096 -" ;;
	esac
}

# --one BUILD SECONDS TARGET: run one; print "TARGET ok|FAILED ...".
if [ "${1:-}" = --one ]; then
	build=$2 seconds=$3 t=$4
	dir=$build/fuzz-work/$t
	# shellcheck disable=SC2046
	set -- $(settings "$t")
	max_len=$1
	dict=
	[ "$2" = - ] || dict=-dict=$2
	seeds=$src/tests/fuzz/corpus/$t
	[ -d "$seeds" ] || seeds=
	mkdir -p "$dir/corpus"
	status=ok
	# -rss_limit_mb: xml_import renders pictures; 2 GiB is generous.
	# shellcheck disable=SC2086
	"$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" \
		-max_len="$max_len" $dict -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$dir/" \
		"$dir/corpus" $seeds >"$dir/log" 2>&1 || status=FAILED
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
	cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -n 1)
	echo "$t $status ${execs:-?} execs, ${cov:-cov: ?}, ${seconds}s," \
		"corpus $(ls "$dir/corpus" | wc -l)"
	exit 0
fi

build=${1:?usage: scripts/fuzz.sh BUILD SECONDS [TARGET...]}
seconds=${2:?usage: scripts/fuzz.sh BUILD SECONDS [TARGET...]}
shift 2
if [ $# -eq 0 ]; then
	for b in "$build"/tests/fuzz/fuzz_*; do
		[ -x "$b" ] && set -- "$@" "${b##*/fuzz_}"
	done
fi
[ $# -gt 0 ] || {
	echo "fuzz.sh: no fuzz_* binaries in $build/tests/fuzz" >&2
	exit 3
}
results=$(for t in "$@"; do echo "$t"; done |
	xargs -P "${FUZZ_JOBS:-1}" -I{} "$0" --one "$build" "$seconds" {})
echo "$results"
echo "$results" | grep -q ' FAILED ' || exit 0
for t in $(echo "$results" | awk '$2 == "FAILED" { print $1 }'); do
	echo "--- $build/fuzz-work/$t/log" >&2
	grep -E 'ERROR|SUMMARY|==[0-9]+==|Test unit written|artifact' \
		"$build/fuzz-work/$t/log" | head -n 40 >&2
done
exit 1
