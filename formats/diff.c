// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diff.c - what changed between two policies: each domain's settings and
 * entries are written one permission per line (TOMOYO 1.8 syntax, which
 * can say every entry), sorted, and the two sorted lists are merged; the
 * exception policy is compared line by line the same way.
 *
 * Reads both models; owns only its line lists.  Next: the caller prints
 * the text (histmac diff).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/policy_diff.h"
#include "histmac/policy_io.h"

/* A sorted set of policy lines. */
struct lines {
	char **v;
	size_t n;
	size_t cap;
};

/* Takes ownership of @s (freed on failure too). */
static int add_line(struct lines *l, char *s)
{
	if (HM_ARRAY_GROW(&l->v, &l->cap, l->n + 1)) {
		free(s);
		return -ENOMEM;
	}
	l->v[l->n++] = s;
	return 0;
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct lines){ 0 };
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_unique(struct lines *l)
{
	size_t j = 0;

	if (l->n < 2)	/* qsort() of a NULL array is undefined */
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	for (size_t i = 0; i < l->n; i++) {
		if (j && !strcmp(l->v[i], l->v[j - 1])) {
			free(l->v[i]);
			continue;
		}
		l->v[j++] = l->v[i];
	}
	l->n = j;
}

/* One line per permission bit of each entry, plus the domain's settings. */
static int domain_lines(const struct hm_model *m, const struct hm_domain *d,
			struct lines *out)
{
	char *s;
	int r = 0;

	if (asprintf(&s, "use_profile %u", d->profile) < 0 ||
	    add_line(out, s))
		return -ENOMEM;
	for (unsigned g = 0; g < 256; g++)
		if ((d->groups[g / 8] & (1u << (g % 8))) &&
		    (asprintf(&s, "use_group %u", g) < 0 || add_line(out, s)))
			return -ENOMEM;
	for (const struct hm_acl_head *e = d->acl; !r && e; e = e->next) {
		for (unsigned b = 0; !r && b < 32; b++) {
			union hm_acl_any one;

			if (!(e->perm & (1u << b)))
				continue;
			memcpy(&one, e, hm_acl_size(e->kind));
			one.head.perm = 1u << b;
			r = hm_acl_format(m, &one.head, HM_DIALECT_18, &s, NULL);
			if (!r)
				r = add_line(out, s);
		}
	}
	sort_unique(out);
	return r;
}

/* @name (interned in another model) in @m, or NULL. */
static const struct hm_domain *find(const struct hm_model *m,
				    const struct hm_name *name)
{
	const struct hm_name *n = hm_name_lookup(m->names, name->str,
						 name->len);

	return n ? hm_model_find_domain(m, n) : NULL;
}

/*
 * Lines only in @a with '-', only in @b with '+', after @header (written
 * once, before the first change, when not done yet).  Returns the count.
 */
static size_t add_delta(struct hm_sbuf *out, const struct lines *a,
			const struct lines *b, const char *header,
			bool *header_done)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i], b->v[j]);

		if (!c) {
			i++;
			j++;
			continue;
		}
		if (!*header_done && header) {
			hm_sbuf_printf(out, "%s\n", header);
			*header_done = true;
		}
		hm_sbuf_printf(out, "%c%s\n", c < 0 ? '-' : '+',
			       c < 0 ? a->v[i++] : b->v[j++]);
		n++;
	}
	return n;
}

static int diff_domain(struct hm_sbuf *out, const struct hm_model *a,
		       const struct hm_model *b, const struct hm_name *name,
		       size_t *changes)
{
	const struct hm_domain *da = find(a, name);
	const struct hm_domain *db = find(b, name);
	struct lines la = { 0 }, lb = { 0 };
	bool done = false;
	int r = 0;

	if (da)
		r = domain_lines(a, da, &la);
	if (!r && db)
		r = domain_lines(b, db, &lb);
	if (!r) {
		if (!da || !db) {
			hm_sbuf_printf(out, "%c%s\n", da ? '-' : '+',
				       name->str);
			done = true;
			(*changes)++;
		}
		*changes += add_delta(out, &la, &lb, name->str, &done);
		if (done)
			hm_sbuf_addc(out, '\n');
	}
	free_lines(&la);
	free_lines(&lb);
	return r;
}

static int cmp_name_ptr(const void *x, const void *y)
{
	return hm_name_cmp(*(const struct hm_name *const *)x,
			   *(const struct hm_name *const *)y);
}

/* Every domain name of both, sorted, each once; caller frees. */
static const struct hm_name **all_names(const struct hm_model *a,
					const struct hm_model *b, size_t *n)
{
	const struct hm_name **v = malloc((a->n_domains + b->n_domains + 1) *
					  sizeof(*v));
	size_t k = 0, j = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < a->n_domains; i++)
		v[k++] = a->domains[i]->name;
	for (size_t i = 0; i < b->n_domains; i++)
		if (!find(a, b->domains[i]->name))
			v[k++] = b->domains[i]->name;
	qsort(v, k, sizeof(*v), cmp_name_ptr);
	for (size_t i = 0; i < k; i++)
		if (!j || hm_name_cmp(v[i], v[j - 1]))
			v[j++] = v[i];
	*n = j;
	return v;
}

