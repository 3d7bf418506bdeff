// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_enforce.c - the enforcer's pure logic (enforcer/decide.c,
 * dcache.c, analyzer/kernel_names.c, decision.c): TOMOYO names of fanotify paths, the decision on
 * opens and execs (symlinked programs, create with any mode, acl_groups,
 * domains the policy lacks, profiles), the decision cache, and the
 * audit record's round trip.  Each is a table walked by one loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/decide.h"
#include "histmac/kernel_names.h"
#include "histmac/word.h"
#include "histmac/policy_io.h"

/* Operations of an open (enum hm_file_op bits). */
#define R (1u << HM_FILE_READ)
#define W (1u << HM_FILE_WRITE)
#define A (1u << HM_FILE_APPEND)
#define T (1u << HM_FILE_TRUNCATE)
#define C HM_ENF_OPEN_CREAT

/* ---------------------------------------------------------------- names */

static const struct {
	const char *raw;
	int64_t pid;
	bool dir, deleted;
	const char *want;	/* NULL: error */
	long err;
} name_cases[] = {
	{ "/etc/hosts", 1, false, false, "/etc/hosts", 0 },
	{ "/tmp/sp ace", 1, false, false, "/tmp/sp\\040ace", 0 },
	{ "/tmp/back\\slash", 1, false, false, "/tmp/back\\\\slash", 0 },
	{ "/tmp/t\xc3\xa9", 1, false, false, "/tmp/t\\303\\251", 0 },
	{ "/tmp/d", 1, true, false, "/tmp/d/", 0 },
	{ "/", 1, true, false, "/", 0 },
	{ "/proc/42/status", 42, false, false, "proc:/self/status", 0 },
	{ "/proc/42/status", 43, false, false, "proc:/42/status", 0 },
	{ "/proc/self/maps", 7, false, false, "proc:/self/maps", 0 },
	{ "/proc/420/x", 42, false, false, "proc:/420/x", 0 },
	{ "/proc/042/x", 42, false, false, "proc:/042/x", 0 },
	{ "/proc", 1, true, false, "proc:/", 0 },
	{ "/proc/42", 42, true, false, "proc:/self/", 0 },
	{ "/proc/sys/kernel/x", 1, false, false, "proc:/sys/kernel/x", 0 },
	{ "/process/x", 1, false, false, "/process/x", 0 },
	{ "/tmp/gone (deleted)", 1, false, true, "/tmp/gone", 0 },
	{ "/tmp/kept (deleted)", 1, false, false, "/tmp/kept\\040(deleted)", 0 },
	{ "pipe:[1234]", 1, false, false, NULL, -EINVAL },
	{ "", 1, false, false, NULL, -EINVAL },
};

static void test_path_name(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(name_cases); i++) {
		char *out = NULL;
		long n = hm_enf_path_name(name_cases[i].raw,
					  strlen(name_cases[i].raw),
					  name_cases[i].pid, name_cases[i].dir,
					  name_cases[i].deleted, &out);

		if (!name_cases[i].want) {
			assert_int_equal(n, name_cases[i].err);
			continue;
		}
		if (n < 0 || strcmp(out, name_cases[i].want))
			fail_msg("case %zu (%s): got %ld '%s', want '%s'", i,
				 name_cases[i].raw, n, out ? out : "",
				 name_cases[i].want);
		assert_int_equal((size_t)n, strlen(out));
		free(out);
	}
	{
		/* over HM_MAX_WORD */
		size_t len = HM_MAX_WORD;
		char *raw = malloc(len);
		char *out = NULL;

		memset(raw, 'a', len);
		raw[0] = '/';
		assert_int_equal(hm_enf_path_name(raw, len, 1, false, false,
						  &out), -ENAMETOOLONG);
		free(raw);
	}
}

/* ------------------------------------------------------------ decisions */

