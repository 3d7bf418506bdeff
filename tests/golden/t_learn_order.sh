#!/usr/bin/env bash
# Inputs in time order: the bundled log cut into a rotated set
# (audit.log.2 oldest ... audit.log newest, cuts falling inside events)
# gives the same policy whatever order the files are named in: the
# shell's audit.log* (newest first), time order, or mixed.
. "$(dirname "$0")/lib.sh"
log=$HM_SRC/samples/audit/apache2-sysv.log

n=$(wc -l <"$log")
mkdir "$tmp/logs"
head -n $((n / 3)) "$log" >"$tmp/logs/audit.log.2"
sed -n "$((n / 3 + 1)),$((2 * n / 3))p" "$log" >"$tmp/logs/audit.log.1"
tail -n +$((2 * n / 3 + 1)) "$log" >"$tmp/logs/audit.log"
cat "$tmp/logs/audit.log.2" "$tmp/logs/audit.log.1" "$tmp/logs/audit.log" |
	cmp -s - "$log" || die "the cut set is not the log"

learn() {
	local name=$1
	shift
	"$HISTMAC" learn -q --no-resolve -p "$tmp/$name" -i "$@" ||
		die "learn ($name) exited $?"
}
learn whole "$log"
learn time "$tmp/logs/audit.log.2" "$tmp/logs/audit.log.1" "$tmp/logs/audit.log"
learn glob "$tmp"/logs/audit.log*
learn mixed "$tmp/logs/audit.log.1" "$tmp/logs/audit.log" "$tmp/logs/audit.log.2"
for d in time glob mixed; do
	diff -r "$tmp/whole" "$tmp/$d" >&2 ||
		die "learning the set in '$d' order differs from the whole log"
done
grep -q '^<kernel> ' "$tmp/whole/domain_policy.conf" || die "nothing learned"
finish "t_learn_order: the rotated set in any order gives the policy of the whole log"
