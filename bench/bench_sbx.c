// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_sbx.c - latency of the three things a sandbox is in the way of,
 * for bench/bench_sandbox.sh: each call timed alone, one line printed:
 *   op=OP n=N p50_ns=A p99_ns=B fail=F
 * usage: bench_sbx open N FILE...    open+close, files round robin
 *        bench_sbx exec N PROG       fork, execve PROG noop, wait
 *        bench_sbx connect N PORT    TCP connect to 127.0.0.1:PORT, close
 *        bench_sbx noop              exit 0 (what exec runs)
 * Runs in the domain under test itself: no wrapper in front of it.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int do_open(char **files, int nf, long i)
{
	int fd = open(files[i % nf], O_RDONLY);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int do_exec(const char *prog)
{
	int st;
	pid_t p = fork();

	if (p == 0) {
		execl(prog, prog, "noop", (char *)NULL);
		_exit(127);
	}
	if (p < 0 || waitpid(p, &st, 0) != p)
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

static int do_connect(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port) };
	int s = socket(AF_INET, SOCK_STREAM, 0);
	int r;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0)
		return -1;
	r = connect(s, (struct sockaddr *)&a, sizeof(a));
	close(s);
	return r;
}

int main(int argc, char **argv)
{
	long n, fail = 0;
	uint64_t *lat;

	if (argc == 2 && !strcmp(argv[1], "noop"))
		return 0;
	if (argc < 4) {
		fprintf(stderr, "usage: bench_sbx open|exec|connect N ARG...\n");
		return 2;
	}
	n = strtol(argv[2], NULL, 10);
	lat = n > 0 ? malloc((size_t)n * sizeof(*lat)) : NULL;
	if (!lat)
		return 2;
	for (long i = -n / 20; i < n; i++) {	/* 5% warm-up */
		uint64_t a = now_ns();
		int r;

		if (!strcmp(argv[1], "open"))
			r = do_open(argv + 3, argc - 3, i < 0 ? -i : i);
		else if (!strcmp(argv[1], "exec"))
			r = do_exec(argv[3]);
		else
			r = do_connect(atoi(argv[3]));
		if (i < 0)
			continue;
		fail += r != 0;
		lat[i] = now_ns() - a;
	}
	qsort(lat, (size_t)n, sizeof(*lat), cmp);
	printf("op=%s n=%ld p50_ns=%llu p99_ns=%llu fail=%ld\n", argv[1], n,
	       (unsigned long long)lat[n / 2],
	       (unsigned long long)lat[n * 99 / 100], fail);
	free(lat);
	return fail ? 1 : 0;
}