static const char domain_policy[] =
	"<kernel>\n"
	"use_profile 3\n"
	"use_group 0\n"
	"\n"
	"<kernel> /usr/sbin/app\n"
	"use_profile 3\n"
	"use_group 0\n"
	"file read /srv/app/conf\n"
	"file write /srv/app/log\n"
	"file append /srv/app/journal\n"
	"file truncate /srv/app/trunc\n"
	"file create /srv/app/new 0600\n"
	"file read /srv/app/data/\\*.txt\n"
	"file unlink /srv/app/unlinkonly\n"
	"file execute /bin/sh exec.realpath=\"/usr/bin/dash\"\n"
	"file execute /usr/bin/env\n"
	"file execute /srv/app/bin/\\*\n"
	"file execute /usr/bin/python3 exec.realpath=\"/usr/bin/python3.\\$\"\n"
	"file read /srv/app/root-only task.uid=0\n"
	"\n"
	"<kernel> /usr/sbin/app /bin/sh\n"
	"use_profile 2\n"
	"use_group 0\n"
	"file read /srv/app/sh-only\n"
	"\n"
	"<kernel> /usr/sbin/quiet\n"
	"use_profile 0\n"
	"\n"
	"<kernel> /usr/sbin/nogroup\n"
	"use_profile 3\n"
	"file read /srv/app/conf\n";

static const char exception_policy[] =
	"acl_group 0 file read /etc/ld.so.cache\n"
	"acl_group 0 file read /srv/app/global\n"
	"acl_group 1 file read /srv/app/group1\n";

struct fixture {
	struct hm_model *m;
	struct hm_enf_index *ix;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct hm_diag d = { 0 };

	assert_non_null(f);
	f->m = hm_model_new();
	assert_int_equal(hm_policy_parse_exception(f->m, exception_policy,
						   strlen(exception_policy),
						   HM_DIALECT_26, "exc", &d), 0);
	assert_int_equal(hm_policy_parse_domain(f->m, domain_policy,
						strlen(domain_policy),
						HM_DIALECT_26, "dom", &d), 0);
	if (d.n_msgs) {
		char *s = hm_diag_format(&d.msgs[0]);

		fail_msg("policy: %s", s);
	}
	hm_model_relink(f->m);
	assert_int_equal(hm_enf_index_new(f->m, &f->ix), 0);
	hm_diag_free(&d);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	hm_enf_index_free(f->ix);
	hm_model_free(f->m);
	free(f);
	return 0;
}

static const struct {
	const char *domain;
	bool exec;
	const char *path;
	bool root;		/* task.uid=0 */
	bool allowed;
	const char *program;	/* exec: the name entered with */
	int profile;
	bool global;
	bool cacheable;
	int flags;		/* open: its flags (O_RDONLY unless given) */
} decide_cases[] = {
	/* opens: judged by the mode they ask */
	{ "<kernel> /usr/sbin/app", false, "/srv/app/conf", false, true, NULL, 3, false, true },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/conf", false, false, NULL, 3, false, false, O_RDWR },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/log", false, true, NULL, 3, false, true, O_WRONLY },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/log", false, false, NULL, 3, false, false },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/log", false, false, NULL, 3, false, false, O_WRONLY | O_APPEND },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/journal", false, true, NULL, 3, false, true, O_WRONLY | O_APPEND },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/journal", false, false, NULL, 3, false, false, O_WRONLY },
	/* truncate alone opens nothing: every open reads or writes */
	{ "<kernel> /usr/sbin/app", false, "/srv/app/trunc", false, false, NULL, 3, false, false, O_WRONLY | O_TRUNC },
	/* create stands for an O_CREAT open of an empty file only */
	{ "<kernel> /usr/sbin/app", false, "/srv/app/new", false, true, NULL, 3, false, true, O_CREAT | O_WRONLY },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/new", false, false, NULL, 3, false, false, O_WRONLY },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/data/x.txt", false, true, NULL, 3, false, true },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/data/x.bin", false, false, NULL, 3, false, false },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/unlinkonly", false, false, NULL, 3, false, false },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/other", false, false, NULL, 3, false, false },
	/* an execute entry is no permission to open */
	{ "<kernel> /usr/sbin/app", false, "/usr/bin/env", false, false, NULL, 3, false, false },
	/* conditions on task values: evaluated, and never cached */
	{ "<kernel> /usr/sbin/app", false, "/srv/app/root-only", true, true, NULL, 3, false, false },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/root-only", false, false, NULL, 3, false, false },
	/* acl_group 0 is used by every domain but one: not global */
	{ "<kernel> /usr/sbin/app", false, "/srv/app/global", false, true, NULL, 3, false, true },
	{ "<kernel> /usr/sbin/nogroup", false, "/srv/app/global", false, false, NULL, 3, false, false },
	{ "<kernel> /usr/sbin/app", false, "/srv/app/group1", false, false, NULL, 3, false, false },
	/* execs: by name, by exec.realpath, by pattern */
	{ "<kernel> /usr/sbin/app", true, "/usr/bin/dash", false, true, "/bin/sh", 3, false, false },
	{ "<kernel> /usr/sbin/app", true, "/usr/bin/env", false, true, "/usr/bin/env", 3, false, true },
	{ "<kernel> /usr/sbin/app", true, "/srv/app/bin/tool", false, true, "/srv/app/bin/tool", 3, false, true },
	{ "<kernel> /usr/sbin/app", true, "/usr/bin/python3.11", false, true, "/usr/bin/python3", 3, false, false },
	{ "<kernel> /usr/sbin/app", true, "/usr/bin/bash", false, false, "/usr/bin/bash", 3, false, false },
	/* exec.realpath is not a name: "/bin/sh" itself is not allowed */
	{ "<kernel> /usr/sbin/app", true, "/bin/sh", false, false, "/bin/sh", 3, false, false },
	/* reading a file is no permission to execute it */
	{ "<kernel> /usr/sbin/app", true, "/srv/app/conf", false, false, "/srv/app/conf", 3, false, false },
	/* profiles */
	{ "<kernel> /usr/sbin/app /bin/sh", false, "/srv/app/sh-only", false, true, NULL, 2, false, true },
	{ "<kernel> /usr/sbin/app /bin/sh", false, "/srv/app/conf", false, false, NULL, 2, false, false },
	{ "<kernel> /usr/sbin/quiet", false, "/srv/app/conf", false, false, NULL, 0, false, false },
	/* a domain the policy lacks: nearest ancestor's groups and profile */
	{ "<kernel> /usr/sbin/app /bin/sh /usr/bin/cat", false, "/srv/app/global", false, true, NULL, 2, false, true },
	{ "<kernel> /usr/sbin/app /bin/sh /usr/bin/cat", false, "/srv/app/sh-only", false, false, NULL, 2, false, false },
	{ "<kernel> /usr/sbin/new", false, "/etc/ld.so.cache", false, true, NULL, 3, false, true },
	{ "<kernel> /usr/sbin/nogroup /bin/x", false, "/etc/ld.so.cache", false, false, NULL, 3, false, false },
	{ "<kernel> /usr/sbin/new", true, "/usr/bin/env", false, false, "/usr/bin/env", 3, false, false },
};

