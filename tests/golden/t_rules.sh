#!/bin/bash
# t_rules.sh - `histmac rules` and samples/audit/histmac.rules agree apart
# from the path of the binary; --arch keeps one ABI; the exclusion of the
# running binary comes before every always rule.
. "$(dirname "$0")/lib.sh"

"$HISTMAC" rules --exe /usr/local/bin/histmac >"$tmp/rules"
diff -u "$HM_SRC/samples/audit/histmac.rules" "$tmp/rules" ||
	die "samples/audit/histmac.rules is not the output of histmac rules"

self=$(readlink -f "$HISTMAC")
"$HISTMAC" rules >"$tmp/self"
sed "s|exe=$self -F uid=0\$|exe=/usr/local/bin/histmac -F uid=0|" "$tmp/self" | diff -u "$tmp/rules" - ||
	die "default --exe is not the running binary"
first_always=$(grep -n '^-a always' "$tmp/self" | head -n 1 | cut -d: -f1)
own=$(grep -n "^-a never,exit -F exe=$self -F uid=0\$" "$tmp/self" | cut -d: -f1)
[ -n "$own" ] && [ "$own" -lt "$first_always" ] ||
	die "the exclusion of histmac is missing or after an always rule"

"$HISTMAC" rules --arch b64 >"$tmp/b64"
! grep -q 'arch=b32' "$tmp/b64" || die "--arch b64 kept b32 rules"
grep -q 'arch=b64 -S execve' "$tmp/b64" || die "--arch b64 lost execve"
"$HISTMAC" rules --arch b32 >"$tmp/b32"
! grep -q 'arch=b64' "$tmp/b32" || die "--arch b32 kept b64 rules"
grep -q 'arch=b32 -S socketcall' "$tmp/b32" || die "--arch b32 lost socketcall"

# every syscall the collector learns from is in a rule, for both ABIs
for sc in execve execveat open openat openat2 creat unlink unlinkat rename \
	renameat renameat2 mkdir mkdirat rmdir mknod mknodat symlink \
	symlinkat link linkat truncate chmod fchmodat chown fchownat socket \
	bind connect listen accept4 sendto recvfrom mount umount2 pivot_root \
	chroot kill tkill tgkill; do
	for arch in b64 b32; do
		grep -E "^-a always,exit -F arch=$arch -S ([a-z0-9_]+,)*$sc(,|[ ])" \
			"$tmp/rules" >/dev/null || die "no $arch rule for $sc"
	done
done

rc=0; "$HISTMAC" rules --arch b16 >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || die "bad --arch: exit $rc, want 2"
echo "ok: rules"
