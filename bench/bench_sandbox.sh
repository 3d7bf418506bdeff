#!/bin/bash
# bench/bench_sandbox.sh - what confinement adds to open, exec and TCP
# connect (latency per call, p50 and p99), side by side in one run:
#   none      nothing
#   floor     Landlock's own cost: the kernel's ABI, the rights the
#             sandbox handles, one rule covering what is measured (read on
#             the files' directory; execute+read on / for exec; the port),
#             applied by bench_sbx --floor itself
#   sandbox   histmac sandbox (Landlock), a learned-size policy: the
#             benchmark's domain subtree holds 5,000 file reads, 100
#             patterns, its libraries, its exec and its port; 50 other
#             domains hold 5,000 more entries
#   floor-notrunc, sandbox-notrunc
#             the same with truncate not handled (histmac sandbox
#             --no-truncate): an open no longer looks for the truncate
#             right up to the root
#   floor-abi2, sandbox-abi2
#             the same at Landlock ABI 2 (--abi 2): no truncate right, no
#             network rules, no scoping
#   enforce   histmac enforce --mode enforcing (fanotify) with the same
#             policy, marking the ramfs the files and the program are on
#             (it judges opens and execs; connect is not its business)
# and, for open only, issue 21's case: a learned domain of 1,000 entries
# (a policy as learn writes it for a program that read 1,000 real files
# in a tree of 10 directories, its libraries and its exec):
#   floor-1k        Landlock, the same rights, one rule on the tree
#   sandbox-1k      histmac sandbox with that domain
#   floor-1k-rules  Landlock alone with a rule per file (what 1,000 rules
#                   cost the kernel's lookups, without histmac)
#   floor-1k-tty    floor-1k plus the sandbox's seccomp terminal filter
#                   (what every system call pays for it)
#   floor-1k-user, sandbox-1k-user
#                   floor-1k and sandbox-1k run as nobody: without
#                   CAP_SYS_ADMIN the sandbox installs no terminal filter
#                   (docs/SANDBOX.md "The terminal")
# and how long building and applying the rulesets of a 10,000-entry
# subtree takes, and what an exec below the sandbox spends narrowing
# (the preload) and of that in the kernel (landlock_restrict_self).
# "added" is p50 minus none's p50 in the same round, "vs floor" a sandbox
# p50 minus its floor's: what histmac's ruleset adds to Landlock's own
# cost.  The table shows medians over rounds.  Every round measures each
# operation under every configuration back to back, in an order rotated
# from round to round; the measured processes run pinned to one CPU
# (BENCH_CPU, default the last), the listener and the enforce daemon on
# the others: unpinned, runs vary by +-30 %.
#
# usage: [BENCH_OPS="open exec connect"] [BENCH_CONFIGS="none floor ..."]
#        bench/bench_sandbox.sh [BUILD_DIR] [OPENS] [ROUNDS]
#   BUILD_DIR  a cmake build of histmac (default /tmp/b-bench, built here)
#   OPENS      opens per measurement (default 100000; execs 1/1000 of it,
#              connects 1/20)
#   ROUNDS     rounds (default 5)
#   BENCH_OPS, BENCH_CONFIGS   measure only these (default: all)
#   BENCH_AUDIT_NEVER=1   on a machine whose audit rules log opens (other
#              tools' rules, left as they are), put one rule first that
#              excludes the measured program, removed on exit: else the
#              kernel's audit records dominate every open.  The audit
#              entry and exit paths still run (a constant in every
#              configuration); the header says how many rules were loaded
# Needs root (ramfs, fanotify).  Everything started is stopped by pid,
# the ramfs is unmounted.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-/tmp/b-bench}
opens=${2:-100000}
rounds=${3:-5}
execs=$((opens / 1000))
connects=$((opens / 20))

