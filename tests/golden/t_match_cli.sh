#!/bin/bash
# t_match_cli.sh - `histmac match` and `histmac encode`: output, exit codes,
# and the cases that must fail.  Needs $HISTMAC (ctest sets it).
. "$(dirname "$0")/lib.sh"

# same NAME: compare $tmp/out with $tmp/want.
same() {
	diff -u "$tmp/want" "$tmp/out" || fail "$1: output differs"
}

# --- match PATTERN PATH... -------------------------------------------------
expect_rc 1 "$HISTMAC" match '/etc/\*' /etc/hosts /etc/ssl/ '/etc/.pwd.lock' \
	/etc/a/b '/etc/a\040b'
printf '1\t/etc/hosts\n0\t/etc/ssl/\n1\t/etc/.pwd.lock\n0\t/etc/a/b\n1\t/etc/a\\040b\n' \
	>"$tmp/want"
same "match list"

expect_rc 0 "$HISTMAC" match '/usr/\{\*\}/bin/\*' /usr/local/bin/ls /usr/a/b/bin/x
printf '1\t/usr/local/bin/ls\n1\t/usr/a/b/bin/x\n' >"$tmp/want"
same "match all"

expect_rc 1 "$HISTMAC" match '/home/\*/\*' /home/bob /home/bob/ /home/bob/x/y
printf '1\t/home/bob\n0\t/home/bob/\n0\t/home/bob/x/y\n' >"$tmp/want"
same "trailing component"

# An invalid PATTERN: exit 2 and say why.
expect_rc 2 "$HISTMAC" match '/srv/x\101' /srv/xA
[ ! -s "$tmp/out" ] || fail "invalid pattern printed to stdout"
grep -q "offset 6" "$tmp/err" || fail "no reason for invalid pattern"
expect_rc 2 "$HISTMAC" match '/srv\{x\}/y' /srv/y
expect_rc 2 "$HISTMAC" match "/$(printf '\\*%.0s' $(seq 21))" /x
# An invalid PATH is a non-match with a warning.
expect_rc 1 "$HISTMAC" match '/\*' '/a b'
printf '0\t/a b\n' >"$tmp/want"
same "invalid path"
grep -q "raw byte 0x20" "$tmp/err" || fail "no reason for invalid path"

# Usage errors.
expect_rc 2 "$HISTMAC" match
expect_rc 2 "$HISTMAC" match '/\*'
expect_rc 2 "$HISTMAC" match --bogus
expect_rc 2 "$HISTMAC" match --batch extra
expect_rc 2 "$HISTMAC" match --validate nonsense
expect_rc 2 "$HISTMAC" match --batch --validate word
expect_rc 0 "$HISTMAC" match --help
grep -q '^usage: histmac match' "$tmp/out" || fail "match --help"

# --- match --batch ---------------------------------------------------------
long=$(printf 'a%.0s' $(seq 20000))
{
	printf '/etc/\\*\t/etc/hosts\n'
	printf '/etc/\\*\t/etc/ssl/certs\n'
	printf '/opt/app\\*\\-.old\t/opt/app.old\n'
	printf '/opt/app\\*\\-app.old\t/opt/app.old\n'
	printf '/a\\q\t/aq\n'
	printf '/\\*\t/a b\n'
	printf 'no tab here\n'
	printf '/\\*\t/%s\n' "$long"
	printf '/\\@.x\t/%s.x' "$long"	# last line, no newline
} >"$tmp/in"
expect_rc 0 "$HISTMAC" match --batch <"$tmp/in"
printf '1\n0\n0\n1\ninvalid\ninvalid\ninvalid\n1\n1\n' >"$tmp/want"
same "batch"

# --- match --validate ------------------------------------------------------
printf '/etc/passwd\npipe:[1]\na.b/c\n/a b\n/x\\000\n/x\\134\n\n' >"$tmp/in"
expect_rc 0 "$HISTMAC" match --validate word <"$tmp/in"
printf '1\n1\n1\n0\n1\n0\n0\n' >"$tmp/want"
same "validate word"
expect_rc 0 "$HISTMAC" match --validate path <"$tmp/in"
printf '1\n0\n0\n0\n1\n0\n0\n' >"$tmp/want"
same "validate path"
printf '<kernel> /sbin/init\n<kernel>  /x\n<kernel> \n<kernel> pipe:[1]\n<kernel>\n' \
	>"$tmp/in"
expect_rc 0 "$HISTMAC" match --validate domain <"$tmp/in"
printf '1\n0\n0\n0\n1\n' >"$tmp/want"
same "validate domain"

# --- encode ----------------------------------------------------------------
printf 'a b\nC:\\dir\n\tx\n\303\251\nlast' >"$tmp/in"
expect_rc 0 "$HISTMAC" encode <"$tmp/in"
printf 'a\\040b\nC:\\\\dir\n\\011x\n\\303\\251\nlast\n' >"$tmp/want"
same "encode raw"

printf '2f 74 6d 70\n2F746D70\n00\n\n 41 \t5c \n2g\n2 f\n7f80ff\n' >"$tmp/in"
expect_rc 1 "$HISTMAC" encode --hex <"$tmp/in"
printf '/tmp\n/tmp\n\\000\n\nA\\\\\n\\177\\200\\377\n' >"$tmp/want"
same "encode hex"
grep -q '^stdin:6: ' "$tmp/err" || fail "encode --hex: no error for line 6"
grep -q '^stdin:7: ' "$tmp/err" || fail "encode --hex: no error for line 7"
[ "$(wc -l <"$tmp/err")" -eq 2 ] || fail "encode --hex: want 2 errors"

printf '2f\n' | "$HISTMAC" encode --hex >/dev/null || fail "encode --hex clean"
expect_rc 2 "$HISTMAC" encode extra
expect_rc 0 "$HISTMAC" encode --help
grep -q '^usage: histmac encode' "$tmp/out" || fail "encode --help"

# encode | match --validate: every byte but '\n', 16 to a line, encodes to
# a valid word.
for b in $(seq 0 255); do
	if [ "$b" -ne 10 ]; then
		printf "\\$(printf %03o "$b")"
	fi
	if [ $((b % 16)) -eq 15 ]; then
		printf '\n'
	fi
done >"$tmp/in"
[ "$(wc -c <"$tmp/in")" -eq $((255 + 16)) ] || fail "byte table not built"
"$HISTMAC" encode <"$tmp/in" | "$HISTMAC" match --validate word >"$tmp/out"
if grep -qv '^1$' "$tmp/out"; then
	fail "encoded bytes are not valid words"
fi

finish t_match_cli
