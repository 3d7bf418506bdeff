// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * no_landlock.c - run a command as if the kernel had no Landlock, for
 * t_sandbox_nolandlock.sh: a seccomp filter (no_new_privs, so no
 * privilege is needed) makes the three Landlock system calls fail with
 * the errno a kernel without it returns, everything else passes.  It
 * stands in for such a kernel: the machines the tests run on have
 * Landlock built in and enabled.  Built on the fly (cc); not part of
 * histmac.
 *
 * usage: no_landlock ENOSYS|EOPNOTSUPP COMMAND [ARG...]
 *   ENOSYS      Landlock not built into the kernel
 *   EOPNOTSUPP  built in but disabled at boot (lsm= without landlock)
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define ARCH AUDIT_ARCH_I386
#else
#error "no_landlock.c: add this architecture's AUDIT_ARCH_*"
#endif

/* landlock_create_ruleset, _add_rule, _restrict_self: the same numbers
 * on every architecture */
#define LL_FIRST 444
#define LL_LAST 446

/* Make the Landlock system calls fail with @err from now on, here and
 * in everything this process executes. */
static int deny_landlock(unsigned int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, LL_FIRST, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, LL_LAST, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]),
				   .filter = f };

	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	       prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv)
{
	unsigned int err = 0;

	if (argc >= 3 && !strcmp(argv[1], "ENOSYS"))
		err = ENOSYS;
	else if (argc >= 3 && !strcmp(argv[1], "EOPNOTSUPP"))
		err = EOPNOTSUPP;
	if (!err) {
		fprintf(stderr, "usage: no_landlock ENOSYS|EOPNOTSUPP COMMAND "
			"[ARG...]\n");
		return 2;
	}
	if (deny_landlock(err)) {
		perror("no_landlock: seccomp");
		return 126;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
