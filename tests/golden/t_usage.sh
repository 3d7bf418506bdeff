#!/usr/bin/env bash
# t_usage.sh - how often and when each entry was used: learn counts the
# accesses an entry allowed, `check --record-use` adds those of the log it
# checks (a plain check writes nothing), and `stats --unused DAYS` lists
# what allowed nothing in that window.  Logs are real ones with their
# timestamps moved: the sample on day 1, file.log on day 1, both on day 3.
. "$(dirname "$0")/lib.sh"
sample=$HM_SRC/samples/audit/apache2-sysv.log
day=86400
shift_log() {	# LOG DAYS
	perl -pe "s/audit\((\d+)\./'audit('.(\$1 + $2 * $day).'.'/e" "$1"
}
shift_log "$sample" -5 >"$tmp/s1.log"
shift_log "$HM_SRC/tests/data/file.log" -5 >"$tmp/f1.log"
shift_log "$sample" -3 >"$tmp/s3.log"
shift_log "$HM_SRC/tests/data/file.log" -3 >"$tmp/f3.log"
p=$tmp/p
"$HISTMAC" learn -q --no-resolve -p "$p" -i "$tmp/f1.log" "$tmp/s1.log" 2>/dev/null || die "learn exited $?"

# stamps DOMAIN-SUFFIX ENTRY: "USES USED" of that entry.
stamps() {
	awk -v d="$1" -v e="$2" '/^</ { cur = $0 }
		substr(cur, length(cur) - length(d) + 1) == d &&
		substr($0, index($0, $5)) == e { print $3, $4 }' \
		"$p/histmac_entries.conf"
}
envvars=(' /etc/init.d/apache2' 'file read /etc/apache2/envvars')
read -r u0 t0 <<<"$(stamps "${envvars[@]}")"
[ "${u0:-0}" -gt 0 ] || die "learn counted no use of envvars: '$u0'"

# A plain check reads the policy only.
cp "$p/histmac_entries.conf" "$tmp/before"
expect_rc 0 "$HISTMAC" check -p "$p" -i "$tmp/s3.log"
cmp -s "$tmp/before" "$p/histmac_entries.conf" || fail "check without --record-use wrote"

# Day 3, the sample alone: the sample's entries used, file.log's not.
expect_rc 0 "$HISTMAC" check -p "$p" -i "$tmp/s3.log" --record-use
read -r u1 t1 <<<"$(stamps "${envvars[@]}")"
[ "$u1" = $((2 * u0)) ] || fail "check --record-use counted $((u1 - u0)) uses, learn $u0 of the same log"
[ "$t1" = $((t0 + 2 * day)) ] || fail "last use $t1, want day 3's $((t0 + 2 * day))"
expect_rc 0 "$HISTMAC" stats -p "$p" --unused 1
grep -v '^#' "$tmp/out" >"$tmp/unused"
[ -s "$tmp/unused" ] || fail "nothing unused after day 3"
grep -v '/workload	' "$tmp/unused" && fail "the sample's entries listed unused"
n=$(grep -c . "$tmp/unused")
grep -q "^# $n of [0-9]* entries not used in the 1 day before " "$tmp/out" ||
	fail "--unused header: $(head -1 "$tmp/out")"

# Day 3, file.log too: now nothing is unused for a day.
expect_rc 0 "$HISTMAC" check -p "$p" -i "$tmp/f3.log" --record-use
expect_rc 0 "$HISTMAC" stats -p "$p" --unused 1
[ "$(grep -vc '^#' "$tmp/out")" = 0 ] || fail "file.log's entries still unused: $(cat "$tmp/out")"
expect_rc 2 "$HISTMAC" stats -p "$p" --unused x
finish t_usage
