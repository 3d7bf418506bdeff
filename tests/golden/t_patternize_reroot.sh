#!/usr/bin/env bash
# t_patternize_reroot.sh - `patternize --apply`, as docs/PRODUCTION.md says,
# leaves a policy that checks its own learning log with 0 denials: the
# domains its initialize_domain makes unreachable are re-rooted under
# <kernel> PROG and merged (sshd started by an init script through
# start-stop-daemon, by env, and re-executing itself at a reload), and
# learning the same log again changes nothing.  A hand-added keep_domain
# collapses the domains below it.  Domains of different profiles that
# would become one, or a control naming a domain that would move, are
# refused, naming them, and nothing changes.
# Input: a log written by tests/golden/auditgen.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/auditgen.sh"

{
	ag_start 100 /usr/bin/bash
	# init script -> start-stop-daemon -> sshd
	ag_clone 100 200; ag_exec 200 /etc/init.d/ssh; ag_open 200 /etc/default/ssh
	ag_clone 200 201; ag_exec 201 /sbin/start-stop-daemon; ag_open 201 /etc/passwd
	ag_exec 201 /usr/sbin/sshd; ag_open 201 /etc/ssh/sshd_config
	ag_open 201 /run/sshd.pid w
	# a reload: sshd re-executes itself; then a session
	ag_exec 201 /usr/sbin/sshd; ag_open 201 /etc/ssh/sshd_config
	ag_open 201 /etc/ssh/ssh_host_ed25519_key
	ag_clone 201 202; ag_exec 202 /usr/bin/bash; ag_open 202 /root/.bashrc
	ag_clone 202 203; ag_exec 203 /usr/bin/id; ag_open 203 /etc/group
	# sshd started another way
	ag_clone 100 300; ag_exec 300 /usr/bin/env; ag_exec 300 /usr/sbin/sshd
	ag_open 300 /etc/ssh/sshd_config; ag_open 300 /etc/ssh/moduli
	ag_clone 300 301; ag_exec 301 /usr/bin/bash; ag_open 301 /root/.profile
	# cron by its script, through the same helper
	ag_clone 100 400; ag_exec 400 /etc/init.d/cron; ag_clone 400 401
	ag_exec 401 /sbin/start-stop-daemon; ag_exec 401 /usr/sbin/cron
	ag_open 401 /etc/crontab
} >"$tmp/log"

learn() { "$HISTMAC" learn -q --no-resolve -p "$1" -i "$tmp/log"; }
domains() { grep '^<' "$1/domain_policy.conf"; }
learn "$tmp/pol" || die "learn failed"
expect_rc 0 "$HISTMAC" check --no-resolve -p "$tmp/pol" -i "$tmp/log"

# 1. The suggestion: sshd, once; not the helper that starts everything.
expect_rc 0 "$HISTMAC" patternize --no-fs -p "$tmp/pol"
[ "$(grep -c '^initialize_domain /usr/sbin/sshd from any$' "$tmp/out")" = 1 ] ||
	fail "initialize_domain /usr/sbin/sshd not suggested once: $(cat "$tmp/out")"
grep -q '^initialize_domain /sbin/start-stop-daemon' "$tmp/out" &&
	fail "start-stop-daemon (a helper) suggested as a service root"
[ "$(grep -v '^#' "$tmp/out" | sort | uniq -d)" = "" ] ||
	fail "a suggestion printed twice: $(cat "$tmp/out")"

# 2. Apply: every sshd domain is now under <kernel> /usr/sbin/sshd, the
# re-exec depth collapsed; its entries are the union, uses summed.
cp -a "$tmp/pol" "$tmp/before"
expect_rc 0 "$HISTMAC" patternize --no-fs -p "$tmp/pol" --apply
grep -q 'domains re-rooted' "$tmp/out" || fail "apply: $(cat "$tmp/out")"
domains "$tmp/pol" >"$tmp/doms"
awk '{ for (i = 3; i <= NF; i++) if ($i == "/usr/sbin/sshd") print }' "$tmp/doms" |
	grep -q . && fail "sshd below another domain: $(cat "$tmp/doms")"
for d in '<kernel> /usr/sbin/sshd' '<kernel> /usr/sbin/sshd /usr/bin/bash' \
	 '<kernel> /usr/sbin/sshd /usr/bin/bash /usr/bin/id'; do
	grep -qxF "$d" "$tmp/doms" || fail "no domain $d: $(cat "$tmp/doms")"
