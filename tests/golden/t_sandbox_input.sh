#!/bin/bash
# t_sandbox_input.sh - `histmac sandbox` on bad input, without applying
# anything: a policy with errors is refused with FILE:LINE, a domain the
# policy lacks is refused unless --mode dry-run (which runs the command
# unconfined and says so), usage errors exit 2, and --explain without a
# command prints the translation (docs/SANDBOX.md), with a missing
# object on its nearest existing parent and --no-truncate said per right
# and in the summary.  Enforcing is
# tests/e2e/t_sandbox_chain.sh's.  Needs $HISTMAC.
. "$(dirname "$0")/lib.sh"

has() {	# FILE REGEX WHAT
	grep -qE -- "$2" "$1" || fail "$3: no /$2/ in $(cat "$1")"
}

good=$tmp/good
mkdir -p "$good"
cat >"$good/domain_policy.conf" <<'EOP'
<kernel> /usr/bin/bash
use_profile 3
file execute /usr/bin/true

<kernel> /usr/bin/bash /usr/bin/true
use_profile 3
file read /etc/ld.so.cache
file create /tmp/\*.tmp 0600
network inet stream connect 127.0.0.1 8080
network inet dgram send 0.0.0.0 53
EOP
: >"$good/exception_policy.conf"
bad=$tmp/bad
cp -r "$good" "$bad"
printf 'file frobnicate /etc/x\n' >>"$bad/domain_policy.conf"

# A policy with errors: refused, the line named.
expect_rc 125 "$HISTMAC" sandbox -p "$bad" --domain "<kernel> /usr/bin/bash" -- /usr/bin/true
has "$tmp/err" 'domain_policy.conf:11: error: unknown file operation' "bad policy: FILE:LINE"
has "$tmp/err" 'refusing to sandbox' "bad policy: refused"

# A domain the policy lacks: refused; a dry run runs it, unconfined.
expect_rc 125 "$HISTMAC" sandbox -p "$good" --domain "<kernel> /usr/bin/zsh" -- /usr/bin/true
has "$tmp/err" "domain '<kernel> /usr/bin/zsh /usr/bin/true' is not in the policy" "unknown domain"
expect_rc 0 "$HISTMAC" sandbox -p "$good" --mode dry-run --domain "<kernel> /usr/bin/zsh" -- /usr/bin/true
has "$tmp/err" 'dry run: .* runs unconfined' "dry run says so"
expect_rc 1 "$HISTMAC" sandbox -p "$good" --mode dry-run --domain "<kernel> /usr/bin/zsh" --explain

# Usage errors: 125 when a COMMAND follows (t_sandbox_exit.sh), else 2.
expect_rc 125 "$HISTMAC" sandbox -- /usr/bin/true
expect_rc 125 "$HISTMAC" sandbox -p "$good" --mode permissive -- /usr/bin/true
expect_rc 2 "$HISTMAC" sandbox -p "$good"
expect_rc 125 "$HISTMAC" sandbox -p "$good" --abi 11 -- /usr/bin/true
expect_rc 125 "$HISTMAC" sandbox -p "$good" --domain "not a domain" -- /usr/bin/true
expect_rc 0 "$HISTMAC" sandbox --help
has "$tmp/out" '^usage: histmac sandbox' "--help"

# --explain of a domain, for ABI 3 (no network rules, no scoping).
expect_rc 0 "$HISTMAC" sandbox -p "$good" --abi 3 --explain \
	--domain "<kernel> /usr/bin/bash /usr/bin/true"
has "$tmp/out" '^      fs.read_file on /etc/ld.so.cache$' "explain: read"
has "$tmp/out" '^      fs.make_reg on /tmp  \[parent\]$' "explain: create"
has "$tmp/out" 'net.connect_tcp\(not enforced: ABI 4\) port 8080' "explain: ABI"
has "$tmp/out" 'net.connect_send_udp\(not enforced: ABI 10\) port 53' "explain: UDP"
has "$tmp/out" '^sandbox: UDP not restricted \(needs ABI 10\)$' "explain: UDP summary"
has "$tmp/out" '^sandbox: 1 domain, 4 entries' "explain: summary"
has "$tmp/out" 'TCP bind/connect not restricted \(needs ABI 4\)' "explain: ABI summary"
# and its subtree from the caller's domain
expect_rc 0 "$HISTMAC" sandbox -p "$good" --explain --domain "<kernel> /usr/bin/bash"
has "$tmp/out" '^sandbox: 2 domains, 5 entries' "explain: subtree"
has "$tmp/out" 'fs.execute,fs.read_file on /usr/bin/true  \[exec-read\]' "explain: execute"

# A missing object: the table names it as the policy does (no stat at
# build time); --explain looks it up and shows the grant applying will
# make, on its nearest existing parent, and counts it.  --no-truncate
# leaves truncate unhandled and says so per right and in the summary.
trunc=$tmp/trunc
mkdir -p "$trunc"
cat >"$trunc/domain_policy.conf" <<'EOP'
<kernel> /usr/bin/true
use_profile 3
file read/truncate /etc/ld.so.cache
file read /nonexistent-hm-sbx/x
file write /etc/nonexistent-hm-sbx
EOP
: >"$trunc/exception_policy.conf"
dom="<kernel> /usr/bin/true"
expect_rc 0 "$HISTMAC" sandbox -p "$trunc" --abi 7 --explain --domain "$dom"
has "$tmp/out" '^      fs.read_file,fs.truncate on /etc/ld.so.cache$' "truncate enforced by default"
has "$tmp/out" '^      fs.read_file on /  \[missing\]$' "explain: missing, up to /"
has "$tmp/out" '^      fs.write_file on /etc  \[missing\]$' "explain: missing file"
has "$tmp/out" 'widened: parent 0 pattern 0 missing 2 ' "explain: missing counted"
grep -q 'not enforced (--no-truncate)' "$tmp/out" && fail "truncate reported unenforced by default"
expect_rc 0 "$HISTMAC" sandbox -p "$trunc" --abi 7 --no-truncate --explain --domain "$dom"
has "$tmp/out" '^      fs.read_file,fs.truncate\(not enforced: --no-truncate\) on /etc/ld.so.cache$' \
	"--no-truncate: per right"
has "$tmp/out" '^sandbox: fs.truncate not enforced \(--no-truncate\): .*; 1 entries grant it$' \
	"--no-truncate: summary"
grep -q 'ABI lacks' "$tmp/out" && fail "--no-truncate counted as the ABI's"
# ABI 2 has no truncate right: that is the ABI's, not --no-truncate's
expect_rc 0 "$HISTMAC" sandbox -p "$trunc" --abi 2 --no-truncate --explain --domain "$dom"
has "$tmp/out" 'fs.truncate\(not enforced: ABI 3\)' "ABI 2: truncate is the ABI's"
has "$tmp/out" '^sandbox: 1 entries need rights this kernel.s ABI lacks' "ABI 2: summary"

finish t_sandbox_input
