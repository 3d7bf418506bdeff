// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_collector.c - the collector over a log: every event handed out by
 * hm_collector_next(), fully normalised (paths joined and cleaned, argv
 * and hex decoded, socket types tracked).  Prints one line in the same
 * form as bench_auparse (CPU time of the process), plus the collector's
 * counters, among them the records a parser had decoded before and did
 * not parse again (known).
 * usage: bench_collector [--resolve] [--threads N] LOG...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "histmac/collector.h"

int main(int argc, char **argv)
{
	struct hm_collector_opts o;
	struct hm_collector *c;
	const struct hm_event *ev;
	const struct hm_collector_stats *st;
	unsigned long long events = 0, paths = 0, sum = 0, skipped = 0;
	struct timespec t0, t1;
	double s;
	int first = 1, rc;

	hm_collector_opts_init(&o);
	for (;;) {
		if (argc > first && !strcmp(argv[first], "--resolve")) {
			o.resolve = 1;
			first++;
		} else if (argc > first + 1 &&
			   !strcmp(argv[first], "--threads")) {
			o.threads = (unsigned int)atoi(argv[first + 1]);
			first += 2;
		} else {
			break;
		}
	}
	if (argc <= first) {
		fprintf(stderr, "usage: bench_collector [--resolve] "
			"[--threads N] LOG...\n");
		return 2;
	}
	if (hm_collector_open_files(&c, (const char *const *)argv + first,
				    (size_t)(argc - first), &o) < 0)
		return 3;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	while ((rc = hm_collector_next(c, &ev)) > 0) {
		events++;
		/* look at what the analyzer looks at */
		for (uint32_t i = 0; i < ev->n_paths; i++) {
			paths++;
			sum += ev->paths[i].path.len;
		}
		sum += ev->comm.len + ev->exe.len + ev->argc + ev->sa.port;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	if (rc < 0) {
		fprintf(stderr, "bench_collector: error %d\n", rc);
		return 3;
	}
	st = hm_collector_stats(c);
	for (int i = 0; i < HM_SKIP_MAX; i++)
		skipped += st->skipped[i];
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("events %llu records %llu known %llu paths %llu bytes %llu "
	       "cpu-seconds %.3f events/s %.0f MB/s %.1f eoe-injected %llu "
	       "eoe-window %llu skipped %llu check %llu\n", events,
	       (unsigned long long)st->records,
	       (unsigned long long)st->records_known, paths,
	       (unsigned long long)st->bytes, s, events / s,
	       st->bytes / s / 1e6, (unsigned long long)st->eoe_injected,
	       (unsigned long long)st->eoe_window,
	       skipped, sum % 1000);
	hm_collector_free(c);
	return 0;
}
