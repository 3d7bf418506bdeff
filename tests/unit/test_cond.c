// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_cond.c - conditions as parsed from policy lines and evaluated:
 * what the context knows decides, and an item it cannot answer makes the
 * condition fail ("=" and "!=" alike); which items the enforcer cannot
 * evaluate (hm_acl_unevaluable()).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "histmac/decide.h"
#include "histmac/model.h"
#include "histmac/policy_io.h"

/* The entry of ACL line @line, parsed alone into a fresh domain of @m. */
static const struct hm_acl_head *entry(struct hm_model *m, const char *line)
{
	static unsigned long n;
	char name[64];
	struct hm_domain *d;
	int len = snprintf(name, sizeof(name), "<kernel> /t%lu", ++n);

	assert_true(hm_model_domain(m, name, (size_t)len, true, &d) >= 0);
	if (hm_acl_parse_line(m, d, line, strlen(line), HM_DIALECT_26, "t", 1,
			      NULL) != 1)
		fail_msg("cannot parse '%s'", line);
	assert_non_null(d->acl);
	return d->acl;
}

static bool holds(struct hm_model *m, const char *line,
		  const struct hm_cond_ctx *ctx)
{
	return hm_cond_holds(entry(m, line)->cond, ctx);
}

static struct hm_cond_ctx file_of(uint64_t uid, uint32_t mode)
{
	return (struct hm_cond_ctx){
		.has_path1 = true,
		.path1 = { .uid = uid, .gid = uid, .ino = 7, .mode = mode,
			   .dev_major = 0, .dev_minor = 42 },
	};
}

static void test_path1(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_cond_ctx root = file_of(0, S_IFREG | 0644);
	struct hm_cond_ctx nobody = file_of(65534, S_IFREG | 04755);
	struct hm_cond_ctx none = { .has_task = true };
	struct hm_cond_ctx dir = file_of(0, S_IFDIR | 0755);

	(void)state;
	assert_true(holds(m, "file read /x path1.uid=0", &root));
	assert_false(holds(m, "file read /x path1.uid=0", &nobody));
	/* not known: fails, and so does its negation */
	assert_false(holds(m, "file read /x path1.uid=0", &none));
	assert_false(holds(m, "file read /x path1.uid!=0", &none));
	assert_false(holds(m, "file read /x path1.uid=0", NULL));
	assert_true(holds(m, "file read /x path1.uid!=0", &nobody));
	assert_true(holds(m, "file read /x path1.uid=1-70000", &nobody));
	assert_true(holds(m, "file read /x path1.gid=65534", &nobody));
	assert_true(holds(m, "file read /x path1.ino=7", &root));
	assert_true(holds(m, "file read /x path1.dev_minor=42", &root));
	/* perm: the permission bits; constants: type and mode bits */
	assert_true(holds(m, "file read /x path1.perm=0644", &root));
	assert_false(holds(m, "file read /x path1.perm=0644", &nobody));
	assert_true(holds(m, "file read /x path1.type=file", &root));
	assert_false(holds(m, "file read /x path1.type=file", &dir));
	assert_true(holds(m, "file read /x path1.type=directory", &dir));
	assert_true(holds(m, "file read /x path1.perm=setuid", &nobody));
	assert_false(holds(m, "file read /x path1.perm=setuid", &root));
	assert_true(holds(m, "file read /x path1.perm!=setuid", &root));
	assert_true(holds(m, "file read /x path1.perm=others_read", &root));
	/* a constant where it means nothing: cannot evaluate */
	assert_false(holds(m, "file read /x path1.uid=file", &root));
	assert_false(holds(m, "file read /x path1.uid!=file", &root));
	/* path2 and parents are never supplied */
	assert_false(holds(m, "file read /x path2.uid=0", &root));
	assert_false(holds(m, "file read /x path2.uid!=0", &root));
	assert_false(holds(m, "file read /x path1.parent.uid=0", &root));
	hm_model_free(m);
}

