# shellcheck shell=bash
# tests/e2e/vm_lib.sh - what the tests that boot the kernel-oracle VM
# (t_vm_*.sh, tests/vm/) need.  Source it after lib.sh.
#
#   hm_vm_need [CMD...]   skip unless QEMU with virtfs, a Debian 12 kernel
#                         (cached, or in apt's lists) and the commands
#                         the VM harness and CMD... need are there

hm_vm_need() {
	local cache=${HM_VM_CACHE:-/var/cache/histmac-vm}
	hm_need qemu-system-x86_64 busybox apt-cache dpkg-deb "$@"
	if ! ls "$cache"/linux-image-6.1.0-*-amd64-unsigned_*.deb >/dev/null 2>&1 &&
		! apt-cache show 'linux-image-6.1.0-*-amd64-unsigned' >/dev/null 2>&1; then
		hm_skip "no linux-image-6.1.0-*-amd64-unsigned in $cache nor in apt's lists (a Debian 12 archive is needed)"
	fi
	# QEMU's 9p export of / needs the virtfs device in this build.
	qemu-system-x86_64 -device help 2>/dev/null | grep -q virtio-9p-pci ||
		hm_skip "qemu-system-x86_64 has no virtio-9p-pci (virtfs)"
}
