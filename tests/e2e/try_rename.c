// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * try_rename.c - rename(2) FROM to TO (with -l, link(2) it), nothing
 * else (no copy when the kernel refuses, as mv would), and say "renamed
 * FROM" ("linked FROM") or "refused FROM: <error>"; exit 0.
 * usage: try_rename [-l] FROM TO
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int link_it = argc == 4 && !strcmp(argv[1], "-l");

	if (argc != 3 + link_it) {
		fprintf(stderr, "usage: try_rename [-l] FROM TO\n");
		return 2;
	}
	argv += link_it;
	if (link_it ? link(argv[1], argv[2]) : rename(argv[1], argv[2]))
		printf("refused %s: %s\n", argv[1], strerror(errno));
	else
		printf("%s %s\n", link_it ? "linked" : "renamed", argv[1]);
	return 0;
}
