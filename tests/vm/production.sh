#!/usr/bin/env bash
# tests/vm/production.sh - docs/PRODUCTION.md section 7 end to end in the
# kernel-oracle VM (tests/vm/lib.sh): one boot learns nginx + fcgiwrap
# from the guest's auditd, patternizes, sets section 7's profiles, runs
# `histmac enforce` with section 7's marks (the guest's /usr/bin,
# /usr/sbin, /etc/init.d and the site's file system: only the guest's
# kernel is affected) and a second period with an attack, then checks
# that period.  See tests/vm/production/main.
#
# usage: tests/vm/production.sh [--build DIR] [--out DIR]
# Exit: 0 the boot finished (OUT holds the results: status, p-*.log,
# check-p*.out, enforce.log, policy/); 3 could not run.
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$src/build
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//;/^set -eu/d'; exit 0 ;;
	*) echo "production.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

# TCG: two service periods and the enforcer take a minute or two
HM_VM_TIMEOUT=${HM_VM_TIMEOUT:-600}
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"
hm_vm_ready "$build" "$out"
out=$HM_VM_OUT

hm_vm_kernel
hm_vm_accel
echo "vm: kernel $HM_VM_KVER, accel $HM_VM_ACCEL_USE ($HM_VM_ACCEL_WHY)"
hm_vm_initramfs "$out/initrd.gz"

# init1 runs /run/hm/stage2: here the production script
share=$out/share
rm -rf "$share" && mkdir -p "$share/guest"
cp "$here/production/main" "$share/guest/stage2"
cp "$here/production/period" "$here/production/show.sh" "$here/production/site.conf" \
	"$here/guest/auditd-start" "$share/guest/"
cat >"$share/guest/config" <<EOC
HM_BUILD='/run/hm/host$build'
EOC
t0=$(date +%s)
hm_vm_boot "$share" "$out/console.log" "$HM_VM_ACCEL_USE" "$out/initrd.gz" || true
HM_VM_QEMU_PID=
echo "vm: boot took $(($(date +%s) - t0)) s"
grep -q 'init: done' "$out/console.log" ||
	{ echo "vm: the boot did not finish (see $out/console.log)" >&2; tail -n 30 "$out/console.log" >&2; exit 3; }
echo "vm: results in $share"