static void test_decide(void **state)
{
	struct fixture *f = *state;

	for (size_t i = 0; i < HM_ARRAY_SIZE(decide_cases); i++) {
		struct hm_name path = { .str = decide_cases[i].path,
					.len = (uint32_t)strlen(
						decide_cases[i].path) };
		const struct hm_name *dn;
		struct hm_cond_ctx ctx = { .has_task = true,
					   .uid = decide_cases[i].root ? 0 :
									 1000 };
		struct hm_enf_query q;
		struct hm_enf_answer a;

		hm_name_fill(&path);
		assert_int_equal(hm_model_intern(f->m, decide_cases[i].domain,
						 strlen(decide_cases[i].domain),
						 &dn), 0);
		q = (struct hm_enf_query){
			.exec = decide_cases[i].exec, .path = &path,
			.domain_name = dn,
			.domain = hm_model_find_domain(f->m, dn), .ctx = &ctx,
		};
		/* an O_CREAT open of an empty file: it may have made it */
		if (!q.exec)
			q.ask = hm_enf_open_ops((uint64_t)decide_cases[i].flags,
						decide_cases[i].flags & O_CREAT);
		hm_enf_decide(f->m, f->ix, &q, &a);
		if (a.allowed != decide_cases[i].allowed ||
		    a.profile != decide_cases[i].profile ||
		    a.global != decide_cases[i].global ||
		    a.cacheable != decide_cases[i].cacheable)
			fail_msg("case %zu (%s %s %s): allowed %d profile %u "
				 "global %d cacheable %d", i,
				 decide_cases[i].domain,
				 decide_cases[i].exec ? "exec" : "open",
				 decide_cases[i].path, a.allowed, a.profile,
				 a.global, a.cacheable);
		if (decide_cases[i].program)
			assert_string_equal(a.program->str,
					    decide_cases[i].program);
		if (a.allowed)
			assert_non_null(a.match);
		assert_false(a.need_mode);	/* the mode was given */
	}
	assert_false(hm_enf_index_global(f->ix));
	assert_true(hm_enf_index_needs_task(f->ix));
}

