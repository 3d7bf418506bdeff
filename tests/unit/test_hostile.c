// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_hostile.c - hostile input straight into the library, where the
 * golden tests (tests/golden/t_hostile_*.sh) go through the CLI: policy
 * text with NUL bytes, over-long lines and words, bad escapes, braces and
 * groups; a learner fed a million-name style flood (the model must not
 * grow past the quota); exec chains that reach HM_MAX_DOMAIN, a 100,000
 * deep fork chain and a pid reuse storm; argv at the collector's cap; a
 * process table with a huge line.  Each case states the result: an error
 * at its line, or a bounded, counted outcome.
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

#include "histmac/collector.h"
#include "histmac/learn.h"
#include "histmac/policy_io.h"

/* ------------------------------------------------------------ policy */

/* Generated texts for cases too big to write out. */
static char *long_line(size_t *len)
{
	size_t n = (size_t)HM_MAX_LINE * 3;
	char *s = malloc(n + 64);

	assert_non_null(s);
	*len = (size_t)sprintf(s, "<kernel>\nfile read /");
	memset(s + *len, 'a', n);
	*len += n;
	*len += (size_t)sprintf(s + *len, "\nfile read /after\n");
	return s;
}

static char *long_word(size_t *len)
{
	char *s = malloc(HM_MAX_WORD + 64);

	assert_non_null(s);
	*len = (size_t)sprintf(s, "<kernel>\nfile read /");
	memset(s + *len, 'w', HM_MAX_WORD);	/* word: 1 + HM_MAX_WORD */
	*len += HM_MAX_WORD;
	*len += (size_t)sprintf(s + *len, "\nfile read /ok\n");
	return s;
}

static char *long_header(size_t *len)
{
	size_t n = HM_MAX_LINE;
	char *s = malloc(n + 128);

	assert_non_null(s);
	*len = (size_t)sprintf(s, "<kernel>\nfile read /k\n<kernel> /");
	memset(s + *len, 'd', n);
	*len += n;
	*len += (size_t)sprintf(s + *len, "\nfile read /lost\n");
	return s;
}

static char *acl_groups(size_t *len)
{
	char *s = malloc(300 * 40);

	assert_non_null(s);
	*len = 0;
	for (int g = 0; g < 300; g++)
		*len += (size_t)sprintf(s + *len, "acl_group %d file read /g%d\n",
					g, g);
	return s;
}

#define T(s) s, sizeof(s) - 1

struct policy_case {
	const char *name;
	bool exception;		/* exception policy, else domain policy */
	const char *text;	/* may hold NUL bytes */
	size_t len;
	char *(*make)(size_t *len); /* instead of @text */
	int errors;		/* the parser's return */
	unsigned long line;	/* line of the first error */
	const char *msg;	/* in its text */
	size_t domains;		/* what loaded */
	size_t entries;		/* ACL entries, or exception entries */
};

