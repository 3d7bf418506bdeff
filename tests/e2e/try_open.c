// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * try_open.c - open each PATH for reading (a directory: list it) and say
 * "allowed PATH" or "denied PATH: <error>", one line each; exit 0.
 * usage: try_open PATH...
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		struct stat st;
		int err = fd < 0 ? errno : 0;

		if (fd >= 0 && !fstat(fd, &st) && S_ISDIR(st.st_mode)) {
			DIR *d = fdopendir(fd);

			err = d && readdir(d) ? 0 : errno ? errno : EIO;
			if (d)
				closedir(d);
			else
				close(fd);
		} else if (fd >= 0) {
			char c;

			err = read(fd, &c, 1) < 0 ? errno : 0;
			close(fd);
		}
		if (err)
			printf("denied %s: %s\n", argv[i], strerror(err));
		else
			printf("allowed %s\n", argv[i]);
	}
	return 0;
}
