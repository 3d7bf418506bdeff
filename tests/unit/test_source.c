// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_source.c - inputs in time order: a rotated pair given in either
 * order is read oldest first (the same events, in the same order), and
 * time going backwards within one input is reported once, while an old
 * stamp with a newer serial (a system call that blocked) is not.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/collector.h"

/* "serial kind" of every event, one per line. */
static char *run_files(const char *const *paths, size_t n)
{
	struct hm_collector *c;
	const struct hm_event *ev;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	assert_non_null(f);
	assert_int_equal(hm_collector_open_files(&c, paths, n, NULL), 0);
	while ((rc = hm_collector_next(c, &ev)) > 0)
		fprintf(f, "%llu %s\n", (unsigned long long)ev->serial,
			hm_event_kind_names[ev->kind]);
	assert_int_equal(rc, 0);
	hm_collector_free(c);
	fclose(f);
	return text;
}

static void test_rotated_any_order(void **state)
{
	const char *const old_first[] = { HM_TEST_DATA "/rotated.log.1",
					  HM_TEST_DATA "/rotated.log" };
	const char *const new_first[] = { HM_TEST_DATA "/rotated.log",
					  HM_TEST_DATA "/rotated.log.1" };
	const char *const whole[] = { HM_TEST_DATA "/file.log" };
	char *a = run_files(old_first, 2);
	char *b = run_files(new_first, 2);
	char *w = run_files(whole, 1);

	(void)state;
	assert_true(strlen(a) > 0);
	assert_string_equal(a, b);
	/* the pair is file.log cut in two (tests/data/README.md) */
	assert_string_equal(a, w);
	free(a);
	free(b);
	free(w);
}

#define REC(t, s) "type=USER msg=audit(" t ":" s "): pid=1 uid=0 " \
	"auid=0 ses=1 msg='text=x'\n"

static const struct {
	const char *name;
	const char *log;
	bool warns;
} order_cases[] = {
	{ "in order", REC("100.000", "10") REC("101.000", "11"), false },
	{ "joined out of order: older time, lower serial",
	  REC("200.000", "20") REC("100.000", "10") REC("90.000", "9"), true },
	{ "a blocked call: older time, newer serial",
	  REC("200.000", "20") REC("100.000", "21"), false },
	{ "within auparse's 2 s", REC("200.000", "20") REC("199.000", "19"),
	  false },
};

static void test_time_backwards(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(order_cases); i++) {
		struct hm_collector_opts o;
		struct hm_collector *c;
		const struct hm_event *ev;
		struct hm_diag d = { 0 };
		size_t n = 0, warned = 0;

		hm_collector_opts_init(&o);
		o.diag = &d;
		assert_int_equal(hm_collector_open_buffer(&c,
			order_cases[i].log, strlen(order_cases[i].log), "t",
			&o), 0);
		while (hm_collector_next(c, &ev) > 0)
			n++;
		hm_collector_free(c);
		for (size_t k = 0; k < d.n_msgs; k++)
			warned += strstr(d.msgs[k].text, "backwards") != NULL;
		if (warned != order_cases[i].warns)
			fprintf(stderr, "case '%s': %zu warnings\n",
				order_cases[i].name, warned);
		assert_int_equal(warned, order_cases[i].warns);
		assert_true(n >= 2);	/* read as they are, nothing dropped */
		hm_diag_free(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotated_any_order),
		cmocka_unit_test(test_time_backwards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
