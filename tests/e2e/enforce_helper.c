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
 *   helper as UID CMD...       drop to UID (and gid UID, no groups), then
 *                              CMD in the same process: an unprivileged
 *                              attacker in this domain
 *   helper ns CMD...           unshare a user and a mount namespace (as
 *                              any user can), then CMD: the files are
 *                              reached through another mount
 *   helper waitread MS FILE    sleep MS milliseconds, then read FILE
 *   helper thread-exit MS CMD...  the main thread exits (SYS_exit); a
 *                              second thread waits MS milliseconds, then
 *                              runs CMD (read/exec ...) and ends the group
 *   helper failexec PROG CMD...  execve(PROG) with a bad argv (EFAULT
 *                              after the kernel opened PROG), then open
 *                              PROG O_RDWR|O_APPEND ("append PROG: ..."),
 *                              then CMD
 *   helper forge PORT CHILD PARENT  send a proc-connector FORK message
 *                              (CHILD forked by PARENT) to netlink port
 *                              PORT, as a process (not the kernel) can
 *
 * Exit: 0 every step worked, 1 an open or read failed, 126 exec failed,
 * 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
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

static int run(int argc, char **argv);

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int as_user(int argc, char **argv)
{
	uid_t id = (uid_t)strtoul(argv[2], NULL, 10);

	if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
		printf("as %u: %s\n", id, strerror(errno));
		return 2;
	}
	return run(argc - 2, argv + 2);
}

struct thread_arg {
	int argc;
	char **argv;
};

static void *second_thread(void *p)
{
	struct thread_arg *a = p;

	sleep_ms(strtol(a->argv[2], NULL, 10));
	exit(run(a->argc - 2, a->argv + 2));	/* the whole group */
}

/* The leader leaves; another thread of the group goes on. */
static int thread_exit(int argc, char **argv)
{
	static struct thread_arg a;
	pthread_t t;

	a = (struct thread_arg){ argc, argv };
	if (pthread_create(&t, NULL, second_thread, &a))
		return 2;
	syscall(SYS_exit, 0);
	return 2;
}

static int fail_exec(int argc, char **argv)
{
	int fd;

	syscall(SYS_execve, argv[2], (char **)1, NULL);
	printf("failexec %s: %s\n", argv[2], strerror(errno));
	fd = open(argv[2], O_RDWR | O_APPEND);
	if (fd < 0) {
		printf("append %s: %s\n", argv[2], strerror(errno));
	} else {
		printf("append %s: ok\n", argv[2]);
		close(fd);
	}
	return run(argc - 2, argv + 2) | (fd >= 0);
}

/* A FORK event as the kernel's proc connector would send it. */
static int forge(char **argv)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK,
				  .nl_pid = (uint32_t)strtoul(argv[2], NULL,
							      10) };
	union {
		struct nlmsghdr align;
		char b[NLMSG_SPACE(sizeof(struct cn_msg) +
				   sizeof(struct proc_event))];
	} msg = { 0 };
	struct nlmsghdr *nl = &msg.align;
	struct cn_msg *cn = NLMSG_DATA(nl);
	struct proc_event ev = { .what = PROC_EVENT_FORK };
	int fd = socket(PF_NETLINK, SOCK_DGRAM, NETLINK_CONNECTOR);

	ev.event_data.fork.parent_pid = atoi(argv[4]);
	ev.event_data.fork.parent_tgid = atoi(argv[4]);
	ev.event_data.fork.child_pid = atoi(argv[3]);
	ev.event_data.fork.child_tgid = atoi(argv[3]);
	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(ev));
	nl->nlmsg_type = NLMSG_DONE;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(ev);
	memcpy(cn->data, &ev, sizeof(ev));
	if (fd < 0 || sendto(fd, nl, nl->nlmsg_len, 0, (struct sockaddr *)&to,
			     sizeof(to)) != (ssize_t)nl->nlmsg_len) {
		printf("forge: %s\n", strerror(errno));
		return 1;
	}
	printf("forge: sent\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	return run(argc, argv);
}

static int run(int argc, char **argv)
{
	int rc = 0;

	if (argc >= 4 && !strcmp(argv[1], "as"))
		return as_user(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "ns")) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS)) {
			printf("ns: %s\n", strerror(errno));
			return 2;
		}
		return run(argc - 1, argv + 1);
	}
	if (argc >= 5 && !strcmp(argv[1], "thread-exit"))
		return thread_exit(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "failexec"))
		return fail_exec(argc, argv);
	if (argc == 5 && !strcmp(argv[1], "forge"))
		return forge(argv);
	if (argc == 4 && !strcmp(argv[1], "waitread")) {
		sleep_ms(strtol(argv[2], NULL, 10));
		return read_one(argv[3]);
	}
	if (argc >= 3 && !strcmp(argv[1], "read")) {
		for (int i = 2; i < argc; i++)
			rc |= read_one(argv[i]);
		return rc;
	}
	if (argc >= 4 && !strcmp(argv[1], "linger")) {
		for (int i = 3; i < argc; i++)
			rc |= read_one(argv[i]);
		sleep_ms(strtol(argv[2], NULL, 10));
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
		"exec PROG ARGS... | write FILE | loop N FILE | as UID CMD | "
		"waitread MS FILE | thread-exit MS CMD | failexec PROG CMD | "
		"forge PORT CHILD PARENT | ns CMD\n");
	return 2;
}
