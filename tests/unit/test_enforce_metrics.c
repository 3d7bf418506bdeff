// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_enforce_metrics.c - the enforcer's metrics text (enforcer/metrics.c)
 * and the latency the answer table counts (enforcer/answer.c), linked
 * from libhm_enforce.  Properties under test: a label value carries any
 * domain name, hostile ones too, as the text format escapes it; denials
 * by domain stay bounded; the histogram's buckets are fapolicyd's and
 * cumulative; every answer is timed once.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "enforcer_private.h"
#include "histmac/sbuf.h"

static char *escaped(const char *s, size_t len, bool label)
{
	struct hm_sbuf b = { 0 };

	hm_prom_escape(&b, s, len, label);
	assert_false(b.oom);
	return b.s ? b.s : strdup("");
}

static void test_escape(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} cases[] = {
		{ "<kernel> /usr/bin/a", 19, "<kernel> /usr/bin/a" },
		{ "a\"b", 3, "a\\\"b" },
		{ "a\\040b", 6, "a\\\\040b" },
		{ "a\nb", 3, "a\\nb" },
		/* bytes the format cannot carry: literal \ooo, escaped */
		{ "a\tb\x01", 4, "a\\\\011b\\\\001" },
		{ "\xff\x7f", 2, "\\\\377\\\\177" },
		{ "a\0b", 3, "a\\\\000b" },
		{ "", 0, "" },
	};
	char *got;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		got = escaped(cases[i].in, cases[i].len, true);
		assert_string_equal(got, cases[i].out);
		free(got);
	}
	/* HELP text: a quote is itself */
	got = escaped("a \"b\"\\\n", 7, false);
	assert_string_equal(got, "a \"b\"\\\\\\n");
	free(got);
}

static struct hm_name name_of(const char *s)
{
	struct hm_name n = { .str = s, .len = (uint32_t)strlen(s) };

	return n;
}

/* Lines of @text that start with @prefix. */
static size_t lines_with(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (const char *p = text; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, prefix, len))
			n++;
	}
	return n;
}

static void test_denials_bounded(void **state)
{
	struct hm_metrics *m = hm_metrics_new();
	struct hm_enforcer_counters c = { 0 };
	struct hm_metrics_in in = { .c = &c };
	struct hm_sbuf b = { 0 };
	char dom[64];
	char *long_name = malloc(HM_METRICS_NAME_MAX + 2);
	struct hm_name n;

	(void)state;
	assert_non_null(m);
	assert_non_null(long_name);
	for (int i = 0; i < HM_METRICS_DOMAINS + 10; i++) {
		snprintf(dom, sizeof(dom), "<kernel> /bin/p%d", i);
		n = name_of(dom);
		hm_metrics_deny(m, &n);
		hm_metrics_deny(m, &n);
	}
	memset(long_name, 'x', HM_METRICS_NAME_MAX + 1);
	long_name[HM_METRICS_NAME_MAX + 1] = '\0';
	n = name_of(long_name);
	hm_metrics_deny(m, &n);
	n = name_of("<kernel> /bin/a \"quoted\"\nname");
	hm_metrics_deny(m, &n);		/* the table is full: other */
	hm_metrics_text(m, &in, &b);
	assert_false(b.oom);
	assert_int_equal(lines_with(b.s, "histmac_enforcer_denials_total{"),
			 HM_METRICS_DOMAINS + 1);
	assert_non_null(strstr(b.s, "histmac_enforcer_denials_total{domain="
				     "\"<kernel> /bin/p0\"} 2\n"));
	assert_non_null(strstr(b.s, "histmac_enforcer_denials_total{domain="
				     "\"other\"} 22\n"));
	assert_null(strstr(b.s, "/bin/p64\""));
	hm_sbuf_free(&b);
	hm_metrics_free(m);
	free(long_name);

	/* a hostile name, escaped in its label */
	m = hm_metrics_new();
	n = name_of("<kernel> /tmp/a\\040b\"c\nd");
	hm_metrics_deny(m, &n);
	hm_metrics_text(m, &in, &b);
	assert_non_null(strstr(b.s, "histmac_enforcer_denials_total{domain="
				     "\"<kernel> /tmp/a\\\\040b\\\"c\\nd\"} 1\n"));
	hm_sbuf_free(&b);
	hm_metrics_free(m);
}

