#!/bin/bash
# bench/bench_trace.sh - what `histmac learn -- COMMAND` adds to a build,
# side by side in one run (docs/TRACE.md "Cost"):
#   bare     make -j1 of N small C files with gcc -O2 (each gcc runs cc1,
#            as, collect2, ld: many execs and opens), then the link
#   traced   the same under histmac learn -p DIR -- make (the tracer, and
#            the learner in the same process, saving at the end)
#   strace   the same under strace -f -o /dev/null
# in R rounds, the three modes one after another in each round; prints
# each mode's median wall time and its ratio to bare's.  No root needed.
# usage: bench/bench_trace.sh [HISTMAC] [N files] [R rounds]
set -eu
histmac=${1:-build/histmac}
n=${2:-30}
rounds=${3:-5}
histmac=$(readlink -f "$histmac")
tmp=$(mktemp -d /tmp/hm-bench-trace.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
for i in $(seq 1 "$n"); do
	printf '#include <stdio.h>\n#include <string.h>\nint f%d(const char *s) { return (int)strlen(s) + %d; }\n' \
		"$i" "$i" >"$tmp/src/f$i.c"
done
printf 'int main(void) { return 0; }\n' >"$tmp/src/main.c"
cat >"$tmp/src/Makefile" <<'EOS'
SRCS := $(wildcard *.c)
prog: $(SRCS:.c=.o)
	gcc -o $@ $^
%.o: %.c
	gcc -O2 -c $< -o $@
clean:
	rm -f *.o prog
EOS

# one run of MODE: its wall time in seconds
run() {
	local s e
	make -s -C "$tmp/src" clean >/dev/null
	rm -rf "$tmp/policy"
	s=$(date +%s%N)
	case $1 in
	bare) make -s -C "$tmp/src" -j1 >/dev/null ;;
	traced) "$histmac" learn -q -p "$tmp/policy" -- make -s -C "$tmp/src" -j1 \
		>/dev/null ;;
	strace) strace -f -o /dev/null make -s -C "$tmp/src" -j1 >/dev/null ;;
	esac
	e=$(date +%s%N)
	echo "scale=3; ($e - $s) / 1000000000" | bc
}

declare -A times
for r in $(seq 1 "$rounds"); do
	for m in bare traced strace; do
		times[$m]+="$(run "$m") "
	done
done
median() {
	tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
bare=$(echo "${times[bare]}" | median)
printf '%-8s %8s %7s   %s\n' mode median ratio "all (s)"
for m in bare traced strace; do
	med=$(echo "${times[$m]}" | median)
	printf '%-8s %8s %7s   %s\n' "$m" "$med" \
		"$(echo "scale=2; $med / $bare" | bc)" "${times[$m]}"
done
