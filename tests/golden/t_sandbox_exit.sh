#!/bin/bash
# t_sandbox_exit.sh - `histmac sandbox` exits as env, timeout and nice do,
# so a script can tell the wrapper's failures from COMMAND's own status:
# 125 histmac failed (domain missing, policy errors, usage), 126 COMMAND
# cannot run, 127 COMMAND not found, otherwise COMMAND's status (even
# 1, 2 or 125 of its own).  Without COMMAND (--explain) the usual 1/2/3/4.
# Runs COMMAND with --mode dry-run (unconfined): what is tested is the
# status, not Landlock (tests/e2e/t_sandbox_chain.sh).  Needs $HISTMAC.
. "$(dirname "$0")/lib.sh"

pol=$tmp/p
mkdir -p "$pol"
cat >"$pol/domain_policy.conf" <<'EOP'
<kernel> /usr/bin/bash
use_profile 3
file execute /usr/bin/true
EOP
: >"$pol/exception_policy.conf"
bad=$tmp/bad
cp -r "$pol" "$bad"
printf 'file frobnicate /etc/x\n' >>"$bad/domain_policy.conf"
dom='<kernel> /usr/bin/zsh'
dry() { "$HISTMAC" sandbox -p "$pol" --mode dry-run --domain "$dom" -- "$@"; }

# histmac's own failures: 125.
expect_rc 125 "$HISTMAC" sandbox -p "$pol" --domain "$dom" -- /usr/bin/true
grep -q "is not in the policy" "$tmp/err" || fail "125 without saying why: $(cat "$tmp/err")"
expect_rc 125 "$HISTMAC" sandbox -p "$bad" --domain "$dom" -- /usr/bin/true
expect_rc 125 "$HISTMAC" sandbox -p "$pol" --frobnicate -- /usr/bin/true
expect_rc 125 "$HISTMAC" sandbox -p "$tmp/none" --domain "$dom" -- /usr/bin/true

# COMMAND not found (in PATH, or by path) and cannot run.
expect_rc 127 "$HISTMAC" sandbox -p "$pol" --domain "$dom" -- hm-no-such-command-$$
grep -q 'command not found' "$tmp/err" || fail "127 without saying why"
expect_rc 127 "$HISTMAC" sandbox -p "$pol" --domain "$dom" -- "$tmp/absent"
printf '#!/bin/sh\nexit 0\n' >"$tmp/noexec"
chmod 644 "$tmp/noexec"
expect_rc 126 dry "$tmp/noexec"
grep -q "cannot execute $tmp/noexec" "$tmp/err" || fail "126 without saying why"
mkdir "$tmp/dir"
expect_rc 126 dry "$tmp/dir"

# COMMAND's own status, whatever it is.
expect_rc 0 dry /usr/bin/true
expect_rc 1 dry /usr/bin/false
for s in 2 3 125 126 127; do
	expect_rc "$s" dry /bin/sh -c "exit $s"
done

# Without COMMAND, the subcommand's usual statuses.
expect_rc 1 "$HISTMAC" sandbox -p "$pol" --domain "$dom" --explain
expect_rc 4 "$HISTMAC" sandbox -p "$bad" --domain "<kernel> /usr/bin/bash" --explain
expect_rc 2 "$HISTMAC" sandbox -p "$pol"
finish t_sandbox_exit
