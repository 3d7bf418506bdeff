#!/bin/bash
# t_events_stats.sh - the caches of resolved names (docs/PATHS.md "Cost")
# as `histmac events --stats` counts them, on the sample log resolved
# against an image whose only symlink is var/run -> /run: the names are
# the unresolved ones with /var/run/ made /run/, and the counts are fixed
# (they depend on the log, the image and the caches only).
. "$(dirname "$0")/lib.sh"
log="$HM_SRC/samples/audit/apache2-sysv.log"
mkdir -p "$tmp/img/var"
ln -s /run "$tmp/img/var/run"

expect_rc 0 "$HISTMAC" events --no-resolve -i "$log"
# path1 and path2 (columns 18, 19) as the image resolves them
awk -F '\t' -v OFS='\t' '{
	for (i = 18; i <= 19; i++)
		sub(/^\/var\/run\//, "/run/", $i)
	print
}' "$tmp/out" >"$tmp/want"
expect_rc 0 "$HISTMAC" events --stats --resolve-root "$tmp/img" -i "$log"
# "/" is the image's, another inode than the log's: named as its
# directories (root's) resolve, which only they vouch for
[ "$(grep -c 'path1=dirs-only' "$tmp/out")" = 24 ] ||
	fail "dirs-only: $(grep -c 'path1=dirs-only' "$tmp/out"), want 24"
sed -i 's/ path1=dirs-only//' "$tmp/out"
cmp -s "$tmp/want" "$tmp/out" ||
	fail "resolved names: $(diff "$tmp/want" "$tmp/out" | head -n 4)"
grep -q '/run/apache2/apache2.pid' "$tmp/out" || fail "no /run/apache2/apache2.pid"
grep -qx 'resolved 1277 resolve-mismatch 24 resolve-overlay 0 resolve-unproven 0 magic-link 0 dirfd-relative 68 chrooted 0 dircache hit 184 miss 44 evict 0 recheck 0' "$tmp/err" ||
	fail "dircache line: $(sed -n 2p "$tmp/err")"
grep -qx 'namecache hit 1098 miss 203 evict 0' "$tmp/err" ||
	fail "namecache line: $(sed -n 3p "$tmp/err")"
finish "t_events_stats"