/* Every domain uses group 0: it is global; learning keeps the index. */
static void test_global_and_add(void **state)
{
	static const char dom[] = "<kernel>\nuse_group 0\n\n"
				  "<kernel> /a\nuse_group 0\nuse_profile 3\n";
	static const char exc[] = "acl_group 0 file read /etc/global\n"
				  "acl_group 0 file write /etc/global\n"
				  "acl_group 0 file append /etc/global\n"
				  "acl_group 0 file truncate /etc/global\n"
				  "acl_group 0 file read /etc/ronly\n"
				  "acl_group 0 file read /etc/root task.uid=0\n";
	struct hm_model *m = hm_model_new();
	struct hm_enf_index *ix;
	struct hm_domain *d;
	const struct hm_name *dn, *nm;
	struct hm_name p1 = { .str = "/etc/global", .len = 11 };
	struct hm_name p2 = { .str = "/srv/new", .len = 8 };
	struct hm_name p3 = { .str = "/usr/bin/real", .len = 13 };
	struct hm_enf_query q = { 0 };
	struct hm_enf_answer a;
	struct hm_acl_path_number cr = { .head.kind = HM_ACL_PATH_NUMBER,
					 .head.perm = 1u << HM_FILE_CREATE };
	struct hm_acl_head *in;

	(void)state;
	assert_int_equal(hm_policy_parse_exception(m, exc, strlen(exc),
						   HM_DIALECT_26, NULL, NULL), 0);
	assert_int_equal(hm_policy_parse_domain(m, dom, strlen(dom),
						HM_DIALECT_26, NULL, NULL), 0);
	hm_model_relink(m);
	assert_int_equal(hm_enf_index_new(m, &ix), 0);
	assert_true(hm_enf_index_global(ix));
	assert_true(hm_enf_index_needs_task(ix));	/* task.uid */
	hm_name_fill(&p1);
	hm_name_fill(&p2);
	hm_name_fill(&p3);
	assert_int_equal(hm_model_intern(m, "<kernel> /a", 11, &dn), 0);
	d = hm_model_find_domain(m, dn);
	q = (struct hm_enf_query){ .path = &p1, .domain_name = dn,
				   .domain = d };
	hm_enf_decide(m, ix, &q, &a);
	assert_true(a.allowed && a.global && !a.need_mode);

	/* readable by every domain, but an ignore mark would let every
	 * process open it for writing too: no mark */
	{
		struct hm_name pr = { .str = "/etc/ronly", .len = 10 };

		hm_name_fill(&pr);
		q.path = &pr;
		q.ask = R;
		hm_enf_decide(m, ix, &q, &a);
		assert_true(a.allowed && !a.global);
		q.ask = R | W;
		hm_enf_decide(m, ix, &q, &a);
		assert_false(a.allowed);
	}

	/* allowed to root by every domain, but not to every process: no
	 * ignore mark (it would let any uid read it) */
	{
		struct hm_name pr = { .str = "/etc/root", .len = 9 };
		struct hm_cond_ctx root = { .has_task = true };
		struct hm_cond_ctx user = { .has_task = true, .uid = 1000 };

		hm_name_fill(&pr);
		q.path = &pr;
		q.ctx = &root;
		q.ask = R;
		hm_enf_decide(m, ix, &q, &a);
		assert_true(a.allowed && !a.global && !a.cacheable);
		q.ctx = &user;
		hm_enf_decide(m, ix, &q, &a);
		assert_false(a.allowed);
		q.ctx = NULL;
	}

	/* learned "file create /srv/new 0644": an O_CREAT open of it, while
	 * empty, is allowed; an open of what is in it is not */
	q.path = &p2;
	q.ask = hm_enf_open_ops(O_CREAT | O_WRONLY, true);
	hm_enf_decide(m, ix, &q, &a);
	assert_false(a.allowed);
	assert_int_equal(hm_model_intern(m, "/srv/new", 8, &nm), 0);
	cr.name.name = nm;
	cr.number = (struct hm_number){ .min = 0644, .max = 0644 };
	assert_int_equal(hm_domain_add(m, d, &cr.head, &in), 1);
	assert_int_equal(hm_enf_index_add(ix, d, in), 0);
	hm_enf_decide(m, ix, &q, &a);
	assert_true(a.allowed && !a.global);
	q.ask = hm_enf_open_ops(O_CREAT | O_WRONLY | O_APPEND, false);
	hm_enf_decide(m, ix, &q, &a);
	assert_false(a.allowed);
	q.ask = 0;

	/* a learned symlinked execute is found by its realpath */
	{
		static const char line[] =
			"file execute /usr/bin/alias exec.realpath=\"/usr/bin/real\"";
		struct hm_diag dg = { 0 };

		assert_int_equal(hm_acl_parse_line(m, d, line, strlen(line),
						   HM_DIALECT_26, NULL, 0, &dg),
				 1);
		hm_diag_free(&dg);
		q.exec = true;
		q.path = &p3;
		hm_enf_decide(m, ix, &q, &a);
		assert_false(a.allowed);	/* index not told yet */
		for (const struct hm_acl_head *e = d->acl; e; e = e->next)
			assert_int_equal(hm_enf_index_add(ix, d, e), 0);
		hm_enf_decide(m, ix, &q, &a);
		assert_true(a.allowed);
		assert_string_equal(a.program->str, "/usr/bin/alias");
	}
	hm_enf_index_free(ix);
	hm_model_free(m);
}


