// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_packages.c - hm_packages_owners() (formats/packages.c) on the dpkg
 * database of tests/data/dpkg (README there): owners and installed
 * versions, an ":arch" list, a merged-/usr alias, a package not installed, a file two packages ship
 * with a diversion (the diverting package's file stays, the other's is at
 * the new name), an administrator's diversion, and a diversions file
 * whose first line is not part of a triple; a policy stamped from it (a
 * file named with a TOMOYO escape), and a save that stamps while it
 * renders (hm_policy_save_dir_stamped()) writing what a stamp and then a
 * save write; and many at once: wants that repeat, among names no
 * package lists, and a policy of thousands of files named twice.
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
#include "histmac/packages.h"
#include "histmac/sbuf.h"
#include "policy_fixture.h"

static const struct {
	const char *path;
	const char *pkg, *ver;	/* NULL: no owner */
} cases[] = {
	{ "/usr/bin/a", "a", "1.0-1" },
	{ "/bin/a", "a", "1.0-1" },		/* merged-/usr alias */
	{ "/usr/lib/b.so", "b", "2:3" },	/* b:amd64.list */
	{ "/usr/bin/d", NULL, NULL },		/* d is not installed */
	{ "/usr/bin/x", "b", "2:3" },		/* b diverted a's away */
	{ "/usr/bin/x.a", "a", "1.0-1" },	/* where a's went */
	{ "/etc/a.conf", NULL, NULL },		/* the administrator's */
	{ "/etc/a.conf.dpkg", "a", "1.0-1" },
	{ "/usr/share/none", NULL, NULL },
};

static void test_owners(void **state)
{
	const char *paths[HM_ARRAY_SIZE(cases)];
	char *pkg[HM_ARRAY_SIZE(cases)], *ver[HM_ARRAY_SIZE(cases)];

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++)
		paths[i] = cases[i].path;
	assert_int_equal(hm_packages_owners(HM_SOURCE_DIR "/tests/data/dpkg",
					    paths, HM_ARRAY_SIZE(cases),
					    pkg, ver), 0);
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		if (!cases[i].pkg) {
			if (pkg[i] || ver[i])
				fail_msg("%s: owned by %s", cases[i].path,
					 pkg[i]);
			continue;
		}
		if (!pkg[i] || strcmp(pkg[i], cases[i].pkg) ||
		    strcmp(ver[i], cases[i].ver))
			fail_msg("%s: %s %s, not %s %s", cases[i].path,
				 pkg[i] ? pkg[i] : "-", ver[i] ? ver[i] : "-",
				 cases[i].pkg, cases[i].ver);
		free(pkg[i]);
		free(ver[i]);
	}
}

/* A policy stamped from the database: its domain's program, and its
 * files by their TOMOYO names (\\040 is a space in the list). */
static void test_stamp(void **state)
{
	struct hm_model *m = parse("<kernel> /usr/bin/a\nuse_profile 1\n"
				   "file read /usr/share/a/two\\040words\n"
				   "file read /usr/bin/x.a\n"
				   "file read /usr/bin/d\n");
	static const char *const owned[] = {
		"/usr/share/a/two\\040words", "/usr/bin/x.a",
	};
	const struct hm_name *n;
	struct hm_domain *d = NULL;

	(void)state;
	assert_int_equal(hm_packages_stamp(m, HM_SOURCE_DIR
					   "/tests/data/dpkg"), 0);
	assert_true(hm_model_domain(m, "<kernel> /usr/bin/a", 19, false,
				    &d) >= 0);
	assert_non_null(d);
	assert_non_null(d->package);
	assert_string_equal(d->package->str, "a");
	assert_string_equal(d->package_version->str, "1.0-1");
	for (size_t i = 0; i < HM_ARRAY_SIZE(owned); i++) {
		const struct hm_owner *o;

		assert_int_equal(hm_model_intern(m, owned[i], strlen(owned[i]),
						 &n), 0);
		o = hm_owner_of(m, n);
		if (!o || strcmp(o->package->str, "a"))
			fail_msg("%s: not a's", owned[i]);
	}
	assert_int_equal(hm_model_intern(m, "/usr/bin/d", 10, &n), 0);
	assert_null(hm_owner_of(m, n));
	hm_model_free(m);
}

#define DPKG_ROOT HM_SOURCE_DIR "/tests/data/dpkg"

/* Three domains, by name: a's (owned) with stamped entries, d's (not
 * owned) with stamped entries, x's (owned by b) with none: its package
 * line comes with its first lines, at the end of the file. */
static struct hm_model *three_domains(void)
{
	struct hm_model *m = parse("<kernel> /usr/bin/a\nuse_profile 1\n"
				   "file read /usr/share/a/two\\040words\n"
				   "file read /usr/bin/x.a\n\n"
				   "<kernel> /usr/bin/d\nuse_profile 1\n"
				   "file read /usr/bin/d\n\n"
				   "<kernel> /usr/bin/x\nuse_profile 1\n"
				   "file read /etc/a.conf.dpkg\n");

	for (size_t i = 0; i < m->n_domains; i++) {
		struct hm_domain *d = m->domains[i];

		if (strstr(d->name->str, "/usr/bin/x"))
			continue;
		d->quiet_events = 3;
		for (struct hm_acl_head *e = d->acl; e; e = e->next)
			e->hist.learned = 1000;
	}
	return m;
}

static char *slurp(const char *dir, const char *name)
{
	char *path, *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	f = fopen(path, "re");
	assert_non_null(f);
	assert_int_equal(getdelim(&text, &len, '\0', f) > 0, 1);
	fclose(f);
	unlink(path);
	free(path);
	return text;
}

