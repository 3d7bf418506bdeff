#!/bin/bash
# scripts/test_map.sh - run the tests of the files a change touches.
#
# usage: scripts/test_map.sh [--list] [-B BUILD] [FILE...]
#
# The change is FILE..., or else the files `git diff --name-only
# main...HEAD` names plus the working tree's (staged, unstaged,
# untracked).  Each file takes the tests of the first row of the map
# below whose pattern (a shell glob on its path) it matches; the tests
# are ctest names, as regular expressions (ctest -N lists them), or
# "quick", make check's tier (labels unit, golden, fuzz, quick).  A file
# no row names takes the quick tier.  A row with "-" runs nothing: the
# file is not code (scripts/check_rooms.sh and the man pages' build still
# see it when the tree is built).
#   --list    print the tests it would run, run nothing
#   -B BUILD  the build directory (default build), built first
# The e2e tests need root (tests/README.md); ctest runs them side by side
# as make test does.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)

# pattern                     tests
map() {
	cat <<'EOF'
tests/unit/test_*.c           unit/{}$
tests/unit/*                  unit/
tests/golden/t_*.sh           golden/{}$
tests/golden/*                golden/
tests/e2e/t_*.sh              e2e/{}$
tests/e2e/lib.sh              e2e/
tests/e2e/enforce_lib.sh      e2e/t_enforce_ e2e/t_store_ e2e/t_service_
tests/e2e/enforce_helper.c    e2e/t_enforce_ e2e/t_store_
tests/e2e/sandbox_lib.sh      e2e/t_sandbox_
tests/e2e/store_lib.sh        e2e/t_store_
tests/e2e/service*            e2e/t_service_
tests/e2e/vm_lib.sh           e2e/t_vm_
tests/e2e/trace_*             e2e/t_trace_
tests/vm/*                    e2e/t_vm_
tests/fuzz/*                  fuzz/
tests/data/*                  quick
collector/trace*              unit/test_trace e2e/t_trace_
collector/*                   unit/test_(collector|canon|memo|events|source|trace) golden/ fuzz/replay_collector e2e/t_collector_ e2e/t_audit_ e2e/t_learn_ e2e/t_trace_
session/*                     unit/test_session golden/ e2e/t_learn_live e2e/t_collector_follow
analyzer/*                    unit/ golden/ fuzz/ e2e/t_learn_ e2e/t_patternize_trust e2e/t_fidelity
procs/*                       unit/test_procs unit/test_enforce_ e2e/t_enforce_ e2e/t_sandbox_chain
enforcer/*                    unit/test_enforce_ unit/test_procs e2e/t_enforce_ e2e/t_store_enforce_edit
sandbox/*                     unit/test_sandbox golden/t_sandbox_ golden/t_check_landlock e2e/t_sandbox_ e2e/t_service_sandbox
store/*                       unit/test_store golden/t_lifecycle e2e/t_store_
formats/*                     unit/test_(export_|policy_io|diff|packages) golden/ fuzz/
exporters/*                   unit/test_export_ golden/t_(tree_|json_export|policy_export)
cli/cmd_sandbox.c             golden/t_sandbox_ e2e/t_sandbox_ e2e/t_service_sandbox
cli/cmd_enforce.c             e2e/t_enforce_ e2e/t_store_enforce_edit
cli/cmd_query.c               e2e/t_enforce_(kill|supervisor|use)
cli/cmd_events.c              golden/ e2e/t_collector_
cli/cli_trace.c               e2e/t_trace_
cli/cmd_learn.c               golden/ quick e2e/t_trace_
cli/cmd_check.c               golden/ quick e2e/t_trace_
cli/cmd_report.c              golden/t_(convergence|merge_provenance|tree_badnames) e2e/t_report_chromium
cli/*                         golden/ quick
debian/*                      e2e/t_package
bench/*                       -
docs/*                        -
man/*                         -
*.md                          -
EOF
}

list=0
build=build
files=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=1 ;;
	-B) build=${2:?-B needs a directory}; shift ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "test_map: unknown option $1" >&2; exit 2 ;;
	*) files+=("$1") ;;
	esac
	shift
done
cd "$src"
if [ ${#files[@]} = 0 ]; then
	mapfile -t files < <({
		git diff --name-only main...HEAD
		git diff --name-only HEAD
		git ls-files --others --exclude-standard
	} | sort -u)
fi

# the tests' regular expressions, one a line ("quick" for the tier)
res=$(for f in "${files[@]}"; do
	f=${f#./}
	row=
	while read -r pat tests; do
		# shellcheck disable=SC2053 # the pattern is a glob
		if [[ $f == $pat ]]; then row=$tests; break; fi
	done < <(map)
	[ -n "$row" ] || row=quick
	[ "$row" = - ] && continue
	name=$(basename "$f"); name=${name%.*}
	for t in $row; do echo "${t//\{\}/$name}"; done
done | sort -u)

if [ -z "$res" ]; then
	echo "test_map: no test for this change (${#files[@]} files)" >&2
	exit 0
fi
if [ "$list" = 0 ]; then
	cmake -S . -B "$build" >/dev/null
	cmake --build "$build" -j "$(nproc)" >/dev/null
fi
[ -f "$build/CTestTestfile.cmake" ] ||
	{ echo "test_map: $build: not configured (cmake -S . -B $build)" >&2; exit 2; }
# every test ctest has, with its labels; then those the map picked
all=$(cd "$build" && ctest -N --show-only=json-v1 | jq -r '.tests[] |
	[.name, ([.properties[]? | select(.name == "LABELS") | .value[]] | join(","))] | @tsv')
picked=$(while IFS=$'\t' read -r name labels; do
	while read -r re; do
		if [ "$re" = quick ]; then
			[[ ,$labels, =~ ,(unit|golden|fuzz|quick), ]] && { echo "$name"; break; }
		elif [[ $name =~ ^($re) ]]; then
			echo "$name"; break
		fi
	done <<<"$res"
done <<<"$all")
if [ -z "$picked" ]; then
	echo "test_map: the map names no test ctest has: $res" >&2
	exit 2
fi
if [ "$list" = 1 ]; then
	echo "$picked"
	exit 0
fi
n=$(echo "$picked" | wc -l)
echo "test_map: $n tests for ${#files[@]} changed files" >&2
re=$(echo "$picked" | sed 's/[.+]/\\&/g' | paste -sd'|')
cd "$build" && exec ctest --output-on-failure -j "$(nproc)" -R "^($re)\$"
