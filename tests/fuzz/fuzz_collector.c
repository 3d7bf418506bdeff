// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_collector.c - arbitrary bytes as an audit log: through the collector
 * (libauparse in feed mode, event assembly, normalisation), then every
 * event through the learner, then the same log through the checker
 * against what was learned.  Nothing may crash, hang or leak; the checker
 * must find nothing to report (learn-then-check is clean), and the
 * counters must add up.
 */
#include <stdint.h>
#include <stdlib.h>

#include "histmac/collector.h"
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

static int learn(void *arg, const struct hm_event *ev)
{
	return hm_learner_event(arg, ev);
}

static int checker(void *arg, const struct hm_event *ev)
{
	int r = hm_checker_event(arg, ev);

	/* What was just learned from the same events is allowed. */
	check(r == 0);
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
	return 0;
}
