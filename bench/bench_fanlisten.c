// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_fanlisten.c - the trivial fanotify permission listener that
 * bench/bench_enforce.sh compares `histmac enforce` with: marks one
 * mount for FAN_OPEN_PERM and FAN_OPEN_EXEC_PERM and allows every event,
 * doing nothing else.  Prints "ready" once marked; SIGTERM ends it (the
 * kernel allows whatever is still queued).
 * usage: bench_fanlisten [-c CPU] MOUNTPOINT
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/fanotify.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[64 * 1024] __attribute__((aligned(8)));
	int fd, c, cpu = -1;

	while ((c = getopt(argc, argv, "c:")) != -1) {
		if (c != 'c') {
			fprintf(stderr, "usage: bench_fanlisten [-c CPU] MOUNT\n");
			return 2;
		}
		cpu = atoi(optarg);
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: bench_fanlisten [-c CPU] MOUNT\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	fd = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC |
			   FAN_UNLIMITED_QUEUE, O_RDONLY | O_LARGEFILE);
	if (fd < 0 || fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_MOUNT,
				    FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM,
				    AT_FDCWD, argv[optind]) < 0) {
		perror("bench_fanlisten: fanotify");
		return 3;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		ssize_t len = read(fd, buf, sizeof(buf));
		const struct fanotify_event_metadata *md = (const void *)buf;

		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			return 3;
		for (; FAN_EVENT_OK(md, len); md = FAN_EVENT_NEXT(md, len)) {
			struct fanotify_response r = { .fd = md->fd,
						       .response = FAN_ALLOW };

			if (md->fd < 0)
				continue;
			if (write(fd, &r, sizeof(r)) < 0)
				perror("bench_fanlisten: write");
			close(md->fd);
		}
	}
}
