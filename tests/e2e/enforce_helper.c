// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * enforce_helper.c - the workload of the enforcer's end-to-end tests,
 * compiled by the test into the tree it marks and copied under several
 * names (each name is another domain).
 *
 *   helper read FILE...        open and read each file; prints
 *                              "read FILE: ok" or "read FILE: <strerror>"
 *   helper linger MS FILE...   the same, then stay MS milliseconds (so a
 *                              --dry-run enforcer, which judges after the
 *                              fact, still finds the process)
 *   helper exec PROG ARGS...   execv(PROG, [PROG, ARGS...]); on failure
 *                              prints "exec PROG: <strerror>"
 *   helper write FILE          open FILE O_WRONLY|O_CREAT|O_TRUNC, write
 *   helper loop N FILE         open and read FILE N times; prints the
 *                              number of failures
 *
 * Exit: 0 every step worked, 1 an open or read failed, 126 exec failed,
 * 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	int rc = 0;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "read")) {
		for (int i = 2; i < argc; i++)
			rc |= read_one(argv[i]);
		return rc;
	}
	if (argc >= 4 && !strcmp(argv[1], "linger")) {
		long ms = strtol(argv[2], NULL, 10);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		for (int i = 3; i < argc; i++)
			rc |= read_one(argv[i]);
		nanosleep(&ts, NULL);
		return rc;
	}
	if (argc >= 3 && !strcmp(argv[1], "exec")) {
		execv(argv[2], argv + 2);
		printf("exec %s: %s\n", argv[2], strerror(errno));
		return 126;
	}
	if (argc == 3 && !strcmp(argv[1], "write")) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || write(fd, "w\n", 2) != 2) {
			printf("write %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		close(fd);
		printf("write %s: ok\n", argv[2]);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "loop")) {
		long n = strtol(argv[2], NULL, 10), bad = 0;

		for (long i = 0; i < n; i++) {
			int fd = open(argv[3], O_RDONLY);

			if (fd < 0)
				bad++;
			else
				close(fd);
		}
		printf("loop %s: %ld of %ld failed\n", argv[3], bad, n);
		return bad ? 1 : 0;
	}
	fprintf(stderr, "usage: helper read FILE... | linger MS FILE... | "
		"exec PROG ARGS... | write FILE | loop N FILE\n");
	return 2;
}
