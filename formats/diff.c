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

#include "histmac/owners.h"
#include "histmac/policy_diff.h"
#include "histmac/policy_io.h"

/* A policy line; @pkg: the package owning the file its entry names
 * (owners.h), NULL for none. */
struct line {
	char *s;
	const struct hm_name *pkg;
};

/* A sorted set of policy lines. */
struct lines {
	struct line *v;
	size_t n;
	size_t cap;
};

/* Takes ownership of @s (freed on failure too). */
static int add_line(struct lines *l, char *s, const struct hm_name *pkg)
{
	if (HM_ARRAY_GROW(&l->v, &l->cap, l->n + 1)) {
		free(s);
		return -ENOMEM;
	}
	l->v[l->n++] = (struct line){ s, pkg };
	return 0;
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].s);
	free(l->v);
	*l = (struct lines){ 0 };
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->s, ((const struct line *)b)->s);
}

static void sort_unique(struct lines *l)
{
	size_t j = 0;

	if (l->n < 2)	/* qsort() of a NULL array is undefined */
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_line);
	for (size_t i = 0; i < l->n; i++) {
		if (j && !strcmp(l->v[i].s, l->v[j - 1].s)) {
			free(l->v[i].s);
			continue;
		}
		l->v[j++] = l->v[i];
	}
	l->n = j;
}

/* The package of the first file @e names that one owned, or NULL. */
static const struct hm_name *entry_package(const struct hm_model *m,
					   const struct hm_acl_head *e)
{
	const struct hm_name *files[HM_ACL_MAX_FILES];
	size_t n = hm_acl_files(e, files);

	for (size_t i = 0; i < n; i++) {
		const struct hm_owner *o = hm_owner_of(m, files[i]);

		if (o)
			return o->package;
	}
	return NULL;
}

/* One line per permission bit of each entry, plus the domain's settings. */
static int domain_lines(const struct hm_model *m, const struct hm_domain *d,
			struct lines *out)
{
	char *s;
	int r = 0;