static void test_save_stamped(void **state)
{
	static const char *const files[] = {
		HM_DOMAIN_POLICY, HM_EXCEPTION_POLICY, HM_HISTORY_FILE,
		HM_REWRITE_CONF, HM_PROFILE_CONF, HM_MANAGER_CONF,
	};
	char a[] = "/tmp/hm-test-packages.XXXXXX";
	char b[] = "/tmp/hm-test-packages.XXXXXX";
	struct hm_model *m = three_domains(), *n = three_domains();
	char *h = NULL;

	(void)state;
	assert_non_null(mkdtemp(a));
	assert_non_null(mkdtemp(b));
	assert_int_equal(hm_policy_save_dir_stamped(m, a, HM_DIALECT_26, NULL,
						    NULL, 0, DPKG_ROOT, NULL),
			 0);
	assert_int_equal(hm_packages_stamp(n, DPKG_ROOT), 0);
	assert_int_equal(hm_policy_save_dir(n, b, HM_DIALECT_26, 0, NULL), 0);
	for (size_t i = 0; i < HM_ARRAY_SIZE(files); i++) {
		char *x = slurp(a, files[i]), *y = slurp(b, files[i]);

		if (strcmp(x, y))
			fail_msg("%s differs:\n%s\n---\n%s", files[i], x, y);
		if (!strcmp(files[i], HM_HISTORY_FILE))
			h = x;
		else
			free(x);
		free(y);
	}
	assert_non_null(strstr(h, "<kernel> /usr/bin/a\nquiet 3\n"
				  "package a 1.0-1\n1000 "));
	assert_non_null(strstr(h, "<kernel> /usr/bin/d\nquiet 3\n1000 "));
	assert_non_null(strstr(h, "<kernel> /usr/bin/x\nquiet 0\n"
				  "package b 2:3\n# the Debian"));
	assert_non_null(strstr(h, "object a 1.0-1 /usr/bin/x.a\n"));
	free(h);
	assert_int_equal(rmdir(a), 0);
	assert_int_equal(rmdir(b), 0);
	hm_model_free(m);
	hm_model_free(n);
}

/* No database (a foreign image): nothing owned, no error. */
static void test_no_database(void **state)
{
	const char *paths[] = { "/usr/bin/a" };
	char *pkg[1], *ver[1];

	(void)state;
	assert_int_equal(hm_packages_owners("/nonexistent", paths, 1, pkg, ver),
			 0);
	assert_null(pkg[0]);
	assert_null(ver[0]);
}

/*
 * Many wants, each case 150 times over among as many names no package
 * lists: the index of the wanted paths (one slot a path, its duplicates
 * after it) answers for every one.
 */
static void test_many_wants(void **state)
{
	enum { REP = 300, N = REP * HM_ARRAY_SIZE(cases) };
	const char **paths = calloc(N, sizeof(*paths));
	char **pkg = calloc(N, sizeof(*pkg)), **ver = calloc(N, sizeof(*ver));
	char (*none)[32] = calloc(N, sizeof(*none));
	size_t k = HM_ARRAY_SIZE(cases);

	(void)state;
	assert_true(paths && pkg && ver && none);
	for (size_t i = 0; i < N; i++) {
		snprintf(none[i], sizeof(none[i]), "/usr/share/n%zu", i);
		paths[i] = (i / k) % 2 ? none[i] : cases[i % k].path;
	}
	assert_int_equal(hm_packages_owners(DPKG_ROOT, paths, N, pkg, ver), 0);
	for (size_t i = 0; i < N; i++) {
		const char *want = (i / k) % 2 ? NULL : cases[i % k].pkg;

		if (want ? !pkg[i] || strcmp(pkg[i], want) : pkg[i] != NULL)
			fail_msg("%s (%zu): %s, not %s", paths[i], i,
				 pkg[i] ? pkg[i] : "-", want ? want : "-");
		free(pkg[i]);
		free(ver[i]);
	}
	free(paths);
	free(pkg);
	free(ver);
	free(none);
}

/* A policy of 3,000 files, one owned, each named in two domains: the set
 * of its files (grown from 1,024) holds each once, and the owned one is
 * stamped. */
static void test_many_files(void **state)
{
	struct hm_sbuf b = { 0 };
	struct hm_model *m;
	const struct hm_name *n;
	const struct hm_owner *o;

	(void)state;
	for (int d = 0; d < 2; d++) {
		hm_sbuf_printf(&b, "<kernel> /usr/bin/%c\nuse_profile 1\n",
			       d ? 'x' : 'a');
		for (int i = 0; i < 3000; i++)
			hm_sbuf_printf(&b, "file read /srv/f%d\n", i);
		hm_sbuf_adds(&b, "file read /usr/bin/x.a\n\n");
	}
	assert_false(b.oom);
	m = parse(b.s);
	hm_sbuf_free(&b);
	assert_int_equal(hm_packages_stamp(m, DPKG_ROOT), 0);
	assert_int_equal(hm_model_intern(m, "/usr/bin/x.a", 12, &n), 0);
	o = hm_owner_of(m, n);
	assert_non_null(o);
	assert_string_equal(o->package->str, "a");
	assert_int_equal(hm_model_intern(m, "/srv/f2999", 10, &n), 0);
	assert_null(hm_owner_of(m, n));
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owners),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_save_stamped),
		cmocka_unit_test(test_no_database),
		cmocka_unit_test(test_many_wants),
		cmocka_unit_test(test_many_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
