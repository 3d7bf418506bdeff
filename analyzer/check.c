// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check.c - offline permissive mode: every access the policy does not
 * allow becomes a violation, grouped by domain and by the entry that
 * learning would have added (so the report is paste-ready).  Reads the
 * policy model; owns a second model that holds the missing entries, the
 * walker (with a non-creating tracker) and the generalizer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/learn.h"
#include "map.h"

/* Renew the scratch model after it holds this many names. */
#define SCRATCH_NAMES 4096

struct hm_checker {
	struct hm_model *m;		/* the policy */
	struct hm_model *vm;		/* what it lacks */
	struct hm_model *scratch;	/* generalizing past the limit */
	uint64_t unlisted;		/* denials past the limit */
	struct hm_walker *w;
	struct hm_generalizer *g;
	struct hm_map by_entry;		/* vm entry -> violation */
	struct hm_violation **v;
	size_t n;
	size_t cap;
	bool sorted;
	int found;			/* in the current event */
};

int hm_checker_new(struct hm_model *m, const struct hm_learn_opts *o,
		   struct hm_diag *d, struct hm_checker **out)
{
	struct hm_checker *c = calloc(1, sizeof(*c));
	int r = -ENOMEM;

	if (!c)
		return -ENOMEM;
	c->m = m;
	c->vm = hm_model_new();
	hm_map_init(&c->by_entry, NULL, HM_MEM_OTHER);
	if (c->vm) {
		c->vm->dialect = m->dialect;
		c->vm->max_learning_entry = 0;
		r = hm_walker_new(m, o, false, &c->w);
	}
	if (!r)
		r = hm_generalizer_new(m, o, d, &c->g);
	if (r) {
		hm_checker_free(c);
		return r;
	}
	*out = c;
	return 0;
}

void hm_checker_free(struct hm_checker *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i]->example_comm);
		free(c->v[i]);
	}
	free(c->v);
	hm_map_fini(&c->by_entry);
	hm_walker_free(c->w);
	hm_generalizer_free(c->g);
	hm_model_free(c->vm);
	hm_model_free(c->scratch);
	free(c);
}

/*
 * A domain the policy lacks still gets what its nearest existing
 * ancestor's acl_groups allow (globally readable files): TOMOYO would
 * have created it with the parent's use_group.
 */
static bool groups_allow(const struct hm_model *m, const struct hm_name *name,
			 const struct hm_request *r)
{
	struct hm_domain fake = { .group_no = -1 };
	size_t len = name->len;

	for (;;) {
		const char *sp = memrchr(name->str, ' ', len);
		const struct hm_name *pn;
		struct hm_domain *anc;

		if (!sp)
			return false;
		len = (size_t)(sp - name->str);
		pn = hm_name_lookup(m->names, name->str, len);
		anc = pn ? hm_model_find_domain(m, pn) : NULL;
		if (anc) {
			memcpy(fake.groups, anc->groups, sizeof(fake.groups));
			return hm_domain_allows(m, &fake, r, NULL);
		}
	}
}

static int push(struct hm_checker *c, struct hm_violation *v)
{
	if (HM_ARRAY_GROW(&c->v, &c->cap, c->n + 1))
		return -ENOMEM;
	c->v[c->n++] = v;
	c->sorted = false;
	return 0;
}

static int record(struct hm_checker *c, const struct hm_access *a,
		  struct hm_domain *vd, const struct hm_acl_head *entry)
{
	struct hm_violation *v = hm_map_get(&c->by_entry,
					    hm_map_ptr_key(entry));
	int64_t t = a->ev->sec;

	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v || push(c, v)) {
			free(v);
			return -ENOMEM;
		}
		if (hm_map_put(&c->by_entry, hm_map_ptr_key(entry), v)) {
			c->n--;
			free(v);
			return -ENOMEM;
		}
		v->domain = vd->name;
		v->no_domain = !a->dom.domain;
		v->entry = entry;
		v->first_sec = t;
		v->example_pid = a->ev->pid;
		v->example_serial = a->ev->serial;
		if (a->ev->comm.s)
			v->example_comm = strndup(a->ev->comm.s, a->ev->comm.len);
	}
	v->count++;
	if (t && (!v->first_sec || t < v->first_sec))
		v->first_sec = t;
	if (t > v->last_sec)
		v->last_sec = t;
	return 0;
}