static const struct policy_case policy_cases[] = {
	{ "NUL in an ACL line", false,
	  T("<kernel>\nfile read /a\0b\nfile read /ok\n"), NULL,
	  1, 2, "NUL byte in line", 1, 1 },
	{ "NUL alone on a line", false, T("<kernel>\n\0\nfile read /ok\n"),
	  NULL, 1, 2, "NUL byte in line", 1, 1 },
	{ "NUL in a domain header takes its ACL with it", false,
	  T("<kernel>\nfile read /k\n<kernel> /x\0y\nfile read /lost\n"
	    "<kernel> /ok\nfile read /ok\n"), NULL,
	  2, 3, "NUL byte in line", 2, 2 },
	{ "raw byte in a domain header takes its ACL with it", false,
	  T("<kernel>\nfile read /k\n<kernel> /x\377\nfile read /lost\n"),
	  NULL, 2, 3, "raw byte 0xff", 1, 1 },
	{ "NUL in the exception policy", true,
	  T("path_group G /a\0\npath_group G /b\n"), NULL,
	  1, 1, "NUL byte in line", 0, 1 },
	{ "line over HM_MAX_LINE", false, NULL, 0, long_line,
	  1, 2, "line longer than 65536 bytes", 1, 1 },
	{ "domain header over HM_MAX_LINE", false, NULL, 0, long_header,
	  2, 3, "line longer than 65536 bytes", 1, 1 },
	{ "word over HM_MAX_WORD", false, NULL, 0, long_word,
	  1, 2, "longer than 8192 bytes", 1, 1 },
	{ "bad escape", false, T("<kernel>\nfile read /a\\q\n"), NULL,
	  1, 2, "bad escape \\q", 1, 0 },
	{ "escape over \\377", false, T("<kernel>\nfile read /a\\400\n"),
	  NULL, 1, 2, "bad escape", 1, 0 },
	{ "short octal escape", false, T("<kernel>\nfile read /a\\01\n"),
	  NULL, 1, 2, "bad octal escape", 1, 0 },
	{ "lone backslash", false, T("<kernel>\nfile read /a\\\n"), NULL,
	  1, 2, "lone '\\'", 1, 0 },
	{ "\\{ without \\}", false, T("<kernel>\nfile read /a/\\{b/c\n"),
	  NULL, 1, 2, "'/' inside \\{ \\}", 1, 0 },
	{ "\\} without \\{", false, T("<kernel>\nfile read /a/b\\}/c\n"),
	  NULL, 1, 2, "\\} without \\{", 1, 0 },
	{ "nested \\{", false, T("<kernel>\nfile read /a/\\{\\{b\\}\\}/c\n"),
	  NULL, 1, 2, "must come right after '/'", 1, 0 },
	{ "bad escape in a domain name", false,
	  T("<kernel> /bin/\\q\nfile read /x\n"), NULL,
	  2, 1, "\\q", 0, 0 },
	{ "300 acl_groups", true, NULL, 0, acl_groups,
	  44, 257, "acl_group: expected a number from 0 to 255", 0, 256 },
	{ "use_group 256", false, T("<kernel>\nuse_group 256\nuse_group 255\n"),
	  NULL, 1, 2, "not a number from 0 to 255", 1, 0 },
	{ "use_group past 64 bits", false,
	  T("<kernel>\nuse_group 99999999999999999999999\n"), NULL,
	  1, 2, "not a number from 0 to 255", 1, 0 },
};

static void test_policy(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(policy_cases); i++) {
		const struct policy_case *pc = &policy_cases[i];
		struct hm_model *m = hm_model_new();
		struct hm_diag d = { 0 };
		struct hm_policy_counts n;
		char *made = NULL;
		const char *text = pc->text;
		size_t len = pc->len;
		int r;

		assert_non_null(m);
		if (pc->make)
			text = made = pc->make(&len);
		r = pc->exception ?
			hm_policy_parse_exception(m, text, len, HM_DIALECT_26,
						  "p", &d) :
			hm_policy_parse_domain(m, text, len, HM_DIALECT_26,
					       "p", &d);
		hm_policy_count(m, &n);
		if (r != pc->errors || !d.n_msgs || d.msgs[0].line != pc->line ||
		    !strstr(d.msgs[0].text, pc->msg) ||
		    n.domains != pc->domains ||
		    (pc->exception ? n.exception : n.entries) != pc->entries) {
			print_message("%s: %d errors, first %lu: %s; %zu "
				      "domains, %zu entries, %zu exception\n",
				      pc->name, r,
				      d.n_msgs ? d.msgs[0].line : 0,
				      d.n_msgs ? d.msgs[0].text : "-",
				      n.domains, n.entries, n.exception);
			fail();
		}
		/* nothing from a line after a bad header may be in the model */
		for (size_t k = 0; k < m->n_domains; k++)
			for (const struct hm_acl_head *e = m->domains[k]->acl; e;
			     e = e->next) {
				const struct hm_acl_path *p = (const void *)e;

				assert_false(e->kind == HM_ACL_PATH &&
					     p->name.name &&
					     !strcmp(p->name.name->str, "/lost"));
			}
		hm_diag_free(&d);
		hm_model_free(m);
		free(made);
	}
}

/* ----------------------------------------------------------- events */

struct ev {
	struct hm_event e;
	struct hm_ev_path paths[2];
};

