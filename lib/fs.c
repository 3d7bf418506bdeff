// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fs.c - creating a directory path (a policy directory, a report
 * directory).  Owns nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "histmac/fs.h"

int hm_mkdir_p(const char *dir, mode_t mode)
{
	char *p = strdup(dir);
	int r = 0;

	if (!p)
		return -ENOMEM;
	for (char *s = p + 1; !r; s++) {
		bool end = !*s;

		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			r = -errno;
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return r;
}
