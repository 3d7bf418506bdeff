#!/usr/bin/env bash
# t_check_attempts.sh - `histmac check` sums attempts (failed calls that
# never reached a check) per domain and error in a few lines: the bundled
# sample checked against its own policy prints at most 16 lines (golden
# output), the summary's counts add up to the JSON report's, --attempts
# lists each one as the JSON does, and past ten groups only a count.
# Expected output: tests/golden/check-sample/README.md says how to
# regenerate it.
. "$(dirname "$0")/lib.sh"
log=$HM_SRC/samples/audit/apache2-sysv.log
golden=$HM_SRC/tests/golden/check-sample

"$HISTMAC" learn -q --no-resolve -p "$tmp/p" -i "$log" 2>/dev/null || die "learn exited $?"
expect_rc 0 "$HISTMAC" check -p "$tmp/p" -i "$log"
sed "s|$tmp/p|POLICY|" "$tmp/out" >"$tmp/summary"
diff -u "$golden/summary.txt" "$tmp/summary" || fail "summary differs from golden"
lines=$(wc -l <"$tmp/out")
[ "$lines" -le 16 ] || fail "the sample's check prints $lines lines, want <= 16"

expect_rc 0 "$HISTMAC" check -p "$tmp/p" -i "$log" --format json
cp "$tmp/out" "$tmp/json"
total=$(jq '.attempted' "$tmp/json")
listed=$(jq '.attempts | length' "$tmp/json")
[ "$total" -gt 0 ] && [ "$listed" -gt 10 ] || fail "JSON: $total attempts, $listed listed"
sum=$(awk '/^#   [0-9]+ E[A-Z]+ in / { s += $2 }
	/^#   \.\.\. [0-9]+ more calls? in / { s += $3 } END { print s + 0 }' "$tmp/summary")
[ "$sum" = "$total" ] || fail "the summary adds up to $sum calls, JSON says $total"
grep -q "^# ---- attempts: $total failed calls" "$tmp/summary" ||
	fail "the summary's header does not say $total"

expect_rc 0 "$HISTMAC" check -p "$tmp/p" -i "$log" --attempts
n=$(grep -c '^# file ' "$tmp/out")
[ "$n" = "$listed" ] || fail "--attempts lists $n entries, JSON $listed"
grep -q '^#   [0-9]* E[A-Z]* in ' "$tmp/out" && fail "--attempts also prints the summary"

# Against an unrelated policy the sample has more than ten groups: ten and a count.
"$HISTMAC" learn -q --no-resolve -p "$tmp/net" -i "$HM_SRC/tests/data/net.log" 2>/dev/null
expect_rc 1 "$HISTMAC" check -p "$tmp/net" -i "$log"
n=$(grep -c '^#   [0-9]* E[A-Z]* in ' "$tmp/out")
[ "$n" = 10 ] || fail "unrelated policy: $n summary lines, want 10"
grep -Eqx '#   \.\.\. [0-9]+ more calls? in [0-9]+ more groups? of domain and error' "$tmp/out" ||
	fail "unrelated policy: no count of the groups left out"
finish t_check_attempts
