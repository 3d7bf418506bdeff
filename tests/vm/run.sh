#!/usr/bin/env bash
# tests/vm/run.sh - the kernel oracle: boot Debian's TOMOYO kernel under
# QEMU, run workloads, and compare what TOMOYO learned with what histmac
# learned from the same run's audit trail; then load histmac's policy into
# TOMOYO and run the workloads again.  See docs/ORACLE.md.
#
# usage: tests/vm/run.sh [--build DIR] [--out DIR] [--phase PHASES]
#                        [--policy DIR] [WORKLOAD...]
#   --build DIR    histmac build tree to test (default: <source>/build);
#                  the guest runs DIR/histmac, seen over 9p at the same path
#   --out DIR      where results go (default: a new /tmp/hm-vm.XXXXXX)
#   --phase P      comma list of learn, permissive, enforce (default all
#                  three); permissive/enforce load --policy, or the policy
#                  histmac learned in this run's learn phase
#   --policy DIR   a TOMOYO 2.6 policy dir (domain_policy.conf,
#                  exception_policy.conf) for permissive/enforce (default:
#                  what histmac learned in the learn phase, patternized)
#   WORKLOAD       names from tests/vm/workloads/ (default: all), run in
#                  one boot per phase, each in its own domain
# Exit: 0 no difference, no denial, misbehaviours denied; 1 findings
# (OUT/summary.txt says which); 3 could not run (no QEMU, no kernel...).
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$src/build
out=
phases=learn,permissive,enforce
policy=
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--out) out=$2; shift 2 ;;
	--phase) phases=$2; shift 2 ;;
	--policy) policy=$(cd "$2" && pwd); shift 2 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//;/^set -eu/d'; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
workloads="$*"
if [ -z "$workloads" ]; then
	workloads=$(find "$here/workloads" -name '*.sh' -printf '%f\n' | sort | sed 's/\.sh$//' | tr '\n' ' ')
fi
for w in $workloads; do
	[ -f "$here/workloads/$w.sh" ] || { echo "run.sh: no workload $w" >&2; exit 2; }
done

# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"
hm_vm_ready "$build" "$out"
out=$HM_VM_OUT

hm_vm_kernel
hm_vm_accel
accel=$HM_VM_ACCEL_USE
echo "vm: kernel $HM_VM_KVER, accel $accel ($HM_VM_ACCEL_WHY)"
initrd=$out/initrd.gz
hm_vm_initramfs "$initrd"

# The guest's files for one phase, in SHARE/guest (init1 copies them to
# /run/hm): the stage scripts, the workloads, the policy TOMOYO loads.
prepare_share() {
	local phase=$1 share=$2 w
	rm -rf "$share" && mkdir -p "$share/guest/wl" "$share/guest/policy"
	cp "$here/guest/stage2" "$here/guest/tomoyo-init" "$here/guest/init" \
		"$here/guest/collect" "$here/guest/auditd-start" "$share/guest/"
	for w in $workloads; do
		cp "$here/workloads/$w.sh" "$share/guest/wl/$w"
		chmod 755 "$share/guest/wl/$w"
	done
	cat >"$share/guest/config" <<EOC
HM_BUILD='/run/hm/host$build'
HM_SRC='/run/hm/host$src'
HM_PHASE='$phase'
HM_WORKLOADS='$workloads'
EOC
	local pol=$share/guest/policy
	cp "$here/guest/profile.conf" "$pol/profile.conf"
	# Once TOMOYO is active only a manager may write its policy files: the
	# trigger's domain, which switches TOMOYO off before the collection.
	echo '<kernel> /run/hm/init' >"$pol/manager.conf"
	case "$phase" in
	learn)
		# Every domain learns from the start: <kernel> with profile 1;
		# new domains inherit it when TOMOYO creates them.
		: >"$pol/exception_policy.conf"
		printf '<kernel>\nuse_profile 1\n' >"$pol/domain_policy.conf"
		;;
	permissive|enforce)
		# histmac's policy after `histmac patternize --apply` (in the
		# guest): a temp name differs on every run, for TOMOYO's own
		# learned policy as much as for histmac's.
		local n=2 from=${policy:-$out/learn/share/histmac-patternized}
		[ "$phase" = enforce ] && n=3
		[ -f "$from/domain_policy.conf" ] || { echo "run.sh: no $from/domain_policy.conf to load" >&2; exit 3; }
		# histmac's policy as it is, every domain in the phase's profile
		# but the harness's two: <kernel> (auditd, started before TOMOYO)
		# and the trigger (it must switch TOMOYO off to collect) run
		# permissive, so their denials are counted, never fatal.
		awk -v n="$n" '
			/^</ { d = $0 }
			/^use_profile / { $0 = "use_profile " ((d == "<kernel>" || d == "<kernel> /run/hm/init") ? 2 : n) }
			{ print }' "$from/domain_policy.conf" >"$pol/domain_policy.conf"
		grep -q '^<kernel>$' "$pol/domain_policy.conf" ||
			printf '<kernel>\nuse_profile 2\n' >>"$pol/domain_policy.conf"
		cp "$from/exception_policy.conf" "$pol/exception_policy.conf" 2>/dev/null ||
			: >"$pol/exception_policy.conf"
		;;
	esac
}

run_phase() {
	local phase=$1 dir=$out/$1 t0 t1
	mkdir -p "$dir"
	prepare_share "$phase" "$dir/share"
	echo "vm: boot for $phase ($workloads)"
	t0=$(date +%s.%N)
	hm_vm_boot "$dir/share" "$dir/console.log" "$accel" "$initrd" || true
	HM_VM_QEMU_PID=
	t1=$(date +%s.%N)
	awk -v p="$phase" -v a="$t0" -v b="$t1" 'BEGIN { printf "%s %.1f\n", p, b - a }' >>"$out/times"
	grep -q '^init: done' "$dir/console.log" 2>/dev/null ||
		grep -q 'init: done' "$dir/console.log" ||
		{ echo "vm: the $phase boot did not finish (see $dir/console.log)" >&2; tail -n 30 "$dir/console.log" >&2; return 3; }
	echo "vm: $phase done in $(tail -n 1 "$out/times" | cut -d' ' -f2) s"
}

: >"$out/times"
rc=0
for phase in $(echo "$phases" | tr , ' '); do
	run_phase "$phase" || exit 3
	if [ "$phase" = learn ]; then
		"$here/compare.py" "$out/learn/share" --histmac "$build/histmac" >"$out/compare.txt" || rc=1
	else
		"$here/denials.py" "$out/$phase/share" "$phase" >"$out/$phase.txt" || rc=1
	fi
done
"$here/summary.sh" "$out" | tee "$out/summary.txt"
echo "vm: results in $out"
exit $rc
