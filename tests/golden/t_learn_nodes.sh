#!/usr/bin/env bash
# Several hosts in one stream (tests/data/nodes.log: the exec recording
# from node web1 and, with echo renamed to date, from node web2, events
# interleaved, the same pids on both): every process is keyed by
# (node, pid), so each host's chain is its own and the domains are shared;
# check names the node of a violation; the saved process table keeps the
# node, so learning on with it still tells the hosts apart.
. "$(dirname "$0")/lib.sh"
log=$HM_SRC/tests/data/nodes.log

"$HISTMAC" learn --no-resolve -p "$tmp/p" -i "$log" >/dev/null 2>&1 || die "learn exited $?"
w='<kernel> /tmp/hm-e2e.XquIVi/workload'
printf '%s\n' '<kernel>' "$w" "$w /bin/date" "$w /bin/echo" "$w /usr/bin/true" \
	>"$tmp/want"
grep '^<kernel>' "$tmp/p/domain_policy.conf" | sort >"$tmp/got"
diff -u "$tmp/want" "$tmp/got" || die "the hosts' chains were mixed"

"$HISTMAC" check -p "$tmp/p" -i "$log" >"$tmp/check" ||
	{ cat "$tmp/check" >&2; die "the learning log is not clean"; }

# Only web2 runs date: without that entry check names web2, not web1.
cp -r "$tmp/p" "$tmp/q"
grep -v '^file execute /bin/date ' "$tmp/p/domain_policy.conf" \
	>"$tmp/q/domain_policy.conf"
set +e
"$HISTMAC" check -p "$tmp/q" -i "$log" >"$tmp/check2"
rc=$?
"$HISTMAC" check -p "$tmp/q" -i "$log" --format json >"$tmp/check2.json"
set -e
[ "$rc" = 1 ] || die "check exit $rc, want 1"
grep -q 'pid 15769 (date) on node web2,' "$tmp/check2" ||
	die "the violation does not name node web2: $(cat "$tmp/check2")"
grep -q 'web1' "$tmp/check2" && die "web1 named for web2's exec"
grep -q '"nodes":\["web2"\]' "$tmp/check2.json" ||
	die "JSON does not name node web2: $(cat "$tmp/check2.json")"

# The log in two runs, the process table saved between them (lines 1-14
# are the parents' execs on both hosts): the same policy.
head -n 14 "$log" >"$tmp/part1"
tail -n +15 "$log" >"$tmp/part2"
"$HISTMAC" learn --no-resolve -p "$tmp/r" -i "$tmp/part1" --state "$tmp/state" >/dev/null 2>&1
grep -q '^web1@15766 ' "$tmp/state" || die "state lost node web1: $(cat "$tmp/state")"
grep -q '^web2@15766 ' "$tmp/state" || die "state lost node web2"
"$HISTMAC" learn -p "$tmp/r" -i "$tmp/part2" --state "$tmp/state" >/dev/null 2>&1
grep '^<kernel>' "$tmp/r/domain_policy.conf" | sort >"$tmp/got2"
diff -u "$tmp/want" "$tmp/got2" || die "the saved table mixed the hosts"

# Sockets too: on each host the same pid has descriptor 3, a stream
# socket on one and a datagram socket on the other (nodes-net.log).  Each
# connect and bind is typed by its own host's socket(): the stream learns
# what the two hosts learn apart.
data=$HM_SRC/tests/data
flip() { sed '/syscall=41 /{s/ a1=1 / a1=X /; s/ a1=2 / a1=1 /; s/ a1=X / a1=2 /}'; }
flip <"$data/net.log" >"$tmp/flip.log"
"$HISTMAC" learn -q -p "$tmp/n1" -i "$data/net.log" 2>/dev/null || die "learn net.log"
"$HISTMAC" learn -q -p "$tmp/n2" -i "$tmp/flip.log" 2>/dev/null || die "learn the flipped log"
"$HISTMAC" learn -q -p "$tmp/n12" -i "$data/nodes-net.log" 2>/dev/null || die "learn nodes-net.log"
cat "$tmp/n1/domain_policy.conf" "$tmp/n2/domain_policy.conf" | grep '^network ' |
	sort -u >"$tmp/net-want"
grep '^network ' "$tmp/n12/domain_policy.conf" | sort -u >"$tmp/net-got"
[ -s "$tmp/net-want" ] || die "no network entries learned"
diff -u "$tmp/net-want" "$tmp/net-got" >&2 || fail "the hosts' sockets were mixed"
finish "t_learn_nodes: two hosts with the same pids keep their own chains"
