// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_util.c - diagnostics (bounded, counted) and saving a set of files
 * as one: the states a crash can leave and what recovery makes of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/common.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The file's text, or "" when it does not exist. */
static const char *get(const char *name)
{
	static char buf[256];
	char p[128];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "r");
	if (!f)
		return "";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/hm-util-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_write_set(void **state)
{
	struct hm_file_out f[] = {
		{ "a.conf", "new a\n", 6 },
		{ "b.conf", NULL, 0 },		/* left alone */
		{ "c.conf", "new c\n", 6 },
	};

	(void)state;
	put("a.conf", "old a\n");
	put("b.conf", "old b\n");
	assert_int_equal(hm_atomic_write_set(dir, f, 3), 0);
	assert_string_equal(get("a.conf"), "new a\n");
	assert_string_equal(get("b.conf"), "old b\n");
	assert_string_equal(get("c.conf"), "new c\n");
	assert_string_equal(get(HM_COMMIT_JOURNAL), "");
	assert_string_equal(get(".a.conf.hmnew"), "");
	assert_int_equal(hm_atomic_recover(dir), 0);
}

/* Is NAME exactly @len bytes of @text? */
static bool holds(const char *name, const char *text, size_t len)
{
	char p[128];
	char *buf = malloc(len + 1);
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "r");
	if (!f || !buf) {
		free(buf);
		if (f)
			fclose(f);
		return false;
	}
	n = fread(buf, 1, len + 1, f);
	fclose(f);
	n = n == len && !memcmp(buf, text, len);
	free(buf);
	return n;
}

static ino_t inode_of(const char *name)
{
	char p[128];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) ? 0 : st.st_ino;
}

/* The largest file of a big set is written on a thread of its own: it is
 * committed with the others, and left alone when it did not change. */
static void test_write_set_large(void **state)
{
	size_t big = 3u << 20, mid = 3u << 19;
	char *b = malloc(big), *m = malloc(mid);
	struct hm_file_out f[] = {
		{ "s.conf", "s 1\n", 4 },
		{ "big.conf", b, big },
		{ "mid.conf", m, mid },
	};
	ino_t ino;

	(void)state;
	assert_non_null(b);
	assert_non_null(m);
	for (size_t i = 0; i < big; i++)
		b[i] = (char)('a' + i % 26);
	for (size_t i = 0; i < mid; i++)
		m[i] = (char)('A' + i % 26);
	put("big.conf", "old\n");
	assert_int_equal(hm_atomic_write_set(dir, f, 3), 0);
	assert_true(holds("big.conf", b, big));
	assert_true(holds("mid.conf", m, mid));
	assert_string_equal(get("s.conf"), "s 1\n");
	assert_string_equal(get(".big.conf.hmnew"), "");
	ino = inode_of("big.conf");
	f[0].text = "s 2\n";
	assert_int_equal(hm_atomic_write_set(dir, f, 3), 0);
	assert_string_equal(get("s.conf"), "s 2\n");
	assert_int_equal(inode_of("big.conf"), ino);	/* not rewritten */
	assert_true(holds("big.conf", b, big));
	assert_string_equal(get(HM_COMMIT_JOURNAL), "");
	free(b);
	free(m);
}

/* Killed before the commit point: new files written, no journal. */
static void test_crash_before_commit(void **state)
{
	(void)state;
	put("a.conf", "old a\n");
	put(".a.conf.hmnew", "new a\n");
	assert_int_equal(hm_atomic_recover(dir), 0);
	assert_string_equal(get("a.conf"), "old a\n");
	assert_string_equal(get(".a.conf.hmnew"), "");
}

/* Killed after the commit point, one file renamed, one not. */
static void test_crash_after_commit(void **state)
{
	(void)state;
	put("a.conf", "new a\n");		/* already renamed */
	put("c.conf", "old c\n");
	put(".c.conf.hmnew", "new c\n");
	put(HM_COMMIT_JOURNAL, "a.conf\nc.conf\n");
	assert_int_equal(hm_atomic_recover(dir), 1);
	assert_string_equal(get("a.conf"), "new a\n");
	assert_string_equal(get("c.conf"), "new c\n");
	assert_string_equal(get(HM_COMMIT_JOURNAL), "");
	/* a journal naming a path outside the directory is not followed */
	put(HM_COMMIT_JOURNAL, "../escape\n");
	assert_int_equal(hm_atomic_recover(dir), 1);
}

/* hm_memcount() against a byte loop: every length up to past one flush of
 * its lanes (255 steps of 16), every offset, sparse and dense matches. */
static void test_memcount(void **state)
{
	static unsigned char buf[4200];
	unsigned int seed = 7;

	(void)state;
	for (size_t len = 0; len < sizeof(buf); len += len < 64 ? 1 : 61)
		for (int dense = 0; dense < 2; dense++) {
			size_t want = 0, off = len % 13;

			for (size_t i = 0; i + off < sizeof(buf) && i < len;
			     i++) {
				seed = seed * 1103515245u + 12345u;
				buf[off + i] = (seed >> 16) % (dense ? 2 : 40) ?
					       'x' : '"';
				want += buf[off + i] == '"';
			}
			if (off + len > sizeof(buf))
				continue;
			assert_int_equal(hm_memcount(buf + off, len, '"'),
					 want);
		}
	memset(buf, '"', sizeof(buf));
	assert_int_equal(hm_memcount(buf, sizeof(buf), '"'), sizeof(buf));
}

static void test_diag_bounded(void **state)
{
	struct hm_diag d = { .max_kept = 3 };
	char *s;

	(void)state;
	for (int i = 0; i < 10; i++)
		hm_diag_add(&d, HM_DIAG_ERROR, "f.conf", (unsigned long)i + 1,
			    "bad %d", i);
	hm_diag_add(&d, HM_DIAG_WARNING, NULL, 0, "w");
	assert_int_equal(d.n_msgs, 3);
	assert_int_equal(d.n_errors, 10);
	assert_int_equal(d.n_warnings, 1);
	assert_int_equal(d.n_dropped, 8);
	s = hm_diag_format(&d.msgs[1]);
	assert_string_equal(s, "f.conf:2: error: bad 1");
	free(s);
	hm_diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_set_large, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_crash_before_commit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_crash_after_commit, setup,
						teardown),
		cmocka_unit_test(test_diag_bounded),
		cmocka_unit_test(test_memcount),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