/* --------------------------------------------------------- open modes */


/* What each open asks, as TOMOYO checks it (file_open: read for
 * O_RDONLY/O_RDWR, write or append for O_WRONLY/O_RDWR; file_truncate
 * for O_TRUNC; create with O_CREAT). */
static void test_open_ops(void **state)
{
	static const struct {
		int flags;
		bool empty;
		uint32_t want;
	} cases[] = {
		{ O_RDONLY, false, R },
		{ O_WRONLY, false, W },
		{ O_RDWR, false, R | W },
		{ O_WRONLY | O_APPEND, false, A },
		{ O_RDWR | O_APPEND, false, R | A },
		{ O_WRONLY | O_TRUNC, false, W | T },
		{ O_RDONLY | O_TRUNC, false, R | T },	/* Linux truncates */
		{ O_WRONLY | O_TRUNC, true, W },	/* nothing to lose */
		{ O_CREAT | O_WRONLY | O_TRUNC, true, W | C },
		{ O_CREAT | O_WRONLY | O_TRUNC, false, W | T },
		{ O_CREAT | O_RDWR, false, R | W },
		{ O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, false, R },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++)
		if (hm_enf_open_ops((uint64_t)cases[i].flags, cases[i].empty) !=
		    cases[i].want)
			fail_msg("case %zu: flags %#x: %#x, want %#x", i,
				 cases[i].flags,
				 hm_enf_open_ops((uint64_t)cases[i].flags,
						 cases[i].empty),
				 cases[i].want);
}

/* Every asked operation must be granted; unknown asks read and write. */
static void test_open_allows(void **state)
{
	(void)state;
	assert_true(hm_enf_open_allows(R, R));
	assert_false(hm_enf_open_allows(R, R | W));
	assert_false(hm_enf_open_allows(R, W));
	assert_false(hm_enf_open_allows(R | W, R | W | T));
	assert_true(hm_enf_open_allows(R | W | T, W | T));
	assert_false(hm_enf_open_allows(W, A));	/* append is its own */
	assert_false(hm_enf_open_allows(A, W));
	assert_true(hm_enf_open_allows(T | W, T | W));
	/* unknown mode: fail closed */
	assert_false(hm_enf_open_allows(R, HM_ENF_OPEN_UNKNOWN));
	assert_false(hm_enf_open_allows(W, HM_ENF_OPEN_UNKNOWN));
	assert_true(hm_enf_open_allows(R | W, HM_ENF_OPEN_UNKNOWN));
	/* create: only for an O_CREAT open of an empty file */
	assert_true(hm_enf_open_allows(C, W | C));
	assert_false(hm_enf_open_allows(C, W));
	assert_false(hm_enf_open_allows(C, R));
	assert_false(hm_enf_open_allows(0, R));
	assert_false(hm_enf_open_allows(R | W | A | T, 0));
}

/* "file append" is only an append on an append-only file: elsewhere
 * fcntl(F_SETFL) drops O_APPEND, so it is judged as write. */
static void test_append_ask(void **state)
{
	(void)state;
	assert_int_equal(hm_enf_append_ask(A, false), W);
	assert_int_equal(hm_enf_append_ask(A, true), A);
	assert_int_equal(hm_enf_append_ask(R | A, false), R | W);
	assert_int_equal(hm_enf_append_ask(R | A | T, false), R | W | T);
	assert_int_equal(hm_enf_append_ask(A | C, false), W | C);
	assert_int_equal(hm_enf_append_ask(R | W, false), R | W);
	assert_int_equal(hm_enf_append_ask(R, true), R);
	/* so "file append" alone no longer opens such a file */
	assert_false(hm_enf_open_allows(A, hm_enf_append_ask(A, false)));
	assert_true(hm_enf_open_allows(A, hm_enf_append_ask(A, true)));
	assert_true(hm_enf_open_allows(W, hm_enf_append_ask(A, false)));
}

