#!/bin/bash
# t_hostile_exec.sh - 10,000 nested execs (tests/data/hostile/gen.pl
# execchain): the domain name grows by one program per exec until it
# would pass HM_MAX_DOMAIN (65,536 bytes); from there every exec is a
# failed transition (TOMOYO's transition_failed), counted, and the
# process stays in its domain.  The learned policy reads back.
# Needs $HISTMAC and $HM_SRC; about 8 s on 2 cores.
. "$HM_SRC/tests/data/hostile/lib.sh"

# A 69-byte program: 936 domains fit (70 bytes each, with the space)
prog=/usr/lib/hostile/a-program-name-of-64-bytes-to-reach-the-limit-soon-x
$gen execchain 10000 "$prog" >"$tmp/chain.log"
run 0 "$HISTMAC" learn -p "$tmp/p" -i "$tmp/chain.log"
has "$tmp/out" '^learned from 10001 events' "chain: every event read"
has "$tmp/out" 'domains: 936 new, 937 total$' "chain: 936 domains"
has "$tmp/out" 'transition_failed \(domain name over 65536 bytes\): 9064$' "chain: failures counted"
rss_below 196608 "learn, 10,000 nested execs of a 69-byte program"
d=$tmp/p/domain_policy.conf
[ "$(grep -c '^transition_failed$' "$d")" -eq 1 ] || fail "chain: one domain flagged"
# the deepest domain: flagged, 936 programs, under the limit, and it is
# where the last process still acts
awk '/^</ { name = $0 } /^transition_failed$/ { print length(name), NF_of(name) }
     function NF_of(s,  a) { return split(s, a, " ") }' "$d" >"$tmp/deepest"
read -r len words <"$tmp/deepest" || true
[ "${len:-0}" -le 65536 ] && [ "${len:-0}" -gt 65000 ] ||
	fail "chain: deepest domain is ${len:-?} bytes"
[ "${words:-0}" -eq 937 ] || fail "chain: deepest domain has ${words:-?} words"
awk '/^</ { cur = $0 } /^transition_failed$/ { deep = cur }
     /^file read \/tmp\/chain-end$/ { at = cur } END { exit !(deep == at) }' "$d" ||
	fail "chain: the last open is not in the deepest domain"
# 65 KB domain lines read back clean
run 0 "$HISTMAC" policy check -p "$tmp/p"
has "$tmp/out" ': tomoyo, 937 domains, 937 entries, .*: 0 errors' "chain: reads back"
run 0 "$HISTMAC" check -p "$tmp/p" -i "$tmp/chain.log"
has "$tmp/out" ' 0 denied' "chain: learned policy allows the chain"

# The same with a 7-byte program: 8,191 domains before the limit, and
# their names add up quadratically (n^2/2 x 8 bytes, 268 MB at 8,191).
# 2,500 levels are enough to show it without using that much.
$gen execchain 2500 /bin/sh >"$tmp/sh.log"
run 0 "$HISTMAC" learn -p "$tmp/sh" -i "$tmp/sh.log"
has "$tmp/out" 'domains: 2500 new' "sh chain: 2,500 domains"
echo "  learn, 2,500 nested execs of /bin/sh: peak RSS $rss KiB, policy $(stat -c %s "$tmp/sh/domain_policy.conf") bytes"
known_gap "domain names are up to 65,536 bytes (TOMOYO: 4,086): deep chains of short names use memory quadratic in the depth" \
	"[ $rss -gt 65536 ]"

finish t_hostile_exec
