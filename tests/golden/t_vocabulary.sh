#!/usr/bin/env bash
# One vocabulary of options and exit codes across subcommands: help for
# every command, logs named after the options or on stdin, -f for the
# format, --from reads and --dialect writes, exit 4 for a policy with
# errors, seconds for every timeout.  Needs $HISTMAC; no root.
. "$(dirname "$0")/lib.sh"
sample=$HM_SRC/samples/audit/apache2-sysv.log
log=$HM_SRC/tests/data/file.log

# histmac help CMD is CMD --help, for every command in the table
cmds=$("$HISTMAC" --help | awk '/^Commands:/ { f = 1; next } f && NF == 0 { exit } f { print $1 }')
[ "$(echo "$cmds" | wc -w)" -ge 15 ] || fail "the command list is short: $cmds"
for c in $cmds; do
	expect_rc 0 "$HISTMAC" help "$c"
	grep -Eq "^usage: histmac (\[[^]]*\] )?$c" "$tmp/out" || fail "help $c: no usage line"
	"$HISTMAC" "$c" --help >"$tmp/h2" 2>/dev/null
	cmp -s "$tmp/out" "$tmp/h2" || fail "help $c differs from $c --help"
done
expect_rc 2 "$HISTMAC" help no-such-command

# events: logs after the options, or stdin, as with -i
"$HISTMAC" events -i "$log" >"$tmp/e1"
expect_rc 0 "$HISTMAC" events "$log"
cmp -s "$tmp/e1" "$tmp/out" || fail "events LOG differs from events -i LOG"
"$HISTMAC" events <"$log" >"$tmp/e3" || fail "events on stdin failed"
cmp -s "$tmp/e1" "$tmp/e3" || fail "events on stdin differs from events -i LOG"
[ -s "$tmp/e1" ] || fail "events printed nothing"

# -f is the format everywhere
"$HISTMAC" learn -q -p "$tmp/pol" -i "$sample"
expect_rc 1 "$HISTMAC" check -p "$tmp/pol" -f json -i "$log"
jq -e '.denied > 0' "$tmp/out" >/dev/null || fail "check -f json: no JSON"
expect_rc 0 "$HISTMAC" stats -p "$tmp/pol" -f json
jq -e --argjson d "$(grep -c '^<kernel>' "$tmp/pol/domain_policy.conf")" \
	'.domains == $d and .entries > 0 and .memory.total > 0' "$tmp/out" >/dev/null ||
	fail "stats -f json: wrong counts"
"$HISTMAC" stats -p "$tmp/pol" >"$tmp/st"
grep -Eq "^domains +$(jq .domains "$tmp/out")\$" "$tmp/st" ||
	fail "stats text and JSON disagree on domains"
expect_rc 2 "$HISTMAC" stats -p "$tmp/pol" -f yaml

# --from reads a policy as D; --dialect names what is written, so the
# commands that only read refuse it
for c in tree report "policy check" sandbox; do
	# shellcheck disable=SC2086
	expect_rc 2 "$HISTMAC" $c -p "$tmp/pol" --dialect tomoyo
	grep -q 'use --from' "$tmp/err" || fail "$c --dialect: no hint"
done
expect_rc 0 "$HISTMAC" tree -p "$tmp/pol" --from tomoyo

# exit 4: the policy read has errors (1 stays for findings)
cp -r "$tmp/pol" "$tmp/bad"
printf 'file frobnicate /x\n' >>"$tmp/bad/domain_policy.conf"
expect_rc 4 "$HISTMAC" policy check -p "$tmp/bad"
expect_rc 4 "$HISTMAC" tree -p "$tmp/bad"
expect_rc 4 "$HISTMAC" stats -p "$tmp/bad"
expect_rc 4 "$HISTMAC" export -p "$tmp/bad" --format json -o "$tmp/bad.json"
expect_rc 4 "$HISTMAC" learn -q -p "$tmp/bad" -i "$log"

# timeouts are seconds, fractions allowed
expect_rc 2 "$HISTMAC" enforce -p "$tmp/pol" --decision-timeout 0.001
grep -q '0.01-600 seconds' "$tmp/err" || fail "--decision-timeout: not seconds"

finish t_vocabulary
