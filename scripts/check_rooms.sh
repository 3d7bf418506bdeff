#!/bin/bash
# scripts/check_rooms.sh - the layout rules CONTRIBUTING.md states, checked
# on the sources and on the built room libraries:
#   1. no file includes a .c file, and none outside tests/ and bench/
#      includes "../...": another directory's private header (a room's
#      face is its public header in include/histmac/; the code behind a
#      private one is reached only from its own room);
#   2. no back edge between rooms: every hm_* symbol a room's library
#      leaves undefined (nm -u) is defined in that room or in a room
#      below it (BUILD_DIR/rooms.txt, which CMake writes from the links
#      CMakeLists.txt gives each room);
#   3. one face per room: the functions and objects a public header
#      (include/histmac/*.h) declares are all defined in one room's
#      library (a header that spoke for two rooms would let a room reach
#      the one above it through a header it may include);
#   5. every public header names its room's directory on its first line
#      ("NAME.h (DIR) - what it is"), the room that defines its functions
#      when it declares any, so a reader tells its room from the header;
#   4. (reported, not failed) cycles between the files of one room: file
#      A uses a symbol of file B and B one of A (nm per object file).
# usage: scripts/check_rooms.sh BUILD_DIR     (ctest: lint/rooms)
# Exit: 0 clean, 1 a rule broken (each listed), 2 usage.
set -eu
export LC_ALL=C
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/check_rooms.sh BUILD_DIR}
[ -f "$build/rooms.txt" ] || { echo "check_rooms: $build: no rooms.txt (configure first)" >&2; exit 2; }

# room: its library file and the rooms it links directly, as built; it
# may use these and, through them, the rooms below them.
declare -A links=() lib=()
while read -r room file deps; do
	[ -f "$file" ] || { echo "check_rooms: $file: not built" >&2; exit 2; }
	links[$room]=$deps
	lib[$room]=$file
done <"$build/rooms.txt"
# below ROOM: every room ROOM may use, transitively
below() {
	local r
	for r in ${links[$1]}; do
		echo "$r"
		below "$r"
	done | sort -u
}
status=0

# 1. #include "x.c"
inc=$(cd "$src" && find . \( -name '.git' -o -name 'build*' \) -prune -o \
	\( -name '*.c' -o -name '*.h' \) -print0 | xargs -0 grep -HnE \
	'^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^">]*\.c[">]' || true)
if [ -n "$inc" ]; then
	echo "check_rooms: files that include a .c file:"
	echo "$inc"
	status=1
fi
# #include "../x.h" (tests and benchmarks may look inside a room)
inc=$(cd "$src" && find . \( -name '.git' -o -name 'build*' -o -path ./tests \
	-o -path ./bench \) -prune -o \( -name '*.c' -o -name '*.h' \) -print0 |
	xargs -0 grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./' ||
	true)
if [ -n "$inc" ]; then
	echo "check_rooms: files that include another directory's private header:"
	echo "$inc"
	status=1
fi

# 2. back edges
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for room in "${!links[@]}"; do
	nm -g --defined-only "${lib[$room]}" 2>/dev/null |
		awk 'NF == 3 { print $3 }' | sort -u >"$tmp/$room.def"
done
for room in "${!links[@]}"; do
	cat "$tmp/$room.def" >"$tmp/allowed"
	for b in $(below "$room"); do
		cat "$tmp/$b.def" >>"$tmp/allowed"
	done
	sort -u -o "$tmp/allowed" "$tmp/allowed"
	nm -u "${lib[$room]}" | awk '$1 == "U" && $2 ~ /^hm_/ { print $2 }' |
		sort -u | comm -23 - "$tmp/allowed" >"$tmp/bad"
	if [ -s "$tmp/bad" ]; then
		status=1
		while read -r sym; do
			owner=$(grep -lx "$sym" "$tmp"/*.def | sed 's|.*/||; s|\.def$||' | head -n 1)
			echo "check_rooms: $room uses $sym from ${owner:-nowhere}, not a room below it"
		done <"$tmp/bad"
	fi
done

# a room's directory: its library's name without hm_, but for two
room_dir() {
	case $1 in
	hm_util) echo lib ;;
	hm_enforce) echo enforcer ;;
	*) echo "${1#hm_}" ;;
	esac
}
declare -A dirs=()
for room in "${!links[@]}"; do
	dirs[$(room_dir "$room")]=$room
done

# 3. one room per public header: the hm_* names its declarations (not its
# comments) end in "(", "[" or ";", looked up in the rooms' definitions
for h in "$src"/include/histmac/*.h; do
	grep -vE '^[[:space:]]*(\*|/\*)' "$h" |
		grep -oE '\bhm_[a-z0-9_]+[[:space:]]*[[(;]' |
		grep -oE 'hm_[a-z0-9_]+' | sort -u >"$tmp/decl"
	for room in "${!links[@]}"; do
		comm -12 "$tmp/decl" "$tmp/$room.def" | sed "s/\$/ $room/"
	done | sort >"$tmp/owners"
	if [ "$(awk '{ print $2 }' "$tmp/owners" | sort -u | wc -l)" -gt 1 ]; then
		status=1
		echo "check_rooms: ${h#"$src"/} speaks for more than one room:"
		awk '{ print "  " $1 " (" $2 ")" }' "$tmp/owners"
	fi
	# 5. ... and says so on its first line: " * NAME.h (DIR) - ..."
	said=$(grep -m 1 -E '^ \* [a-z0-9_]+\.h ' "$h" |
		sed -nE 's/^ \* [a-z0-9_]+\.h \(([a-z]+)\) - .*/\1/p')
	owner=$(awk 'NR == 1 { print $2 }' "$tmp/owners")
	if [ -z "$said" ] || [ -z "${dirs[$said]:-}" ]; then
		status=1
		echo "check_rooms: ${h#"$src"/}: its first line does not name its room (\" * NAME.h (DIR) - ...\", DIR one of: ${!dirs[*]})"
	elif [ -n "$owner" ] && [ "${dirs[$said]}" != "$owner" ]; then
		status=1
		echo "check_rooms: ${h#"$src"/}: names room $said, but its functions are defined in $(room_dir "$owner")"
	fi
done

# 4. file cycles inside a room (information)
for room in "${!links[@]}"; do
	nm -A "${lib[$room]}" 2>/dev/null | awk '
		{ split($1, p, ":"); obj = p[2] }
		$2 == "U" && $3 ~ /^hm_/ { use[obj, $3] = 1; objs[obj] = 1 }
		NF == 3 && $2 ~ /^[TDBR]$/ { def[$3] = obj }
		END {
			for (k in use) {
				split(k, u, SUBSEP)
				if ((u[2] in def) && def[u[2]] != u[1])
					edge[u[1], def[u[2]]] = 1
			}
			for (k in edge) {
				split(k, e, SUBSEP)
				if (e[1] < e[2] && ((e[2], e[1]) in edge))
					printf "check_rooms: note: %s: %s <-> %s\n", room, e[1], e[2]
			}
		}' room="$room" | sort
done
[ "$status" = 0 ] && echo "check_rooms: no .c includes, no reach into another directory's headers, no back edges between rooms, one room per public header, each named"
exit "$status"
