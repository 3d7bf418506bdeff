// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packages.c - file owners from a dpkg database (packages.h).  Every
 * info/PACKAGE.list is read once per call and only the wanted names are kept,
 * so the cost is one pass over the database whatever the policy's size.
 * Owns nothing past a call.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/packages.h"

#define DPKG_DIR "var/lib/dpkg"

struct want {
	char *path;		/* as dpkg may list it */
	size_t i;		/* index in the caller's arrays */
};

struct lookup {
	struct want *w;
	size_t n, cap;
	char **pkg, **ver;
};

static int cmp_want(const void *a, const void *b)
{
	return strcmp(((const struct want *)a)->path,
		      ((const struct want *)b)->path);
}

static int want(struct lookup *L, char *path, size_t i)
{
	if (!path)
		return -ENOMEM;
	if (HM_ARRAY_GROW(&L->w, &L->cap, L->n + 1)) {
		free(path);
		return -ENOMEM;
	}
	L->w[L->n++] = (struct want){ path, i };
	return 0;
}

/* @p and its merged-/usr alias, if it has one. */
static int want_both(struct lookup *L, const char *p, size_t i)
{
	static const char *const dirs[] = { "/bin/", "/sbin/", "/lib/",
					    "/lib64/" };
	char *alias = NULL;
	int r = want(L, strdup(p), i);

	for (size_t k = 0; !r && !alias && k < HM_ARRAY_SIZE(dirs); k++) {
		size_t n = strlen(dirs[k]);

		if (!strncmp(p, dirs[k], n) && asprintf(&alias, "/usr%s", p) < 0)
			return -ENOMEM;
		if (!alias && !strncmp(p, "/usr", 4) &&
		    !strncmp(p + 4, dirs[k], n) && !(alias = strdup(p + 4)))
			return -ENOMEM;
	}
	return r || !alias ? r : want(L, alias, i);
}

/* Caller's path @i is owned by the package of list file @file; of two
 * (a diverted file) the first by name, whatever order readdir gives. */
static int owned_by(struct lookup *L, size_t i, const char *file, size_t flen)
{
	size_t n = strcspn(file, ":");
	char *p = strndup(file, n < flen ? n : flen);

	if (!p)
		return -ENOMEM;
	if (L->pkg[i] && strcmp(p, L->pkg[i]) >= 0) {
		free(p);
		return 0;
	}
	free(L->pkg[i]);
	L->pkg[i] = p;
	return 0;
}

/* info/NAME.list: NAME (":arch" dropped) owns the wanted lines in it. */
static int read_list(struct lookup *L, const char *dir, const char *file)
{
	size_t flen = strlen(file) - 5, cap = 0;
	char *path = NULL, *line = NULL;
	ssize_t len;
	FILE *f;
	int r = 0;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	free(path);
	while (f && !r && (len = getline(&line, &cap, f)) > 0) {
		struct want key = { line, 0 }, *w;

		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		w = bsearch(&key, L->w, L->n, sizeof(*L->w), cmp_want);
		while (w && w > L->w && !cmp_want(w - 1, &key))
			w--;	/* several domains run one program */
		for (; w && w < L->w + L->n && !r && !cmp_want(w, &key); w++)
			r = owned_by(L, w->i, file, flen);
	}
	free(line);
	if (f)
		fclose(f);
	return r;
}

static int read_lists(struct lookup *L, const char *root)
{
	char *dir = NULL;
	struct dirent *e;
	DIR *D;
	int r = 0;

	if (asprintf(&dir, "%s/%s/info", root, DPKG_DIR) < 0)
		return -ENOMEM;
	D = opendir(dir);
	while (D && !r && (e = readdir(D))) {
		size_t n = strlen(e->d_name);

		if (n > 5 && !strcmp(e->d_name + n - 5, ".list"))
			r = read_list(L, dir, e->d_name);
	}
	if (D)
		closedir(D);
	free(dir);
	return r;
}

/* Versions from status: the stanza of each package found, if installed. */
static int set_version(struct lookup *L, size_t n, const char *pkg,
		       const char *ver, bool installed)
{
	for (size_t i = 0; installed && *pkg && *ver && i < n; i++) {
		if (!L->pkg[i] || strcmp(L->pkg[i], pkg) || L->ver[i])
			continue;
		L->ver[i] = strdup(ver);
		if (!L->ver[i])
			return -ENOMEM;
	}
	return 0;
}

