# shellcheck shell=bash
# shellcheck disable=SC2034 # HM_VM_* are set here for run.sh
# tests/vm/lib.sh - build and boot the kernel-oracle VM (sourced by run.sh).
#
# The oracle is Debian 12's own kernel, which has TOMOYO 2.6 built in
# (CONFIG_SECURITY_TOMOYO=y): it judges the policy histmac learns, instead
# of our reading of TOMOYO's sources.  Nothing here touches /boot or the
# host's policy: the kernel package is unpacked into a cache directory and
# the guest sees this machine's / read-only over 9p.
#
#   hm_vm_ready BUILD OUT this host can boot the VM for BUILD/histmac (root,
#                         QEMU); sets HM_VM_OUT to OUT made absolute (a
#                         new /tmp/hm-vm.XXXXXX when OUT is empty); an
#                         interrupt stops a guest hm_vm_boot started
#   hm_vm_kernel          fetch + unpack the newest linux-image-6.1.0-N-amd64-
#                         unsigned into $HM_VM_CACHE; sets HM_VM_KVER,
#                         HM_VM_VMLINUZ, HM_VM_MODDIR
#   hm_vm_initramfs OUT   busybox-static + the 9p modules + guest/init1
#   hm_vm_accel           sets HM_VM_ACCEL_USE to kvm or tcg, and
#                         HM_VM_ACCEL_WHY to why
#   hm_vm_boot SHARE LOG  boot once; the guest works in SHARE (a host
#                         directory it mounts read-write) and powers off

HM_VM_CACHE=${HM_VM_CACHE:-/var/cache/histmac-vm}
HM_VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HM_VM_MEM=${HM_VM_MEM:-1024}
HM_VM_TIMEOUT=${HM_VM_TIMEOUT:-360}

hm_vm_die() {
	echo "vm: $*" >&2
	exit 3
}

hm_vm_ready() {
	[ -x "$1/histmac" ] || hm_vm_die "no $1/histmac (build first)"
	[ "$(id -u)" = 0 ] || hm_vm_die "needs root (auditd, 9p of /)"
	command -v qemu-system-x86_64 >/dev/null ||
		hm_vm_die "no qemu-system-x86_64 (scripts/deps.sh vm)"
	HM_VM_OUT=${2:-$(mktemp -d /tmp/hm-vm.XXXXXX)}
	mkdir -p "$HM_VM_OUT"
	HM_VM_OUT=$(cd "$HM_VM_OUT" && pwd)
	HM_VM_QEMU_PID=
	trap '[ -n "$HM_VM_QEMU_PID" ] && kill "$HM_VM_QEMU_PID" 2>/dev/null; exit 130' INT TERM
}

# The newest file in the cache whose name matches the glob $1.
_hm_vm_newest() {
	find "$HM_VM_CACHE" -maxdepth 1 -name "$1" -printf '%f\n' 2>/dev/null |
		sort -V | tail -n 1 | sed "s|^.|$HM_VM_CACHE/&|"
}

# The newest 6.1.0-N package the archive offers: N rises with every Debian
# point release and the old ones leave the archive, so it is looked up,
# not pinned.  A cached unpack is reused (the kernel is ~70 MB).
hm_vm_kernel() {
	local pkg deb
	mkdir -p "$HM_VM_CACHE"
	pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' 2>/dev/null |
		awk '{ print $1 }' | sort -V | tail -n 1)
	if [ -z "$pkg" ]; then
		# offline: use whatever an earlier run left in the cache
		deb=$(_hm_vm_newest 'linux-image-6.1.0-*-amd64-unsigned_*.deb')
		[ -n "$deb" ] || hm_vm_die "no linux-image-6.1.0-*-amd64-unsigned in apt-cache nor in $HM_VM_CACHE (apt-get update?)"
		pkg=$(basename "$deb" | sed 's/_.*//')
	fi
	deb=$(_hm_vm_newest "${pkg}_*.deb")
	if [ -z "$deb" ]; then
		# apt-get download fetches the .deb alone: no install, no /boot,
		# no initramfs-tools hooks.  The sandbox user cannot write a
		# root-owned cache, so download as root when we are root.
		(cd "$HM_VM_CACHE" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null) ||
			hm_vm_die "apt-get download $pkg failed"
		deb=$(_hm_vm_newest "${pkg}_*.deb")
	fi
	HM_VM_KVER=${pkg#linux-image-}
	HM_VM_KVER=${HM_VM_KVER%-unsigned}
	local root=$HM_VM_CACHE/$HM_VM_KVER
	if [ ! -e "$root/.unpacked" ] || [ "$deb" -nt "$root/.unpacked" ]; then
		rm -rf "$root" && mkdir -p "$root"
		dpkg-deb -x "$deb" "$root" || hm_vm_die "dpkg-deb -x $deb failed"
		touch "$root/.unpacked"
	fi
	HM_VM_VMLINUZ=$root/boot/vmlinuz-$HM_VM_KVER
	HM_VM_MODDIR=$root/lib/modules/$HM_VM_KVER
	grep -q '^CONFIG_SECURITY_TOMOYO=y' "$root/boot/config-$HM_VM_KVER" ||
		hm_vm_die "$pkg has no TOMOYO built in"
}

