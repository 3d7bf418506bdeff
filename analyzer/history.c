// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * history.c - when each entry was learned and used (struct hm_acl_hist).
 * The learner and the checker stamp entries with audit times; merging
 * hosts and a learner meeting its own saved policy combine the stamps.
 * Kept in the model beside the entry and saved apart from the TOMOYO
 * text (formats/history.c, histmac_entries.conf).
 */
#include <errno.h>
#include <string.h>

#include "histmac/model.h"

static int64_t earlier(int64_t a, int64_t b)
{
	if (!a)
		return b;
	return b && b < a ? b : a;
}

static int64_t later(int64_t a, int64_t b)
{
	return b > a ? b : a;
}

static void merge_times(struct hm_acl_hist *dst, const struct hm_acl_hist *src)
{
	dst->learned = earlier(dst->learned, src->learned);
	dst->grown = later(dst->grown, src->grown);
	dst->used = later(dst->used, src->used);
}

void hm_acl_hist_merge(struct hm_acl_hist *dst, const struct hm_acl_hist *src)
{
	merge_times(dst, src);
	dst->uses = dst->uses + src->uses < dst->uses ? UINT64_MAX :
		    dst->uses + src->uses;
}

/* When an entry with @perm and history @h had all it has: its last
 * widening, else its learning. */
static int64_t complete(const struct hm_acl_hist *h)
{
	return later(h->learned, h->grown);
}

void hm_acl_hist_union(struct hm_acl_hist *dst, uint32_t dst_perm,
		       const struct hm_acl_hist *src, uint32_t src_perm)
{
	uint32_t all = dst_perm | src_perm;
	int64_t cd = complete(dst), cs = complete(src), done;

	if (dst_perm == all && src_perm == all)
		done = earlier(cd, cs);	/* the first host to have it all */
	else if (dst_perm == all)
		done = cd;
	else if (src_perm == all)
		done = cs;
	else
		done = later(cd, cs);	/* only together: the later */
	hm_acl_hist_merge(dst, src);
	dst->grown = done > dst->learned ? done : 0;
}

void hm_acl_hist_keep(struct hm_acl_hist *dst, const struct hm_acl_hist *src)
{
	merge_times(dst, src);
	if (src->uses > dst->uses)
		dst->uses = src->uses;
}

/* The history is bookkeeping beside the entry, not the entry: a checker
 * that holds the policy read-only still counts its uses. */
void hm_acl_hist_use(const struct hm_acl_head *e, int64_t sec)
{
	struct hm_acl_hist *h = (struct hm_acl_hist *)&e->hist;

	if (h->uses != UINT64_MAX)
		h->uses++;
	h->used = later(h->used, sec);
}

void hm_model_clear_uses(struct hm_model *m)
{
	for (size_t i = 0; i < m->n_domains; i++)
		for (struct hm_acl_head *e = m->domains[i]->acl; e; e = e->next)
			e->hist.uses = 0;
}

/* The uses @s (of @src) counted into its namesake in @d (of @dst). */
static int add_domain_uses(struct hm_model *dst, struct hm_domain *d,
			   const struct hm_model *src, const struct hm_domain *s)
{
	for (const struct hm_acl_head *e = s->acl; e; e = e->next) {
		union hm_acl_any x;
		struct hm_acl_head *f;
		int r;

		if (!e->hist.uses)
			continue;
		r = hm_acl_clone(dst, src, e, &x);
		if (r)
			return r;
		f = hm_domain_find(d, &x.head);
		if (!f)
			continue;	/* edited away meanwhile */
		f->hist.uses += e->hist.uses;
		f->hist.used = f->hist.used > e->hist.used ? f->hist.used :
			       e->hist.used;
	}
	return 0;
}

int hm_model_add_uses(struct hm_model *dst, const struct hm_model *src)
{
	for (size_t i = 0; i < src->n_domains; i++) {
		const struct hm_domain *s = src->domains[i];
		struct hm_domain *d = NULL;
		int r;

		if (!s->name)
			continue;
		r = hm_model_domain(dst, s->name->str, s->name->len, false, &d);
		if (r < 0)
			return r;
		r = d ? add_domain_uses(dst, d, src, s) : 0;
		if (r)
			return r;
	}
	return 0;
}

/* The two oldest save records as one: the later time, the sums. */
static void fold_oldest(struct hm_model *m)
{
	struct hm_save_rec *a = &m->saves[0], *b = &m->saves[1];

	b->events += a->events;
	b->added += a->added;
	b->widened += a->widened;
	memmove(a, b, (m->n_saves - 1) * sizeof(*a));
	m->n_saves--;
}

int hm_model_add_save(struct hm_model *m, const struct hm_save_rec *r)
{
	if (m->n_saves >= HM_SAVES_MAX)
		fold_oldest(m);
	if (HM_ARRAY_GROW(&m->saves, &m->cap_saves, m->n_saves + 1))
		return -ENOMEM;
	m->saves[m->n_saves++] = *r;
	return 0;
}
