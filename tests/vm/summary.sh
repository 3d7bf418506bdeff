#!/bin/sh
# tests/vm/summary.sh OUT - one screen of the oracle's results: the
# comparison's counts, each round-trip phase's denials, the boot times.
out=$1
echo "# kernel oracle summary ($(date -u '+%Y-%m-%d %H:%M UTC'))"
[ -f "$out/compare.txt" ] && sed -n '/^domains only in TOMOYO/,/^$/p' "$out/compare.txt" | sed '/^$/d'
for p in permissive enforce; do
	[ -f "$out/$p.txt" ] && grep -v '^  ' "$out/$p.txt"
done
[ -f "$out/times" ] && sed 's/^/boot+run seconds: /' "$out/times"
exit 0