/* The mode not read yet: the answer says whether it matters. */
static void test_open_unread(void **state)
{
	static const char dom[] =
		"<kernel>\n\n<kernel> /a\nuse_profile 3\n"
		"file read /r\n"
		"file read /rw\nfile write /rw\n"
		"file read /all\nfile write /all\nfile append /all\n"
		"file truncate /all\n"
		"file create /c 0644\n";
	static const struct {
		const char *path;
		bool allowed;
		bool need_mode;
		uint32_t granted;
	} cases[] = {
		{ "/r", false, true, R },
		{ "/rw", false, true, R | W },
		{ "/all", true, false, R | W | A | T },
		{ "/c", false, true, C },
		{ "/none", false, false, 0 },
	};
	struct hm_model *m = hm_model_new();
	struct hm_enf_index *ix;
	const struct hm_name *dn;

	(void)state;
	assert_int_equal(hm_policy_parse_domain(m, dom, strlen(dom),
						HM_DIALECT_26, NULL, NULL), 0);
	hm_model_relink(m);
	assert_int_equal(hm_enf_index_new(m, &ix), 0);
	assert_int_equal(hm_model_intern(m, "<kernel> /a", 11, &dn), 0);
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_name path = { .str = cases[i].path,
					.len = (uint32_t)strlen(cases[i].path) };
		struct hm_enf_query q = { .path = &path, .domain_name = dn,
					  .domain = hm_model_find_domain(m, dn) };
		struct hm_enf_answer a;

		hm_name_fill(&path);
		hm_enf_decide(m, ix, &q, &a);
		if (a.allowed != cases[i].allowed ||
		    a.need_mode != cases[i].need_mode ||
		    a.granted != cases[i].granted)
			fail_msg("%s: allowed %d need_mode %d granted %#x",
				 cases[i].path, a.allowed, a.need_mode,
				 a.granted);
		/* the same with the mode read: O_RDWR */
		q.ask = hm_enf_open_ops(O_RDWR, false);
		hm_enf_decide(m, ix, &q, &a);
		assert_int_equal(a.allowed, (cases[i].granted & (R | W)) ==
						    (R | W));
		assert_false(a.need_mode);
	}
	hm_enf_index_free(ix);
	hm_model_free(m);
}

/* ---------------------------------------------------------------- cache */

static void test_cache(void **state)
{
	struct hm_dcache *c = hm_dcache_new(100, 1000);	/* 128 slots */
	struct hm_dcache_stats st;
	int doms[4];
	static const struct {
		int dom;
		uint64_t ino;
		int64_t ctime;
		bool exec;
		bool insert;	/* else look up */
		bool want;	/* lookup result */
	} steps[] = {
		{ 0, 10, 1, false, false, false },
		{ 0, 10, 1, false, true, false },
		{ 0, 10, 1, false, false, true },
		{ 1, 10, 1, false, false, false },	/* other domain */
		{ 0, 10, 2, false, false, false },	/* ctime changed */
		{ 0, 10, 1, true, false, false },	/* exec, not open */
		{ 0, 11, 1, false, false, false },	/* other inode */
		{ 0, 10, 2, false, true, false },	/* new version */
		{ 0, 10, 2, false, false, true },
		{ 0, 10, 1, false, false, false },	/* replaced */
	};

	(void)state;
	assert_non_null(c);
	hm_dcache_stats(c, &st);
	assert_int_equal(st.slots, 128);
	for (size_t i = 0; i < HM_ARRAY_SIZE(steps); i++) {
		struct hm_dcache_key k = { .domain = &doms[steps[i].dom],
					   .ino = steps[i].ino, .dev = 5,
					   .mnt_id = 7,
					   .ctime_sec = steps[i].ctime,
					   .exec = steps[i].exec };

		uint32_t granted = 0;

		if (steps[i].insert)
			hm_dcache_insert(c, &k, R, 100);
		else if (hm_dcache_lookup(c, &k, 100 + i, &granted) !=
			 steps[i].want || granted != (steps[i].want ? R : 0))
			fail_msg("cache step %zu", i);
	}
	/* fill far beyond capacity: evictions counted, no crash */
	for (uint64_t ino = 100; ino < 1100; ino++) {
		struct hm_dcache_key k = { .domain = &doms[2], .ino = ino };

		hm_dcache_insert(c, &k, R, 200);
	}
	hm_dcache_stats(c, &st);
	assert_true(st.evictions >= 1000 - 128);
	/* the time to live: good at 1000 ns, gone after */
	{
		struct hm_dcache_key k = { .domain = &doms[3], .ino = 7 };

		hm_dcache_insert(c, &k, R | W | A | T, 5000);
		assert_true(hm_dcache_lookup(c, &k, 6000, NULL));
		assert_false(hm_dcache_lookup(c, &k, 6001, NULL));
		assert_false(hm_dcache_lookup(c, &k, 6002, NULL));
		hm_dcache_stats(c, &st);
		assert_int_equal(st.expired, 1);
	}
	hm_dcache_invalidate(c);
	{
		struct hm_dcache_key k = { .domain = &doms[0], .ino = 10,
					   .dev = 5, .mnt_id = 7,
					   .ctime_sec = 2 };

		assert_false(hm_dcache_lookup(c, &k, 300, NULL));
	}
	/* a hit keeps what was granted: a narrower grant than the mode
	 * asked is no allow (the loop checks it, tests/unit/
	 * test_enforce_loop.c) */
	{
		struct hm_dcache_key k = { .domain = &doms[1], .ino = 77 };
		uint32_t granted = 0;

		hm_dcache_insert(c, &k, R, 400);
		assert_true(hm_dcache_lookup(c, &k, 401, &granted));
		assert_int_equal(granted, R);
		assert_true(hm_enf_open_allows(granted, hm_enf_open_ops(O_RDONLY,
									 false)));
		assert_false(hm_enf_open_allows(granted,
						hm_enf_open_ops(O_RDWR, false)));
		hm_dcache_insert(c, &k, R | W, 402);	/* same object */
		assert_true(hm_dcache_lookup(c, &k, 403, &granted));
		assert_int_equal(granted, R | W);
	}
	hm_dcache_stats(c, &st);
	assert_int_equal(st.invalidations, 1);
	assert_int_equal(st.hits + st.misses, st.lookups);
	hm_dcache_free(c);
}

