// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_passed.c - the "passed the check" table (analyzer/passed.c) and
 * what learn and check make of failed calls: a non-blocking connect is
 * learned and checked; a DAC-refused read is an attempt, never learned,
 * listed apart by check without counting as a violation; the JSON reader
 * of check results does not count attempts.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "histmac/check_out.h"
#include "histmac/check_result.h"
#include "histmac/exporter.h"
#include "histmac/learn.h"
#include "histmac/passed.h"

static const struct {
	enum hm_event_kind kind;
	bool success;
	int64_t exit;
	enum hm_outcome want;
} cases[] = {
	{ HM_EV_CONNECT, true, 0, HM_OUTCOME_PASSED },
	{ HM_EV_CONNECT, false, -EINPROGRESS, HM_OUTCOME_PASSED },
	{ HM_EV_CONNECT, false, -EALREADY, HM_OUTCOME_PASSED },
	{ HM_EV_CONNECT, false, -ECONNREFUSED, HM_OUTCOME_PASSED },
	{ HM_EV_CONNECT, false, -ETIMEDOUT, HM_OUTCOME_PASSED },
	{ HM_EV_CONNECT, false, -ENETUNREACH, HM_OUTCOME_PASSED },
	{ HM_EV_CONNECT, false, -EHOSTUNREACH, HM_OUTCOME_PASSED },
	{ HM_EV_CONNECT, false, -ENOENT, HM_OUTCOME_PASSED },	/* unix */
	{ HM_EV_CONNECT, false, -EACCES, HM_OUTCOME_ATTEMPT },
	{ HM_EV_CONNECT, false, -EBADF, HM_OUTCOME_FAILED },
	{ HM_EV_CONNECT, false, -EINVAL, HM_OUTCOME_FAILED },
	{ HM_EV_BIND, false, -EADDRINUSE, HM_OUTCOME_PASSED },
	{ HM_EV_BIND, false, -EPERM, HM_OUTCOME_ATTEMPT },
	{ HM_EV_SEND, false, -EAGAIN, HM_OUTCOME_PASSED },
	{ HM_EV_ACCEPT, false, -EAGAIN, HM_OUTCOME_FAILED },
	{ HM_EV_OPEN, false, -ENXIO, HM_OUTCOME_PASSED },	/* FIFO */
	{ HM_EV_OPEN, false, -EACCES, HM_OUTCOME_ATTEMPT },
	{ HM_EV_OPEN, false, -ENOENT, HM_OUTCOME_ATTEMPT },
	{ HM_EV_OPEN, false, -ELOOP, HM_OUTCOME_FAILED },
	{ HM_EV_RMDIR, false, -ENOTEMPTY, HM_OUTCOME_PASSED },
	{ HM_EV_EXEC, false, -ENOEXEC, HM_OUTCOME_FAILED },
	{ HM_EV_EXEC, false, -EACCES, HM_OUTCOME_ATTEMPT },
	{ HM_EV_OPEN, false, 0, HM_OUTCOME_FAILED },	/* no errno */
	{ HM_EV_OPEN, false, -70000, HM_OUTCOME_FAILED },
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hm_event ev = { .kind = cases[i].kind,
				       .success = cases[i].success,
				       .exit = cases[i].exit };

		if (hm_passed_outcome(&ev) != cases[i].want)
			fail_msg("case %zu: %s exit %lld", i,
				 hm_event_kind_names[cases[i].kind],
				 (long long)cases[i].exit);
	}
	assert_int_equal(hm_passed_errnos(HM_EV_ACCEPT)[0], 0);
	assert_int_equal(hm_passed_errnos(HM_EV_KIND_MAX)[0], 0);
}

/* rename's EEXIST comes after the hook, but renameat2's may be
 * RENAME_NOREPLACE's, before it (mv FILE DIR/ tries that first) */
