/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e2e_read.h - what the e2e helper programs (enforce_helper.c,
 * proc_attack.c) print for one read, so the tests grep one wording:
 * "read PATH: ok" or "read PATH: <strerror>".  Included by both.
 */
#ifndef HM_E2E_READ_H
#define HM_E2E_READ_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Open @path read-only and read once.  Returns 0 or 1 (failed, said). */
static int read_one(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf)) < 0) {
		printf("read %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	printf("read %s: ok\n", path);
	return 0;
}

#endif /* HM_E2E_READ_H */