static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(hm_latency_bucket(0), 0);
	assert_int_equal(hm_latency_bucket(50000), 0);
	assert_int_equal(hm_latency_bucket(50001), 1);
	assert_int_equal(hm_latency_bucket(1000000), 3);
	assert_int_equal(hm_latency_bucket(1000001), 4);
	assert_int_equal(hm_latency_bucket(250000000), 8);
	assert_int_equal(hm_latency_bucket(250000001), 9);
	assert_int_equal(hm_latency_bucket(UINT64_MAX), 9);
}

static void test_histogram_text(void **state)
{
	struct hm_enforcer_counters c = { 0 };
	struct hm_metrics_in in = { .c = &c };
	struct hm_sbuf b = { 0 };

	(void)state;
	c.allowed = 7;
	c.global_allowed = 2;
	in.as.latency[0] = 3;
	in.as.latency[4] = 1;
	in.as.latency[9] = 2;
	in.as.latency_ns = 1500000000ull;
	hm_metrics_text(NULL, &in, &b);
	assert_false(b.oom);
	assert_non_null(strstr(b.s,
		"# TYPE histmac_enforcer_decision_seconds histogram\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.00005\"} 3\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.0001\"} 3\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.0005\"} 3\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.001\"} 3\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.01\"} 4\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.025\"} 4\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.05\"} 4\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.1\"} 4\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"0.25\"} 4\n"
		"histmac_enforcer_decision_seconds_bucket{le=\"+Inf\"} 6\n"
		"histmac_enforcer_decision_seconds_sum 1.500000000\n"
		"histmac_enforcer_decision_seconds_count 6\n"));
	/* allowed counts the global ones too: reported once each */
	assert_non_null(strstr(b.s, "{result=\"allow\",reason=\"policy\"} 5\n"));
	assert_non_null(strstr(b.s, "{result=\"allow\",reason=\"global\"} 2\n"));
	/* a counter in a labelled family has no family of its own */
	assert_null(strstr(b.s, "histmac_enforcer_allowed_total"));
	assert_non_null(strstr(b.s, "\nhistmac_enforcer_late_total 0\n"));
	/* every family: HELP, then TYPE */
	assert_int_equal(lines_with(b.s, "# HELP "), lines_with(b.s, "# TYPE "));
	hm_sbuf_free(&b);
}

static void test_answers_timed(void **state)
{
	struct hm_answers_cfg cfg = { .decision_timeout_ms = 1000 };
	struct hm_answer_stats st;
	struct hm_answers *a;
	struct hm_slot_ref ref;
	uint64_t n = 0;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
				    sv), 0);
	cfg.fan_fd = sv[0];
	assert_int_equal(hm_answers_new(&cfg, &a), 0);
	for (int i = 0; i < 3; i++) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		hm_answers_busy(a, true);	/* the loop woke */
		assert_true(hm_answers_take(a, fd, 1, &ref));
		assert_true(hm_answers_finish(a, ref, true, false));
		/* a stale reference answers nothing, times nothing */
		assert_false(hm_answers_finish(a, ref, true, false));
	}
	hm_answers_stats(a, &st);
	for (unsigned i = 0; i < HM_LATENCY_BUCKETS; i++)
		n += st.latency[i];
	assert_int_equal(st.answered, 3);
	assert_int_equal(n, 3);
	hm_answers_free(a);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_denials_bounded),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_histogram_text),
		cmocka_unit_test(test_answers_timed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
