#!/bin/sh
# tests/vm/summary.sh OUT - one screen of the oracle's results: the
# comparison's counts, each round-trip phase's denials, the boot times.
out=$1
echo "# kernel oracle summary ($(date -u '+%Y-%m-%d %H:%M UTC'))"
[ -f "$out/compare.txt" ] && sed -n '/^domains only in TOMOYO/,/^$/p' "$out/compare.txt" | sed '/^$/d'
for p in permissive enforce; do
	[ -f "$out/$p.txt" ] && grep -v '^  ' "$out/$p.txt"
done
[ -f "$out/times" ] && sed 's/^/boot+run seconds (host clock): /' "$out/times"
# guest clock: TOMOYO's activation, and each workload's run, per phase
for p in learn permissive enforce; do
	st=$out/$p/share/status
	[ -f "$st" ] || continue
	awk -v p="$p" '$1 == "active" { printf "%s: TOMOYO active %.1f s after boot;", p, $2 }
		NF == 4 { printf " %s %.1f s", $1, $4 - $3 } END { print "" }' "$st"
done
exit 0
