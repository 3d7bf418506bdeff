// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_packages.c - hm_packages_owners() (formats/packages.c) on the dpkg
 * database of tests/data/dpkg (README there): owners and installed
 * versions, an ":arch" list, a merged-/usr alias, a package not installed, a file two packages ship
 * with a diversion (the diverting package's file stays, the other's is at
 * the new name), an administrator's diversion, and a diversions file
 * whose first line is not part of a triple; a policy stamped from it (a
 * file named with a TOMOYO escape).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/owners.h"
#include "histmac/packages.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owners),
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_no_database),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