static void test_task_values(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_cond_ctx c = file_of(65534, S_IFREG | 0644);
	const char *same = "file read /x path1.uid=task.uid";

	(void)state;
	/* path1.uid=task.uid: both sides known */
	assert_false(holds(m, same, &c));	/* no task values */
	c.has_task = true;
	c.uid = 65534;
	assert_true(holds(m, same, &c));
	assert_true(holds(m, "file read /x task.uid=path1.uid", &c));
	c.uid = 1000;
	assert_false(holds(m, same, &c));
	assert_true(holds(m, "file read /x path1.uid!=task.uid", &c));
	c.has_path1 = false;
	assert_false(holds(m, same, &c));
	assert_false(holds(m, "file read /x path1.uid!=task.uid", &c));
	/* the classic items: a missing context no longer holds */
	assert_false(holds(m, "file read /x task.uid=0", NULL));
	c.uid = 0;
	assert_true(holds(m, "file read /x task.uid=0", &c));
	assert_true(hm_cond_item_reads_task(
		&entry(m, same)->cond->items[0]));
	assert_false(hm_cond_item_reads_task(
		&entry(m, "file read /x path1.uid=0")->cond->items[0]));
	hm_model_free(m);
}

static void test_argv_envp(void **state)
{
	struct hm_model *m = hm_model_new();
	const char *safe = "file execute /bin/x exec.argv[1]=\"--safe\"";
	const char *nopre = "file execute /bin/x exec.envp[\"LD_PRELOAD\"]=NULL";
	const char *argv_ok[] = { "/bin/x", "--safe" };
	const char *argv_bad[] = { "/bin/x", "--unsafe" };
	const char *env_clean[] = { "PATH=/bin", "LD_PRELOADX=1" };
	const char *env_pre[] = { "PATH=/bin", "LD_PRELOAD=/tmp/evil.so" };
	struct hm_cond_ctx c = { .has_task = true };

	(void)state;
	/* argv not known (the enforcer at an exec): fails either way */
	assert_false(holds(m, safe, &c));
	assert_false(holds(m, "file execute /bin/x exec.argv[1]!=\"--safe\"",
			   &c));
	assert_false(holds(m, "file execute /bin/x exec.argc=2", &c));
	c.argv = argv_ok;
	c.argc = 2;
	assert_true(holds(m, safe, &c));
	assert_true(holds(m, "file execute /bin/x exec.argc=2", &c));
	c.argc = 1;		/* no argv[1]: does not hold */
	assert_false(holds(m, safe, &c));
	c.argv = argv_bad;
	c.argc = 2;
	assert_false(holds(m, safe, &c));
	assert_true(holds(m, "file execute /bin/x exec.argv[1]!=\"--safe\"",
			  &c));

	/* envp not known: fails; known: NULL means not set */
	assert_false(holds(m, nopre, &c));
	assert_false(holds(m, "file execute /bin/x exec.envc=2", &c));
	c.envp = env_clean;
	c.envc = 2;
	assert_true(holds(m, nopre, &c));
	assert_true(holds(m, "file execute /bin/x exec.envc=2", &c));
	assert_false(holds(m, "file execute /bin/x exec.envp[\"LD_PRELOAD\"]!=NULL",
			   &c));
	c.envp = env_pre;
	assert_false(holds(m, nopre, &c));
	assert_true(holds(m, "file execute /bin/x exec.envp[\"LD_PRELOAD\"]="
			  "\"/tmp/evil.so\"", &c));
	assert_false(holds(m, "file execute /bin/x exec.envp[\"PATH\"]="
			   "\"/usr/bin\"", &c));
	hm_model_free(m);
}

static void test_not_tests(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_cond_ctx root = file_of(0, S_IFREG | 0644);

	(void)state;
	/* grant_log and a transit preference are no tests: they hold */
	assert_true(holds(m, "file read /x grant_log=yes", NULL));
	assert_true(holds(m, "file execute /bin/x keep", NULL));
	assert_true(holds(m, "file read /x path1.uid=0 grant_log=no", &root));
	assert_false(holds(m, "file read /x path1.uid=1 grant_log=no", &root));
	hm_model_free(m);
}

