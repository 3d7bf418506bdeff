// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blind_calls.c - make, as whoever runs it, one successful call of each
 * kind after which the audit trail cannot name what a process reaches
 * (histmac rules, section 8): unshare() of a user and mount namespace,
 * open_tree() of a mount (no clone: no capability needed),
 * prctl(PR_SET_MM) (the map size query, which needs none either) and
 * io_uring_setup().  Prints "KIND ok" for each; exit 1 when one failed
 * (what failed and why on stderr).
 * usage: blind_calls
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int report(const char *kind, long r)
{
	if (r < 0) {
		fprintf(stderr, "blind_calls: %s: %s\n", kind, strerror(errno));
		return 1;
	}
	printf("%s ok\n", kind);
	return 0;
}

int main(void)
{
	struct io_uring_params p = { 0 };
	unsigned int size = 0;
	int bad = 0;

	bad |= report("namespace", unshare(CLONE_NEWUSER | CLONE_NEWNS));
	bad |= report("mount-api", syscall(SYS_open_tree, AT_FDCWD, "/",
					   OPEN_TREE_CLOEXEC));
	bad |= report("set-mm", prctl(PR_SET_MM, PR_SET_MM_MAP_SIZE, &size,
				      0, 0));
	bad |= report("io-uring", syscall(SYS_io_uring_setup, 1, &p));
	return bad;
}