static void test_renameat2(void **state)
{
	struct hm_event ev = { .kind = HM_EV_RENAME, .exit = -EEXIST,
			       .syscall_name = "renameat" };

	(void)state;
	assert_int_equal(hm_passed_outcome(&ev), HM_OUTCOME_PASSED);
	ev.syscall_name = "renameat2";
	assert_int_equal(hm_passed_outcome(&ev), HM_OUTCOME_FAILED);
	ev.exit = -ENOTEMPTY;
	assert_int_equal(hm_passed_outcome(&ev), HM_OUTCOME_PASSED);
}

#define CURL "/usr/bin/curl"
#define CURL_DOM "<kernel> /usr/bin/curl"

static struct hm_event base(enum hm_event_kind kind, uint64_t serial)
{
	return (struct hm_event){
		.kind = kind, .has_syscall = true, .success = true,
		.pid = 300, .ppid = 1, .exe = { CURL, sizeof(CURL) - 1 },
		.sec = 1700000000, .serial = serial, .fd = -1,
	};
}

static struct hm_ev_path shadow = {
	.path = { "/etc/shadow", 11 }, .mode = S_IFREG | 0640,
};

/* The events of one curl run: exec, a non-blocking connect, a read of
 * /etc/shadow refused by DAC. */
static void curl_events(struct hm_event ev[3], uint16_t port)
{
	static struct hm_ev_path prog = { .path = { CURL, sizeof(CURL) - 1 },
					  .mode = S_IFREG | 0755 };

	ev[0] = base(HM_EV_EXEC, 1);
	ev[0].n_paths = 1;
	ev[0].paths = &prog;
	ev[1] = base(HM_EV_CONNECT, 2);
	ev[1].success = false;
	ev[1].exit = -EINPROGRESS;
	ev[1].sock_type = SOCK_STREAM | SOCK_NONBLOCK;
	ev[1].sa.family = AF_INET;
	ev[1].sa.addr[0] = 127;
	ev[1].sa.addr[3] = 1;
	ev[1].sa.port = port;
	ev[2] = base(HM_EV_OPEN, 3);
	ev[2].success = false;
	ev[2].exit = -EACCES;
	ev[2].n_paths = 1;
	ev[2].paths = &shadow;
	ev[2].has_open_flags = true;
	ev[2].open_flags = O_RDONLY;
}

static char *report_json(struct hm_checker *c)
{
	struct hm_check_summary s = { .policy = "p" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(hm_check_write_json(c, HM_DIALECT_26, &s, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_learn_and_check(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_checker *c;
	struct hm_event ev[3];
	struct hm_check_result *res;
	const struct hm_violation *const *v;
	size_t n;
	char *json;

	(void)state;
	curl_events(ev, 80);
	assert_int_equal(hm_learner_new(m, NULL, HM_PROFILE_LEARNING, NULL, &l),
			 0);
	assert_true(hm_learner_event(l, &ev[0]) >= 0);
	assert_int_equal(hm_learner_event(l, &ev[1]), 1);	/* connect */
	assert_int_equal(hm_learner_event(l, &ev[2]), 0);	/* attempt */
	assert_int_equal(hm_walker_stats(hm_learner_walker(l))->attempts, 1);
	hm_learner_free(l);

	/* the same run is clean; the attempt is listed apart */
	assert_int_equal(hm_checker_new(m, NULL, NULL, &c), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(hm_checker_event(c, &ev[i]), 0);
	hm_checker_violations(c, &n);
	assert_int_equal(n, 0);
	v = hm_checker_attempts(c, &n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0]->domain->str, CURL_DOM);
	assert_int_equal(v[0]->example_errno, EACCES);
	/* a non-blocking connect to a port never used is a violation */
	curl_events(ev, 25);
	assert_int_equal(hm_checker_event(c, &ev[1]), 1);
	hm_checker_violations(c, &n);
	assert_int_equal(n, 1);

	json = report_json(c);
	assert_non_null(strstr(json, "\"attempted\":1,"));
	assert_non_null(strstr(json, "\"errno\":\"EACCES\""));
	assert_int_equal(hm_check_result_parse(json, strlen(json), "j", NULL,
					       &res), 0);
	assert_int_equal(res->total, 1);	/* the connect, not the read */
	hm_check_result_free(res);
	free(json);
	hm_checker_free(c);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_renameat2),
		cmocka_unit_test(test_learn_and_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