static void base(struct ev *v, enum hm_event_kind kind, int64_t pid,
		 int64_t ppid, const char *exe)
{
	memset(v, 0, sizeof(*v));
	v->e.kind = kind;
	v->e.has_syscall = true;
	v->e.success = true;
	v->e.pid = pid;
	v->e.ppid = ppid;
	v->e.exe = (struct hm_bytes){ exe, strlen(exe) };
	v->e.sec = 1700000000;
	v->e.fd = -1;
	v->e.paths = v->paths;
}

static void path(struct ev *v, const char *p)
{
	v->paths[v->e.n_paths].path = (struct hm_bytes){ p, strlen(p) };
	v->paths[v->e.n_paths].mode = S_IFREG | 0755;
	v->e.n_paths++;
}

/* An open by @pid of audit session @ses. */
static int learn_open_ses(struct hm_learner *l, int64_t pid, int64_t ppid,
			  uint32_t ses, const char *exe, const char *p,
			  uint32_t flags)
{
	struct ev v;

	base(&v, HM_EV_OPEN, pid, ppid, exe);
	path(&v, p);
	v.e.ses = ses;
	v.e.open_flags = flags;
	v.e.has_open_flags = true;
	return hm_learner_event(l, &v.e);
}

static int learn_open(struct hm_learner *l, int64_t pid, int64_t ppid,
		      const char *exe, const char *p, uint32_t flags)
{
	return learn_open_ses(l, pid, ppid, 0, exe, p, flags);
}

static int learn_exec(struct hm_learner *l, int64_t pid, int64_t ppid,
		      const char *prog)
{
	struct ev v;

	base(&v, HM_EV_EXEC, pid, ppid, prog);
	path(&v, prog);
	path(&v, "/lib64/ld-linux-x86-64.so.2");
	return hm_learner_event(l, &v.e);
}

static int learn_clone(struct hm_learner *l, int64_t pid, int64_t ppid,
		       int64_t child, const char *exe)
{
	struct ev v;

	base(&v, HM_EV_FORK, pid, ppid, exe);
	v.e.syscall_name = "clone";
	v.e.exit = child;
	v.e.a[0] = 0x1200011;	/* CLONE_CHILD_SETTID|CLEARTID|SIGCHLD */
	return hm_learner_event(l, &v.e);
}

static struct hm_domain *find(struct hm_model *m, const char *name)
{
	const struct hm_name *n = hm_name_lookup(m->names, name, strlen(name));

	return n ? hm_model_find_domain(m, n) : NULL;
}

/* Does domain @dom allow reading @p? */
static bool reads(struct hm_model *m, const char *dom, const char *p)
{
	struct hm_domain *d = find(m, dom);
	struct hm_name n = { .str = p, .len = (uint32_t)strlen(p) };
	struct hm_request r = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
				.name1 = &n };

	hm_name_fill(&n);
	return d && hm_domain_allows(m, d, &r, NULL);
}

/* ------------------------------------------------------------ quota */

/*
 * One process opens @names distinct files.  With a quota the model keeps
 * @entries of them and interns (about) no more names than that: the
 * learner's memory is bounded by max_learning_entry, not by the log.
 */
struct quota_case {
	unsigned names;
	uint32_t max;		/* max_learning_entry; 0: none */
	size_t entries;
	uint64_t hits;
	size_t max_names;	/* in the model afterwards */
};

static const struct quota_case quota_cases[] = {
	{ 50000, 16, 16, 49984, 32 },
	{ 50000, 2048, 2048, 47952, 2048 + 16 },
	{ 3000, 0, 3000, 0, 3000 + 16 },	/* no quota: all kept */
	{ 100, 200, 100, 0, 100 + 16 },
};