done
for e in 'file read /etc/ssh/moduli' 'file read /etc/ssh/ssh_host_ed25519_key' \
	 'file create /run/sshd.pid 00' 'file execute /usr/bin/bash'; do
	awk -v d='<kernel> /usr/sbin/sshd' '$0 == d { on = 1; next } /^</ { on = 0 } on' \
		"$tmp/pol/domain_policy.conf" | grep -qxF "$e" ||
		fail "<kernel> /usr/sbin/sshd lacks $e"
done
awk '$0 == "<kernel> /usr/sbin/sshd" { on = 1; next } /^</ { on = 0 }
	on && / file read \/etc\/ssh\/sshd_config$/ { print $3 }' \
	"$tmp/pol/histmac_entries.conf" >"$tmp/uses"
[ "$(cat "$tmp/uses")" = 3 ] || fail "sshd_config's uses not summed (3): $(cat "$tmp/uses")"

# 3. The policy checks its own learning log clean, and learning it again
# adds nothing: not a domain, not an entry, not a byte.
expect_rc 0 "$HISTMAC" check --no-resolve -p "$tmp/pol" -i "$tmp/log"
grep -q ' 0 denied' "$tmp/out" || fail "check after apply: $(tail -3 "$tmp/out")"
cp -a "$tmp/pol" "$tmp/applied"
"$HISTMAC" learn --no-resolve -p "$tmp/pol" -i "$tmp/log" >"$tmp/relearn" 2>&1 ||
	fail "re-learn failed: $(cat "$tmp/relearn")"
grep -q 'domains: 0 new' "$tmp/relearn" && grep -q 'entries: 0 new, 0 widened' "$tmp/relearn" ||
	fail "re-learn added: $(cat "$tmp/relearn")"
diff -r "$tmp/applied" "$tmp/pol" >&2 || fail "re-learn changed the policy"

# 4. A hand-added keep_domain: bash's children below sshd stay in its
# domain; apply collapses the learned ones into it.
echo 'keep_domain any from <kernel> /usr/sbin/sshd /usr/bin/bash' \
	>>"$tmp/pol/exception_policy.conf"
expect_rc 0 "$HISTMAC" patternize --no-fs -p "$tmp/pol" --apply
grep -qxF '<kernel> /usr/sbin/sshd /usr/bin/bash /usr/bin/id' "$tmp/pol/domain_policy.conf" &&
	fail "keep_domain: the domain below the kept one is still there"
awk '$0 == "<kernel> /usr/sbin/sshd /usr/bin/bash" { on = 1; next } /^</ { on = 0 } on' \
	"$tmp/pol/domain_policy.conf" | grep -qx 'file read /etc/group' ||
	fail "keep_domain: the kept domain lacks what id read"
expect_rc 0 "$HISTMAC" check --no-resolve -p "$tmp/pol" -i "$tmp/log"

# 5. Refused: one of the domains that would become <kernel> /usr/sbin/sshd
# is enforcing, the others learning.  Nothing changes; both are named.
cp -a "$tmp/before" "$tmp/ref"
expect_rc 0 "$HISTMAC" profile -p "$tmp/ref" enforcing '<kernel> /usr/bin/env /usr/sbin/sshd'
cp -a "$tmp/ref" "$tmp/ref0"
expect_rc 3 "$HISTMAC" patternize --no-fs -p "$tmp/ref" --apply
grep -qF '<kernel> /usr/bin/env /usr/sbin/sshd (profile 3)' "$tmp/err" &&
	grep -qF 'profile 1' "$tmp/err" && grep -q 'nothing changed' "$tmp/err" ||
	fail "refusal does not name the domains: $(cat "$tmp/err")"
diff -r "$tmp/ref0" "$tmp/ref" >&2 || fail "a refused apply changed the policy"

# 6. Refused: a transition control names a domain the apply would move.
cp -a "$tmp/before" "$tmp/ref2"
echo 'keep_domain any from <kernel> /usr/bin/env /usr/sbin/sshd' \
	>>"$tmp/ref2/exception_policy.conf"
cp -a "$tmp/ref2" "$tmp/ref20"
expect_rc 3 "$HISTMAC" patternize --no-fs -p "$tmp/ref2" --apply
grep -qF 'keep_domain any from <kernel> /usr/bin/env /usr/sbin/sshd: that domain is now <kernel> /usr/sbin/sshd' "$tmp/err" ||
	fail "refusal does not name the control: $(cat "$tmp/err")"
diff -r "$tmp/ref20" "$tmp/ref2" >&2 || fail "a refused apply changed the policy"

finish t_patternize_reroot
