// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_oom.c - out of memory, at every allocation: the policy readers
 * (TOMOYO text in two dialects, XML), the model they build, the check
 * report reader, the collector and the learner.  Linked with -Wl,--wrap for malloc, calloc, realloc,
 * strdup, strndup, asprintf and vasprintf (tests/unit/CMakeLists), so the
 * Nth allocation our code makes returns NULL; libraries we call (auparse,
 * libxml2) allocate as usual.  For N = 1, 2, ... until the operation makes
 * fewer than N allocations, it must either fail cleanly (-ENOMEM) or
 * succeed with exactly the result of a run without failures (nothing
 * silently lost).  Leaks and invalid accesses on the failure paths are
 * found by running it under memcheck (scripts/valgrind.sh, every unit
 * test) or in a HISTMAC_SANITIZE build (LeakSanitizer).
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

#include "histmac/collector.h"
#include "histmac/check_result.h"
#include "histmac/exporter.h"
#include "histmac/history.h"
#include "histmac/owners.h"
#include "histmac/packages.h"
#include "histmac/learn.h"
#include "histmac/model.h"
#include "histmac/policy_io.h"
#include "histmac/xml_import.h"

/* ------------------------------------------------ failing allocations */

static unsigned long fail_at;	/* 0: never fail */
static unsigned long n_allocs;
static bool failed;

static bool fail_now(void)
{
	if (!fail_at)
		return false;
	if (++n_allocs != fail_at)
		return false;
	failed = true;
	return true;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_vasprintf(char **out, const char *fmt, va_list ap);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
int __wrap_vasprintf(char **out, const char *fmt, va_list ap);
int __wrap_asprintf(char **out, const char *fmt, ...);

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now() ? NULL : __real_strndup(s, n);
}

int __wrap_vasprintf(char **out, const char *fmt, va_list ap)
{
	return fail_now() ? -1 : __real_vasprintf(out, fmt, ap);
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = __wrap_vasprintf(out, fmt, ap);
	va_end(ap);
	return r;
}

/* ------------------------------------------------------------- driver */

/*
 * An operation: runs once, frees everything it made, and returns 0 with
 * its result as text in *@out (malloc()ed with __real_malloc's heap), or
 * a negative errno.
 */
typedef int (*op_fn)(const void *arg, char **out);

static char *copy_result(const char *s, size_t len)
{
	char *r = __real_malloc(len + 1);

	assert_non_null(r);
	memcpy(r, s, len);
	r[len] = '\0';
	return r;
}

/* Run @op with the Nth allocation failing, for every N. */
static void every_allocation(const char *what, op_fn op, const void *arg)
{
	char *want = NULL;
	char *got;
	unsigned long n;
	int r;

	/* once for one-time setup in libraries (auparse, libxml2) ... */
	assert_int_equal(op(arg, &want), 0);
	free(want);
	/* ... then the reference */
	assert_int_equal(op(arg, &want), 0);
	for (n = 1;; n++) {
		got = NULL;
		fail_at = n;
		n_allocs = 0;
		failed = false;
		r = op(arg, &got);
		fail_at = 0;
		if (r == 0 && strcmp(got, want)) {
			fail_msg("%s: allocation %lu failed, result differs:\n"
				 "%.400s\n---- want\n%.400s", what, n, got, want);
		}
		if (r != 0 && r != -ENOMEM)
			fail_msg("%s: allocation %lu failed: %d, want -ENOMEM",
				 what, n, r);
		free(got);
		if (!failed)
			break;	/* ran to the end with fewer allocations */
	}
	print_message("%s: %lu allocations, each failed once\n", what, n - 1);
	free(want);
}

/* -------------------------------------------------------------- model */

/* The policy (1.8 text), its stamps (histmac_entries.conf) and saves
 * (histmac_saves.conf). */
