// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pty_run.c - run COMMAND on a new pseudo-terminal as its controlling
 * terminal, copy what it writes to stdout, and exit with its status.
 * Nothing is ever typed into it: whatever COMMAND's terminal reads was
 * pushed there from inside (TIOCSTI), which is what t_sandbox_tty.sh
 * looks for.  (script(1) forwards its own stdin, and its EOF.)
 * usage: pty_run COMMAND [ARG...]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int m, s, st;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: pty_run COMMAND [ARG...]\n");
		return 2;
	}
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m)) {
		perror("pty_run: posix_openpt");
		return 3;
	}
	pid = fork();
	if (pid == 0) {
		s = open(ptsname(m), O_RDWR);
		if (s < 0 || setsid() < 0 || ioctl(s, TIOCSCTTY, 0) ||
		    dup2(s, 0) < 0 || dup2(s, 1) < 0 || dup2(s, 2) < 0) {
			perror("pty_run: child");
			_exit(3);
		}
		close(m);
		if (s > 2)
			close(s);
		execvp(argv[1], argv + 1);
		perror("pty_run: exec");
		_exit(127);
	}
	/* the slave closes when COMMAND and all it started are done: EIO */
	while ((n = read(m, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(1, buf, (size_t)n) != n)
			break;
	if (waitpid(pid, &st, 0) != pid)
		return 3;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
