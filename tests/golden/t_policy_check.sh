#!/bin/bash
# t_policy_check.sh - `histmac policy check`: every bad line reported as
# FILE:LINE with the rest still loaded (tests/golden/policy-bad, expected
# output in expected/check.out), clean policies exit 0, and the exit
# codes for usage errors and unreadable directories.
# Needs $HISTMAC and $HM_SRC.
. "$(dirname "$0")/lib.sh"

g=$HM_SRC/tests/golden

# Bad lines: exit 1, each one reported, the good ones loaded.
(cd "$g/policy-bad" && expect_rc 4 "$HISTMAC" policy check -p .)
diff -u "$g/policy-bad/expected/check.out" "$tmp/out" ||
	fail "policy-bad: diagnostics differ"

# Clean policies, each in its own dialect; --from forces one.
expect_rc 0 "$HISTMAC" policy check -p "$g/policy-apache2-2007"
grep -q ': tomoyo-2.1, 7 domains, 35 entries, 10 exception entries, 0 rewrite rules: 0 errors, 0 warnings$' \
	"$tmp/out" || fail "apache2: $(cat "$tmp/out")"
expect_rc 0 "$HISTMAC" policy check -p "$g/policy-mainline-26"
grep -q ': tomoyo, 4 domains, ' "$tmp/out" || fail "mainline: $(cat "$tmp/out")"
expect_rc 0 "$HISTMAC" policy check -p "$g/policy-modern-18"
grep -q ': tomoyo-1.8, 3 domains, .* 2 rewrite rules: 0 errors' "$tmp/out" ||
	fail "modern-18: $(cat "$tmp/out")"
expect_rc 4 "$HISTMAC" policy check -p "$g/policy-modern-18" --from tomoyo
grep -q 'domain_policy.conf:[0-9]*: error: .accept. on inet stream is TOMOYO 1.8 syntax' \
	"$tmp/out" || fail "--from tomoyo not applied"

# An empty directory is an empty policy; a missing one cannot be read.
mkdir "$tmp/empty"
expect_rc 0 "$HISTMAC" policy check -p "$tmp/empty"
grep -q ': tomoyo, 0 domains, 0 entries' "$tmp/out" || fail "empty dir"
expect_rc 3 "$HISTMAC" policy check -p "$tmp/missing"
grep -q 'No such file' "$tmp/err" || fail "missing dir: no reason"

# A 1 MB line is reported and skipped, the next line still loads.
{ echo '<kernel>'; head -c 1048576 /dev/zero | tr '\0' a; echo
  echo 'file read /after'; } >"$tmp/empty/domain_policy.conf"
expect_rc 4 "$HISTMAC" policy check -p "$tmp/empty"
grep -q 'domain_policy.conf:2: error: line longer than 65536 bytes' "$tmp/out" ||
	fail "long line: $(head -c 300 "$tmp/out")"
grep -q ', 1 domains, 1 entries, ' "$tmp/out" || fail "line after long one lost"

# "file append" without "file write": the enforcer denies an O_APPEND
# open of an ordinary file (docs/ENFORCE.md); flagged where the domain
# or the acl_group the line is in has no write on the name, with what to
# add; write by a pattern, on another line or in an acl_group the domain
# uses is enough.
mkdir "$tmp/append"
cat >"$tmp/append/domain_policy.conf" <<'EOP'
<kernel>
use_profile 1

<kernel> /bin/a
use_group 0
file append /log/a
file append /log/b
file write /log/b
file append /log/c/x
file write /log/c/\*
file append /log/g
file append /log/d

<kernel> /bin/b
file write /log/d
EOP
printf 'acl_group 0 file write /log/g\nacl_group 1 file append /log/h\n' \
	>"$tmp/append/exception_policy.conf"
expect_rc 0 "$HISTMAC" policy check -p "$tmp/append"
grep 'warning:' "$tmp/out" | sed "s|^$tmp/append/||" >"$tmp/got"
cat >"$tmp/want" <<'EOW'
domain_policy.conf:6: warning: histmac enforce asks 'file write' for an O_APPEND open of a file that is not append-only: add 'file write /log/a' (histmac learn adds both), or chattr +a the file
domain_policy.conf:12: warning: histmac enforce asks 'file write' for an O_APPEND open of a file that is not append-only: add 'file write /log/d' (histmac learn adds both), or chattr +a the file
exception_policy.conf:2: warning: histmac enforce asks 'file write' for an O_APPEND open of a file that is not append-only: add 'file write /log/h' (histmac learn adds both), or chattr +a the file
EOW
diff -u "$tmp/want" "$tmp/got" || fail "append entries the enforcer denies"

# Usage.
expect_rc 0 "$HISTMAC" policy --help
grep -q 'policy check -p POLICYDIR' "$tmp/out" || fail "--help"
expect_rc 0 "$HISTMAC" policy check --help
expect_rc 2 "$HISTMAC" policy
expect_rc 2 "$HISTMAC" policy frobnicate -p "$tmp"
expect_rc 2 "$HISTMAC" policy check
expect_rc 2 "$HISTMAC" policy check -p "$tmp" --from tomoyo-9
# --dialect names what is written: a reading command refuses it
expect_rc 2 "$HISTMAC" policy check -p "$tmp" --dialect tomoyo
expect_rc 2 "$HISTMAC" policy check -p "$tmp" extra

finish t_policy_check
