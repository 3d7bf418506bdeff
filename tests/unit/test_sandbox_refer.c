// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sandbox_refer.c - moves to another directory in the rulesets
 * (docs/SANDBOX.md "Moving a file to another directory"): Landlock
 * refuses, EXDEV, a rename or link that gives the file a right at its
 * destination it lacked at its source, in any layer, so each ruleset the
 * build makes (a domain's own, the union at the top) gives a move's
 * source the rights it grants on the destination and the directories
 * above it: the file rights for a file, every right for a directory;
 * until nothing changes (a chain of moves).  No move, or a source that
 * has the rights already: nothing added.  The real kernel's answer is
 * t_sandbox_refer.sh's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/sandbox.h"
#include "../../sandbox/landlock_abi.h"
#include "../../sandbox/internal.h"
#include "../../sandbox/table.h"
#include "policy_fixture.h"

#define RM	HM_LL_FS_REMOVE_FILE
#define MK	HM_LL_FS_MAKE_REG
#define REFER	HM_LL_FS_REFER
#define RD	HM_LL_FS_READ_FILE
#define WR	HM_LL_FS_WRITE_FILE
#define TR	HM_LL_FS_TRUNCATE

/* Nothing here exists: the build looks at no object but programs. */
static const struct hm_sbx_opts opts = { .abi = 3,
					 .root = "/nonexistent-hm-refer" };

static const struct hm_domain *dom(struct hm_model *m, const char *name)
{
	struct hm_domain *d = NULL;

	hm_model_domain(m, name, strlen(name), false, &d);
	assert_non_null(d);
	return d;
}

/* The table of @text's first domain, its summary in @s. */
static void *table(const char *text, struct hm_model **m,
		   struct hm_sbx_summary *s)
{
	size_t size;
	void *blob;

	*m = parse(text);
	assert_int_equal(hm_sbx_table(*m, (*m)->domains[0], &opts, &blob,
				      &size, s), 0);
	assert_true(hm_sbx_table_check(blob, size));
	return blob;
}

/* The rights table domain @k's rule on @path holds (0: no rule). */
static uint64_t on(const void *blob, uint32_t k, const char *path)
{
	const struct hm_sbx_tdom *d = hm_sbx_tdom(blob, k);

	for (uint32_t i = 0; i < d->n_rules; i++) {
		const struct hm_sbx_trule *r = hm_sbx_trule(blob,
							    d->rule_first + i);

		if (r->type != HM_SBX_RULE_PORT &&
		    !strcmp(hm_sbx_tstr(blob, r->path), path))
			return r->access;
	}
	return 0;
}

/* A qmgr: the child domain moves in/ -> act/ and reads and writes act/'s
 * files; its parent may also truncate them.  The child's own ruleset
 * adds read and write on in/, the union at the top truncate too. */
static void test_layer_and_union(void **state)
{
	struct hm_sbx_summary s;
	struct hm_model *m;
	void *blob = table("<kernel> /a\n"
			   "file execute /bin/b\n"
			   "file truncate /act/\\*\n"
			   "\n<kernel> /a /bin/b\n"
			   "file rename /in/\\* /act/\\*\n"
			   "file read/write /act/\\*\n", &m, &s);

	(void)state;
	assert_int_equal(((const struct hm_sbx_thdr *)blob)->n_domains, 2);
	assert_string_equal(hm_sbx_tstr(blob, hm_sbx_tdom(blob, 1)->name),
			    "<kernel> /a /bin/b");
	assert_int_equal(on(blob, 0, "/in"), RM | REFER | RD | WR | TR);
	assert_int_equal(on(blob, 0, "/act"), MK | REFER | RD | WR | TR);
	assert_int_equal(on(blob, 1, "/in"), RM | REFER | RD | WR);
	assert_int_equal(on(blob, 1, "/act"), MK | REFER | RD | WR);
	assert_int_equal(s.widened[HM_SBX_W_REFER], 1);
	free(blob);
	hm_model_free(m);
}

/* What --explain prints: the top ruleset's additions, by move. */
static void test_widened_moves(void **state)
{
	struct hm_model *m = parse("<kernel> /a\n"
				   "file execute /bin/b\n"
				   "file truncate /act/\\*\n"
				   "\n<kernel> /a /bin/b\n"
				   "file rename /in/\\* /act/\\*\n"
				   "file read/write /act/\\*\n");
	struct hm_sbx_widened_move *v;
	size_t n;

	(void)state;
	assert_int_equal(hm_sbx_widened_moves(m, dom(m, "<kernel> /a"), &opts,
					      &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].from, "/in");
	assert_string_equal(v[0].to, "/act");
	assert_int_equal(v[0].added, RD | WR | TR);
	hm_sbx_widened_moves_free(v, n);
	/* the child's own: what its ruleset adds, no truncate */
	assert_int_equal(hm_sbx_widened_moves(m, dom(m, "<kernel> /a /bin/b"),
					      &opts, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].added, RD | WR);
	hm_sbx_widened_moves_free(v, n);
	hm_model_free(m);
}

/* No move to another directory, or a source that has the destination's
 * rights already (an ancestor both share): nothing added. */
static void test_no_move(void **state)
{
	struct hm_sbx_summary s;
	struct hm_model *m;
	void *blob = table("<kernel> /a\n"
			   "file rename /dir/a /dir/b\n"	/* same parent */
			   "file unlink /in/x\n"
			   "file read/write /act/\\*\n"
			   "file rename /srv/in/\\* /srv/act/\\*\n"
			   "file read /srv/\\*\n", &m, &s);
	struct hm_sbx_widened_move *v;
	size_t n;

	(void)state;
	assert_int_equal(on(blob, 0, "/dir"), RM | MK);
	assert_int_equal(on(blob, 0, "/in"), RM);
	assert_int_equal(on(blob, 0, "/srv/in"), RM | REFER);
	assert_int_equal(on(blob, 0, "/srv/act"), MK | REFER);
	assert_int_equal(s.widened[HM_SBX_W_REFER], 0);
	assert_int_equal(hm_sbx_widened_moves(m, m->domains[0], &opts, &v,
					      &n), 0);
	assert_int_equal(n, 0);
	free(v);
	free(blob);
	hm_model_free(m);
}

/* The destination's rights are its own and those of the directories
 * above it; a link is a move too. */
static void test_ancestors_and_link(void **state)
{
	struct hm_sbx_summary s;
	struct hm_model *m;
	void *blob = table("<kernel> /a\n"
			   "file link /in/\\* /srv/act/\\*\n"
			   "file write /srv/\\*\n"
			   "file execute /srv/act/tool\n", &m, &s);

	(void)state;
	/* /srv/act's: refer, make_reg; /srv's write; the tool's own
	 * execute and read are on a file, not above the destination */
	assert_int_equal(on(blob, 0, "/in"), REFER | WR);
	assert_int_equal(s.widened[HM_SBX_W_REFER], 1);
	free(blob);
	hm_model_free(m);
}

/* A directory carries every right: remove and make, listing too. */
static void test_directory(void **state)
{
	struct hm_sbx_summary s;
	struct hm_model *m;
	void *blob = table("<kernel> /a\n"
			   "file rename /in/d/ /act/d/\n"
			   "file read /act/\n"
			   "file create /act/\\* 0600\n", &m, &s);

	(void)state;
	assert_int_equal(on(blob, 0, "/in"), HM_LL_FS_REMOVE_DIR | REFER |
			 HM_LL_FS_MAKE_DIR | HM_LL_FS_READ_DIR | MK);
	free(blob);
	hm_model_free(m);
}

/* in/ -> mid/ -> out/, out/'s files read: mid/ gets read, then in/ (a
 * second round: mid/ had nothing when in/'s move was looked at). */
static void test_chain(void **state)
{
	struct hm_sbx_summary s;
	struct hm_model *m;
	void *blob = table("<kernel> /a\n"
			   "file rename /in/\\* /mid/\\*\n"
			   "file rename /mid/\\* /out/\\*\n"
			   "file read /out/\\*\n", &m, &s);

	(void)state;
	assert_int_equal(on(blob, 0, "/mid"), MK | RM | REFER | RD);
	assert_int_equal(on(blob, 0, "/in"), RM | REFER | RD);
	assert_int_equal(s.widened[HM_SBX_W_REFER], 2);
	free(blob);
	hm_model_free(m);
}

/* ABI 1 has no fs.refer: every move to another directory is refused,
 * so nothing is widened for one. */
static void test_abi1(void **state)
{
	struct hm_model *m = parse("<kernel> /a\n"
				   "file rename /in/\\* /act/\\*\n"
				   "file read/write /act/\\*\n");
	struct hm_sbx_opts o = opts;
	struct hm_sbx_summary s;
	size_t size;
	void *blob;

	(void)state;
	o.abi = 1;
	assert_int_equal(hm_sbx_table(m, m->domains[0], &o, &blob, &size, &s),
			 0);
	assert_int_equal(on(blob, 0, "/in"), RM);
	assert_int_equal(s.widened[HM_SBX_W_REFER], 0);
	free(blob);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layer_and_union),
		cmocka_unit_test(test_widened_moves),
		cmocka_unit_test(test_no_move),
		cmocka_unit_test(test_ancestors_and_link),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_abi1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
