// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_auparse.c - the yardstick for the collector: a bare libauparse
 * loop over a log walking every event, record and field, reading each
 * field's name and value.  Two ways to read the log:
 *   feed (default)  read() 64 KiB chunks into auparse_feed(), events
 *                   through the callback, as the collector reads;
 *   --file          auparse_init(AUSOURCE_FILE, LOG) and a plain
 *                   auparse_next_event() loop, as ausearch-like tools do.
 * Rates use the CPU time of the process (one core), so other load on the
 * machine does not count.  Prints one line:
 *	events N records N fields N bytes N seconds S events/s R MB/s R
 * usage: bench_auparse [--file] LOG
 */
#include <auparse.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct counts {
	unsigned long long events, records, fields;
};

/* The event auparse_next_event() left the cursor on (its first record). */
static void walk(auparse_state_t *au, struct counts *c)
{
	if (!auparse_get_num_records(au))
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

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *p)
{
	if (type == AUPARSE_CB_EVENT_READY)
		walk(au, p);
}

/* The feed loop: 0, or -1 (could not start). */
static int by_feed(const char *log, struct counts *c, unsigned long long *bytes)
{
	static char buf[64 << 10];
	auparse_state_t *au;
	ssize_t n;
	int fd;

	fd = open(log, O_RDONLY);
	if (fd < 0) {
		perror(log);
		return -1;
	}
	au = auparse_init(AUSOURCE_FEED, NULL);
	if (!au) {
		close(fd);
		return -1;
	}
	auparse_add_callback(au, on_event, c, NULL);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		*bytes += (unsigned long long)n;
		auparse_feed(au, buf, (size_t)n);
	}
	auparse_flush_feed(au);
	auparse_destroy(au);
	close(fd);
	return 0;
}

/* The file loop: 0, or -1. */
static int by_file(const char *log, struct counts *c, unsigned long long *bytes)
{
	struct stat st;
	auparse_state_t *au;

	if (stat(log, &st) < 0 || !(au = auparse_init(AUSOURCE_FILE, log))) {
		perror(log);
		return -1;
	}
	*bytes = (unsigned long long)st.st_size;
	while (auparse_next_event(au) > 0)
		walk(au, c);
	auparse_destroy(au);
	return 0;
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	unsigned long long bytes = 0;
	struct timespec t0, t1;
	bool file = argc == 3 && !strcmp(argv[1], "--file");
	double s;
	int rc;

	if (argc != 2 && !file) {
		fprintf(stderr, "usage: bench_auparse [--file] LOG\n");
		return 2;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	rc = file ? by_file(argv[2], &c, &bytes) : by_feed(argv[1], &c, &bytes);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	if (rc < 0)
		return 3;
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("events %llu records %llu fields %llu bytes %llu cpu-seconds %.3f "
	       "events/s %.0f MB/s %.1f\n", c.events, c.records, c.fields,
	       bytes, s, c.events / s, bytes / s / 1e6);
	return 0;
}