static void test_quota(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(quota_cases); i++) {
		const struct quota_case *qc = &quota_cases[i];
		struct hm_model *m = hm_model_new();
		struct hm_learner *l;
		struct hm_learn_stats st;
		struct hm_diag d = { 0 };
		struct hm_domain *dom;
		char p[64];

		assert_non_null(m);
		m->max_learning_entry = qc->max;
		assert_int_equal(hm_learner_new(m, NULL, 1, &d, &l), 0);
		for (unsigned k = 1; k <= qc->names; k++) {
			snprintf(p, sizeof(p), "/tmp/m/f%07u", k);
			assert_true(learn_open(l, 500, 1, "/bin/names", p,
					       O_RDONLY) >= 0);
		}
		/* a full domain still widens an entry it has ... */
		assert_int_equal(learn_open(l, 500, 1, "/bin/names",
					    "/tmp/m/f0000001", O_WRONLY), 1);
		/* ... but takes nothing new */
		hm_learner_stats(l, &st);
		dom = find(m, "<kernel> /bin/names");
		assert_non_null(dom);
		if (dom->n_acl != qc->entries || st.quota_hits != qc->hits ||
		    hm_names_count(m->names) > qc->max_names) {
			print_message("case %zu: %zu entries, %llu hits, %zu "
				      "names\n", i, dom->n_acl,
				      (unsigned long long)st.quota_hits,
				      hm_names_count(m->names));
			fail();
		}
		assert_int_equal(!!(dom->flags & HM_DOMAIN_QUOTA_EXCEEDED),
				 qc->hits > 0);
		assert_int_equal(d.n_warnings, qc->hits > 0);
		hm_diag_free(&d);
		hm_learner_free(l);
		hm_model_free(m);
	}
}

/* ------------------------------------------------------ exec chains */

/*
 * @execs nested execs of one program of @len bytes: a domain per exec
 * until the name would pass HM_MAX_DOMAIN, then failed transitions,
 * counted, with the process staying in the deepest domain.
 */
struct chain_case {
	size_t len;
	unsigned execs;
	size_t domains;		/* created, <kernel> not counted */
};

static const struct chain_case chain_cases[] = {
	/* 8 + k * (len + 1) <= HM_MAX_DOMAIN (4095, TOMOYO's) */
	{ 1000, 100, 4 },
	{ 4000, 20, 1 },
	{ 4086, 3, 1 },		/* exactly at the limit */
	{ 100, 800, 40 },
	{ 2, 10, 10 },
};

static void test_exec_chain(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(chain_cases); i++) {
		const struct chain_case *cc = &chain_cases[i];
		struct hm_model *m = hm_model_new();
		struct hm_learner *l;
		struct hm_tracker_stats ts;
		struct hm_domain *deep = NULL;
		char *prog = malloc(cc->len + 1);
		int64_t pid = 10000;

		assert_non_null(m);
		assert_non_null(prog);
		memset(prog, 'p', cc->len);
		prog[0] = '/';
		prog[cc->len] = '\0';
		assert_int_equal(hm_learner_new(m, NULL, 1, NULL, &l), 0);
		assert_int_equal(learn_exec(l, pid, 1, prog), 0);
		for (unsigned k = 1; k < cc->execs; k++, pid++)
			assert_true(learn_exec(l, pid + 1, pid, prog) >= 0);
		assert_true(learn_open(l, pid, pid - 1, prog, "/tmp/end",
				       O_RDONLY) >= 0);
		hm_tracker_stats(hm_walker_tracker(hm_learner_walker(l)), &ts);
		for (size_t k = 0; k < m->n_domains; k++) {
			assert_true(m->domains[k]->name->len <= HM_MAX_DOMAIN);
			if (!deep || m->domains[k]->name->len > deep->name->len)
				deep = m->domains[k];
		}
		if (m->n_domains != cc->domains + 1 ||
		    ts.too_long != cc->execs - cc->domains) {
			print_message("len %zu: %zu domains, %llu too long\n",
				      cc->len, m->n_domains,
				      (unsigned long long)ts.too_long);
			fail();
		}
		assert_int_equal(!!(deep->flags & HM_DOMAIN_TRANSITION_FAILED),
				 cc->execs > cc->domains);
		assert_true(reads(m, deep->name->str, "/tmp/end"));
		hm_learner_free(l);
		hm_model_free(m);
		free(prog);
	}
}

/* A 100,000-deep fork chain: the deepest child acts in the top domain
 * (no recursion on the way), and its exec goes one level down. */
