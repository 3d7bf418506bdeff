#!/bin/bash
# t_hostile_exec.sh - 10,000 nested execs (tests/data/hostile/gen.pl
# execchain): the domain name grows by one program per exec until it
# would pass HM_MAX_DOMAIN (4,095 bytes, TOMOYO's limit); from there every
# exec is a failed transition (TOMOYO's transition_failed), counted, and
# the process stays in its domain.  The learned policy reads back.
# Needs $HISTMAC and $HM_SRC; about 8 s on 2 cores.
. "$HM_SRC/tests/data/hostile/lib.sh"

# A 69-byte program: 58 levels fit ("<kernel>" + 58 x 70 bytes = 4,068)
prog=/usr/lib/hostile/a-program-name-of-64-bytes-to-reach-the-limit-soon-x
$gen execchain 10000 "$prog" >"$tmp/chain.log"
run 0 "$HISTMAC" learn -p "$tmp/p" -i "$tmp/chain.log"
has "$tmp/out" '^learned from 10001 events' "chain: every event read"
has "$tmp/out" 'domains: 58 new, 59 total$' "chain: 58 domains"
has "$tmp/out" 'transition_failed \(domain name over 4095 bytes\): 9942$' "chain: failures counted"
rss_below 32768 "learn, 10,000 nested execs of a 69-byte program"
d=$tmp/p/domain_policy.conf
[ "$(grep -c '^transition_failed$' "$d")" -eq 1 ] || fail "chain: one domain flagged"
# the deepest domain: flagged, 58 programs, under the limit, and it is
# where the last process still acts
awk '/^</ { name = $0 } /^transition_failed$/ { print length(name), NF_of(name) }
     function NF_of(s,  a) { return split(s, a, " ") }' "$d" >"$tmp/deepest"
read -r len words <"$tmp/deepest" || true
[ "${len:-0}" -le 4095 ] && [ "${len:-0}" -gt $((4095 - 70)) ] ||
	fail "chain: deepest domain is ${len:-?} bytes"
[ "${words:-0}" -eq 59 ] || fail "chain: deepest domain has ${words:-?} words"
awk '/^</ { cur = $0 } /^transition_failed$/ { deep = cur }
     /^file read \/tmp\/chain-end$/ { at = cur } END { exit !(deep == at) }' "$d" ||
	fail "chain: the last open is not in the deepest domain"
# the longest domain lines read back clean
run 0 "$HISTMAC" policy check -p "$tmp/p"
has "$tmp/out" ': tomoyo, 59 domains, 59 entries, .*: 0 errors' "chain: reads back"
run 0 "$HISTMAC" check -p "$tmp/p" -i "$tmp/chain.log"
has "$tmp/out" ' 0 denied' "chain: learned policy allows the chain"

# The same with a 7-byte program: 510 levels fit, and what all those
# names take stays small (TOMOYO's limit bounds the sum at ~1 MB).
$gen execchain 2500 /bin/sh >"$tmp/sh.log"
run 0 "$HISTMAC" learn --no-resolve -p "$tmp/sh" -i "$tmp/sh.log"
has "$tmp/out" 'domains: 510 new' "sh chain: 510 domains"
rss_below 32768 "learn, 2,500 nested execs of /bin/sh"
echo "  policy $(stat -c %s "$tmp/sh/domain_policy.conf") bytes"

finish t_hostile_exec
