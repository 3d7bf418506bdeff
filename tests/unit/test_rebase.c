// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_rebase.c - a long-running learner saving into a policy edited
 * under it (hm_model_rebase), and the per-node learned marks that keep a
 * re-learn from counting events twice (learned.h).  Policies are written
 * as 2.6 text, the result compared as 2.6 text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy_fixture.h"

#include "histmac/history.h"
#include "histmac/model.h"
#include "histmac/policy_io.h"
#include "histmac/rebase.h"

/* The domain policy without its header line, for comparison. */
static char *text(const struct hm_model *m)
{
	char *s;
	size_t len;

	assert_int_equal(hm_policy_format_domain(m, HM_DIALECT_26, &s, &len,
						 NULL), 0);
	memmove(s, strchr(s, '\n') + 1, strlen(strchr(s, '\n') + 1) + 1);
	return s;
}

#define K "<kernel>\nuse_profile 1\n\n"
#define A "<kernel> /a\nuse_profile 1\n\n"

static const struct {
	const char *what;
	const char *base;	/* loaded or last saved */
	const char *cur;	/* base + what the learner learned since */
	const char *disk;	/* base as the administrator edited it */
	const char *want;	/* what the learner saves */
} cases[] = {
	{ "no edit: the new entry is saved",
	  K A "file read /x\n\n",
	  K A "file read /x\nfile read /y\n\n",
	  K A "file read /x\n\n",
	  K A "file read /x\nfile read /y\n\n" },
	{ "a deleted entry stays deleted",
	  K A "file read /x\n\n",
	  K A "file read /x\nfile read /y\n\n",
	  K A "\n",
	  K A "file read /y\n\n" },
	{ "a profile set to enforcing stays",
	  K A "file read /x\n\n",
	  K A "file read /x\nfile read /y\n\n",
	  K "<kernel> /a\nuse_profile 3\n\nfile read /x\n\n",
	  K "<kernel> /a\nuse_profile 3\n\nfile read /x\nfile read /y\n\n" },
	{ "a profile lowered to learning stays",
	  K "<kernel> /a\nuse_profile 3\n\nfile read /x\n\n",
	  K "<kernel> /a\nuse_profile 3\n\nfile read /x\n\n",
	  K A "file read /x\n\n",
	  K A "file read /x\n\n" },
	{ "a removed domain with nothing new stays removed",
	  K A "file read /x\n\n",
	  K A "file read /x\n\n",
	  K,
	  K },
	{ "a removed domain that learned more comes back with only that",
	  K A "file read /x\n\n",
	  K A "file read /x\nfile read /y\n\n",
	  K,
	  K A "file read /y\n\n" },
	{ "a new domain is added with its profile",
	  K,
	  K "<kernel> /b\nuse_profile 2\n\nfile read /z\n\n",
	  K,
	  K "<kernel> /b\nuse_profile 2\n\nfile read /z\n\n" },
	{ "new permission bits of a kept entry",
	  K A "file read /x\n\n",
	  K A "file read/write /x\n\n",
	  K A "\n",
	  K A "file write /x\n\n" },
};

static void test_rebase_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hm_model *base = parse(cases[i].base);
		struct hm_model *cur = parse(cases[i].cur);
		struct hm_model *disk = parse(cases[i].disk);
		struct hm_model *want = parse(cases[i].want);
		char *got_s, *want_s;

		assert_int_equal(hm_model_rebase(disk, cur, base), 0);
		got_s = text(disk);
		want_s = text(want);
		if (strcmp(got_s, want_s))
			fail_msg("%s:\n--- got\n%s--- want\n%s", cases[i].what,
				 got_s, want_s);
		free(got_s);
		free(want_s);
		hm_model_free(base);
		hm_model_free(cur);
		hm_model_free(disk);
		hm_model_free(want);
	}
}

/* A copy is equal to its original, marks included. */
static void test_copy(void **state)
{
	struct hm_model *m = parse("# histmac: learned - 100.002:7\n"
				   "# histmac: learned web1 50.000:1\n"
				   K A "file read /x\n\n");
	struct hm_model *c;
	char *a, *b;

	(void)state;
	assert_int_equal(hm_model_copy(m, &c), 0);
	a = text(m);
	b = text(c);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "# histmac: learned - 100.002:7\n"
				  "# histmac: learned web1 50.000:1\n"));
	free(a);
	free(b);
	hm_model_free(m);
	hm_model_free(c);
}

