// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_collector.c - arbitrary bytes as an audit log: through the collector
 * (libauparse in feed mode, event assembly, normalisation), then every
 * event through the learner, then the same log through the checker
 * against what was learned.  Nothing may crash, hang or leak; the checker
 * must find nothing to report (learn-then-check is clean), and the
 * counters must add up.  The same bytes read as a file (in batches, the
 * records a parser decoded before not parsed again: collector/memo.c)
 * must give the same events, as JSON lines, and the same counters; and
 * so must the same bytes read a few hundred at a time, straight and on
 * two threads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "histmac/collector.h"
#include "histmac/event_write.h"
#include "histmac/learn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond) do { if (!(cond)) abort(); } while (0)

/* Run @fn on every event of @data; returns the number of events. */
static uint64_t each_event(const uint8_t *data, size_t size,
			   int (*fn)(void *, const struct hm_event *),
			   void *arg)
{
	struct hm_collector_opts o;
	struct hm_collector *c;
	const struct hm_event *ev;
	uint64_t n = 0;
	int r;

	hm_collector_opts_init(&o);
	check(hm_collector_open_buffer(&c, data, size, "fuzz", &o) == 0);
	while ((r = hm_collector_next(c, &ev)) == 1) {
		check(ev->kind < HM_EV_KIND_MAX);
		check(fn(arg, ev) >= 0);
		n++;
	}
	check(r == 0);
	check(hm_collector_stats(c)->events == n);
	hm_collector_free(c);
	return n;
}

/* Every event of collector @c as JSON lines into @text (freed by the
 * caller), its counters into @st. */
static void render(struct hm_collector *c, char **text,
		   struct hm_collector_stats *st)
{
	struct hm_event_writer *w;
	const struct hm_event *ev;
	size_t len;
	FILE *f = open_memstream(text, &len);
	int r;

	check(f && hm_event_writer_new(&w, HM_EVENT_JSON) == 0);
	while ((r = hm_collector_next(c, &ev)) == 1)
		check(hm_event_write(w, ev, f) == 0);
	check(r == 0);
	*st = *hm_collector_stats(c);
	hm_event_writer_free(w);
	hm_collector_free(c);
	check(fclose(f) == 0);
}

/* @t2, @s2 are @t1, @s1 (freed). */
static void same(const char *t1, const struct hm_collector_stats *s1,
		 char *t2, const struct hm_collector_stats *s2)
{
	check(!strcmp(t1, t2));
	check(s1->events == s2->events && s1->records == s2->records);
	check(!memcmp(s1->skipped, s2->skipped, sizeof(s1->skipped)));
	free(t2);
}

/*
 * @data read straight (a buffer) and read as a file: the same.  Also in
 * reads of a few hundred bytes (HISTMAC_TEST_READ_CHUNK), so that lines
 * and events are cut between reads, and so between batches: straight,
 * and as a file on two threads (parallel.c), whose batches are then
 * parsed by either thread, each with its own memo.
 */
static void same_as_file(const uint8_t *data, size_t size)
{
	struct hm_collector_stats s1, s2;
	struct hm_collector_opts o;
	struct hm_collector *c;
	char path[64], chunk[16], *t1, *t2;
	const char *p = path;
	int fd = memfd_create("fuzz", 0);

	check(fd >= 0);
	check(size == 0 || write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	hm_collector_opts_init(&o);
	o.resolve = 0;
	check(hm_collector_open_buffer(&c, data, size, "fuzz", &o) == 0);
	render(c, &t1, &s1);
	check(hm_collector_open_files(&c, &p, 1, &o) == 0);
	render(c, &t2, &s2);
	same(t1, &s1, t2, &s2);

	snprintf(chunk, sizeof(chunk), "%zu", 64 + size % 449);
	check(setenv("HISTMAC_TEST_READ_CHUNK", chunk, 1) == 0);
	check(hm_collector_open_buffer(&c, data, size, "fuzz", &o) == 0);
	render(c, &t2, &s2);
	same(t1, &s1, t2, &s2);
	o.threads = 2;
	check(hm_collector_open_files(&c, &p, 1, &o) == 0);
	render(c, &t2, &s2);
	same(t1, &s1, t2, &s2);
	check(unsetenv("HISTMAC_TEST_READ_CHUNK") == 0);
	close(fd);
	free(t1);
}

static int learn(void *arg, const struct hm_event *ev)
{
	return hm_learner_event(arg, ev);
}

static int checker(void *arg, const struct hm_event *ev)
{
	const char *const *ex;
	size_t n_ex;
	uint64_t before = hm_checker_unidentified(arg, &ex, &n_ex);
	int r = hm_checker_event(arg, ev);

	/* What was just learned from the same events is allowed; an object
	 * whose name is not proven is reported apart (docs/PATHS.md). */
	check(r == (int)(hm_checker_unidentified(arg, &ex, &n_ex) - before));
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_checker *ch;
	uint64_t learned, checked;

	check(m);
	m->max_learning_entry = 0;	/* no quota: check must be clean */
	check(hm_learner_new(m, NULL, 1, NULL, &l) == 0);
	learned = each_event(data, size, learn, l);
	hm_learner_free(l);
	check(hm_checker_new(m, NULL, NULL, &ch) == 0);
	checked = each_event(data, size, checker, ch);
	check(learned == checked);
	hm_checker_free(ch);
	hm_model_free(m);
	same_as_file(data, size);
	return 0;
}
