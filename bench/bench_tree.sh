#!/bin/bash
# bench/bench_tree.sh - time and peak memory to draw domain trees of 100,
# 1,000 and 10,000 domains (bench_tree.c: text, SVG and PNG through the
# exporters, folded with the default limits, and unfolded up to 2,000),
# plus `histmac tree` and `histmac report` end to end on a 10,002-domain
# policy directory (HM_BENCH_UNFOLDED=1: also unfolded, which takes
# minutes).  Results go in bench/RESULTS.md by hand.
#
# usage: bench/bench_tree.sh [BUILD_DIR] [SIZES...]
#   BUILD_DIR  a Release build of histmac (default /tmp/b-bench, built here)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-/tmp/b-bench}
shift || true

if [ ! -x "$build/bench/bench_tree" ] || [ ! -x "$build/histmac" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$build" -j "$(nproc)" --target bench_tree histmac >/dev/null
fi

echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores, $(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo)"
echo "# graphviz $(dpkg-query -W -f='${Version}' libgvc6 2>/dev/null || echo '?')"
"$build/bench/bench_tree" "$@"

# End to end: read a policy directory, draw, write the file.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN {
	print "<kernel>\nuse_profile 1\n"
	print "<kernel> /sbin/init\nuse_profile 1\n"
	for (s = 0; s < 100; s++) {
		svc = sprintf("<kernel> /sbin/init /usr/sbin/svc%02d", s)
		print svc "\nuse_profile " (s % 4) "\n\nfile read /etc/svc" s ".conf\n"
		for (c = 0; c < 99; c++)
			printf "%s /usr/bin/job%02d\nuse_profile 1\n\nfile read /tmp/j%d\nfile write /var/log/j%d.log\n\n", svc, c, c, c
	}
}' >"$tmp/domain_policy.conf"
echo
echo "histmac CLI on a policy directory of $(grep -c '^<' "$tmp/domain_policy.conf") domains (/usr/bin/time):"
run() {
	local label=$1
	shift
	/usr/bin/time -f "%e s %M KiB" -o "$tmp/time" "$build/histmac" "$@" >/dev/null
	printf '  %-34s %s\n' "$label" "$(cat "$tmp/time")"
}
run "tree (text)" tree -p "$tmp" -o "$tmp/t.txt"
run "tree (svg, folded)" tree -p "$tmp" -o "$tmp/t.svg"
run "tree (png, folded)" tree -p "$tmp" -o "$tmp/t.png"
run "report" report -p "$tmp" -o "$tmp/r"
run "export --format xml" export -p "$tmp" --format xml -o "$tmp/p.xml"
run "export --format json" export -p "$tmp" --format json -o "$tmp/p.json"
run "import --format xml" import -i "$tmp/p.xml" -p "$tmp/imported"
if [ -n "${HM_BENCH_UNFOLDED:-}" ]; then
	run "tree (svg, unfolded)" tree -p "$tmp" --max-children 1000000 \
		--max-nodes 1000000 -o "$tmp/full.svg"
fi
for f in t.svg t.png r/index.html p.xml p.json; do
	printf '  %-34s %s bytes\n' "$f" "$(stat -c %s "$tmp/$f")"
done
