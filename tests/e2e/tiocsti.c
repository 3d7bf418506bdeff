// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tiocsti.c - push TEXT into the terminal on stdin with TIOCSTI, as a
 * confined program escaping to its caller's shell would; then try
 * TIOCLINUX and opening /dev/tty.  Prints one line per attempt:
 *   TIOCSTI ok | TIOCSTI <error>
 *   TIOCLINUX <error>     (on a pty it is ENOTTY; EPERM: filtered)
 *   /dev/tty open | /dev/tty <error>
 * usage: tiocsti TEXT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *text = argc > 1 ? argv[1] : "x\n";
	char sub = 2;	/* TIOCL_SETSEL's number; any subcode will do */
	int err = 0;
	int fd;

	for (const char *p = text; *p && !err; p++)
		if (ioctl(0, TIOCSTI, p))
			err = errno;
	printf("TIOCSTI %s\n", err ? strerror(err) : "ok");
	printf("TIOCLINUX %s\n", ioctl(0, TIOCLINUX, &sub) ? strerror(errno) :
	       "ok");
	fd = open("/dev/tty", O_RDWR);
	printf("/dev/tty %s\n", fd < 0 ? strerror(errno) : "open");
	return 0;
}