# Modules a module needs, from its own .modinfo "depends=" (the package
# has no modules.dep: depmod writes it at install time), deepest first.
_hm_vm_moddeps() {
	local name=$1 ko dep
	case " $_hm_vm_seen " in *" $name "*) return 0 ;; esac
	_hm_vm_seen="$_hm_vm_seen $name"
	ko=$(find "$HM_VM_MODDIR/kernel" -name "$name.ko" -o -name "$(echo "$name" | tr _ -).ko" | head -n 1)
	[ -n "$ko" ] || hm_vm_die "module $name not in $HM_VM_MODDIR"
	for dep in $(tr '\0' '\n' <"$ko" | sed -n 's/^depends=//p' | head -n 1 | tr , ' '); do
		_hm_vm_moddeps "$dep"
	done
	echo "$ko"
}

# The initramfs: a static busybox (no libraries to copy), the modules to
# reach the 9p root, and init1, which mounts and switch_roots.
hm_vm_initramfs() {
	local out=$1 dir m ko
	dir=$(mktemp -d)
	mkdir -p "$dir/bin" "$dir/lib/modules" "$dir/proc" "$dir/sys" "$dir/dev" "$dir/newroot"
	cp /bin/busybox "$dir/bin/busybox"
	file -b /bin/busybox 2>/dev/null | grep -q static ||
		ldd /bin/busybox 2>&1 | grep -q 'not a dynamic' ||
		hm_vm_die "/bin/busybox is not static (install busybox-static)"
	_hm_vm_seen=""
	for m in virtio_pci 9pnet_virtio 9p overlay; do
		_hm_vm_moddeps "$m"
	done >"$dir/order.path"
	while read -r ko; do
		cp "$ko" "$dir/lib/modules/"
		basename "$ko" >>"$dir/modules.order"
	done <"$dir/order.path"
	rm "$dir/order.path"
	cp "$HM_VM_DIR/guest/init1" "$dir/init"
	chmod 755 "$dir/init"
	(cd "$dir" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$out" ||
		hm_vm_die "cpio of the initramfs failed"
	rm -rf "$dir"
}

# KVM only where it can run this kernel: /dev/kvm on some hosts is
# kvm_pvm, which runs only kernels built as PVM guests (the stock kernel
# hangs after "Probing EDD").  TCG always works, ~50x slower on fork+exec.
hm_vm_accel() {
	if [ -n "${HM_VM_ACCEL:-}" ]; then
		HM_VM_ACCEL_USE=$HM_VM_ACCEL
		HM_VM_ACCEL_WHY="HM_VM_ACCEL=$HM_VM_ACCEL"
	elif [ -d /sys/module/kvm_pvm ]; then
		HM_VM_ACCEL_USE=tcg
		HM_VM_ACCEL_WHY="kvm_pvm loaded: /dev/kvm runs only PVM guests"
	elif { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; } && [ -w /dev/kvm ]; then
		HM_VM_ACCEL_USE=kvm
		HM_VM_ACCEL_WHY="kvm_intel/kvm_amd loaded"
	else
		HM_VM_ACCEL_USE=tcg
		HM_VM_ACCEL_WHY="no usable /dev/kvm"
	fi
}

# Boot once.  The guest mounts this machine's / read-only (tag hmroot) and
# SHARE read-write (tag hmshare) and powers off when done; `timeout`
# bounds a guest that hangs.  The console goes to LOG.
hm_vm_boot() {
	local share=$1 log=$2 accel=$3 initrd=$4 append
	# lsm= puts TOMOYO in the stacking order (Debian's default is
	# AppArmor); TOMOYO_loader/TOMOYO_trigger point at files the guest
	# writes into its tmpfs /run, so the read-only root needs no
	# /sbin/tomoyo-init and /sbin/init (systemd) is never run.
	append="console=ttyS0 panic=-1 quiet loglevel=4"
	# audit=1: tasks forked before auditd enables auditing (PID 1, kernel
	# threads) get no audit context otherwise, and PID 1's exec of the
	# trigger, which TOMOYO sees, would be missing from the trail.
	append="$append audit=1"
	append="$append lsm=lockdown,yama,landlock,tomoyo"
	append="$append TOMOYO_loader=/run/hm/tomoyo-init TOMOYO_trigger=/run/hm/init"
	local smp=1
	[ "$accel" = kvm ] && smp=2
	timeout --foreground -k 10 "$HM_VM_TIMEOUT" \
		qemu-system-x86_64 -accel "$accel" -m "$HM_VM_MEM" -smp "$smp" \
		-nographic -no-reboot -monitor none -serial "file:$log" \
		-kernel "$HM_VM_VMLINUZ" -initrd "$initrd" -append "$append" \
		-nic none \
		-virtfs local,path=/,mount_tag=hmroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$share,mount_tag=hmshare,security_model=none,multidevs=remap" \
		</dev/null >"$log.qemu" 2>&1 &
	HM_VM_QEMU_PID=$!
	wait "$HM_VM_QEMU_PID"
}
