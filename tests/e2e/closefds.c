// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * closefds.c - start like a daemon: close every descriptor above 2
 * (close_range), then exec PROG.  With --chmod FILE, first chmod FILE
 * 0400 (the same mode: only its ctime changes), as a confined process may
 * do to the sandbox's copy of its table.
 * usage: closefds [--chmod FILE] PROG [ARG...]
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i = 1;

	if (argc > 3 && !strcmp(argv[1], "--chmod")) {
		if (chmod(argv[2], 0400))
			perror("closefds: chmod");
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: closefds [--chmod FILE] PROG [ARG...]\n");
		return 2;
	}
	if (close_range(3, ~0U, 0))
		perror("closefds: close_range");
	execv(argv[i], argv + i);
	perror("closefds: exec");
	return 127;
}
