// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * open_exit.c - an LD_PRELOAD library that, before the program's main(),
 * opens $HM_PRELOAD_OPEN for reading and exits: what any user can make a
 * program do that it may run (t_audit_trust.sh runs /usr/sbin/auditd so,
 * the program audit rules once left out whoever ran it).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void open_exit(void)
{
	const char *path = getenv("HM_PRELOAD_OPEN");

	if (path)
		_exit(open(path, O_RDONLY | O_CLOEXEC) < 0 ? 1 : 0);
}