static int model_text(const struct hm_model *m, char **out)
{
	char *dom = NULL, *exc = NULL;
	struct hm_file_out h = { 0 }, sv = { 0 };
	size_t dn, en, hn, sn;
	int r;

	r = hm_policy_format_domain(m, HM_DIALECT_18, &dom, &dn, NULL);
	if (!r)
		r = hm_policy_format_exception(m, HM_DIALECT_18, &exc, &en,
					       NULL);
	if (!r)
		r = hm_history_text(m, &h);
	if (!r)
		r = hm_saves_text(m, &sv);
	hn = h.text ? h.len : 0;
	sn = sv.text ? sv.len : 0;
	if (!r) {
		*out = __real_malloc(dn + en + hn + sn + 1);
		if (!*out)
			r = -ENOMEM;
	}
	if (!r) {
		memcpy(*out, dom, dn);
		memcpy(*out + dn, exc, en);
		if (hn)
			memcpy(*out + dn + en, h.text, hn);
		if (sn)
			memcpy(*out + dn + en + hn, sv.text, sn);
		(*out)[dn + en + hn + sn] = '\0';
	}
	free(dom);
	free(exc);
	free((char *)h.text);
	free((char *)sv.text);
	return r;
}

struct load_arg {
	const char *dir;
	int dialect;
};

static int op_load(const void *arg, char **out)
{
	const struct load_arg *a = arg;
	struct hm_diag d = { 0 };
	struct hm_model *m = hm_model_new();
	int r;

	if (!m)
		return -ENOMEM;
	r = hm_policy_load_dir(m, a->dir, a->dialect, &d);
	if (r > 0)
		r = -EINVAL;	/* a clean policy: errors can only be OOM */
	if (d.n_errors && r == 0)
		r = -EINVAL;
	if (!r)
		r = model_text(m, out);
	hm_diag_free(&d);
	hm_model_free(m);
	return r;
}

static void test_policy_load(void **state)
{
	static const struct load_arg sample = {
		HM_SOURCE_DIR "/samples/policy/apache2-2007", -1,
	};
	static const struct load_arg modern = {
		HM_SOURCE_DIR "/tests/golden/policy-modern-18", -1,
	};

	(void)state;
	every_allocation("load apache2-2007 (2.1)", op_load, &sample);
	every_allocation("load policy-modern-18 (1.8)", op_load, &modern);
}

/* Every file the entries name owned by one of two packages ("object"
 * lines). */