static void test_fork_chain(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_tracker_stats ts;
	const int64_t top = 100000, depth = 100000;

	(void)state;
	assert_non_null(m);
	assert_int_equal(hm_learner_new(m, NULL, 1, NULL, &l), 0);
	assert_int_equal(learn_exec(l, top, 1, "/bin/forker"), 0);
	for (int64_t p = top; p < top + depth; p++)
		assert_int_equal(learn_clone(l, p, p == top ? 1 : p - 1, p + 1,
					     "/bin/forker"), 0);
	assert_int_equal(learn_open(l, top + depth, top + depth - 1,
				    "/bin/forker", "/tmp/fork-end", O_RDONLY), 1);
	assert_true(learn_exec(l, top + depth, top + depth - 1,
			       "/bin/leaf") >= 0);
	assert_true(reads(m, "<kernel> /bin/forker", "/tmp/fork-end"));
	assert_non_null(find(m, "<kernel> /bin/forker /bin/leaf"));
	hm_tracker_stats(hm_walker_tracker(hm_learner_walker(l)), &ts);
	assert_int_equal(ts.procs, depth + 1);
	assert_int_equal(ts.evictions, 0);
	hm_learner_free(l);
	hm_model_free(m);
}

/*
 * pid 500 again and again with ppid 1000, 1001 and 1 in turn: each time
 * a new process in its parent's domain (or unobserved under init, told
 * from a reparented one by its audit session: an exe= proves nothing),
 * the table stays at four processes, and every reuse is counted.
 */
static void test_pid_reuse(void **state)
{
	static const struct {
		int64_t ppid;
		uint32_t ses;
		const char *exe;
		const char *file;
		const char *domain;
	} turn[] = {
		{ 1000, 0, "/bin/a", "/tmp/reuse-a", "<kernel> /bin/a" },
		{ 1001, 0, "/bin/b", "/tmp/reuse-b", "<kernel> /bin/b" },
		{ 1, UINT32_MAX, "/bin/orphan", "/tmp/reuse-init",
		  "<kernel> /bin/orphan" },
	};
	const unsigned rounds = 30000;
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_tracker_stats ts;

	(void)state;
	assert_non_null(m);
	assert_int_equal(hm_learner_new(m, NULL, 1, NULL, &l), 0);
	assert_int_equal(learn_exec(l, 1000, 1, "/bin/a"), 0);
	assert_int_equal(learn_exec(l, 1001, 1, "/bin/b"), 0);
	for (unsigned k = 0; k < rounds; k++) {
		size_t t = k % HM_ARRAY_SIZE(turn);

		assert_true(learn_open_ses(l, 500, turn[t].ppid, turn[t].ses,
					   turn[t].exe, turn[t].file,
					   O_RDONLY) >= 0);
	}
	for (size_t t = 0; t < HM_ARRAY_SIZE(turn); t++) {
		assert_true(reads(m, turn[t].domain, turn[t].file));
		for (size_t o = 0; o < HM_ARRAY_SIZE(turn); o++)
			if (o != t)
				assert_false(reads(m, turn[t].domain,
						   turn[o].file));
	}
	hm_tracker_stats(hm_walker_tracker(hm_learner_walker(l)), &ts);
	assert_int_equal(ts.pid_reuse, rounds - 1);
	assert_int_equal(ts.procs, 3);
	hm_learner_free(l);
	hm_model_free(m);
}

/* ------------------------------------------------------------- argv */

/*
 * argv of exactly HM_COLLECTOR_MAX_ARGV bytes is delivered whole; one
 * byte more is cut, flagged and counted.  One argument in 4,000-byte
 * chunks, ten per EXECVE record, as the kernel splits them.
 */
