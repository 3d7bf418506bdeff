#!/bin/bash
# t_policy_export.sh - `histmac export` of the sample policies in every
# TOMOYO dialect: exact output (expected/export.FORMAT), the conversion
# summary on stderr (expected/summary.FORMAT), and round trips: what was
# written with -o loads cleanly and exports to the same text again.
# Needs $HISTMAC and $HM_SRC (ctest sets them).
. "$(dirname "$0")/lib.sh"

g=$HM_SRC/tests/golden

formats="tomoyo tomoyo-2.1 tomoyo-1.8"

# The 2007 example ships twice: as a sample and as a golden case.
diff -r "$HM_SRC/samples/policy/apache2-2007" "$g/policy-apache2-2007" \
	--exclude=expected >/dev/null || fail "samples/policy/apache2-2007 differs"

for case in apache2-2007 mainline-26 modern-18; do
	dir=$g/policy-$case
	for f in $formats; do
		expect_rc 0 "$HISTMAC" export -p "$dir" --format "$f"
		diff -u "$dir/expected/export.$f" "$tmp/out" ||
			fail "$case $f: export differs"
		diff -u "$dir/expected/summary.$f" "$tmp/err" ||
			fail "$case $f: summary differs"
		cp "$tmp/out" "$tmp/first"

		# Into a directory, then back: clean, same dialect, same text.
		out=$tmp/$case.$f
		expect_rc 0 "$HISTMAC" export -p "$dir" --format "$f" -o "$out"
		for file in domain_policy.conf exception_policy.conf rewrite.conf; do
			[ -f "$out/$file" ] || fail "$case $f: no $file"
		done
		if [ "$f" = tomoyo-2.1 ]; then
			[ ! -e "$out/profile.conf" ] || fail "$case $f: profile.conf"
		else
			grep -qx 'PROFILE_VERSION=20150505' "$out/profile.conf" ||
				fail "$case $f: profile.conf"
			[ -s "$out/manager.conf" ] || fail "$case $f: manager.conf"
		fi
		ls -a "$out" | grep -q '\.tmp\.' && fail "$case $f: temp file left"
		expect_rc 0 "$HISTMAC" policy check -p "$out"
		# the only warnings: entries the enforcer cannot evaluate
		# (exec.argv[0]=..., 1.8's task.type) and "file append"
		# without "file write", which the policies have
		grep -q ": $f, .*: 0 errors, [0-9]* warnings\?\$" "$tmp/out" ||
			fail "$case $f: reloaded: $(cat "$tmp/out")"
		if grep 'warning:' "$tmp/out" |
			grep -v -e 'histmac enforce cannot evaluate' \
				-e "histmac enforce asks 'file write' for an O_APPEND open"; then
			fail "$case $f: reloaded with warnings"
		fi
		expect_rc 0 "$HISTMAC" export -p "$out" --format "$f"
		{ echo "# ==> domain_policy.conf <=="; cat "$out/domain_policy.conf"
		  echo "# ==> exception_policy.conf <=="
		  cat "$out/exception_policy.conf"; } >"$tmp/files"
		diff -u "$tmp/files" "$tmp/first" >/dev/null ||
			fail "$case $f: -o files differ from stdout"
		# 2.6 reads its "# not in" comments back (nothing is lost
		# when a policy is saved and loaded again); 2.1's are for
		# people only.
		if [ "$f" = tomoyo-2.1 ]; then
			grep -v '^# not in ' "$tmp/first" >"$tmp/want"
		else
			cp "$tmp/first" "$tmp/want"
		fi
		diff -u "$tmp/want" "$tmp/out" ||
			fail "$case $f: second export differs"
	done
done

# A case's own dialect converts nothing.
for pair in apache2-2007:tomoyo-2.1 mainline-26:tomoyo modern-18:tomoyo-1.8; do
	grep -q ' 0 lines written as comments, 0 entries widened$' \
		"$g/policy-${pair%%:*}/expected/summary.${pair#*:}" ||
		fail "$pair: own dialect lost something"
done

# rewrite.conf survives export -o.
grep -v '^#' "$g/policy-modern-18/rewrite.conf" >"$tmp/want"
grep -v '^#' "$tmp/modern-18.tomoyo/rewrite.conf" >"$tmp/got"
diff -u "$tmp/want" "$tmp/got" || fail "rewrite.conf changed"

# --from forces the dialect: the 2.1 example read as 2.6 is all errors.
expect_rc 4 "$HISTMAC" export -p "$g/policy-apache2-2007" --from tomoyo
grep -q "TOMOYO 2.1 syntax, not TOMOYO 2.6" "$tmp/err" || fail "--from ignored"

# Other formats come from the exporter registry.
expect_rc 0 "$HISTMAC" export -p "$g/policy-mainline-26" --format json
[ -s "$tmp/out" ] || fail "json export empty"

# Usage errors and help.
expect_rc 2 "$HISTMAC" export
expect_rc 2 "$HISTMAC" export -p "$g/policy-mainline-26" --format nope
expect_rc 2 "$HISTMAC" export -p "$g/policy-mainline-26" --from nope
expect_rc 3 "$HISTMAC" export -p "$tmp/missing"
expect_rc 0 "$HISTMAC" export --help
grep -q 'tomoyo-2.1' "$tmp/out" || fail "--help lists no formats"

finish t_policy_export
