// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * event.c - names of event kinds, and which kind each system call is.
 * libaudit gives a syscall's name for an arch; a table here maps names to
 * kinds.  Results are cached per (arch, number) for the two x86 ABIs, the
 * ones histmac's rules cover.  The cache is filled on first use and never
 * freed (it is a few KiB of pointers into static tables).
 */
#include <libaudit.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *const hm_event_kind_names[HM_EV_KIND_MAX] = {
#define X(e, s) [HM_EV_##e] = s,
	HM_EVENT_KINDS(X)
#undef X
};

const char *const hm_skip_names[HM_SKIP_MAX] = {
#define X(e, s) [HM_SKIP_##e] = s,
	HM_SKIP_REASONS(X)
#undef X
};

/* Sorted by name for bsearch. */
static const struct hm_syscall_info kinds[] = {
	{ "accept", HM_EV_ACCEPT },
	{ "accept4", HM_EV_ACCEPT },
	{ "bind", HM_EV_BIND },
	{ "chmod", HM_EV_CHMOD },
	{ "chown", HM_EV_CHOWN },
	{ "chown32", HM_EV_CHOWN },
	{ "chroot", HM_EV_CHROOT },
	{ "clone", HM_EV_FORK },
	{ "clone3", HM_EV_FORK },
	{ "connect", HM_EV_CONNECT },
	{ "creat", HM_EV_OPEN },
	{ "execve", HM_EV_EXEC },
	{ "execveat", HM_EV_EXEC },
	{ "fchmod", HM_EV_CHMOD },
	{ "fchmodat", HM_EV_CHMOD },
	{ "fchmodat2", HM_EV_CHMOD },
	{ "fchown", HM_EV_CHOWN },
	{ "fchown32", HM_EV_CHOWN },
	{ "fchownat", HM_EV_CHOWN },
	{ "fork", HM_EV_FORK },
	{ "fsmount", HM_EV_MOUNT_API },
	{ "fsopen", HM_EV_MOUNT_API },
	{ "fspick", HM_EV_MOUNT_API },
	{ "ftruncate", HM_EV_TRUNCATE },
	{ "ftruncate64", HM_EV_TRUNCATE },
	{ "io_uring_setup", HM_EV_IO_URING },
	{ "kill", HM_EV_SIGNAL },
	{ "lchown", HM_EV_CHOWN },
	{ "lchown32", HM_EV_CHOWN },
	{ "link", HM_EV_LINK },
	{ "linkat", HM_EV_LINK },
	{ "listen", HM_EV_LISTEN },
	{ "mkdir", HM_EV_MKDIR },
	{ "mkdirat", HM_EV_MKDIR },
	{ "mknod", HM_EV_MKNOD },
	{ "mknodat", HM_EV_MKNOD },
	{ "mount", HM_EV_MOUNT },
	{ "mount_setattr", HM_EV_MOUNT_API },
	{ "move_mount", HM_EV_MOUNT_API },
	{ "open", HM_EV_OPEN },
	{ "open_tree", HM_EV_MOUNT_API },
	{ "openat", HM_EV_OPEN },
	{ "openat2", HM_EV_OPEN },
	{ "pivot_root", HM_EV_PIVOT_ROOT },
	{ "prctl", HM_EV_SET_MM },	/* PR_SET_MM only, see assemble.c */
	{ "recvfrom", HM_EV_RECV },
	{ "rename", HM_EV_RENAME },
	{ "renameat", HM_EV_RENAME },
	{ "renameat2", HM_EV_RENAME },
	{ "rmdir", HM_EV_RMDIR },
	{ "sendto", HM_EV_SEND },
	{ "setns", HM_EV_NAMESPACE },
	{ "socket", HM_EV_SOCKET },
	{ "socketcall", HM_EV_OTHER },	/* kind from a0, see assemble.c */
	{ "symlink", HM_EV_SYMLINK },
	{ "symlinkat", HM_EV_SYMLINK },
	{ "tgkill", HM_EV_SIGNAL },
	{ "tkill", HM_EV_SIGNAL },
	{ "truncate", HM_EV_TRUNCATE },
	{ "truncate64", HM_EV_TRUNCATE },
	{ "umount", HM_EV_UMOUNT },
	{ "umount2", HM_EV_UMOUNT },
	{ "unlink", HM_EV_UNLINK },
	{ "unlinkat", HM_EV_UNLINK },
	{ "unshare", HM_EV_NAMESPACE },
	{ "vfork", HM_EV_FORK },
};

#define NR_CACHE 1024

struct arch_cache {
	int arch;
	int machine;
	struct hm_syscall_info info[NR_CACHE];
	bool known[NR_CACHE];
};

static struct arch_cache caches[] = {
	{ .arch = AUDIT_ARCH_X86_64 },
	{ .arch = AUDIT_ARCH_I386 },
};

static int cmp_name(const void *k, const void *e)
{
	return strcmp(k, ((const struct hm_syscall_info *)e)->name);
}

/* Numbers libaudit 3.0.9 does not know by name. */
static const char *extra_name(int nr)
{
	return nr == 452 ? "fchmodat2" : NULL;
}

static void fill(struct hm_syscall_info *out, int machine, int nr)
{
	const char *name = machine >= 0 ? audit_syscall_to_name(nr, machine)
					: NULL;
	const struct hm_syscall_info *k;

	if (!name)
		name = extra_name(nr);
	out->name = name;
	out->kind = HM_EV_OTHER;
	if (!name)
		return;
	k = bsearch(name, kinds, HM_ARRAY_SIZE(kinds), sizeof(kinds[0]),
		    cmp_name);
	if (k)
		out->kind = k->kind;
}

const struct hm_syscall_info *hm_syscall_lookup(int arch, int nr)
{
	static struct hm_syscall_info other;

	for (size_t i = 0; i < HM_ARRAY_SIZE(caches); i++) {
		struct arch_cache *ac = &caches[i];

		if (ac->arch != arch)
			continue;
		if (nr < 0 || nr >= NR_CACHE)
			break;
		if (!ac->known[nr]) {
			if (!ac->machine)
				ac->machine = audit_elf_to_machine(arch);
			fill(&ac->info[nr], ac->machine, nr);
			ac->known[nr] = true;
		}
		return &ac->info[nr];
	}
	/* another arch: look it up each time (rare) */
	fill(&other, audit_elf_to_machine(arch), nr);
	return &other;
}
