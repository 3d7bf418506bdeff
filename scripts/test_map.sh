#!/bin/bash
# scripts/test_map.sh - which tests exercise which source file, for
# tests/README.md: a unit test is listed under every source file whose
# hm_* functions it calls directly (nm on its object and on the room
# libraries); a shell test (golden, e2e) under cli/cmd_NAME.c for every
# `histmac NAME` it runs.
# usage: scripts/test_map.sh BUILD_DIR > map.md
set -eu
export LC_ALL=C
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/test_map.sh BUILD_DIR}
[ -f "$build/rooms.txt" ] || { echo "test_map: $build: not configured" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# symbol -> source file (room/file.c), from the room libraries
while read -r room file deps; do
	nm -A --defined-only "$file" 2>/dev/null |
		awk '$2 ~ /^[TDR]$/ && $3 ~ /^hm_/ { split($1, p, ":"); print $3, p[2] }'
done <"$build/rooms.txt" | sed 's/\.c\.o$/.c/' >"$tmp/defs.raw"
# the object name lacks its directory: find it
while read -r sym obj; do
	f=$(cd "$src" && ls */"$obj" 2>/dev/null | grep -v '^tests/' | head -n 1)
	if [ -n "$f" ]; then echo "$sym $f"; fi
done <"$tmp/defs.raw" | sort -u >"$tmp/defs"

# unit tests: their objects' undefined hm_* symbols
for o in "$build"/CMakeFiles/test_*.dir/tests/unit/test_*.c.o; do
	t=$(basename "$o" .c.o)
	nm -u "$o" | awk '$2 ~ /^hm_/ { print $2 }' | sort -u |
		join - "$tmp/defs" | awk -v t="unit/$t" '{ print $2, t }'
done >"$tmp/pairs"
# shell tests: the subcommands they run
for f in "$src"/tests/golden/t_*.sh "$src"/tests/e2e/t_*.sh; do
	t=$(basename "$(dirname "$f")")/$(basename "$f" .sh)
	grep -oE '(HISTMAC"?|histmac) +[a-z]+' "$f" | awk '{ print $NF }' | sort -u |
		while read -r c; do
			if [ -f "$src/cli/cmd_$c.c" ]; then echo "cli/cmd_$c.c $t"; fi
		done
done >>"$tmp/pairs"

echo "| source file | tests |"
echo "|---|---|"
(cd "$src" && ls */*.c | grep -vE '^(tests|bench)/') | while read -r f; do
	ts=$(awk -v f="$f" '$1 == f { print $2 }' "$tmp/pairs" | sort -u | paste -sd' ' | sed 's/ /, /g')
	echo "| \`$f\` | ${ts:-(through the commands that use it)} |"
done
