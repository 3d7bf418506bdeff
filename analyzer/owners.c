// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * owners.c - the package owning each file a model's entries name
 * (owners.h).  Two maps: file -> its (package, version) pair, and
 * package -> its pairs (one per version recorded, one in practice), so a
 * row costs a map slot and the pairs are as many as the packages.  Owns
 * the maps and pairs of the model it is handed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/owners.h"
#include "histmac/map.h"

struct pair {
	struct hm_owner o;
	struct pair *next;	/* all pairs, to free them */
	struct pair *same;	/* other versions of the package */
};

struct hm_owners {
	struct hm_map by_path;	/* path name -> struct pair */
	struct hm_map by_pkg;	/* package name -> struct pair (chain) */
	struct pair *all;
};

static struct hm_owners *owners_new(struct hm_model *m)
{
	struct hm_owners *t = m->owners;

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	hm_map_init(&t->by_path, &m->mem, HM_MEM_OTHER);
	hm_map_init(&t->by_pkg, &m->mem, HM_MEM_OTHER);
	m->owners = t;
	return t;
}

/* The pair (@pkg, @ver), made on first use. */
static struct pair *pair_of(struct hm_owners *t, const struct hm_name *pkg,
			    const struct hm_name *ver)
{
	struct pair *head = hm_map_get(&t->by_pkg, hm_map_ptr_key(pkg)), *p;

	for (p = head; p; p = p->same)
		if (p->o.version == ver)
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	*p = (struct pair){ { pkg, ver }, t->all, head };
	if (hm_map_put(&t->by_pkg, hm_map_ptr_key(pkg), p)) {
		free(p);
		return NULL;
	}
	t->all = p;
	return p;
}

int hm_owner_set(struct hm_model *m, const struct hm_name *path,
		 const struct hm_name *pkg, const struct hm_name *ver)
{
	struct hm_owners *t = owners_new(m);
	struct pair *p = t ? pair_of(t, pkg, ver) : NULL;

	if (!p)
		return -ENOMEM;
	return hm_map_put(&t->by_path, hm_map_ptr_key(path), p);
}

const struct hm_owner *hm_owner_of(const struct hm_model *m,
				   const struct hm_name *path)
{
	struct pair *p;

	if (!m->owners || !path)
		return NULL;
	p = hm_map_get(&m->owners->by_path, hm_map_ptr_key(path));
	return p ? &p->o : NULL;
}

const struct hm_name *hm_owner_version(const struct hm_model *m,
				       const struct hm_name *pkg)
{
	const struct hm_name *n = hm_name_lookup(m->names, pkg->str, pkg->len);
	struct pair *p;

	if (!n)
		return NULL;
	p = m->owners ? hm_map_get(&m->owners->by_pkg, hm_map_ptr_key(n)) :
			NULL;
	if (p)
		return p->o.version;
	for (size_t i = 0; i < m->n_domains; i++)	/* a program's only */
		if (m->domains[i]->package == n)
			return m->domains[i]->package_version;
	return NULL;
}

void hm_owners_free(struct hm_model *m)
{
	struct hm_owners *t = m->owners;

	if (!t)
		return;
	while (t->all) {
		struct pair *p = t->all;

		t->all = p->next;
		free(p);
	}
	hm_map_fini(&t->by_path);
	hm_map_fini(&t->by_pkg);
	free(t);
	m->owners = NULL;
}

void hm_owners_clear(struct hm_model *m)
{
	hm_owners_free(m);
}

static int copy_name(struct hm_model *dst, const struct hm_name *n,
		     const struct hm_name **out)
{
	return hm_model_intern(dst, n->str, n->len, out) < 0 ? -ENOMEM : 0;
}

int hm_owners_merge(struct hm_model *dst, const struct hm_model *src)
{
	const struct hm_map *map = src->owners ? &src->owners->by_path : NULL;

	for (size_t i = 0; map && i < map->n_slots; i++) {
		const struct hm_name *path = NULL, *pkg = NULL, *ver = NULL;
		const struct pair *p = map->vals[i];

		if (!map->keys[i])
			continue;
		if (copy_name(dst, (const struct hm_name *)(uintptr_t)
			      map->keys[i], &path) ||
		    copy_name(dst, p->o.package, &pkg) ||
		    copy_name(dst, p->o.version, &ver))
			return -ENOMEM;
		if (!hm_owner_of(dst, path) && hm_owner_set(dst, path, pkg, ver))
			return -ENOMEM;
	}
	return 0;
}

/* A file, not a pattern, a directory or a kernel object ("proc:/..."). */
static bool is_file(const struct hm_name *n)
{
	return n && n->len > 1 && n->str[0] == '/' && !n->is_dir &&
	       !n->is_patterned;
}

size_t hm_acl_files(const struct hm_acl_head *e,
		    const struct hm_name *out[HM_ACL_MAX_FILES])
{
	size_t n = 0;

	hm_for_each_operand(o, e->kind) {
		const struct hm_name_op *op = hm_operand_ptr(e, o);

		if (o->type == HM_OT_NAME && n < HM_ACL_MAX_FILES &&
		    is_file(op->name))
			out[n++] = op->name;
	}
	return n;
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return hm_name_cmp(*(const struct hm_name *const *)a,
			   *(const struct hm_name *const *)b);
}

/* Each file once: names of one model are equal only as one pointer. */
static size_t unique(const struct hm_name **v, size_t n)
{
	size_t j = 0;

	if (n > 1)	/* qsort() of a NULL array is undefined */
		qsort(v, n, sizeof(*v), cmp_name_ptr);
	for (size_t i = 0; i < n; i++)
		if (!j || v[i] != v[j - 1])
			v[j++] = v[i];
	return j;
}

int hm_model_files(const struct hm_model *m, const struct hm_name ***out,
		   size_t *n)
{
	const struct hm_name **v = NULL;
	size_t k = 0, cap = 0;

	for (size_t i = 0; i < m->n_domains; i++) {
		for (const struct hm_acl_head *e = m->domains[i]->acl; e;
		     e = e->next) {
			if (HM_ARRAY_GROW(&v, &cap, k + HM_ACL_MAX_FILES)) {
				free(v);
				return -ENOMEM;
			}
			k += hm_acl_files(e, v + k);
		}
	}
	*n = unique(v, k);
	*out = v;
	return 0;
}
