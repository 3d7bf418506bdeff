/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec_fixture.h - has a child's exec finished?  For the unit tests that
 * name what a child they started runs (test_procs_naming.c,
 * test_procs.c).  All static.
 */
#ifndef HISTMAC_TESTS_EXEC_FIXTURE_H
#define HISTMAC_TESTS_EXEC_FIXTURE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * Has @pid's exec set up its auxiliary vector (AT_EXECFN)?  The kernel
 * sets the exe link and the command name early in an exec, then maps the
 * program, and writes the vector last; until then /proc/PID/auxv reads
 * as zeros.  The enforcer reads a process at the proc connector's events,
 * which come after an exec is done: a test that reads earlier, under
 * load, finds the program not yet mapped or its AT_EXECFN not yet there.
 */
static bool exec_done(pid_t pid)
{
	unsigned long av[128];
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, av, sizeof(av));
	close(fd);
	for (size_t i = 0; n > 0 && i + 1 < (size_t)n / sizeof(av[0]); i += 2)
		if (av[i] == AT_EXECFN)
			return true;
	return false;
}

#endif
