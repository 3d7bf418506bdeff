// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * try_open.c - open each PATH for reading (a directory: list it) and say
 * "allowed PATH" or "denied PATH: <error>", one line each; exit 0.
 * @PATH: open PATH with O_PATH, then /proc/self/fd/N of it for reading
 * (the object hidden behind proc's link).
 * usage: try_open [@]PATH...
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
		int fd = argv[i][0] == '@' ? -1 :
			 open(argv[i], O_RDONLY | O_CLOEXEC);
		struct stat st;
		int err = fd < 0 ? errno : 0;

		if (argv[i][0] == '@') {
			int p = open(argv[i] + 1, O_PATH | O_CLOEXEC);
			char link[64];

			snprintf(link, sizeof(link), "/proc/self/fd/%d", p);
			fd = p < 0 ? -1 : open(link, O_RDONLY | O_CLOEXEC);
			err = fd < 0 ? errno : 0;
			if (p >= 0)
				close(p);
		}

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
