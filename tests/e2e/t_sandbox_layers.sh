#!/usr/bin/env bash
# The layer budget (issue 21 #4): Landlock stacks at most 16 rulesets on
# a thread.  As nobody, a chain of 20 scripts s1 -> s2 -> ... -> s20, each
# in its own domain (hand-written policy); s_k may read f_k, and tries
# f_(k-1), its parent's file.
#  A. every step has its own ruleset: s2..s16 narrow (f_(k-1) denied with
#     EACCES), s17 finds the 16 layers used and keeps s16's bound, as do
#     s18..s20: each reported once on the sandbox's stderr and counted in
#     --stats; with --strict s17 does not start (exit 126).
#  B. every even step's domain also holds its parent's entries, so its
#     ruleset is its parent's: no layer is spent on it, and the chain
#     narrows all the way down (s19 is denied f18) with nothing reported.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
bash=$(readlink -f /bin/bash)
N=20
cat >"$w/s1" <<'EOS'
#!/bin/bash
w=${0%/*} k=${0##*/s}
try() {
	local err
	if err=$( { read -r l <"$w/f$1"; } 2>&1 ); then
		echo "$k allowed f$1"
	else
		echo "$k denied f$1: ${err##*: }"
	fi
}
try "$k"
[ "$k" -gt 1 ] && try $((k - 1))
if [ "$k" -lt 20 ]; then
	"$w/s$((k + 1))"
	echo "$k: s$((k + 1)) exited $?"
fi
exit 0
EOS
for k in $(seq 2 $N); do cp "$w/s1" "$w/s$k"; done
for k in $(seq $N); do echo "$k" >"$w/f$k"; done
chmod 755 "$w"/s*
chmod 644 "$w"/f*
libs=$(sbx_libs "$bash")

# own K: the entries of step K's own domain
own() {
	echo "$libs"
	echo "file read $w/s$1"
	echo "file read $w/f$1"
	[ "$1" -lt $N ] && echo "file execute $w/s$(($1 + 1))"
	return 0
}
policy() {	# DIR SAME: SAME=1 gives even steps their parent's entries too
	local dom="<kernel> $w/s1" k
	mkdir -p "$1"
	echo "initialize_domain $w/s1 from any" >"$1/exception_policy.conf"
	for k in $(seq $N); do
		[ "$k" = 1 ] || dom="$dom $w/s$k"
		echo "$dom"
		own "$k"
		[ "$2" = 1 ] && [ $((k % 2)) = 0 ] && own $((k - 1))
		echo
	done >"$1/domain_policy.conf"
	chmod -R a+rX "$1"
}
policy "$HM_TMP/polA" 0
policy "$HM_TMP/polB" 1

run() {	# OUT POLICY [OPTION...]
	local out=$1 p=$2 rc=0
	shift 2
	as_nobody "$bin/histmac" sandbox --stats -p "$p" "$@" -- "$w/s1" \
		>"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out" "$out.err" >&2; hm_fail "histmac sandbox exited $rc"; }
}
expect() {	# FILE LINE (a grep -x pattern)
	grep -qx -- "$2" "$1" || { cat "$1" "$1.err" >&2; hm_fail "no line '$2' in $(basename "$1")"; }
}

run "$HM_TMP/a" "$HM_TMP/polA"
for k in $(seq 2 16); do
	expect "$HM_TMP/a" "$k allowed f$k"
	expect "$HM_TMP/a" "$k denied f$((k - 1)): Permission denied"
done
for k in $(seq 17 $N); do
	expect "$HM_TMP/a" "$k allowed f$((k - 1))"
	n=$(grep -c "^histmac sandbox: $w/s$k (pid [0-9]*) keeps its parent's bound: Landlock's 16-layer limit" "$HM_TMP/a.err" || true)
	[ "$n" = 1 ] || { cat "$HM_TMP/a.err" >&2; hm_fail "s$k: $n layer-limit reports, not 1"; }
done
expect "$HM_TMP/a.err" "sandbox: programs that could not narrow: 4 .* layers 4 .*"
hm_ok "A: 20 distinct steps narrow up to the budget (s16), s17..s20 keep s16's bound and are reported"

run "$HM_TMP/a-strict" "$HM_TMP/polA" --strict
expect "$HM_TMP/a-strict" "16 denied f15: Permission denied"
expect "$HM_TMP/a-strict" "16: s17 exited 126"
grep -q "^17 " "$HM_TMP/a-strict" && hm_fail "--strict: s17 ran past the layer limit"
hm_ok "A, --strict: s17 does not start"

run "$HM_TMP/b" "$HM_TMP/polB"
for k in $(seq 3 2 19); do
	expect "$HM_TMP/b" "$k denied f$((k - 1)): Permission denied"
done
for k in $(seq 2 2 $N); do
	expect "$HM_TMP/b" "$k allowed f$((k - 1))"
done
expect "$HM_TMP/b" "$N allowed f$N"
expect "$HM_TMP/b.err" "sandbox: programs that could not narrow: 0 .*"
hm_ok "B: steps whose ruleset is their parent's spend no layer: 20 steps narrow, nothing reported"