/* What the enforcer can evaluate, and what policy check warns about. */
static void test_unevaluable(void **state)
{
	static const struct {
		const char *line;
		const char *item;	/* the one named, NULL: evaluable */
	} cases[] = {
		{ "file read /x path1.uid=0", NULL },
		{ "file read /x path1.uid=task.uid task.gid=0-99", NULL },
		{ "file read /x path1.perm=setuid path1.type=file", NULL },
		{ "file read /x grant_log=yes", NULL },
		{ "file execute /x exec.realpath=\"/y\"", NULL },
		{ "file execute /x keep", NULL },
		{ "file read/execute /x exec.realpath=\"/y\"",
		  "exec.realpath=\"/y\"" },
		{ "file execute /x exec.argv[1]=\"--safe\"",
		  "exec.argv[1]=\"--safe\"" },
		{ "file execute /x task.uid=0 exec.envp[\"LD_PRELOAD\"]=NULL",
		  "exec.envp[\"LD_PRELOAD\"]=NULL" },
		{ "file execute /x exec.argc=1", "exec.argc=1" },
		{ "file execute /x exec.envc=0", "exec.envc=0" },
		{ "file write /x path2.uid=0", "path2.uid=0" },
		{ "file read /x path1.parent.uid=0", "path1.parent.uid=0" },
		{ "file create /x 0644 path1.uid=file", "path1.uid=file" },
		/* a create is checked before the file exists */
		{ "file create /x 0644 path1.uid=0", "path1.uid=0" },
		{ "file create /x 0644 task.uid=0", NULL },
		/* never consulted by the enforcer: nothing to say */
		{ "file unlink /x exec.argv[0]=\"rm\"", NULL },
		{ "network inet stream connect 127.0.0.1 80 exec.argc=1",
		  NULL },
	};
	struct hm_model *m = hm_model_new();

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hm_cond_item *it =
			hm_acl_unevaluable(entry(m, cases[i].line));
		const char *got = it ? it->text->str : NULL;

		if (!cases[i].item != !got ||
		    (got && strcmp(got, cases[i].item)))
			fail_msg("'%s': named '%s', want '%s'", cases[i].line,
				 got ? got : "(none)",
				 cases[i].item ? cases[i].item : "(none)");
	}
	hm_model_free(m);
}

/* The enforcer's decision: an entry whose condition fails or cannot be
 * evaluated grants nothing, and a conditional grant is never cached nor
 * global. */
static void test_decide(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d;
	struct hm_enf_index *ix;
	struct hm_name path = { .str = "/m/a", .len = 4 };
	struct hm_name prog = { .str = "/m/child", .len = 8 };
	struct hm_cond_ctx root = file_of(0, S_IFREG | 0644);
	struct hm_cond_ctx user = file_of(65534, S_IFREG | 0644);
	struct hm_enf_query q = { .path = &path, .ask = 1u << HM_FILE_READ };
	struct hm_enf_answer a;
	static const char *const lines[] = {
		"file read /m/a path1.uid=0",
		"file execute /m/child exec.argv[1]=\"--safe\"",
		"file create /m/new 0644 path1.uid=0",
		"file create /m/new2 0644 task.uid=0",
	};
	struct hm_name nw = { .str = "/m/new", .len = 6 };
	struct hm_name nw2 = { .str = "/m/new2", .len = 7 };

	(void)state;
	assert_true(hm_model_domain(m, "<kernel> /m/h", 13, true, &d) >= 0);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(hm_acl_parse_line(m, d, lines[i],
						   strlen(lines[i]),
						   HM_DIALECT_26, "t", 1, NULL),
				 1);
	assert_int_equal(hm_enf_index_new(m, &ix), 0);
	hm_name_fill(&path);
	hm_name_fill(&prog);
	q.domain = d;
	q.domain_name = d->name;
	q.ctx = &root;
	hm_enf_decide(m, ix, &q, &a);
	assert_true(a.allowed);
	assert_false(a.cacheable);
	assert_false(a.global);
	q.ctx = &user;
	hm_enf_decide(m, ix, &q, &a);
	assert_false(a.allowed);
	q.ctx = NULL;
	hm_enf_decide(m, ix, &q, &a);
	assert_false(a.allowed);
	/* the enforcer never knows the new program's argv */
	q = (struct hm_enf_query){ .exec = true, .path = &prog, .domain = d,
				   .domain_name = d->name, .ctx = &root };
	hm_enf_decide(m, ix, &q, &a);
	assert_false(a.allowed);
	/* a create stands for an O_CREAT open of an empty file; TOMOYO
	 * checks it before the file exists: path1.* cannot hold, task.*
	 * can */
	hm_name_fill(&nw);
	hm_name_fill(&nw2);
	q = (struct hm_enf_query){ .path = &nw, .domain = d,
				   .domain_name = d->name, .ctx = &root,
				   .ask = hm_enf_open_ops(O_CREAT | O_WRONLY,
							  true) };
	root.has_task = true;
	hm_enf_decide(m, ix, &q, &a);
	assert_false(a.allowed);
	q.path = &nw2;
	hm_enf_decide(m, ix, &q, &a);
	assert_true(a.allowed);
	assert_false(a.cacheable);
	hm_enf_index_free(ix);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path1),
		cmocka_unit_test(test_task_values),
		cmocka_unit_test(test_argv_envp),
		cmocka_unit_test(test_not_tests),
		cmocka_unit_test(test_unevaluable),
		cmocka_unit_test(test_decide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
