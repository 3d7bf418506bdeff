// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_open.c - open() latency and throughput on a set of files, for
 * bench/bench_enforce.sh: opens and closes FILE... round robin, timing
 * each open+close, and prints one line:
 *   opens=N seconds=S per_sec=R p50_ns=A p90_ns=B p99_ns=C max_ns=D fail=F
 * usage: bench_open [-n OPENS] [-w WARMUP] [-c CPU] [-N NICE] FILE...
 * (affinity and nice are set here, not by taskset/nice: a wrapper would
 * be a domain of its own in front of this one)
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv)
{
	long n = 100000, warm = 2000, fail = 0;
	int cpu = -1, c, nice_val = 0;
	bool set_nice = false;
	uint64_t *lat, t0, t1;
	char **files;
	int nf;

	while ((c = getopt(argc, argv, "n:w:c:N:")) != -1) {
		switch (c) {
		case 'n': n = strtol(optarg, NULL, 10); break;
		case 'w': warm = strtol(optarg, NULL, 10); break;
		case 'c': cpu = atoi(optarg); break;
		case 'N':
			nice_val = atoi(optarg);
			set_nice = true;
			break;
		default:
			fprintf(stderr, "usage: bench_open [-n OPENS] [-w WARMUP] "
				"[-c CPU] [-N NICE] FILE...\n");
			return 2;
		}
	}
	files = argv + optind;
	nf = argc - optind;
	if (nf < 1 || n < 1) {
		fprintf(stderr, "bench_open: no files\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
	}
	if (set_nice && setpriority(PRIO_PROCESS, 0, nice_val))
		perror("setpriority");
	lat = malloc((size_t)n * sizeof(*lat));
	if (!lat)
		return 3;
	for (long i = 0; i < warm; i++) {
		int fd = open(files[i % nf], O_RDONLY);

		if (fd >= 0)
			close(fd);
	}
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		uint64_t a = now_ns();
		int fd = open(files[i % nf], O_RDONLY);

		if (fd >= 0)
			close(fd);
		else
			fail++;
		lat[i] = now_ns() - a;
	}
	t1 = now_ns();
	qsort(lat, (size_t)n, sizeof(*lat), cmp);
	printf("opens=%ld seconds=%.3f per_sec=%.0f p50_ns=%llu p90_ns=%llu "
	       "p99_ns=%llu max_ns=%llu fail=%ld\n", n,
	       (double)(t1 - t0) / 1e9, n / ((double)(t1 - t0) / 1e9),
	       (unsigned long long)lat[n / 2],
	       (unsigned long long)lat[n * 9 / 10],
	       (unsigned long long)lat[n * 99 / 100],
	       (unsigned long long)lat[n - 1], fail);
	free(lat);
	return fail ? 1 : 0;
}
