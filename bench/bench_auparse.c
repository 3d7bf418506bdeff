// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_auparse.c - the yardstick for the collector: a bare libauparse
 * loop over a log, feed mode, 64 KiB chunks, walking every event, record
 * and field (next_event/next_record/next_field through the callback, as
 * auparse's feed mode hands them out).  Rates use the CPU time of the
 * process (one core), so other load on the machine does not count.
 * Prints one line:
 *	events N records N fields N bytes N seconds S events/s R MB/s R
 * usage: bench_auparse LOG
 */
#include <auparse.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct counts {
	unsigned long long events, records, fields;
};

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *p)
{
	struct counts *c = p;

	/* the cursor is on the first record: auparse_next_event() put it there */
	if (type != AUPARSE_CB_EVENT_READY || !auparse_get_num_records(au))
		return;
	c->events++;
	do {
		c->records++;
		if (!auparse_first_field(au))
			continue;
		do {
			/* touch what a consumer would read */
			if (auparse_get_field_name(au) && auparse_get_field_str(au))
				c->fields++;
		} while (auparse_next_field(au) > 0);
	} while (auparse_next_record(au) > 0);
}

int main(int argc, char **argv)
{
	static char buf[64 << 10];
	struct counts c = { 0 };
	unsigned long long bytes = 0;
	struct timespec t0, t1;
	auparse_state_t *au;
	double s;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: bench_auparse LOG\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 3;
	}
	au = auparse_init(AUSOURCE_FEED, NULL);
	if (!au)
		return 3;
	auparse_add_callback(au, on_event, &c, NULL);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		bytes += (unsigned long long)n;
		auparse_feed(au, buf, (size_t)n);
	}
	auparse_flush_feed(au);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	auparse_destroy(au);
	close(fd);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("events %llu records %llu fields %llu bytes %llu cpu-seconds %.3f "
	       "events/s %.0f MB/s %.1f\n", c.events, c.records, c.fields,
	       bytes, s, c.events / s, bytes / s / 1e6);
	return 0;
}