	if (asprintf(&s, "use_profile %u", d->profile) < 0 ||
	    add_line(out, s, NULL))
		return -ENOMEM;
	for (unsigned g = 0; g < 256; g++)
		if ((d->groups[g / 8] & (1u << (g % 8))) &&
		    (asprintf(&s, "use_group %u", g) < 0 ||
		     add_line(out, s, NULL)))
			return -ENOMEM;
	for (const struct hm_acl_head *e = d->acl; !r && e; e = e->next) {
		const struct hm_name *pkg = entry_package(m, e);

		for (unsigned b = 0; !r && b < 32; b++) {
			union hm_acl_any one;

			if (!(e->perm & (1u << b)))
				continue;
			memcpy(&one, e, hm_acl_size(e->kind));
			one.head.perm = 1u << b;
			r = hm_acl_format(m, &one.head, HM_DIALECT_18, &s, NULL);
			if (!r)
				r = add_line(out, s, pkg);
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

/* @fn for each line only in @a ('-') or only in @b ('+'), in order; the
 * first non-zero return stops the walk and is returned. */
static int each_delta(const struct lines *a, const struct lines *b,
		      int (*fn)(char sign, const struct line *l, void *arg),
		      void *arg)
{
	size_t i = 0, j = 0;
	int r = 0;

	while (!r && (i < a->n || j < b->n)) {
		int c = i == a->n ? 1 : j == b->n ? -1 :
			strcmp(a->v[i].s, b->v[j].s);

		if (!c) {
			i++;
			j++;
			continue;
		}
		r = c < 0 ? fn('-', &a->v[i++], arg) : fn('+', &b->v[j++], arg);
	}
	return r;
}

/* The exception policy's changes, printed under their header. */
struct printed {
	struct hm_sbuf *out;
	size_t n;
};

static int print_delta(char sign, const struct line *l, void *arg)
{
	struct printed *p = arg;

	if (!p->n++)
		hm_sbuf_adds(p->out, "# exception policy\n");
	hm_sbuf_printf(p->out, "%c%s\n", sign, l->s);
	return 0;
}

/* "apache2 2.4.62-1" of a package and version, "-" for none. */
static void package_text(struct hm_sbuf *b, const struct hm_name *pkg,
			 const struct hm_name *ver)
{
	if (pkg && ver)
		hm_sbuf_printf(b, "%s %s", pkg->str, ver->str);
	else
		hm_sbuf_adds(b, "-");
}

/*
 * A group of changes: a package and version in A and in B ("apache2
 * 2.4.62-1 -> 2.4.65-1", one version when it did not change), so what an
 * upgrade changed is one block; NULL when neither has one.
 */
static char *group_text(const struct hm_name *pa, const struct hm_name *va,
			const struct hm_name *pb, const struct hm_name *vb)
{
	bool same = pa && pb && !hm_name_cmp(pa, pb);
	struct hm_sbuf g = { 0 };

	if (!pa && !pb)
		return NULL;
	package_text(&g, pa, va);
	if (!same) {
		hm_sbuf_adds(&g, " -> ");
		package_text(&g, pb, vb);
	} else if (!va || !vb || hm_name_cmp(va, vb)) {
		hm_sbuf_adds(&g, " -> ");
		hm_sbuf_adds(&g, vb ? vb->str : "-");
	}
	if (g.oom) {
		hm_sbuf_free(&g);
		return strdup("?");
	}
	return g.s;
}

/* The group of a domain's own changes: its program's package stamps; a
 * side without one (the domain is new, say) takes that package's version
 * there, so a program an upgrade added is in the upgrade's block. */
static char *domain_group(const struct hm_model *a, const struct hm_model *b,
			  const struct hm_domain *da,
			  const struct hm_domain *db)
{
	const struct hm_name *pa = da ? da->package : NULL;
	const struct hm_name *va = pa ? da->package_version : NULL;
	const struct hm_name *pb = db ? db->package : NULL;
	const struct hm_name *vb = pb ? db->package_version : NULL;

	if (!pa && pb && (va = hm_owner_version(a, pb)))
		pa = pb;
	if (!pb && pa && (vb = hm_owner_version(b, pa)))
		pb = pa;
	return group_text(pa, va, pb, vb);
}

/* The group of an entry whose file package @pkg owns: @pkg's versions in
 * A and in B. */
static char *file_group(const struct hm_model *a, const struct hm_model *b,
			const struct hm_name *pkg)
{
	const struct hm_name *va = hm_owner_version(a, pkg);
	const struct hm_name *vb = hm_owner_version(b, pkg);

	return group_text(va ? pkg : NULL, va, vb ? pkg : NULL, vb);
}

/*
 * One changed line.  Changes are sorted by group (none last), domain and
 * then as the domain's lines are, so each group is one block.
 */
struct change {
	char *group;		/* NULL: no package recorded */
	const struct hm_name *domain;
	size_t seq;		/* order in the domain: its +/- name first */
	char *text;		/* "+file read /x" */
	bool names_domain;	/* text is the domain's own "+<kernel> ..." */
};

struct changes {
	struct change *v;
	size_t n, cap;
};

static int cmp_change(const void *x, const void *y)
{
	const struct change *a = x, *b = y;
	int c;

	if (!a->group != !b->group)
		return a->group ? -1 : 1;
	if (a->group && (c = strcmp(a->group, b->group)))
		return c;
	if ((c = hm_name_cmp(a->domain, b->domain)))
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* @group and @s are copied: each change frees its own. */
static int add_change(struct changes *cs, const char *group,
		      const struct hm_name *domain, char sign, const char *s,
		      bool names_domain)
{
	struct change c = { NULL, domain, cs->n, NULL, names_domain };

	if (HM_ARRAY_GROW(&cs->v, &cs->cap, cs->n + 1) ||
	    (group && !(c.group = strdup(group))) ||
	    asprintf(&c.text, "%c%s", sign, s) < 0) {
		free(c.group);
		return -ENOMEM;
	}
	cs->v[cs->n++] = c;
	return 0;
}

/* A domain's changed line: its group is the package of its file (in the
 * policy it comes from) or else the domain's. */
struct domain_delta {
	struct changes *cs;
	const struct hm_model *a, *b;
	const struct hm_name *name;
	const char *dgroup;
};

static int add_delta(char sign, const struct line *l, void *arg)
{
	struct domain_delta *d = arg;
	char *fg = l->pkg ? file_group(d->a, d->b, l->pkg) : NULL;
	int r;

	if (l->pkg && !fg)
		return -ENOMEM;
	r = add_change(d->cs, fg ? fg : d->dgroup, d->name, sign, l->s, false);
	free(fg);
	return r;
}

static int diff_domain(struct changes *cs, bool *any,
		       const struct hm_model *a, const struct hm_model *b,
		       const struct hm_name *name)
{
	const struct hm_domain *da = find(a, name);
	const struct hm_domain *db = find(b, name);
	struct lines la = { 0 }, lb = { 0 };
	char *dgroup = domain_group(a, b, da, db);
	int r = 0;

	*any |= dgroup != NULL;
	if (da)
		r = domain_lines(a, da, &la);
	if (!r && db)
		r = domain_lines(b, db, &lb);
	if (!r && (!da || !db))
		r = add_change(cs, dgroup, name, da ? '-' : '+', name->str,
			       true);
	if (!r) {
		struct domain_delta dd = { cs, a, b, name, dgroup };

		r = each_delta(&la, &lb, add_delta, &dd);
	}
	free(dgroup);
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
		r = copy ? add_line(out, copy, NULL) : -ENOMEM;
	}
	free(text);
	sort_unique(out);
	return r;
}

/* Print @cs sorted: a "# package" line before each group when any
 * change or domain has one, the domain's name before its lines in each
 * group (unless its own +/- line leads), a blank line after them. */
static void print_changes(struct hm_sbuf *out, struct changes *cs, bool any)
{
	for (size_t i = 0; i < cs->n; i++)
		any |= cs->v[i].group != NULL;
	if (cs->n > 1)
		qsort(cs->v, cs->n, sizeof(*cs->v), cmp_change);
	for (size_t i = 0; i < cs->n; i++) {
		const struct change *c = &cs->v[i], *p = i ? c - 1 : NULL;
		bool new_group = !p || !p->group != !c->group ||
				 (c->group && strcmp(p->group, c->group));

		if (p && (new_group || p->domain != c->domain))
			hm_sbuf_addc(out, '\n');
		if (any && new_group)
			hm_sbuf_printf(out, "# package %s\n", c->group ?
				       c->group : "(none recorded)");
		if ((new_group || p->domain != c->domain) && !c->names_domain)
			hm_sbuf_printf(out, "%s\n", c->domain->str);
		hm_sbuf_printf(out, "%s\n", c->text);
	}
	if (cs->n)
		hm_sbuf_addc(out, '\n');
}

static void free_changes(struct changes *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->v[i].group);
		free(cs->v[i].text);
	}
	free(cs->v);
}

/* The domains' changes, grouped when a package is recorded anywhere
 * (histmac_entries.conf). */
static int diff_domains(struct hm_sbuf *out, size_t *changes,
			const struct hm_model *a, const struct hm_model *b,
			const struct hm_name **names, size_t n)
{
	struct changes cs = { 0 };
	bool any = false;
	int r = 0;

	for (size_t i = 0; !r && i < n; i++)
		r = diff_domain(&cs, &any, a, b, names[i]);
	if (!r) {
		print_changes(out, &cs, any);
		*changes += cs.n;
	}
	free_changes(&cs);
	return r;
}

int hm_policy_diff(struct hm_sbuf *out, size_t *changes,
		   const struct hm_model *a, const struct hm_model *b)
{
	size_t n;
	const struct hm_name **names = all_names(a, b, &n);
	struct lines ea = { 0 }, eb = { 0 };
	struct printed ex = { out, 0 };
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
		r = each_delta(&ea, &eb, print_delta, &ex);
	*changes += ex.n;
	free_lines(&ea);
	free_lines(&eb);
	if (!r && out->oom)
		r = -ENOMEM;
	return r;
}
