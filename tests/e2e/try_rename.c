// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * try_rename.c - rename(2) FROM to TO, nothing else (no copy when the
 * kernel refuses, as mv would), and say "renamed FROM" or "refused
 * FROM: <error>"; exit 0.
 * usage: try_rename FROM TO
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: try_rename FROM TO\n");
		return 2;
	}
	if (rename(argv[1], argv[2]))
		printf("refused %s: %s\n", argv[1], strerror(errno));
	else
		printf("renamed %s\n", argv[1]);
	return 0;
}