static void own_files(struct hm_model *m)
{
	const struct hm_name **v = NULL, *p[2], *ver;
	size_t n = 0;

	assert_int_equal(hm_model_files(m, &v, &n), 0);
	assert_true(n > 1);
	assert_int_equal(hm_model_intern(m, "p0", 2, &p[0]), 0);
	assert_int_equal(hm_model_intern(m, "p1", 2, &p[1]), 0);
	assert_int_equal(hm_model_intern(m, "1.0-1", 5, &ver), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(hm_owner_set(m, v[i], p[i % 2], ver), 0);
	free(v);
}

/* The owners of files in tests/data/dpkg: lists, status, diversions. */
static int op_owners(const void *arg, char **out)
{
	static const char *const paths[] = {
		"/usr/bin/a", "/bin/a", "/usr/lib/b.so", "/usr/bin/d",
		"/usr/bin/x", "/usr/bin/x.a", "/etc/a.conf", "/etc/a.conf.dpkg",
	};
	char *pkg[HM_ARRAY_SIZE(paths)], *ver[HM_ARRAY_SIZE(paths)];
	char text[512] = "";
	int r = hm_packages_owners(arg, paths, HM_ARRAY_SIZE(paths), pkg, ver);

	for (size_t i = 0; i < HM_ARRAY_SIZE(paths); i++) {
		if (!r)
			snprintf(text + strlen(text), sizeof(text) - strlen(text),
				 "%s %s %s\n", paths[i], pkg[i] ? pkg[i] : "-",
				 ver[i] ? ver[i] : "-");
		free(pkg[i]);
		free(ver[i]);
	}
	if (!r)
		*out = copy_result(text, strlen(text));
	return r;
}

/* A policy stamped from that database, and merged into an empty one:
 * its histmac_entries.conf text (package and object lines). */
static int op_stamp(const void *arg, char **out)
{
	static const char text[] = "<kernel> /usr/bin/a\nuse_profile 1\n"
		"file read /usr/share/a/two\\040words\nfile read /usr/bin/x.a\n"
		"file rename /usr/bin/x /usr/lib/b.so\n";
	struct hm_model *m = hm_model_new(), *c = hm_model_new();
	struct hm_file_out h = { 0 };
	int r = m && c ? 0 : -ENOMEM;

	if (!r)
		r = hm_policy_parse_domain(m, text, sizeof(text) - 1,
					   HM_DIALECT_26, "t", NULL);
	if (!r)
		r = hm_packages_stamp(m, arg);
	if (!r && hm_model_merge(c, m) < 0)
		r = -ENOMEM;
	if (!r)
		r = hm_history_text(c, &h);
	if (!r)
		*out = copy_result(h.text ? h.text : "", h.text ? h.len : 0);
	free((char *)h.text);
	hm_model_free(m);
	hm_model_free(c);
	return r;
}

static void test_packages(void **state)
{
	char *text = NULL;

	(void)state;
	every_allocation("owners from a dpkg database", op_owners,
			 HM_SOURCE_DIR "/tests/data/dpkg");
	every_allocation("stamp and merge a policy's packages", op_stamp,
			 HM_SOURCE_DIR "/tests/data/dpkg");
	assert_int_equal(op_stamp(HM_SOURCE_DIR "/tests/data/dpkg", &text), 0);
	assert_non_null(strstr(text, "package a 1.0-1\n"));
	assert_non_null(strstr(text, "object a 1.0-1 /usr/bin/x.a\n"));
	assert_non_null(strstr(text, "object b 2:3 /usr/bin/x\n"));
	free(text);
}

/* A policy saved with stamps on every entry and save records: its
 * histmac_entries.conf and histmac_saves.conf are read back under every
 * failed allocation too. */
static void test_history_load(void **state)
{
	static const char *const files[] = {
		"domain_policy.conf", "exception_policy.conf", "rewrite.conf",
		"profile.conf", "manager.conf", HM_HISTORY_FILE, HM_SAVES_FILE,
	};
	char dir[] = "/tmp/hm-test-oom-history.XXXXXX";
	struct load_arg stamped = { dir, -1 };
	struct hm_model *m = hm_model_new();
	int64_t t = 1000;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(hm_policy_load_dir(m, HM_SOURCE_DIR
					    "/tests/golden/policy-modern-18",
					    -1, NULL), 0);
	for (size_t i = 0; i < m->n_domains; i++) {
		m->domains[i]->quiet_events = i;
		for (struct hm_acl_head *e = m->domains[i]->acl; e; e = e->next)
			e->hist = (struct hm_acl_hist){ t, t + 1, 2, t + 2 }, t++;
	}
	for (int i = 0; i < 40; i++)	/* past the array's first growth */
		assert_int_equal(hm_model_add_save(m, &(struct hm_save_rec){
				 t + i, 10, 2, 1 }), 0);
	own_files(m);
	assert_int_equal(hm_policy_save_dir(m, dir, HM_DIALECT_18, 0, NULL), 0);
	hm_model_free(m);
	every_allocation("load a policy with histmac_entries.conf", op_load,
			 &stamped);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p;

		assert_true(asprintf(&p, "%s/%s", dir, files[i]) > 0);
		unlink(p);
		free(p);
	}
	assert_int_equal(rmdir(dir), 0);
}

static int op_xml(const void *arg, char **out)
{
	struct hm_diag d = { 0 };
	struct hm_model *m = NULL;
	int r = hm_xml_import(arg, NULL, &d, &m);

	if (!r)
		r = model_text(m, out);
	hm_model_free(m);
	hm_diag_free(&d);
	return r;
}

static void test_xml_import(void **state)
{
	(void)state;
	every_allocation("xml import", op_xml,
			 HM_SOURCE_DIR "/tests/golden/export-xml/apache2-2007.xml");
}

