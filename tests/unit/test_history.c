// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_history.c - the entries' stamps (struct hm_acl_hist): how two
 * hosts' stamps combine, and histmac_entries.conf written with a policy
 * and read back onto the same entries (one TOMOYO says in two lines, a
 * script's execute and read, too), a bad line (or one longer than a
 * policy line) reported as FILE:LINE and skipped, lines of entries the
 * policy lacks ignored.
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

#include "histmac/history.h"
#include "histmac/model.h"
#include "histmac/policy_io.h"

static struct hm_acl_head *add_path(struct hm_model *m, struct hm_domain *d,
				    unsigned perm, const char *path)
{
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = perm } };
	struct hm_acl_head *in = NULL;

	assert_int_equal(hm_model_intern(m, path, strlen(path), &e.name.name),
			 0);
	assert_true(hm_domain_add(m, d, &e.head, &in) >= 0);
	return in;
}

/* Union of two hosts: learned the earlier, uses summed, used the later;
 * grown only when the union got its last permission after learning. */
static void test_union(void **state)
{
	static const struct {
		struct hm_acl_hist a, b;
		uint32_t pa, pb;
		struct hm_acl_hist want;
	} cases[] = {
		/* same bits: the first host to have them all */
		{ { 100, 0, 2, 150 }, { 200, 0, 3, 250 }, 1, 1,
		  { 100, 0, 5, 250 } },
		{ { 100, 300, 1, 300 }, { 200, 0, 1, 200 }, 3, 3,
		  { 100, 200, 2, 300 } },
		/* a new entry from one host keeps its own history */
		{ { 0, 0, 0, 0 }, { 200, 250, 4, 260 }, 0, 3,
		  { 200, 250, 4, 260 } },
		/* bits only together: when the later host had its part */
		{ { 100, 0, 1, 100 }, { 300, 0, 1, 300 }, 1, 2,
		  { 100, 300, 2, 300 } },
		/* unknown times do not win */
		{ { 0, 0, 7, 0 }, { 200, 0, 1, 200 }, 1, 1,
		  { 200, 0, 8, 200 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hm_acl_hist h = cases[i].a;

		hm_acl_hist_union(&h, cases[i].pa, &cases[i].b, cases[i].pb);
		assert_int_equal(h.learned, cases[i].want.learned);
		assert_int_equal(h.grown, cases[i].want.grown);
		assert_int_equal(h.uses, cases[i].want.uses);
		assert_int_equal(h.used, cases[i].want.used);
	}
}

static void remove_dir(const char *dir)
{
	static const char *const files[] = {
		"domain_policy.conf", "exception_policy.conf", "rewrite.conf",
		"profile.conf", "manager.conf", HM_HISTORY_FILE,
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p;

		assert_true(asprintf(&p, "%s/%s", dir, files[i]) > 0);
		unlink(p);
		free(p);
	}
	assert_int_equal(rmdir(dir), 0);
}

static void test_roundtrip(void **state)
{
	char dir[] = "/tmp/hm-test-history.XXXXXX";
	struct hm_model *m = hm_model_new(), *n = hm_model_new();
	struct hm_domain *d, *e;
	struct hm_acl_head *a, *b, *c;
	struct hm_diag diag = { 0 };
	char *path, *line = NULL;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_true(hm_model_domain(m, "<kernel> /usr/bin/x", 19, true, &d) >= 0);
	a = add_path(m, d, 1u << HM_FILE_READ, "/etc/x");
	b = add_path(m, d, 1u << HM_FILE_WRITE, "/tmp/y");
	/* no one line of TOMOYO 1.8 says execute and read */
	c = add_path(m, d, 1u << HM_FILE_EXECUTE | 1u << HM_FILE_READ,
		     "/etc/init.d/x");
	a->hist = (struct hm_acl_hist){ 1000, 2000, 7, 3000 };
	b->hist = (struct hm_acl_hist){ 1500, 0, 0, 0 };
	c->hist = (struct hm_acl_hist){ 1200, 0, 5, 2500 };
	d->quiet_events = 42;
	assert_int_equal(hm_policy_save_dir(m, dir, HM_DIALECT_26, 0, NULL), 0);

	/* a bad line and an entry the policy lacks, appended */
	assert_true(asprintf(&path, "%s/%s", dir, HM_HISTORY_FILE) > 0);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("1 2 x 4 file read /etc/x\n9 9 9 9 file read /gone\n", f);
	fputs("1 1 1 1 file read /", f);
	for (int i = 0; i < 70000; i++)
		fputc('z', f);
	fputc('\n', f);
	fclose(f);

	assert_int_equal(hm_policy_load_dir(n, dir, -1, &diag), 0);
	assert_true(hm_model_domain(n, "<kernel> /usr/bin/x", 19, false, &e) >= 0);
	assert_non_null(e);
	assert_int_equal(e->quiet_events, 42);
	for (struct hm_acl_head *h = e->acl; h; h = h->next) {
		const struct hm_acl_hist *w = h->perm == 1u << HM_FILE_READ ?
					      &a->hist :
					      h->perm == 1u << HM_FILE_WRITE ?
					      &b->hist : &c->hist;

		assert_memory_equal(&h->hist, w, sizeof(*w));
	}
	assert_int_equal(diag.n_warnings, 2);
	line = hm_diag_format(&diag.msgs[0]);
	assert_non_null(strstr(line, HM_HISTORY_FILE ":8: warning:"));
	free(line);
	line = hm_diag_format(&diag.msgs[1]);
	assert_non_null(strstr(line, HM_HISTORY_FILE ":10: warning: line "
			       "longer than"));

	free(line);
	hm_diag_free(&diag);
	free(path);
	remove_dir(dir);
	hm_model_free(m);
	hm_model_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
