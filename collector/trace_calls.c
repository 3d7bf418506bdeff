// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_calls.c - which calls the tracer stops for, and the seccomp
 * filter that stops only those (docs/TRACE.md).
 *
 * The set is the one `histmac rules` asks audit for, less what the
 * tracer does not read yet (the classic mount calls, i386's
 * socketcall): a call
 * outside it runs with no stop at all, so a program pays only for the
 * calls learned.  Numbers come from libaudit by name, for each ABI of
 * this machine (on x86_64 the i386 one too), so the table speaks names,
 * as audit's rules do.  A call of an ABI the tracer does not read (x32)
 * stops too, and is counted, never silently let by.
 *
 * Owns: nothing (static tables).  Next: trace.c installs the filter in
 * the command, trace_read.c reads each stopped call by its row.
 */
#include <errno.h>
#include <libaudit.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "internal.h"

#define N -1

/* name, dfd, path, dfd2, path2, target, fd, argv, flags, how, addr,
 * addrlen, peer, peerlen; sorted by name */
static const struct hm_tcall calls[] = {
	{ "accept",	N, N, N, N, N, N, N, N, N, N, N, 1, 2 },
	{ "accept4",	N, N, N, N, N, N, N, N, N, N, N, 1, 2 },
	{ "bind",	N, N, N, N, N, N, N, N, N, 1, 2, N, N },
	{ "chmod",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "chown",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "chown32",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "connect",	N, N, N, N, N, N, N, N, N, 1, 2, N, N },
	{ "creat",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "execve",	N, 0, N, N, N, N, 1, N, N, N, N, N, N },
	{ "execveat",	0, 1, N, N, N, N, 2, 4, N, N, N, N, N },
	{ "fchmodat",	0, 1, N, N, N, N, N, N, N, N, N, N, N },
	{ "fchmodat2",	0, 1, N, N, N, N, N, 3, N, N, N, N, N },
	{ "fchownat",	0, 1, N, N, N, N, N, 4, N, N, N, N, N },
	{ "fsmount",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "fsopen",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "fspick",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "ftruncate",	N, N, N, N, N, 0, N, N, N, N, N, N, N },
	{ "ftruncate64", N, N, N, N, N, 0, N, N, N, N, N, N, N },
	{ "io_uring_setup", N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "kill",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "lchown",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "lchown32",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "link",	N, 0, N, 1, N, N, N, N, N, N, N, N, N },
	{ "linkat",	0, 1, 2, 3, N, N, N, 4, N, N, N, N, N },
	{ "listen",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "mkdir",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "mkdirat",	0, 1, N, N, N, N, N, N, N, N, N, N, N },
	{ "mknod",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "mknodat",	0, 1, N, N, N, N, N, N, N, N, N, N, N },
	{ "mount_setattr", N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "move_mount",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "open",	N, 0, N, N, N, N, N, 1, N, N, N, N, N },
	{ "open_tree",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "openat",	0, 1, N, N, N, N, N, 2, N, N, N, N, N },
	{ "openat2",	0, 1, N, N, N, N, N, N, 2, N, N, N, N },
	/* prctl: PR_SET_MM only (trace_event.c) */
	{ "prctl",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "recvfrom",	N, N, N, N, N, N, N, N, N, N, N, 4, 5 },
	{ "rename",	N, 0, N, 1, N, N, N, N, N, N, N, N, N },
	{ "renameat",	0, 1, 2, 3, N, N, N, N, N, N, N, N, N },
	{ "renameat2",	0, 1, 2, 3, N, N, N, N, N, N, N, N, N },
	{ "rmdir",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "sendto",	N, N, N, N, N, N, N, N, N, 4, 5, N, N },
	{ "setns",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "socket",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "symlink",	N, 1, N, N, 0, N, N, N, N, N, N, N, N },
	{ "symlinkat",	1, 2, N, N, 0, N, N, N, N, N, N, N, N },
	{ "tgkill",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "tkill",	N, N, N, N, N, N, N, N, N, N, N, N, N },
	{ "truncate",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "truncate64",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "unlink",	N, 0, N, N, N, N, N, N, N, N, N, N, N },
	{ "unlinkat",	0, 1, N, N, N, N, N, 2, N, N, N, N, N },
	{ "unshare",	N, N, N, N, N, N, N, N, N, N, N, N, N },
};