/* ------------------------------------------------------------- records */

static const struct {
	enum hm_decision_result result;
	const char *domain;
	const char *path;
	uint32_t perm;
	const char *want;	/* substring of the formatted text */
} rec_cases[] = {
	{ HM_DECISION_DENY, "<kernel> /bin/x", "/etc/shadow",
	  1u << HM_FILE_READ,
	  "op=histmac-decision result=deny perm=read profile=3 opid=42 "
	  "domain=3C6B65726E656C3E202F62696E2F78 path=\"/etc/shadow\"" },
	{ HM_DECISION_PERMISSIVE, "<kernel>", "/tmp/a b",
	  1u << HM_FILE_READ | 1u << HM_FILE_WRITE | 1u << HM_FILE_TRUNCATE,
	  "result=permissive perm=read,write,truncate profile=3 opid=42 "
	  "domain=\"<kernel>\" path=2F746D702F612062" },
	{ HM_DECISION_GRANT, "<kernel> /a", "/x\"y", 1u << HM_FILE_EXECUTE,
	  "result=grant perm=execute" },
	{ HM_DECISION_TIMEOUT, "<kernel> /a", "/x", 0, "perm=open " },
	{ HM_DECISION_REJECT, "<kernel> /a", "/\x01", 1u << HM_FILE_APPEND,
	  "perm=append profile=3 opid=42 domain=3C6B65726E656C3E202F61 "
	  "path=2F01" },
};

static void test_records(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(rec_cases); i++) {
		struct hm_decision d = {
			.result = rec_cases[i].result,
			.domain = rec_cases[i].domain,
			.domain_len = strlen(rec_cases[i].domain),
			.path = rec_cases[i].path,
			.path_len = strlen(rec_cases[i].path),
			.perm = rec_cases[i].perm, .pid = 42, .profile = 3,
		};
		struct hm_decision back;
		char *text, *rec, *buf;

		assert_int_equal(hm_decision_format(&d, &text), 0);
		if (!strstr(text, rec_cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, text,
				 rec_cases[i].want);
		/* as auditd writes it around our text */
		assert_true(asprintf(&rec, "pid=1 uid=0 auid=4294967295 ses=1 "
				     "msg='%s exe=\"/usr/bin/histmac\" "
				     "hostname=? res=failed'", text) > 0);
		buf = malloc(strlen(rec) + 1);
		assert_int_equal(hm_decision_parse(rec, strlen(rec), buf,
						   &back), 0);
		assert_int_equal(back.result, d.result);
		assert_int_equal(back.perm, d.perm);
		assert_int_equal(back.pid, 42);
		assert_int_equal(back.profile, 3);
		assert_int_equal(back.domain_len, d.domain_len);
		assert_memory_equal(back.domain, d.domain, d.domain_len);
		assert_int_equal(back.path_len, d.path_len);
		assert_memory_equal(back.path, d.path, d.path_len);
		free(buf);
		free(rec);
		free(text);
	}
}

