// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_diff.c - hm_policy_diff() (formats/diff.c): two policies parsed
 * from text, and the exact diff text and change count each pair gives.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/policy_diff.h"
#include "histmac/policy_io.h"

static const struct {
	const char *name;
	const char *dom_a, *exc_a;	/* policy A (2.6 text) */
	const char *dom_b, *exc_b;	/* policy B */
	size_t changes;
	const char *text;		/* the diff, exactly */
} cases[] = {
	{ "same policy: no text",
	  "<kernel> /a\nuse_profile 1\nfile read /x\n", "",
	  "<kernel> /a\nuse_profile 1\nfile read /x\n", "",
	  0, "" },
	{ "one permission of a combined entry removed",
	  "<kernel> /a\nuse_profile 1\nfile read/write /x\n", "",
	  "<kernel> /a\nuse_profile 1\nfile read /x\n", "",
	  1, "<kernel> /a\n-file write /x\n\n" },
	{ "merged entries compare equal to split ones",
	  "<kernel> /a\nuse_profile 1\nfile read/write /x\n", "",
	  "<kernel> /a\nuse_profile 1\nfile write /x\nfile read /x\n", "",
	  0, "" },
	{ "domain only in B, named first, then its lines",
	  "<kernel> /a\nuse_profile 1\n", "",
	  "<kernel> /a\nuse_profile 1\n<kernel> /a /b\nuse_profile 2\n"
	  "file getattr /y\n", "",
	  3, "+<kernel> /a /b\n+file getattr /y\n+use_profile 2\n\n" },
	{ "domain only in A, and the profile changed in another",
	  "<kernel> /a\nuse_profile 1\n<kernel> /a /c\nuse_profile 1\n", "",
	  "<kernel> /a\nuse_profile 3\n", "",
	  4, "<kernel> /a\n-use_profile 1\n+use_profile 3\n\n"
	     "-<kernel> /a /c\n-use_profile 1\n\n" },
	{ "exception policy lines added and removed",
	  "", "initialize_domain /sbin/a from any\n",
	  "", "initialize_domain /sbin/b from any\n",
	  2, "# exception policy\n-initialize_domain /sbin/a from any\n"
	     "+initialize_domain /sbin/b from any\n" },
};

static struct hm_model *load(const char *dom, const char *exc)
{
	struct hm_model *m = hm_model_new();
	struct hm_diag d = { 0 };

	assert_non_null(m);
	assert_int_equal(hm_policy_parse_domain(m, dom, strlen(dom),
						HM_DIALECT_26, "a", &d), 0);
	assert_int_equal(hm_policy_parse_exception(m, exc, strlen(exc),
						   HM_DIALECT_26, "e", &d), 0);
	hm_diag_free(&d);
	return m;
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_model *a = load(cases[i].dom_a, cases[i].exc_a);
		struct hm_model *b = load(cases[i].dom_b, cases[i].exc_b);
		struct hm_sbuf out = { 0 };
		size_t n = 99;

		assert_int_equal(hm_policy_diff(&out, &n, a, b), 0);
		if (strcmp(hm_sbuf_str(&out), cases[i].text) ||
		    n != cases[i].changes)
			fprintf(stderr, "case '%s': %zu changes:\n%s",
				cases[i].name, n, hm_sbuf_str(&out));
		assert_string_equal(hm_sbuf_str(&out), cases[i].text);
		assert_int_equal(n, cases[i].changes);
		hm_sbuf_free(&out);
		hm_model_free(a);
		hm_model_free(b);
	}
}

/* A to B and B to A are mirror images: every '+' line is a '-' line. */
static void test_symmetric(void **state)
{
	struct hm_model *a = load("<kernel> /a\nuse_profile 1\n"
				  "file read /x\nfile write /z\n", "");
	struct hm_model *b = load("<kernel> /a\nuse_profile 1\n"
				  "file read /y\n", "");
	struct hm_sbuf ab = { 0 }, ba = { 0 };
	size_t n1, n2;

	(void)state;
	assert_int_equal(hm_policy_diff(&ab, &n1, a, b), 0);
	assert_int_equal(hm_policy_diff(&ba, &n2, b, a), 0);
	assert_int_equal(n1, 3);
	assert_int_equal(n2, 3);
	for (char *p = ab.s; *p; p++)
		if (*p == '+')
			*p = '-';
		else if (*p == '-' && (p == ab.s || p[-1] == '\n'))
			*p = '+';
	assert_string_equal(ab.s, "<kernel> /a\n+file read /x\n"
				  "-file read /y\n+file write /z\n\n");
	assert_string_equal(ba.s, "<kernel> /a\n+file read /x\n"
				  "-file read /y\n+file write /z\n\n");
	hm_sbuf_free(&ab);
	hm_sbuf_free(&ba);
	hm_model_free(a);
	hm_model_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_symmetric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