static void test_argv_cap(void **state)
{
	static const struct {
		size_t bytes;
		bool cut;
	} cases[] = {
		{ HM_COLLECTOR_MAX_ARGV, false },
		{ HM_COLLECTOR_MAX_ARGV + 1, true },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		size_t arg = cases[i].bytes - 2;	/* a0 is "/x" */
		size_t cap = arg * 2 + 4096;
		char *text = malloc(cap);
		struct hm_collector *c;
		const struct hm_event *ev;
		size_t len, total = 0;
		int n = 0;

		assert_non_null(text);
		len = (size_t)snprintf(text, cap,
			"type=SYSCALL msg=audit(1700000000.001:1): arch=c000003e syscall=59 success=yes exit=0 a0=0 a1=0 a2=0 a3=0 items=1 ppid=1 pid=7 exe=\"/x\"\n"
			"type=EXECVE msg=audit(1700000000.001:1): argc=2 a0=\"/x\" a1_len=%zu", arg);
		for (size_t off = 0, k = 0; off < arg; off += 4000, k++) {
			size_t chunk = arg - off < 4000 ? arg - off : 4000;

			if (k && k % 10 == 0)
				len += (size_t)snprintf(text + len, cap - len,
					"\ntype=EXECVE msg=audit(1700000000.001:1):");
			len += (size_t)snprintf(text + len, cap - len,
						" a1[%zu]=\"", k);
			memset(text + len, 'z', chunk);
			len += chunk;
			text[len++] = '"';
		}
		len += (size_t)snprintf(text + len, cap - len,
			"\ntype=EOE msg=audit(1700000000.001:1): \n");
		assert_int_equal(hm_collector_open_buffer(&c, text, len, "argv",
							  NULL), 0);
		while (hm_collector_next(c, &ev) > 0) {
			n++;
			assert_int_equal(ev->kind, HM_EV_EXEC);
			assert_int_equal(ev->argv_truncated, cases[i].cut);
			for (uint32_t a = 0; a < ev->argc; a++)
				total += ev->argv[a].len;
		}
		assert_int_equal(n, 1);
		/* a cut keeps whole chunks up to the cap */
		if (cases[i].cut)
			assert_in_range(total, HM_COLLECTOR_MAX_ARGV - 4000,
					HM_COLLECTOR_MAX_ARGV);
		else
			assert_int_equal(total, cases[i].bytes);
		assert_int_equal(hm_collector_stats(c)->skipped[HM_SKIP_ARGV_CUT],
				 cases[i].cut);
		hm_collector_free(c);
		free(text);
	}
}

/* ---------------------------------------------------- process table */

/* A line longer than any hm_tracker_save() writes, or one with a NUL
 * byte, is reported and skipped; the lines after it load. */
static void test_state_lines(void **state)
{
	char path[] = "/tmp/hm-test-state.XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, false, 0);
	struct hm_proc_view v;
	struct hm_diag d = { 0 };

	(void)state;
	assert_true(fd >= 0);
	assert_non_null(t);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("# histmac process table v1\n4 1 0 0 /bin/x <kernel> /", f);
	for (int i = 0; i < 1 << 20; i++)
		fputc('x', f);
	/* line 3 holds a NUL byte; the last line has no newline */
	fwrite(T("\n5 1 0 0 /bin/y <kernel> /bin/y\0z\n"
		 "6 1 0 0 /bin/z <kernel> /bin/z\n"
		 "7 1 0 0 /bin/last <kernel> /bin/last"), 1, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(hm_tracker_load(t, path, &d, NULL, NULL), 2);
	assert_int_equal(d.n_errors, 2);
	assert_int_equal(d.msgs[0].line, 2);
	assert_non_null(strstr(d.msgs[0].text, "longer than"));
	assert_int_equal(d.msgs[1].line, 3);
	assert_false(hm_tracker_lookup(t, 4, &v));
	assert_false(hm_tracker_lookup(t, 5, &v));
	assert_true(hm_tracker_lookup(t, 6, &v));
	assert_string_equal(v.name->str, "<kernel> /bin/z");
	assert_true(hm_tracker_lookup(t, 7, &v));
	assert_string_equal(v.name->str, "<kernel> /bin/last");
	unlink(path);
	hm_diag_free(&d);
	hm_tracker_free(t);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_quota),
		cmocka_unit_test(test_exec_chain),
		cmocka_unit_test(test_fork_chain),
		cmocka_unit_test(test_pid_reuse),
		cmocka_unit_test(test_argv_cap),
		cmocka_unit_test(test_state_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
