// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_packages.c - hm_packages_owners() (formats/packages.c) on a dpkg
 * database written here: owners and installed versions, an ":arch" list,
 * a merged-/usr alias, a package not installed, a file two packages ship
 * with a diversion (the diverting package's file stays, the other's is at
 * the new name), an administrator's diversion, and a diversions file
 * whose first line is not part of a triple.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/packages.h"

static void put(const char *root, const char *name, const char *text)
{
	char *path;
	FILE *f;

	assert_true(asprintf(&path, "%s/var/lib/dpkg/%s", root, name) > 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

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
	char root[] = "/tmp/hm-test-packages.XXXXXX";
	const char *paths[HM_ARRAY_SIZE(cases)];
	char *pkg[HM_ARRAY_SIZE(cases)], *ver[HM_ARRAY_SIZE(cases)];
	char *info;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_true(asprintf(&info, "%s/var/lib/dpkg/info", root) > 0);
	for (char *p = info + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(info, 0755);
		*p = '/';
	}
	assert_int_equal(mkdir(info, 0755), 0);
	put(root, "info/a.list", "/usr\n/usr/bin\n/usr/bin/a\n/usr/bin/x\n"
	    "/etc/a.conf\n");
	put(root, "info/b:amd64.list", "/usr/lib/b.so\n/usr/bin/x\n");
	put(root, "info/d.list", "/usr/bin/d\n");
	put(root, "status", "Package: a\nStatus: install ok installed\n"
	    "Version: 1.0-1\n\nPackage: d\nStatus: deinstall ok "
	    "config-files\nVersion: 4\n\nPackage: b\nArchitecture: amd64\n"
	    "Status: install ok installed\nVersion: 2:3\n");
	put(root, "diversions", "b\n/usr/bin/x\n/usr/bin/x.a\nb\n"
	    "/etc/a.conf\n/etc/a.conf.dpkg\n:\n");
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++)
		paths[i] = cases[i].path;

	assert_int_equal(hm_packages_owners(root, paths, HM_ARRAY_SIZE(cases),
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
	free(info);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
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
		cmocka_unit_test(test_no_database),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