/* Every domain of a check report: name, count, lines. */
static int op_check_json(const void *arg, char **out)
{
	const char *json = arg;
	struct hm_check_result *res = NULL;
	struct hm_diag d = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int r = hm_check_result_parse(json, strlen(json), "seed-check.json", &d,
				      &res);

	hm_diag_free(&d);
	if (r)
		return r;
	f = open_memstream(&text, &len);	/* libc's heap: never fails */
	assert_non_null(f);
	for (size_t i = 0; i < res->n_domains; i++) {
		const struct hm_check_domain *cd = &res->domains[i];

		fprintf(f, "%s %zu\n", cd->name, cd->count);
		for (size_t k = 0; k < cd->n_lines; k++)
			fprintf(f, "  %s\n", cd->lines[k]);
	}
	fclose(f);
	hm_check_result_free(res);
	*out = text;
	return 0;
}

static void test_check_json(void **state)
{
	static char json[65536];
	FILE *f = fopen(HM_SOURCE_DIR
			"/tests/fuzz/corpus/check_json/seed-check.json", "re");
	size_t n;

	(void)state;
	assert_non_null(f);
	n = fread(json, 1, sizeof(json) - 1, f);
	fclose(f);
	json[n] = '\0';
	every_allocation("check report (json)", op_check_json, json);
}

/* ---------------------------------------------------------- collector */

static const char *const logs[] = {
	HM_TEST_DATA "/exec.log",
	HM_TEST_DATA "/file.log",
	HM_TEST_DATA "/net.log",
};

/* Every event's kind, pid, paths and argc, one line each. */
static int op_collect(const void *arg, char **out)
{
	struct hm_collector_opts o;
	struct hm_collector *c;
	const struct hm_event *ev;
	char *text = NULL;
	size_t len = 0, cap = 0;
	int r;

	(void)arg;
	hm_collector_opts_init(&o);
	r = hm_collector_open_files(&c, logs, HM_ARRAY_SIZE(logs), &o);
	if (r)
		return r;
	while ((r = hm_collector_next(c, &ev)) > 0) {
		char line[8192];
		int n = snprintf(line, sizeof(line), "%d %lld %u %.*s %.*s %u\n",
				 (int)ev->kind, (long long)ev->pid,
				 ev->n_paths,
				 ev->n_paths ? (int)ev->paths[0].path.len : 0,
				 ev->n_paths ? ev->paths[0].path.s : "",
				 (int)ev->exe.len, ev->exe.s ? ev->exe.s : "",
				 ev->argc);

		if (len + (size_t)n + 1 > cap) {
			cap = (len + (size_t)n + 1) * 2;
			text = __real_realloc(text, cap);
			assert_non_null(text);
		}
		memcpy(text + len, line, (size_t)n + 1);
		len += (size_t)n;
	}
	hm_collector_free(c);
	if (r < 0) {
		free(text);
		return r;
	}
	*out = text ? text : copy_result("", 0);
	return 0;
}

static void test_collector(void **state)
{
	(void)state;
	every_allocation("collector", op_collect, NULL);
}

/* ------------------------------------------------------------ learner */

static int op_learn(const void *arg, char **out)
{
	struct hm_collector_opts co;
	struct hm_learn_opts lo;
	struct hm_collector *c = NULL;
	struct hm_learner *l = NULL;
	struct hm_model *m = hm_model_new();
	struct hm_diag d = { 0 };
	const struct hm_event *ev;
	int r;

	(void)arg;
	if (!m)
		return -ENOMEM;
	hm_collector_opts_init(&co);
	hm_learn_opts_default(&lo);
	r = hm_learner_new(m, &lo, 1, &d, &l);
	if (!r)
		r = hm_collector_open_files(&c, logs, HM_ARRAY_SIZE(logs), &co);
	while (!r && (r = hm_collector_next(c, &ev)) > 0) {
		r = hm_learner_event(l, ev);
		if (r > 0)
			r = 0;
	}
	if (!r)
		r = model_text(m, out);
	hm_collector_free(c);
	hm_learner_free(l);
	hm_model_free(m);
	hm_diag_free(&d);
	return r;
}

static void test_learn(void **state)
{
	(void)state;
	every_allocation("learn", op_learn, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_load),
		cmocka_unit_test(test_history_load),
		cmocka_unit_test(test_packages),
		cmocka_unit_test(test_xml_import),
		cmocka_unit_test(test_check_json),
		cmocka_unit_test(test_collector),
		cmocka_unit_test(test_learn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
