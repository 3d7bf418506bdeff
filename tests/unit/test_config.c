// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_config.c - histmac.conf parsing: what is accepted, and that every
 * refused line is reported with its file and line number.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/config.h"

static const char *const keys[] = { "policy_dir", "enforce_marks",
				     "save_interval", NULL };

static struct hm_config *parse(const char *text, struct hm_diag *d)
{
	struct hm_config *c = NULL;

	assert_int_equal(hm_config_parse(text, strlen(text), "t.conf", keys,
					 d, &c), 0);
	assert_non_null(c);
	return c;
}

/* The text of message @i, which the caller frees. */
static char *msg(const struct hm_diag *d, size_t i)
{
	assert_true(i < d->n_msgs);
	return hm_diag_format(&d->msgs[i]);
}

static void test_accepts(void **state)
{
	struct hm_diag d = { 0 };
	struct hm_config *c;
	const struct hm_config_item *it;
	size_t n;

	(void)state;
	c = parse("# comment\n\n  policy_dir=/var/lib/histmac/policy  \r\n"
		  "\tenforce_marks =  /srv  /var/www\n"
		  "   # indented comment\nsave_interval = 60", &d);
	assert_int_equal(d.n_errors, 0);
	assert_string_equal(hm_config_get(c, "policy_dir"),
			    "/var/lib/histmac/policy");
	assert_string_equal(hm_config_get(c, "enforce_marks"),
			    "/srv  /var/www");
	assert_string_equal(hm_config_get(c, "save_interval"), "60");
	it = hm_config_items(c, &n);
	assert_int_equal(n, 3);
	assert_int_equal(it[0].line, 3);
	assert_int_equal(it[1].line, 4);
	assert_int_equal(it[2].line, 6);
	hm_config_free(c);
	hm_diag_free(&d);
}

static void test_refuses_with_line(void **state)
{
	static const char *const want[] = {
		"t.conf:1: error: expected 'key = value'",
		"t.conf:2: error: unknown key: 'policy_directory'",
		"t.conf:3: error: bad key (lower-case letters, digits and '_'): 'Policy'",
		"t.conf:5: error: key given twice: 'policy_dir'",
		"t.conf:6: error: empty value: 'save_interval'",
		"t.conf:7: error: control character in line",
		"t.conf:8: error: missing key before '='",
	};
	struct hm_diag d = { 0 };
	struct hm_config *c;

	(void)state;
	c = parse("policy_dir /x\n"
		  "policy_directory = /x\n"
		  "Policy = /x\n"
		  "policy_dir = /first\n"
		  "policy_dir = /second\n"
		  "save_interval =\n"
		  "enforce_marks = /a\033b\n"
		  "= /x\n", &d);
	assert_int_equal(d.n_errors, HM_ARRAY_SIZE(want));
	for (size_t i = 0; i < HM_ARRAY_SIZE(want); i++) {
		char *s = msg(&d, i);

		assert_string_equal(s, want[i]);
		free(s);
	}
	/* the first of two stays; refused lines set nothing */
	assert_string_equal(hm_config_get(c, "policy_dir"), "/first");
	assert_null(hm_config_get(c, "save_interval"));
	assert_null(hm_config_get(c, "enforce_marks"));
	hm_config_free(c);
	hm_diag_free(&d);
}

static void test_nul_and_long_lines(void **state)
{
	static const char text[] = "policy_dir = /a\0b\nsave_interval = 5\n";
	struct hm_diag d = { 0 };
	struct hm_config *c = NULL;
	size_t big = HM_CONFIG_MAX_LINE + 10;
	char *s = malloc(big + 32);
	char *m;

	(void)state;
	assert_int_equal(hm_config_parse(text, sizeof(text) - 1, "t.conf",
					 keys, &d, &c), 0);
	assert_int_equal(d.n_errors, 1);
	assert_null(hm_config_get(c, "policy_dir"));
	assert_string_equal(hm_config_get(c, "save_interval"), "5");
	hm_config_free(c);
	hm_diag_free(&d);

	assert_non_null(s);
	memset(s, 'a', big);
	memcpy(s, "policy_dir = /", 14);
	strcpy(s + big, "\nsave_interval = 5\n");
	c = parse(s, &d);
	m = msg(&d, 0);
	assert_string_equal(m, "t.conf:1: error: line too long");
	assert_string_equal(hm_config_get(c, "save_interval"), "5");
	free(m);
	free(s);
	hm_config_free(c);
	hm_diag_free(&d);
}

static void test_read_file(void **state)
{
	char path[] = "/tmp/hm-config-XXXXXX";
	struct hm_diag d = { 0 };
	struct hm_config *c = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "save_interval = 7\n", 18), 18);
	assert_int_equal(ftruncate(fd, 18), 0);
	assert_int_equal(hm_config_read(path, keys, &d, &c), 0);
	assert_string_equal(hm_config_get(c, "save_interval"), "7");
	hm_config_free(c);
	/* too large: refused before parsing, not cut */
	assert_int_equal(ftruncate(fd, HM_CONFIG_MAX_SIZE + 1), 0);
	assert_int_equal(hm_config_read(path, keys, &d, &c), -EFBIG);
	close(fd);
	unlink(path);
	assert_int_equal(hm_config_read(path, keys, &d, &c), -ENOENT);
	assert_int_equal(hm_config_read("/", keys, &d, &c), -EISDIR);
	assert_int_equal(d.n_errors, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_refuses_with_line),
		cmocka_unit_test(test_nul_and_long_lines),
		cmocka_unit_test(test_read_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
