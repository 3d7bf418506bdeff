// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setuser.c - start a program as a service starts a session or a job:
 * become UID:GID (no supplementary groups), close every descriptor above
 * 2, then exec PROG through the execl() family: with --env-i, execle()
 * with an environment of its own (PATH and HOME only, as cron builds a
 * job's), else execl() keeping ours.  With --effective only the
 * effective ids change (a process between set_eugid() calls): the exec
 * is then a secure one (AT_SECURE), which ld.so runs without LD_PRELOAD.
 * With --title the strings of its environment are overwritten first, as
 * sshd's setproctitle() writes its title over them.
 * Exit 126 when the exec fails with EPERM, 127 otherwise.
 * usage: setuser [--effective] [--env-i] [--title] UID GID PROG [ARG]
 */
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	static char *const env[] = { "PATH=/usr/bin:/bin", "HOME=/", NULL };
	bool effective = false, env_i = false, title = false;
	uid_t uid;
	gid_t gid;
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		effective |= !strcmp(argv[i], "--effective");
		env_i |= !strcmp(argv[i], "--env-i");
		title |= !strcmp(argv[i], "--title");
	}
	if (argc - i < 3 || argc - i > 4) {
		fprintf(stderr, "usage: setuser [--effective] [--env-i] "
			"[--title] UID GID PROG [ARG]\n");
		return 2;
	}
	uid = (uid_t)strtoul(argv[i], NULL, 10);
	gid = (gid_t)strtoul(argv[i + 1], NULL, 10);
	if (setgroups(0, NULL) ||
	    (effective ? setresgid(-1, gid, -1) || setresuid(-1, uid, -1) :
			 setresgid(gid, gid, gid) || setresuid(uid, uid, uid))) {
		perror("setuser: cannot change user");
		return 2;
	}
	for (char **e = environ; title && *e; e++)
		memset(*e, 0, strlen(*e));
	if (close_range(3, ~0U, 0))
		perror("setuser: close_range");
	if (env_i)
		execle(argv[i + 2], argv[i + 2], argv[i + 3], (char *)NULL, env);
	else
		execl(argv[i + 2], argv[i + 2], argv[i + 3], (char *)NULL);
	fprintf(stderr, "setuser: exec %s: %s\n", argv[i + 2], strerror(errno));
	return errno == EPERM ? 126 : 127;
}
