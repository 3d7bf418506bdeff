#!/usr/bin/env bash
# t_learn_unobserved.sh - an exec by a process whose history the log does
# not show (a login shell started before auditing: its clone is the first
# record of it) is learned in the shell's <kernel> EXE, with exec.realpath
# as any exec, because `histmac enforce` in strict mode judges it there
# (also when the child's exec record comes before the shell's clone);
# `histmac check` reports an exec missing from that domain.
# Input: tests/data/unobserved.log and unobserved-new.log (README).
. "$(dirname "$0")/lib.sh"
data=$HM_SRC/tests/data
shell='<kernel> /usr/bin/bash'

expect_rc 0 "$HISTMAC" learn -q --no-resolve -p "$tmp/pol" -i "$data/unobserved.log"
pol=$tmp/pol/domain_policy.conf
# the entry sits in the shell's domain (the next non-blank line after it)
awk -v d="$shell" '$0 == d { on = 1; next } on && /^file / { print; exit }
	on && /^<kernel>/ { exit }' "$pol" >"$tmp/entry"
[ "$(cat "$tmp/entry")" = 'file execute /bin/echo exec.realpath="/usr/bin/echo"' ] ||
	fail "no execute learned in $shell: '$(cat "$tmp/entry")'"
# the exec logged before its parent's clone: learned once the clone comes
awk -v d="$shell" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' "$pol" |
	grep -qx 'file execute /usr/bin/date' ||
	fail "the exec logged before the clone is not learned in $shell"
grep -A2 -x "$shell" "$pol" | grep -q 'history_unobserved' ||
	fail "$shell not flagged history_unobserved"
grep -A2 -x '<kernel> /bin/echo' "$pol" | grep -q 'parent_unobserved' ||
	fail "<kernel> /bin/echo: not entered as parent_unobserved"

# the learned log checks clean; an exec the shell did not do is reported
expect_rc 0 "$HISTMAC" check --no-resolve -p "$tmp/pol" -i "$data/unobserved.log"
expect_rc 1 "$HISTMAC" check --no-resolve -p "$tmp/pol" -i "$data/unobserved-new.log"
grep -A2 -x "$shell" "$tmp/out" | grep -qx 'file execute /usr/bin/id' ||
	fail "check: the exec of /usr/bin/id not reported in $shell: $(cat "$tmp/out")"
finish t_learn_unobserved