static int read_status(struct lookup *L, const char *root, size_t n)
{
	char pkg[256] = "", ver[256] = "";
	bool installed = false;
	char *path = NULL, *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int r = 0;

	if (asprintf(&path, "%s/%s/status", root, DPKG_DIR) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	free(path);
	while (f && !r && (len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len) {	/* end of a stanza */
			r = set_version(L, n, pkg, ver, installed);
			pkg[0] = ver[0] = '\0';
			installed = false;
		} else if (sscanf(line, "Package: %255s", pkg) == 1 ||
			   sscanf(line, "Version: %255s", ver) == 1) {
			continue;
		} else if (!strncmp(line, "Status:", 7)) {
			installed = strstr(line, " installed") != NULL;
		}
	}
	if (!r)
		r = set_version(L, n, pkg, ver, installed);
	free(line);
	if (f)
		fclose(f);
	return r;
}

int hm_packages_owners(const char *root, const char *const *paths, size_t n,
		       char **pkg, char **ver)
{
	struct lookup L = { .pkg = pkg, .ver = ver };
	int r = 0;

	for (size_t i = 0; i < n; i++)
		pkg[i] = ver[i] = NULL;
	for (size_t i = 0; !r && i < n; i++)
		r = paths[i] ? want_both(&L, paths[i], i) : 0;
	if (!r && L.n) {
		qsort(L.w, L.n, sizeof(*L.w), cmp_want);
		r = read_lists(&L, root);
	}
	if (!r && L.n)
		r = read_status(&L, root, n);
	for (size_t i = 0; i < L.n; i++)
		free(L.w[i].path);
	free(L.w);
	for (size_t i = 0; i < n; i++) {	/* a package without a version
						 * is not installed */
		if (r || !ver[i]) {
			free(pkg[i]);
			free(ver[i]);
			pkg[i] = ver[i] = NULL;
		}
	}
	return r;
}

const char *hm_domain_program(const struct hm_domain *d, size_t *len)
{
	const char *sp;

	if (!d->name)
		return NULL;
	sp = memrchr(d->name->str, ' ', d->name->len);
	if (!sp)
		return NULL;
	*len = d->name->len - (size_t)(sp + 1 - d->name->str);
	return sp + 1;
}

int hm_packages_each(struct hm_model *m, const char *root, bool stamped,
		     hm_package_fn fn, void *arg)
{
	char **paths = calloc(m->n_domains + 1, sizeof(*paths));
	char **pkg = calloc(m->n_domains + 1, sizeof(*pkg));
	char **ver = calloc(m->n_domains + 1, sizeof(*ver));
	int r = paths && pkg && ver ? 0 : -ENOMEM;

	for (size_t i = 0; !r && i < m->n_domains; i++) {
		size_t len;
		const char *p = hm_domain_program(m->domains[i], &len);

		if (p && *p == '/' && (!stamped || m->domains[i]->package) &&
		    !(paths[i] = strndup(p, len)))
			r = -ENOMEM;
	}
	if (!r)
		r = hm_packages_owners(root, (const char *const *)paths,
				       m->n_domains, pkg, ver);
	for (size_t i = 0; !r && i < m->n_domains; i++)
		if (paths[i])
			r = fn(m, m->domains[i], pkg[i], ver[i], arg);
	for (size_t i = 0; paths && pkg && ver && i < m->n_domains; i++) {
		free(paths[i]);
		free(pkg[i]);
		free(ver[i]);
	}
	free(paths);
	free(pkg);
	free(ver);
	return r;
}

static int stamp(struct hm_model *m, struct hm_domain *d, const char *pkg,
		 const char *ver, void *arg)
{
	(void)arg;
	d->package = d->package_version = NULL;
	if (!pkg)
		return 0;
	if (hm_model_intern(m, pkg, strlen(pkg), &d->package) < 0 ||
	    hm_model_intern(m, ver, strlen(ver), &d->package_version) < 0)
		return -ENOMEM;
	return 0;
}

int hm_packages_stamp(struct hm_model *m, const char *root)
{
	/* a domain whose program is not absolute (or no longer owned)
	 * keeps no stamp */
	for (size_t i = 0; i < m->n_domains; i++)
		m->domains[i]->package = m->domains[i]->package_version = NULL;
	return hm_packages_each(m, root, false, stamp, NULL);
}
