#!/bin/bash
# t_policy_checkpolicy.sh - every TOMOYO 2.6 policy histmac writes is
# accepted by tomoyo-checkpolicy (Debian's tomoyo-tools) with 0 errors and
# 0 warnings: the sample policies of every dialect exported as tomoyo,
# and the 2.6 sample as given.  The tool must also still reject a bad
# policy, so a checker that accepts anything cannot pass this test.
# Needs $HISTMAC, $HM_SRC and tomoyo-checkpolicy.
. "$(dirname "$0")/lib.sh"

g=$HM_SRC/tests/golden
checker=$(command -v tomoyo-checkpolicy || true)
[ -n "$checker" ] || { echo "FAIL: tomoyo-checkpolicy not installed" >&2; exit 1; }

# clean KIND FILE: tomoyo-checkpolicy KIND reports "0 Error" "0 Warning".
clean() {
	local out
	out=$("$checker" "$1" <"$2" 2>&1) || true
	echo "$out" | grep -q ' 0 Error *0 Warning' ||
		fail "tomoyo-checkpolicy $1 $2: $out"
	echo "$out" | grep -q '^Total: *[1-9]' || fail "$2: nothing checked"
}

n=0
for case in apache2-2007 mainline-26 modern-18; do
	for from in "" tomoyo-2.1 tomoyo-1.8 tomoyo; do
		out=$tmp/$case.$from
		# Through another dialect first when $from is set.
		src=$g/policy-$case
		if [ -n "$from" ]; then
			"$HISTMAC" export -p "$src" --format "$from" -o "$out.via" \
				2>/dev/null
			src=$out.via
		fi
		"$HISTMAC" export -p "$src" --format tomoyo -o "$out" 2>/dev/null ||
			fail "$case via ${from:-nothing}: export failed"
		clean d "$out/domain_policy.conf"
		clean e "$out/exception_policy.conf"
		n=$((n + 2))
	done
done
clean d "$g/policy-mainline-26/domain_policy.conf"
clean e "$g/policy-mainline-26/exception_policy.conf"

# The checker still finds errors: our 2.1 and 1.8 texts are not 2.6.
"$HISTMAC" export -p "$g/policy-modern-18" --format tomoyo-1.8 -o "$tmp/18" \
	2>/dev/null
out=$("$checker" d <"$tmp/18/domain_policy.conf" 2>&1 || true)
echo "$out" | grep -q ' 0 Error' && fail "checker accepted ipc signal: $out"
out=$("$checker" d <"$g/policy-apache2-2007/domain_policy.conf" 2>&1 || true)
echo "$out" | grep -q ' 0 Error' && fail "checker accepted 2.1 syntax: $out"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "t_policy_checkpolicy: ok ($n files written, 0 errors)"