#undef N

static int cmp_name(const void *k, const void *e)
{
	return strcmp(k, ((const struct hm_tcall *)e)->name);
}

const struct hm_tcall *hm_tcall_find(const char *name)
{
	if (!name)
		return NULL;
	return bsearch(name, calls, HM_ARRAY_SIZE(calls), sizeof(calls[0]),
		       cmp_name);
}

/* The ABIs read: this machine's, and the 32-bit one beside it. */
static const unsigned int arches[] = {
#if defined(__x86_64__)
	AUDIT_ARCH_X86_64, AUDIT_ARCH_I386,
#elif defined(__aarch64__)
	AUDIT_ARCH_AARCH64,
#elif defined(__i386__)
	AUDIT_ARCH_I386,
#endif
};

bool hm_tcall_arch_known(unsigned int arch)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(arches); i++)
		if (arches[i] == arch)
			return true;
	return false;
}

#define STMT(code, k)		((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, t, f)	((struct sock_filter)BPF_JUMP(code, k, t, f))
#define X32_BIT			0x40000000u

/*
 * One ABI's block: load the number, one jump per traced call to the
 * block's TRACE, else ALLOW.  x86_64's block sends x32 numbers (bit 30)
 * to TRACE first.  Returns the instructions written at @f.
 */
static size_t arch_block(unsigned int arch, struct sock_filter *f)
{
	int machine = audit_elf_to_machine(arch);
	int nr[HM_ARRAY_SIZE(calls)];
	size_t n = 0, k = 0;

	for (size_t i = 0; machine >= 0 && i < HM_ARRAY_SIZE(calls); i++) {
		int v = audit_name_to_syscall(calls[i].name, machine);

		if (v < 0 && !strcmp(calls[i].name, "fchmodat2") &&
		    arch == AUDIT_ARCH_X86_64)
			v = 452;	/* unknown to libaudit 3.0.9 by name */
		if (v >= 0)
			nr[n++] = v;
	}
	f[k++] = STMT(BPF_LD | BPF_W | BPF_ABS,
		      offsetof(struct seccomp_data, nr));
	if (arch == AUDIT_ARCH_X86_64)
		f[k++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_BIT,
			      (uint8_t)(n + 1), 0);
	for (size_t i = 0; i < n; i++)
		f[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr[i],
			      (uint8_t)(n - i), 0);
	f[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	return k;
}

int hm_tcall_filter(struct sock_fprog *out)
{
	/* per ABI: compare, load, x32, a jump per call, two returns */
	size_t per = HM_ARRAY_SIZE(calls) + 5;
	size_t cap = 2 + HM_ARRAY_SIZE(arches) * per;	/* + load, return */
	struct sock_filter *f = calloc(cap, sizeof(*f));
	size_t k = 0;

	if (!f)
		return -ENOMEM;
	if (!HM_ARRAY_SIZE(arches)) {
		free(f);
		return -ENOSYS;
	}
	f[k++] = STMT(BPF_LD | BPF_W | BPF_ABS,
		      offsetof(struct seccomp_data, arch));
	for (size_t i = 0; i < HM_ARRAY_SIZE(arches); i++) {
		size_t at = k++;
		size_t len = arch_block(arches[i], f + k);

		/* not this ABI: over its block, to the next compare */
		f[at] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, arches[i],
			     0, (uint8_t)len);
		k += len;
	}
	f[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);	/* other ABI */
	out->len = (unsigned short)k;
	out->filter = f;
	return 0;
}