static const char *const bad_records[] = {
	"msg='op=other result=deny'",
	"msg='op=histmac-decision result=maybe perm=read domain=\"<kernel>\" path=\"/x\"'",
	"msg='op=histmac-decision result=deny perm=read path=\"/x\"'",
	"msg='op=histmac-decision result=deny perm=fly domain=\"<kernel>\" path=\"/x\"'",
	"msg='op=histmac-decision result=deny perm=read domain=3C6 path=\"/x\"'",
	"msg='op=histmac-decision result=deny perm=read domain=ZZ path=\"/x\"'",
	"msg='op=histmac-decision result=deny domain=\"<kernel>\" path=\"/x\"'",
	"",
};

static void test_bad_records(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(bad_records); i++) {
		const char *t = bad_records[i];
		char *buf = malloc(strlen(t) + 1);
		struct hm_decision d;

		if (hm_decision_parse(t, strlen(t), buf, &d) != -EINVAL)
			fail_msg("bad record %zu accepted: %s", i, t);
		free(buf);
	}
}

/* --record-use: the entries an allowed open asked of are counted, each
 * once; one entry granting all is the decision's "only" (what a cached
 * hit counts), two are not; the cache hands the entry back. */
static void test_count_use(void **state)
{
	static const char dom[] =
		"<kernel>\n\n<kernel> /a\nfile read /d/x\n"
		"file write /d/\\*\nfile read/write /d/y\n";
	struct hm_model *m = hm_model_new();
	struct hm_enf_index *ix = NULL;
	struct hm_name x = { .str = "/d/x", .len = 4 };
	struct hm_name y = { .str = "/d/y", .len = 4 };
	const struct hm_name *dn;
	struct hm_enf_query q;
	struct hm_enf_answer a;
	struct hm_dcache *c = hm_dcache_new(64, 0);
	struct hm_dcache_key k = { .ino = 1 };
	const void *use = NULL;

	(void)state;
	assert_int_equal(hm_policy_parse_domain(m, dom, strlen(dom),
						HM_DIALECT_26, NULL, NULL), 0);
	hm_model_relink(m);
	assert_int_equal(hm_enf_index_new(m, &ix), 0);
	hm_name_fill(&x);
	hm_name_fill(&y);
	assert_int_equal(hm_model_intern(m, "<kernel> /a", 11, &dn), 0);
	q = (struct hm_enf_query){ .path = &x, .domain_name = dn,
				   .domain = hm_model_find_domain(m, dn),
				   .ask = R | W };
	hm_enf_decide(m, ix, &q, &a);
	assert_true(a.allowed);
	assert_null(a.only);			/* read and write: two entries */
	assert_true(a.by_op[0] != a.by_op[1]);
	hm_enf_count_use(&a, false, R, 50);	/* read only: the read entry */
	hm_enf_count_use(&a, false, R | W, 60);	/* both */
	assert_int_equal(a.by_op[0]->hist.uses, 2);
	assert_int_equal(a.by_op[0]->hist.used, 60);
	assert_int_equal(a.by_op[1]->hist.uses, 1);
	q.path = &y;				/* one entry grants both */
	hm_enf_decide(m, ix, &q, &a);
	assert_non_null(a.only);
	hm_enf_count_use(&a, false, R | W, 70);
	assert_int_equal(a.only->hist.uses, 1);
	hm_dcache_insert_use(c, &k, a.granted, a.only, 1);
	assert_true(hm_dcache_lookup_use(c, &k, 2, NULL, &use));
	assert_ptr_equal(use, a.only);
	hm_dcache_free(c);
	hm_enf_index_free(ix);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_name),
		cmocka_unit_test_setup_teardown(test_decide, setup, teardown),
		cmocka_unit_test(test_global_and_add),
		cmocka_unit_test(test_open_ops),
		cmocka_unit_test(test_open_allows),
		cmocka_unit_test(test_append_ask),
		cmocka_unit_test(test_open_unread),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_count_use),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_bad_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
