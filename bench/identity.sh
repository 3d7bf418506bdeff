#!/bin/bash
# bench/identity.sh - is the behaviour of this tree the behaviour of a
# reference commit?  Builds REF (from `git archive`, so no worktree is
# touched) and the current tree, runs both on the bundled sample log and on
# a large generated one (bench/genlog.pl), and compares every output byte
# for byte: the learned policy, its export in every format, the tree (text,
# dot, svg), check reports (text, json), the collector's events (tsv, json),
# stats, merge, and the XML import round trip.  Each command's stdout,
# stderr and exit status are compared; paths in them are the same relative
# names on both sides.
#
# usage: bench/identity.sh [REF] [CUR_BUILD]
#   REF        commit to compare against (default a0846d9, the tree before
#              the rooms were restructured)
#   CUR_BUILD  an existing build of this tree to use as is (default: build
#              the working tree, uncommitted changes included, here)
#   HM_IDENTITY_DIR    work and cache directory (default
#                      /var/tmp/histmac-identity); the reference build and
#                      the generated log are kept there and reused
#   HM_IDENTITY_COPIES copies of the sample in the large log (default 60:
#                      about 100 MB, 640+ domains, 11,000+ entries)
# Exit: 0 identical, 1 some output differs (listed, with a diff excerpt),
# 2 usage, 3 could not build or run.
set -eu
export LC_ALL=C TZ=UTC
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
ref=${1:-a0846d9}
cur_build=${2:-}
dir=${HM_IDENTITY_DIR:-/var/tmp/histmac-identity}
copies=${HM_IDENTITY_COPIES:-60}

die() { echo "identity: $*" >&2; exit 3; }
case $ref in -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
sha=$(git -C "$src" rev-parse --verify -q "$ref^{commit}") || {
	echo "identity: $ref: not a commit" >&2; exit 2; }
mkdir -p "$dir"

# build SRCDIR BUILDDIR: the histmac binary only, Release, no -Werror (the
# reference must build as it was).
build() {
	cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release >"$2.log" 2>&1 &&
		cmake --build "$2" --target histmac -j "$(nproc)" >>"$2.log" 2>&1 ||
		die "build of $1 failed, see $2.log"
}

ref_bin=$dir/ref-$sha/build/histmac
if [ ! -x "$ref_bin" ]; then
	rm -rf "$dir/ref-$sha"
	mkdir -p "$dir/ref-$sha/src"
	git -C "$src" archive "$sha" | tar -x -C "$dir/ref-$sha/src"
	build "$dir/ref-$sha/src" "$dir/ref-$sha/build"
fi
if [ -n "$cur_build" ]; then
	cur_bin=$(cd "$cur_build" && pwd)/histmac || die "$cur_build: no such directory"
	[ -x "$cur_bin" ] || die "$cur_bin: no such binary"
else
	build "$src" "$dir/cur-build"
	cur_bin=$dir/cur-build/histmac
fi

big=$dir/big-$copies.log
if [ ! -s "$big" ]; then
	perl "$here/genlog.pl" "$copies" "$src/samples/audit/apache2-sysv.log" >"$big.tmp"
	mv "$big.tmp" "$big"
fi

# run SIDE NAME CMD...: in SIDE's directory, NAME.out/.err/.rc
run() {
	local side=$1 name=$2 rc=0
	shift 2
	(cd "$out/$side" && "$@" >"$name.out" 2>"$name.err") || rc=$?
	echo "$rc" >"$out/$side/$name.rc"
}

# side SIDE BINARY: every command, on both logs
side() {
	local s=$1 h=$2 log f
	mkdir -p "$out/$s"
	ln -s "$src/samples/audit/apache2-sysv.log" "$out/$s/sample.log"
	ln -s "$big" "$out/$s/big.log"
	for log in sample big; do
		run "$s" "$log-learn" "$h" learn --no-resolve -p "$log-p" -i "$log.log"
		run "$s" "$log-relearn" "$h" learn --no-resolve -p "$log-p" -i "$log.log"
		for f in tomoyo tomoyo-2.1 tomoyo-1.8 xml json text dot svg html; do
			run "$s" "$log-export-$f" "$h" export -p "$log-p" --format "$f"
		done
		for f in tomoyo-2.1 tomoyo-1.8; do
			run "$s" "$log-export-dir-$f" "$h" export -p "$log-p" --format "$f" -o "$log-$f"
			run "$s" "$log-stats-$f" "$h" stats -p "$log-$f"
		done
		run "$s" "$log-tree-text" "$h" tree -p "$log-p"
		run "$s" "$log-tree-dot" "$h" tree -p "$log-p" -f dot
		run "$s" "$log-tree-svg" "$h" tree -p "$log-p" -o "$log-tree.svg"
		run "$s" "$log-stats" "$h" stats -p "$log-p"
		run "$s" "$log-policy-check" "$h" policy check -p "$log-p"
		run "$s" "$log-check" "$h" check --no-resolve -p "$log-p" -i "$log.log"
		run "$s" "$log-events-tsv" "$h" events --no-resolve --stats -i "$log.log"
		run "$s" "$log-events-json" "$h" events --no-resolve -f json -i "$log.log"
		run "$s" "$log-import" "$h" import --format xml -p "$log-imported" -i \
			"$log-export-xml.out"
	done
	# the large log against the sample's policy: many findings
	for f in text json; do
		run "$s" "cross-check-$f" "$h" check --no-resolve --format "$f" \
			-p sample-p -i big.log
	done
	run "$s" "cross-highlight" "$h" tree -p big-p -f dot \
		--highlight cross-check-json.out
	run "$s" merge "$h" merge -o merged sample-p big-p
	run "$s" diff "$h" diff sample-p big-p
	rm -f "$out/$s/sample.log" "$out/$s/big.log"
}

out=$(mktemp -d "$dir/run.XXXXXX")
echo "identity: reference $sha ($ref_bin)" >&2
echo "identity: current   $cur_bin" >&2
echo "identity: large log $big ($(stat -c %s "$big") bytes)" >&2
side ref "$ref_bin"
side cur "$cur_bin"

# The first few differences are shown as diff excerpts, the rest named.
status=0
n=0
shown=0
while IFS= read -r f; do
	n=$((n + 1))
	if [ ! -e "$out/cur/$f" ]; then
		echo "DIFFERS: $f: missing in the current tree"
		status=1
	elif ! cmp -s "$out/ref/$f" "$out/cur/$f"; then
		echo "DIFFERS: $f"
		status=1
		shown=$((shown + 1))
		[ "$shown" -le 8 ] || continue
		diff -u "$out/ref/$f" "$out/cur/$f" 2>/dev/null | sed -n '3,10p' | cut -c1-160
	fi
done < <(cd "$out/ref" && find . -type f | sed 's|^\./||' | sort)
extra=$(cd "$out/cur" && find . -type f | sed 's|^\./||' | sort |
	while IFS= read -r f; do [ -e "$out/ref/$f" ] || echo "$f"; done)
if [ -n "$extra" ]; then
	echo "DIFFERS: only in the current tree: $extra"
	status=1
fi
if [ "$status" = 0 ]; then
	echo "identity: $n files identical to $ref"
	rm -rf "$out"
else
	echo "identity: outputs kept in $out" >&2
fi
exit "$status"