[ "$(id -u)" = 0 ] || { echo "bench_sandbox: needs root" >&2; exit 3; }
if [ ! -x "$build/bench/bench_sbx" ] || [ ! -x "$build/histmac" ] ||
	[ ! -x "$build/tests/e2e/tcp_listen" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$build" -j "$(nproc)" >/dev/null
fi
HISTMAC=$build/histmac
ncpu=$(nproc)
cpu=${BENCH_CPU:-$((ncpu - 1))}
pin=()
other=()
if [ "$ncpu" -gt 1 ] && command -v taskset >/dev/null; then
	pin=(pinned)
	other=(taskset -c "$(seq 0 $((ncpu - 1)) | grep -vx "$cpu" | paste -sd,)")
fi
# pinned CMD...: run CMD on $cpu, executed by this shell as unpinned it
# would be (histmac enforce judges an exec by the program executing it,
# so no taskset in between)
pinned() {
	(taskset -pc "$cpu" "$BASHPID" >/dev/null && exec "$@")
}

. "$here/lib.sh"
bench_setup sbx
POL=$tmp/policy
POL10=$tmp/policy10k
POL1K=$tmp/policy1k
mkdir -p "$POL" "$POL10" "$POL1K"
chmod 755 "$tmp"	# the *-user configurations run as nobody
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
mkdir "$T/f" "$T/g"
files1k=()
for d in $(seq -w 0 9); do
	mkdir -p "$T/k/d$d"
	for i in $(seq -w 0 99); do
		echo "$d$i" >"$T/k/d$d/f$i"
		files1k+=("$T/k/d$d/f$i")
	done
done
for i in $(seq -w 0 4999); do echo "$i" >"$T/f/$i"; done
for i in $(seq -w 0 9999); do echo "$i" >"$T/g/$i"; done
for i in $(seq 1 100); do mkdir "$T/p$i"; done
files=()
for i in $(seq -w 0 4999 | head -n 1000); do files+=("$T/f/$i"); done
BS=$T/bench_sbx
cp "$build/bench/bench_sbx" "$BS"
n_audit=$(auditctl -l 2>/dev/null | grep -c '^-a' || true)
if [ "${BENCH_AUDIT_NEVER:-0}" = 1 ] && [ "$n_audit" -gt 0 ]; then
	auditctl -A exit,never -S all -F exe="$BS" >/dev/null
	trap 'auditctl -d exit,never -S all -F exe="$BS" >/dev/null; _bench_cleanup' EXIT
	n_audit="$n_audit (the measured program excluded by a rule of its own)"
fi
cp "$build/tests/e2e/tcp_listen" "$tmp/tcp_listen"
"${other[@]}" "$tmp/tcp_listen" 0 >"$tmp/port" &
bench_track "$!"
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
read -r port <"$tmp/port"

libs() {	# what the loader of $BS reads
	echo "file read /etc/ld.so.cache"
	ldd "$BS" | awk '$3 ~ /^\// { print "file read " $3 }'
}
{
	# this shell ran before the enforce daemon: in strict mode its execs
	# are judged in <kernel> (its program), as in production
	echo "<kernel> $(readlink -f /proc/$$/exe)"
	echo "use_profile 3"
	echo "file execute $BS"
	echo
	echo "<kernel> $BS"
	echo "use_profile 3"
	libs
	for f in "$T"/f/*; do echo "file read $f"; done
	for i in $(seq 1 100); do echo "file read $T/p$i/\\*.conf"; done
	echo "file execute $BS"
	echo "network inet stream connect 127.0.0.1 $port"
	echo
	echo "<kernel> $BS $BS"
	echo "use_profile 3"
	libs
	for d in $(seq 1 50); do
		echo
		echo "<kernel> /usr/bin/prog$d"
		echo "use_profile 3"
		for i in $(seq 1 98); do echo "file read /srv/prog$d/data$i"; done
		echo "file write /srv/prog$d/\\*.log"
		echo "file execute /usr/bin/helper$d"
	done
} >"$POL/domain_policy.conf"
{
	echo "<kernel> $BS"
	echo "use_profile 3"
	libs
	for f in "$T"/g/*; do echo "file read $f"; done
} >"$POL10/domain_policy.conf"
{
	# as learn writes it: the program, what it read, what it ran
	echo "<kernel> $BS"
	echo "use_profile 3"
	libs
	for f in "${files1k[@]}"; do echo "file read $f"; done
	echo "file execute $BS"
	echo
	echo "<kernel> $BS $BS"
	echo "use_profile 3"
	libs
} >"$POL1K/domain_policy.conf"
: >"$POL1K/exception_policy.conf"
n_1k=$(awk '/^<kernel>/ { on = $0 == "<kernel> '"$BS"'" } on && /^file /' \
	"$POL1K/domain_policy.conf" | wc -l)
: >"$POL/exception_policy.conf"
: >"$POL10/exception_policy.conf"
n_sub=$(awk '/^<kernel>/ { on = index($0, "'"$BS"'") > 0 } on && /^(file|network) /' \
	"$POL/domain_policy.conf" | wc -l)
n_all=$(grep -cE '^(file|network) ' "$POL/domain_policy.conf")

# The ABI the sandbox uses here (the kernel's, at most the newest known).
mkdir "$tmp/empty"
echo "<kernel>" >"$tmp/empty/domain_policy.conf"
: >"$tmp/empty/exception_policy.conf"
abi=$("$HISTMAC" sandbox -p "$tmp/empty" --domain '<kernel>' --explain |
	sed -n 's/.*; Landlock ABI \([0-9]*\)$/\1/p')
[ -n "$abi" ] || { echo "bench_sandbox: no Landlock ABI" >&2; exit 3; }

read -r -a configs <<<"${BENCH_CONFIGS:-none floor sandbox floor-notrunc sandbox-notrunc floor-abi2 sandbox-abi2 enforce floor-1k sandbox-1k floor-1k-rules floor-1k-tty floor-1k-user sandbox-1k-user}"
read -r -a ops <<<"${BENCH_OPS:-open exec connect}"

run() {	# config op -> "op=.. p50_ns=.. p99_ns=.."
	local cfg=$1 op=$2 n args sbx=("$HISTMAC" sandbox -p "$POL" --domain "<kernel>")
	case $op:$cfg in
	open:*-1k*) n=$opens; args=("${files1k[@]}") ;;
	open:*) n=$opens; args=("${files[@]}") ;;
	exec:*) n=$execs; args=("$BS") ;;
	connect:*) n=$connects; args=("$port") ;;
	esac
	case $cfg in
	floor) "${pin[@]}" "$BS" --floor "$abi" "$op" "$n" "${args[@]}" ;;
	floor-notrunc) "${pin[@]}" "$BS" --floor "$abi:notrunc" "$op" "$n" "${args[@]}" ;;
	floor-abi2) "${pin[@]}" "$BS" --floor 2 "$op" "$n" "${args[@]}" ;;
	sandbox) "${pin[@]}" "${sbx[@]}" -- "$BS" "$op" "$n" "${args[@]}" ;;
	sandbox-notrunc) "${pin[@]}" "${sbx[@]}" --no-truncate -- "$BS" "$op" "$n" "${args[@]}" ;;
	sandbox-abi2) "${pin[@]}" "${sbx[@]}" --abi 2 -- "$BS" "$op" "$n" "${args[@]}" ;;
	floor-1k) "${pin[@]}" "$BS" --floor "$abi" "$op" "$n" "${args[@]}" ;;
	floor-1k-rules) "${pin[@]}" "$BS" --floor "$abi:rules" "$op" "$n" "${args[@]}" ;;
	floor-1k-tty) "${pin[@]}" "$BS" --floor "$abi:tty" "$op" "$n" "${args[@]}" ;;
	sandbox-1k) "${pin[@]}" "$HISTMAC" sandbox -p "$POL1K" --domain "<kernel>" -- \
		"$BS" "$op" "$n" "${args[@]}" ;;
	floor-1k-user) "${pin[@]}" "${nobody[@]}" "$BS" --floor "$abi" "$op" "$n" "${args[@]}" ;;
	sandbox-1k-user) "${pin[@]}" "${nobody[@]}" "$HISTMAC" sandbox -p "$POL1K" \
		--domain "<kernel>" -- "$BS" "$op" "$n" "${args[@]}" ;;
	*) "${pin[@]}" "$BS" "$op" "$n" "${args[@]}" ;;
	esac
}

start_enforce() {
	rm -f "$tmp/hm.pid"
	: >"$tmp/enforce.log"
	"${other[@]}" "$HISTMAC" enforce -p "$POL" --mark "$T" --mode enforcing \
		--pidfile "$tmp/hm.pid" 2>>"$tmp/enforce.log" &
	epid=$!
	bench_track "$epid"
	for _ in $(seq 300); do
		[ -s "$tmp/hm.pid" ] && grep -q 'enforcing: ' "$tmp/enforce.log" && return 0
		sleep 0.1
	done
	cat "$tmp/enforce.log" >&2
	exit 1
}

: >"$tmp/results"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
nc=${#configs[@]}
for r in $(seq 1 "$rounds"); do
	for op in "${ops[@]}"; do
		for i in $(seq 0 $((nc - 1))); do
			cfg=${configs[$(((i + r) % nc))]}	# rotated each round
			case $op:$cfg in *:*-1k*) [ "$op" = open ] || continue ;; esac
			[ "$cfg" = enforce ] && start_enforce
			# a failed call is counted (fail=), the run goes on
			out=$(run "$cfg" "$op") || true
			if [ "$cfg" = enforce ]; then
				kill -TERM "$epid"
				wait "$epid" 2>/dev/null || true
			fi
			case $out in
			op=*) echo "$r $cfg $out" >>"$tmp/results" ;;
			*) echo "bench_sandbox: $cfg $op: $out" >&2; exit 1 ;;
			esac
		done
	done
done

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
build_ms=()
apply_ms=()
for _ in $(seq 1 "$rounds"); do
	"${pin[@]}" "$HISTMAC" sandbox --stats -p "$POL10" --domain "<kernel>" -- "$BS" noop \
		2>"$tmp/stats"
	build_ms+=("$(sed -n 's/^sandbox: built in \([0-9.]*\) ms (\([0-9.]*\) ms CPU)/\1\/\2/p' "$tmp/stats")")
	apply_ms+=("$(sed -n 's/^sandbox: [0-9]* rules applied .* in \([0-9.]*\) ms (\([0-9.]*\) ms CPU)/\1\/\2/p' "$tmp/stats")")
done

# What an exec below the sandbox spends narrowing, as the preload reports
# it: "... in T us, K us of them in landlock_restrict_self()".
: >"$tmp/narrow"
[[ " ${ops[*]} " != *" exec "* ]] ||
	HISTMAC_SANDBOX_DEBUG=1 run sandbox exec 2>"$tmp/narrow" >/dev/null || true
narrow=$(sed -n 's/.* in \([0-9]*\) us, \([0-9]*\) us of them in landlock_restrict_self().*/\1 \2/p' \
	"$tmp/narrow" | sort -n | awk '{ t[NR] = $1; k[NR] = $2 }
	END { if (NR) printf "%d us, of which %d us in landlock_restrict_self() (median of %d execs)",
		t[int((NR + 1) / 2)], k[int((NR + 1) / 2)], NR }')

echo "# bench_sandbox: $(date -u +%Y-%m-%dT%H:%MZ) $(uname -r) $ncpu CPUs${pin[*]:+, measured on CPU $cpu};" \
	"Landlock ABI $abi; $rounds rounds; opens $opens, execs $execs, connects $connects per measurement"
echo "# policy: $n_all entries, $n_sub in the benchmark's subtree; *-1k: a domain of $n_1k entries"
echo "# load average (1, 5, 15 min): $load_before before, $load_after after; audit rules loaded: $n_audit"
FLOORS="sandbox=floor sandbox-notrunc=floor-notrunc sandbox-abi2=floor-abi2
	sandbox-1k=floor-1k floor-1k-rules=floor-1k floor-1k-tty=floor-1k
	sandbox-1k-user=floor-1k-user" \
CONFIGS="${configs[*]}" OPS="${ops[*]}" awk '
	{ for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	  k = $2 " " f["op"]; p50[k, $1] = f["p50_ns"]; p99[k, $1] = f["p99_ns"]
	  v = f["p50_ns"] + 0
	  if (!(k in has) || v < lo[k]) lo[k] = v
	  if (!(k in has) || v > hi[k]) hi[k] = v
	  has[k] = 1
	  fail[k] += f["fail"]; calls[k] += f["n"]; rounds[$1] = 1 }
	function sort_mid(v, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
		return v[int((n + 1) / 2)]
	}
	function median(a, key,   n, v, i) {
		n = 0
		for (i in rounds) v[++n] = a[key, i]
		return sort_mid(v, n)
	}
	function added(key, base,   n, v, i) {	# median of per-round differences
		n = 0
		for (i in rounds) v[++n] = p50[key, i] - p50[base, i]
		return sort_mid(v, n)
	}
	END {
		nf = split(ENVIRON["FLOORS"], fl, /[ \t\n]+/)
		for (i = 1; i <= nf; i++) { split(fl[i], kv, "="); floor_of[kv[1]] = kv[2] }
		nc = split(ENVIRON["CONFIGS"], cfgs, " ")
		nops = split(ENVIRON["OPS"], ops, " ")
		printf "%-8s %-16s %10s %15s %10s %10s %8s %10s %8s %s\n", "op", "config",
		       "p50_ns", "p50_range", "p99_ns", "added_ns", "vs_none", "vs_floor", "", "failed"
		for (o = 1; o <= nops; o++) for (c = 1; c <= nc; c++) {
			k = cfgs[c] " " ops[o]; b = "none " ops[o]
			if (!(k in has))
				continue
			# without "none" in BENCH_CONFIGS only the floors compare
			a = (b in has) ? added(k, b) : "-"
			vn = (b in has) ? sprintf("%.1f%%", 100 * a / median(p50, b)) : "-"
			vf = "-"; vfp = ""
			if (cfgs[c] in floor_of && (floor_of[cfgs[c]] " " ops[o]) in has) {
				fk = floor_of[cfgs[c]] " " ops[o]
				d = added(k, fk)
				vf = sprintf("%d", d)
				vfp = sprintf("%+.1f%%", 100 * d / median(p50, fk))
			}
			printf "%-8s %-16s %10d %15s %10d %10s %8s %10s %8s %d/%d\n", ops[o],
			       cfgs[c], median(p50, k), lo[k] "-" hi[k], median(p99, k), a,
			       vn, vf, vfp, fail[k], calls[k]
		}
	}' "$tmp/results"
echo "# 10,000-entry subtree, per run, wall/CPU ms:"
echo "#   build: ${build_ms[*]}"
echo "#   apply: ${apply_ms[*]}"
echo "# an exec below the sandbox narrowing to its domain: ${narrow:-not reported}"
