// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_owners.c - the packages of the files entries name (owners.h):
 * which operands are files, the "object" lines of histmac_entries.conf
 * written and read back (a bad one reported as FILE:LINE, one of a file
 * no entry names skipped), merge keeping the first policy's, and diff
 * putting a changed entry under its file's package, not its domain's.
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
#include "histmac/owners.h"
#include "histmac/policy_diff.h"
#include "policy_fixture.h"

static const struct hm_name *name(struct hm_model *m, const char *s)
{
	const struct hm_name *n;

	assert_int_equal(hm_model_intern(m, s, strlen(s), &n), 0);
	return n;
}

static void own(struct hm_model *m, const char *path, const char *pkg,
		const char *ver)
{
	assert_int_equal(hm_owner_set(m, name(m, path), name(m, pkg),
				      name(m, ver)), 0);
}

static void stamp(struct hm_model *m, const char *domain, const char *pkg,
		  const char *ver)
{
	struct hm_domain *d = NULL;

	assert_true(hm_model_domain(m, domain, strlen(domain), false, &d) >= 0);
	assert_non_null(d);
	d->package = name(m, pkg);
	d->package_version = name(m, ver);
}

static const char *const policy =
	"<kernel> /usr/bin/r\nuse_profile 1\n"
	"file read /usr/share/d/t\nfile read /etc/y\n"
	"file read /usr/share/d/\nfile read /usr/share/d/\\*.conf\n"
	"file rename /usr/share/d/a /usr/share/d/b\n"
	"file read proc:/self/stat\n";

/* Files: absolute, no pattern, no directory; both of a rename. */
static void test_files(void **state)
{
	struct hm_model *m = parse(policy);
	const struct hm_name **v = NULL;
	const char *want[] = { "/etc/y", "/usr/share/d/a", "/usr/share/d/b",
			       "/usr/share/d/t" };
	size_t n = 0;

	(void)state;
	assert_int_equal(hm_model_files(m, &v, &n), 0);
	assert_int_equal(n, HM_ARRAY_SIZE(want));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v[i]->str, want[i]);
	free(v);
	hm_model_free(m);
}

static void write_file(const char *dir, const char *text)
{
	char *path;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s", dir, HM_HISTORY_FILE) > 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static void remove_file(const char *dir)
{
	char *path;

	assert_true(asprintf(&path, "%s/%s", dir, HM_HISTORY_FILE) > 0);
	assert_int_equal(unlink(path), 0);
	free(path);
	assert_int_equal(rmdir(dir), 0);
}

/* Written after the domains, by file; read back onto the same files. */
static void test_roundtrip(void **state)
{
	char dir[] = "/tmp/hm-test-owners.XXXXXX";
	struct hm_model *m = parse(policy), *n = parse(policy);
	struct hm_diag diag = { 0 };
	struct hm_file_out out;
	const struct hm_owner *o;
	char *text, *line;

	(void)state;
	assert_non_null(mkdtemp(dir));
	own(m, "/usr/share/d/t", "d", "1.0");
	own(m, "/usr/share/d/b", "d", "1.0");
	own(m, "/usr/share/gone", "d", "1.0");	/* no entry names it */
	stamp(m, "<kernel> /usr/bin/r", "r", "2:1.0-1");
	assert_int_equal(hm_history_text(m, &out), 0);
	assert_non_null(out.text);
	assert_non_null(strstr(out.text, "package r 2:1.0-1\n# the Debian "
			       "package and version of each file named, when "
			       "learned\nobject d 1.0 /usr/share/d/b\n"
			       "object d 1.0 /usr/share/d/t\n"));
	assert_null(strstr(out.text, "/usr/share/gone"));
	assert_true(asprintf(&text, "%s%s", out.text,
			     "object d /usr/share/d/a\n"
			     "object e 3 /usr/share/elsewhere\n") > 0);
	free((char *)out.text);
	write_file(dir, text);
	free(text);

	assert_int_equal(hm_history_read(n, dir, &diag), 0);
	o = hm_owner_of(n, name(n, "/usr/share/d/t"));
	assert_non_null(o);
	assert_string_equal(o->package->str, "d");
	assert_string_equal(o->version->str, "1.0");
	assert_non_null(hm_owner_of(n, name(n, "/usr/share/d/b")));
	assert_null(hm_owner_of(n, name(n, "/usr/share/d/a")));
	assert_null(hm_owner_of(n, name(n, "/etc/y")));
	assert_string_equal(hm_owner_version(n, name(n, "r"))->str, "2:1.0-1");
	assert_int_equal(diag.n_warnings, 1);
	line = hm_diag_format(&diag.msgs[0]);
	assert_non_null(strstr(line, HM_HISTORY_FILE ":9: warning: expected "
			       "object PACKAGE VERSION FILE"));
	free(line);
	hm_diag_free(&diag);
	remove_file(dir);
	hm_model_free(m);
	hm_model_free(n);
}

/* Merge: rows the first policy lacks, the first's where both have one. */
static void test_merge(void **state)
{
	struct hm_model *a = parse(policy), *b = parse(policy);
	struct hm_model *c = hm_model_new();

	(void)state;
	assert_non_null(c);
	own(a, "/usr/share/d/t", "d", "1.0");
	own(b, "/usr/share/d/t", "d", "2.0");
	own(b, "/etc/y", "base-files", "12");
	assert_true(hm_model_merge(c, a) >= 0);
	assert_true(hm_model_merge(c, b) >= 0);
	assert_string_equal(hm_owner_of(c, name(c, "/usr/share/d/t"))->version
			    ->str, "1.0");
	assert_string_equal(hm_owner_of(c, name(c, "/etc/y"))->package->str,
			    "base-files");
	hm_model_free(a);
	hm_model_free(b);
	hm_model_free(c);
}

/*
 * r (package r, not upgraded) reads d's table, which d 2.0 renamed: the
 * read under d's upgrade, r's own change under r; a program d added is in
 * d's block too.
 */
static void test_diff(void **state)
{
	struct hm_model *a = parse("<kernel> /usr/bin/r\nuse_profile 1\n"
				   "file read /usr/share/d/t1\n");
	struct hm_model *b = parse("<kernel> /usr/bin/r\nuse_profile 2\n"
				   "file read /usr/share/d/t2\n"
				   "<kernel> /usr/bin/dnew\nuse_profile 1\n");
	struct hm_sbuf out = { 0 };
	size_t n = 0;

	(void)state;
	stamp(a, "<kernel> /usr/bin/r", "r", "1");
	stamp(b, "<kernel> /usr/bin/r", "r", "1");
	stamp(b, "<kernel> /usr/bin/dnew", "d", "2.0");
	own(a, "/usr/share/d/t1", "d", "1.0");
	own(b, "/usr/share/d/t2", "d", "2.0");
	assert_int_equal(hm_policy_diff(&out, &n, a, b), 0);
	assert_string_equal(hm_sbuf_str(&out),
			    "# package d 1.0 -> 2.0\n"
			    "+<kernel> /usr/bin/dnew\n"
			    "+use_profile 1\n"
			    "\n"
			    "<kernel> /usr/bin/r\n"
			    "-file read /usr/share/d/t1\n"
			    "+file read /usr/share/d/t2\n"
			    "\n"
			    "# package r 1\n"
			    "<kernel> /usr/bin/r\n"
			    "-use_profile 1\n"
			    "+use_profile 2\n"
			    "\n");
	assert_int_equal(n, 6);
	hm_sbuf_free(&out);
	hm_model_free(a);
	hm_model_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
