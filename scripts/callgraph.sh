#!/bin/sh
# callgraph.sh DIR - which file of DIR calls functions defined in which
# other file of DIR (by grep of "name(" for every hm_ function a file
# defines at the start of a line), as "caller -> callee" edges, then
# whether those edges make a cycle (tsort reports a loop).  Exit 1 on a cycle.
set -eu
dir=${1:?usage: callgraph.sh DIR}
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for def in "$dir"/*.c; do
	# functions defined in $def: "name(" at the start of a line, after a type
	for fn in $(grep -ohE '^[a-z_][a-z0-9_ *]*[ *](hm_[a-z0-9_]+)\(' "$def" |
		    sed -E 's/.*[ *](hm_[a-z0-9_]+)\($/\1/' | sort -u); do
		for use in "$dir"/*.c; do
			[ "$use" = "$def" ] && continue
			grep -qE "\\b$fn\\(" "$use" &&
				echo "$(basename "$use") $(basename "$def")"
		done
	done
done | sort -u >"$edges"
sed 's/ / -> /' "$edges"
if tsort "$edges" 2>&1 >/dev/null | grep -q 'loop'; then
	echo "cycle:" >&2
	tsort "$edges" 2>&1 >/dev/null | sed 's/^/  /' >&2
	exit 1
fi
echo "no cycle"