/* Set the stamps of @m's entries of domain "<kernel> /a", in order. */
static void stamp(struct hm_model *m, const struct hm_acl_hist *h, size_t n,
		  uint64_t quiet)
{
	struct hm_domain *d = NULL;
	size_t i = 0;

	assert_int_equal(hm_model_domain(m, "<kernel> /a", 11, false, &d), 0);
	assert_non_null(d);
	d->quiet_events = quiet;
	for (struct hm_acl_head *e = d->acl; e && i < n; e = e->next)
		e->hist = h[i++];
}

/* The stamps line of /a's entries (histmac_entries.conf without its
 * header comment). */
static char *stamps(const struct hm_model *m)
{
	struct hm_file_out f;
	char *s;

	assert_int_equal(hm_history_text(m, &f), 0);
	assert_non_null(f.text);
	s = strdup(strstr(f.text, "<kernel> /a"));
	free((char *)f.text);
	return s;
}

/* A learner's stamps reach the disk through a rebase: its own uses are
 * not added twice to what it saved before, what it learned since keeps
 * its times, and a copy (the next base) keeps them all. */
static void test_rebase_stamps(void **state)
{
	static const struct hm_acl_hist saved[] = { { 100, 0, 2, 150 } };
	static const struct hm_acl_hist now[] = {
		{ 100, 0, 5, 300 }, { 200, 0, 1, 200 },
	};
	struct hm_model *base = parse(K A "file read /x\n\n");
	struct hm_model *disk = parse(K A "file read /x\n\n");
	struct hm_model *cur = parse(K A "file read /x\nfile read /y\n\n");
	struct hm_model *copy;
	char *got;

	(void)state;
	stamp(base, saved, 1, 3);
	stamp(disk, saved, 1, 3);
	stamp(cur, now, 2, 0);
	assert_int_equal(hm_model_rebase(disk, cur, base), 0);
	got = stamps(disk);
	assert_string_equal(got, "<kernel> /a\nquiet 0\n"
			    "100 0 5 300 file read /x\n"
			    "200 0 1 200 file read /y\n");
	free(got);
	assert_int_equal(hm_model_copy(disk, &copy), 0);
	got = stamps(copy);
	assert_string_equal(got, "<kernel> /a\nquiet 0\n"
			    "100 0 5 300 file read /x\n"
			    "200 0 1 200 file read /y\n");
	free(got);
	hm_model_free(copy);
	hm_model_free(base);
	hm_model_free(disk);
	hm_model_free(cur);
}

/* Events at or before a node's loaded mark were counted before. */
static void test_learned_counted(void **state)
{
	static const struct {
		const char *node;
		int64_t sec;
		uint32_t msec;
		uint64_t serial;
		bool counted;
	} ev[] = {
		{ NULL, 100, 2, 7, true },	/* the mark itself */
		{ NULL, 100, 2, 6, true },
		{ NULL, 99, 999, 100, true },
		{ NULL, 100, 2, 8, false },
		{ NULL, 100, 3, 0, false },
		{ "web1", 50, 0, 1, true },
		{ "web1", 50, 0, 2, false },
		{ "web2", 1, 0, 1, false },	/* a node with no mark */
		{ "bad node", 1, 0, 1, false },	/* never kept */
	};
	struct hm_model *m = parse("# histmac: learned - 100.002:7\n"
				   "# histmac: learned web1 50.000:1\n" K);
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		struct hm_event e = { .sec = ev[i].sec, .msec = ev[i].msec,
				      .serial = ev[i].serial };

		if (ev[i].node)
			e.node = (struct hm_bytes){ ev[i].node,
						    strlen(ev[i].node) };
		if (hm_learned_counted(m, &e) != ev[i].counted)
			fail_msg("event %zu: counted %d", i, !ev[i].counted);
		assert_int_equal(hm_learned_note(m, &e), 0);
	}
	/* the saved marks: the newest of each keepable node */
	s = text(m);
	assert_non_null(strstr(s, "# histmac: learned - 100.003:0\n"
				  "# histmac: learned web1 50.000:2\n"
				  "# histmac: learned web2 1.000:1\n"));
	assert_null(strstr(s, "bad node"));
	free(s);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rebase_table),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_rebase_stamps),
		cmocka_unit_test(test_learned_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