/*
 * Past HM_CHECK_MAX_VIOLATIONS distinct missing entries, a denial is
 * listed only when it adds to an entry already listed; the rest are
 * counted.  To tell without growing the list's model, generalize into a
 * scratch model first.  Returns 1 when @a may be listed, 0 when it was
 * counted as unlisted, negative errno.
 */
static int listable(struct hm_checker *c, const struct hm_access *a)
{
	const struct hm_cond *cond;
	union hm_acl_any e;
	struct hm_domain *vd;
	int r;

	if (c->n < HM_CHECK_MAX_VIOLATIONS)
		return 1;
	if (!c->scratch || hm_names_count(c->scratch->names) > SCRATCH_NAMES) {
		hm_model_free(c->scratch);
		c->scratch = hm_model_new();
		if (!c->scratch)
			return -ENOMEM;
	}
	r = hm_generalize_cond(c->scratch, a, &cond);
	if (!r)
		r = hm_generalize_request(c->g, c->scratch, &a->req, cond, &e);
	if (r)
		return r;
	if (hm_model_knows(c->vm, &e) &&
	    !hm_model_domain(c->vm, a->dom.name->str, a->dom.name->len, false,
			     &vd) && vd) {
		union hm_acl_any in_vm;

		if (!hm_acl_clone(c->vm, c->scratch, &e.head, &in_vm) &&
		    hm_domain_find(vd, &in_vm.head))
			return 1;
	}
	c->unlisted++;
	return 0;
}

static int check_access(const struct hm_access *a, void *arg)
{
	struct hm_checker *c = arg;
	const struct hm_domain *d = a->dom.domain;
	const struct hm_cond *cond;
	struct hm_acl_head *in;
	struct hm_domain *vd;
	union hm_acl_any e;
	int r;

	if (d ? hm_domain_allows(c->m, d, &a->req, NULL) :
		groups_allow(c->m, a->dom.name, &a->req))
		return 0;
	c->found++;
	r = listable(c, a);
	if (r <= 0)
		return r;
	r = hm_model_domain(c->vm, a->dom.name->str, a->dom.name->len, true,
			    &vd);
	if (r < 0)
		return r;
	r = hm_generalize_cond(c->vm, a, &cond);
	if (!r)
		r = hm_generalize_request(c->g, c->vm, &a->req, cond, &e);
	if (!r)
		r = hm_domain_add(c->vm, vd, &e.head, &in);
	if (r < 0)
		return r;
	if (!r)
		in = hm_domain_find(vd, &e.head);
	return in ? record(c, a, vd, in) : -EINVAL;
}

int hm_checker_event(struct hm_checker *c, const struct hm_event *ev)
{
	int r;

	c->found = 0;
	r = hm_walker_event(c->w, ev, check_access, c);
	return r < 0 ? r : c->found;
}

static int cmp_violation(const void *a, const void *b)
{
	const struct hm_violation *x = *(const struct hm_violation *const *)a;
	const struct hm_violation *y = *(const struct hm_violation *const *)b;

	return hm_name_cmp(x->domain, y->domain) ?:
	       hm_acl_cmp(x->entry, y->entry);
}

const struct hm_violation *const *hm_checker_violations(struct hm_checker *c,
							 size_t *n)
{
	if (!c->sorted && c->n)
		qsort(c->v, c->n, sizeof(*c->v), cmp_violation);
	c->sorted = true;
	*n = c->n;
	return (const struct hm_violation *const *)c->v;
}

const struct hm_model *hm_checker_model(const struct hm_checker *c)
{
	return c->vm;
}

struct hm_walker *hm_checker_walker(struct hm_checker *c)
{
	return c->w;
}

uint64_t hm_checker_unlisted(const struct hm_checker *c)
{
	return c->unlisted;
}
