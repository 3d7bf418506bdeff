#!/usr/bin/env bash
# t_sensitive.sh - entries that grant more than a file (password hashes,
# keys, root's home, another process's memory) come first for review:
# `histmac stats` lists them before anything else (JSON: "sensitive"),
# the HTML report in a section of its own, whoever's activity learned
# them; a policy without any says 0 and the report has no such section.
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/p" "$tmp/q"
cat >"$tmp/p/domain_policy.conf" <<'EOP'
<kernel>
use_profile 1

file read /etc/passwd

<kernel> /usr/sbin/sshd
use_profile 1

file read /etc/shadow
file read /etc/ssh/ssh_host_ed25519_key
file read /etc/ssh/sshd_config

<kernel> /usr/bin/helper
use_profile 1

file read /home/\*/.ssh/\*
EOP
printf '<kernel>\nuse_profile 1\n\nfile read /etc/passwd\n' \
	>"$tmp/q/domain_policy.conf"

"$HISTMAC" stats -p "$tmp/p" >"$tmp/stats" || die "stats exited $?"
cat >"$tmp/want" <<'EOW'
review first: sensitive entries    3
  <kernel> /usr/sbin/sshd: file read /etc/shadow (password hashes)
  <kernel> /usr/sbin/sshd: file read /etc/ssh/ssh_host_ed25519_key (ssh host key)
  <kernel> /usr/bin/helper: file read /home/\*/.ssh/\* (ssh key)
EOW
head -n 4 "$tmp/stats" | diff -u "$tmp/want" - || fail "stats does not list them first"
"$HISTMAC" stats --format json -p "$tmp/p" >"$tmp/json" || die "stats --format json exited $?"
[ "$(jq -r '.sensitive | map(.why) | join(",")' "$tmp/json")" = \
	"password hashes,ssh host key,ssh key" ] || fail "JSON: $(jq -c .sensitive "$tmp/json")"
"$HISTMAC" stats -p "$tmp/q" | head -n 1 |
	grep -qx 'review first: sensitive entries    0' || fail "a policy without any"

"$HISTMAC" report -p "$tmp/p" -o "$tmp/r" >/dev/null 2>&1 || die "report exited $?"
grep -q '<section id="sensitive"><h3>Review first: 3 sensitive entries</h3>' \
	"$tmp/r/index.html" || fail "the report has no section for them"
grep -q '<td>file read /etc/shadow</td><td>password hashes</td>' \
	"$tmp/r/index.html" || fail "the report does not list /etc/shadow"
"$HISTMAC" report -p "$tmp/q" -o "$tmp/rq" >/dev/null 2>&1 || die "report exited $?"
! grep -q 'id="sensitive"' "$tmp/rq/index.html" || fail "an empty section"
finish sensitive