/* The exception policy as sorted lines (its own writer, split). */
static int exception_lines(const struct hm_model *m, struct lines *out)
{
	char *text = NULL;
	size_t len;
	int r = hm_policy_format_exception(m, HM_DIALECT_18, &text, &len, NULL);

	for (char *save = NULL, *l = r ? NULL : strtok_r(text, "\n", &save);
	     l && !r; l = strtok_r(NULL, "\n", &save)) {
		char *copy;

		if (l[0] == '#')
			continue;
		copy = strdup(l);
		r = copy ? add_line(out, copy) : -ENOMEM;
	}
	free(text);
	sort_unique(out);
	return r;
}

/* "apache2 2.4.62-1" of @d, "-" when it has no package stamp. */
static void package_of(struct hm_sbuf *b, const struct hm_domain *d)
{
	if (d && d->package)
		hm_sbuf_printf(b, "%s %s", d->package->str,
			       d->package_version->str);
	else
		hm_sbuf_adds(b, "-");
}

/*
 * The group a domain's changes go under: its program's package and
 * version in @a and in @b ("apache2 2.4.62-1 -> 2.4.65-1"), so what an
 * upgrade changed is one block; NULL when neither policy stamped it.
 */
static char *group_of(const struct hm_model *a, const struct hm_model *b,
		      const struct hm_name *name)
{
	const struct hm_domain *da = find(a, name), *db = find(b, name);
	bool same = da && db && da->package && db->package &&
		    da->package->len == db->package->len &&
		    !strcmp(da->package->str, db->package->str);
	struct hm_sbuf g = { 0 };

	if (!(da && da->package) && !(db && db->package))
		return NULL;
	package_of(&g, da);
	if (!same) {
		hm_sbuf_adds(&g, " -> ");
		package_of(&g, db);
	} else if (strcmp(da->package_version->str, db->package_version->str)) {
		hm_sbuf_printf(&g, " -> %s", db->package_version->str);
	}
	if (g.oom) {
		hm_sbuf_free(&g);
		return strdup("?");
	}
	return g.s;
}

struct grouped {
	const struct hm_name *name;
	char *group;		/* NULL: no package: last */
};

static int cmp_grouped(const void *x, const void *y)
{
	const struct grouped *a = x, *b = y;

	if (!a->group != !b->group)
		return a->group ? -1 : 1;
	if (a->group && strcmp(a->group, b->group))
		return strcmp(a->group, b->group);
	return hm_name_cmp(a->name, b->name);
}

/* The domains' changes, under a "# package ..." line per group when any
 * domain has a package stamp (histmac_entries.conf). */
static int diff_domains(struct hm_sbuf *out, size_t *changes,
			const struct hm_model *a, const struct hm_model *b,
			const struct hm_name **names, size_t n)
{
	struct grouped *g = calloc(n + 1, sizeof(*g));
	const char *shown = NULL;
	bool any = false, shown_none = false;
	int r = g ? 0 : -ENOMEM;

	for (size_t i = 0; !r && i < n; i++) {
		g[i] = (struct grouped){ names[i], group_of(a, b, names[i]) };
		any |= g[i].group != NULL;
	}
	if (!r)
		qsort(g, n, sizeof(*g), cmp_grouped);
	for (size_t i = 0; !r && i < n; i++) {
		struct hm_sbuf one = { 0 };
		size_t c = 0;

		r = diff_domain(&one, a, b, g[i].name, &c);
		if (!r && c && any && (g[i].group ? !shown ||
				       strcmp(shown, g[i].group) : !shown_none)) {
			hm_sbuf_printf(out, "# package %s\n", g[i].group ?
				       g[i].group : "(none recorded)");
			shown = g[i].group;
			shown_none = !g[i].group;
		}
		hm_sbuf_add(out, one.s ? one.s : "", one.len);
		*changes += c;
		hm_sbuf_free(&one);
	}
	for (size_t i = 0; g && i < n; i++)
		free(g[i].group);
	free(g);
	return r;
}

int hm_policy_diff(struct hm_sbuf *out, size_t *changes,
		   const struct hm_model *a, const struct hm_model *b)
{
	size_t n;
	const struct hm_name **names = all_names(a, b, &n);
	struct lines ea = { 0 }, eb = { 0 };
	bool done = false;
	int r = names ? 0 : -ENOMEM;

	*changes = 0;
	if (!r)
		r = diff_domains(out, changes, a, b, names, n);
	free(names);
	if (!r)
		r = exception_lines(a, &ea);
	if (!r)
		r = exception_lines(b, &eb);
	if (!r)
		*changes += add_delta(out, &ea, &eb, "# exception policy",
				      &done);
	free_lines(&ea);
	free_lines(&eb);
	if (!r && out->oom)
		r = -ENOMEM;
	return r;
}
