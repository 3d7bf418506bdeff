// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * merge.c - copying between models: one entry (hm_acl_clone) or a whole
 * policy (hm_model_merge, for `histmac merge` of policies learned on
 * several hosts and for reloads).  Names are re-interned, groups and
 * conditions matched by name.  Operands are copied by type, from the
 * kind table (hm_kinds[]).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/learned.h"
#include "histmac/model.h"
#include "histmac/owners.h"

static int copy_name(struct hm_model *dst, const struct hm_name **n)
{
	return *n ? hm_model_intern(dst, (*n)->str, (*n)->len, n) : 0;
}

static int copy_group(struct hm_model *dst, const struct hm_group **g);

static int copy_member(struct hm_model *dst, enum hm_group_type type,
		       struct hm_group_member *mb)
{
	if (type == HM_GROUP_PATH)
		return copy_name(dst, &mb->name);
	return 0;	/* numbers and addresses hold no pointers */
}

/* Find or create @g's namesake in @dst, with all of @g's members. */
static int copy_group(struct hm_model *dst, const struct hm_group **g)
{
	const struct hm_group *src = *g;
	struct hm_group *out;
	int r;

	if (!src)
		return 0;
	r = hm_model_group(dst, src->type, src->name->str, src->name->len,
			   &out);
	for (const struct hm_group_member *mb = src->members; !r && mb;
	     mb = mb->next) {
		struct hm_group_member copy = *mb;

		r = copy_member(dst, src->type, &copy);
		if (!r)
			r = hm_group_add(dst, out, &copy) < 0 ? -ENOMEM : 0;
	}
	if (!r)
		*g = out;
	return r;
}

static int copy_cond(struct hm_model *dst, const struct hm_cond **c)
{
	const struct hm_cond *src = *c;
	struct hm_cond *tmp;
	size_t size;
	int r = 0;

	if (!src)
		return 0;
	size = sizeof(*src) + src->n_items * sizeof(src->items[0]);
	tmp = malloc(size);
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, src, size);
	r = copy_name(dst, &tmp->text);
	for (uint32_t i = 0; !r && i < tmp->n_items; i++) {
		r = copy_name(dst, &tmp->items[i].str);
		if (!r)
			r = copy_name(dst, &tmp->items[i].text);
		if (!r)
			r = copy_group(dst, &tmp->items[i].num.group);
	}
	if (!r)
		r = hm_model_cond(dst, tmp, c);
	free(tmp);
	return r;
}

static int copy_operand(struct hm_model *dst, const struct hm_operand *o,
			void *base)
{
	char *p = hm_operand_ptr(base, o);

	switch (o->type) {
	case HM_OT_NAME: {
		struct hm_name_op *n = (void *)p;

		return n->group ? copy_group(dst, &n->group) :
				  copy_name(dst, &n->name);
	}
	case HM_OT_NUMBER:
		return copy_group(dst, &((struct hm_number *)(void *)p)->group);
	case HM_OT_ADDR:
		return copy_group(dst, &((struct hm_addr *)(void *)p)->group);
	case HM_OT_WORD:
	case HM_OT_DOMAIN:
		return copy_name(dst, (const struct hm_name **)(void *)p);
	default:
		return 0;
	}
}

int hm_acl_clone(struct hm_model *dst, const struct hm_model *src,
		 const struct hm_acl_head *e, union hm_acl_any *out)
{
	int r;

	(void)src;
	if (e->kind >= HM_ACL_KIND_MAX)
		return -EINVAL;
	memcpy(out, e, hm_acl_size(e->kind));
	out->head.next = out->head.hnext = NULL;
	r = copy_cond(dst, &out->head.cond);
	hm_for_each_operand(o, e->kind)
		if (!r)
			r = copy_operand(dst, o, out);
	return r;
}

/* Profile: the higher (a domain someone enforces stays enforced). */
static void merge_attrs(struct hm_domain *d, const struct hm_domain *s)
{
	if (s->profile > d->profile)
		d->profile = s->profile;
	d->flags |= s->flags;
	for (size_t i = 0; i < sizeof(d->groups); i++)
		d->groups[i] |= s->groups[i];
	d->events += s->events;
	if (s->first_seen && (!d->first_seen || s->first_seen < d->first_seen))
		d->first_seen = s->first_seen;
	if (s->last_seen > d->last_seen)
		d->last_seen = s->last_seen;
	hm_logins_add_all(&d->logins, &s->logins);
}

static long merge_acl(struct hm_model *dst, const struct hm_model *src,
		      struct hm_domain *d, const struct hm_domain *s)
{
	long n = 0;

	for (const struct hm_acl_head *e = s->acl; e; e = e->next) {
		union hm_acl_any copy;
		struct hm_acl_head *in = NULL;
		const struct hm_acl_head *had;
		uint32_t before = 0;
		int r = hm_acl_clone(dst, src, e, &copy);

		if (!r && (had = hm_domain_find(d, &copy.head)))
			before = had->perm;
		if (!r)
			r = hm_domain_add(dst, d, &copy.head, &in);
		if (r < 0)
			return r;
		if (in)
			hm_acl_hist_union(&in->hist, before, &e->hist, e->perm);
		n += r;
	}
	return n;
}

long hm_domain_merge(struct hm_model *dst, struct hm_domain *d, bool fresh,
		     const struct hm_model *src, const struct hm_domain *s)
{
	int r;

	if (fresh) {
		d->profile = s->profile;	/* not dst's default */
		memset(d->groups, 0, sizeof(d->groups));
		d->quiet_events = s->quiet_events;
	} else if (s->quiet_events < d->quiet_events) {
		d->quiet_events = s->quiet_events;	/* quiet on every host */
	}
	merge_attrs(d, s);
	if (s->package && !d->package) {	/* the first host's */
		d->package = s->package;
		d->package_version = s->package_version;
		r = copy_name(dst, &d->package);
		if (!r)
			r = copy_name(dst, &d->package_version);
		if (r < 0)
			return r;
	}
	return merge_acl(dst, src, d, s);
}

static long merge_domain(struct hm_model *dst, const struct hm_model *src,
			 const struct hm_domain *s)
{
	struct hm_domain *d;
	int r;
	long n;

	r = hm_model_domain(dst, s->name->str, s->name->len, true, &d);
	if (r < 0)
		return r;
	n = hm_domain_merge(dst, d, r == 1, src, s);
	return n < 0 ? n : n + r;
}

static int merge_exception_lists(struct hm_model *dst,
				 const struct hm_model *src)
{
	int r = 0;

	for (const struct hm_group *g = src->ex.groups; !r && g; g = g->next) {
		const struct hm_group *tmp = g;

		r = copy_group(dst, &tmp);
	}
	for (const struct hm_transition_rule *t = src->ex.transitions; !r && t;
	     t = t->next) {
		struct hm_transition_rule c = *t;

		r = copy_name(dst, &c.program);
		if (!r)
			r = copy_name(dst, &c.domain);
		if (!r)
			r = hm_model_add_transition(dst, &c) < 0 ? -ENOMEM : 0;
	}
	for (const struct hm_rename_rule *x = src->ex.renames; !r && x;
	     x = x->next) {
		struct hm_rename_rule c = *x;

		r = copy_name(dst, &c.original);
		if (!r)
			r = copy_name(dst, &c.renamed);
		if (!r)
			r = hm_model_add_rename(dst, &c) < 0 ? -ENOMEM : 0;
	}
	return r;
}

static int merge_words(struct hm_model *dst, struct hm_word_entry **list,
		       const struct hm_word_entry *src)
{
	for (; src; src = src->next) {
		const struct hm_name *w = src->word;
		int r = copy_name(dst, &w);

		if (!r)
			r = hm_model_add_word(dst, list, w);
		if (r < 0)
			return r;
	}
	return 0;
}

static int merge_exception(struct hm_model *dst, const struct hm_model *src)
{
	int r = merge_exception_lists(dst, src);

	if (!r)
		r = merge_words(dst, &dst->ex.file_patterns,
				src->ex.file_patterns);
	if (!r)
		r = merge_words(dst, &dst->ex.deny_rewrites,
				src->ex.deny_rewrites);
	for (const struct hm_rewrite_rule *w = src->ex.rewrites; !r && w;
	     w = w->next)
		r = hm_model_add_rewrite(dst, w->regex_src, w->replacement,
					 w->line) < 0 ? -ENOMEM : 0;
	for (unsigned i = 0; !r && i < HM_ARRAY_SIZE(src->ex.acl_groups); i++) {
		struct hm_domain *g;
		long n;

		if (!src->ex.acl_groups[i])
			continue;
		r = hm_model_acl_group(dst, i, &g);
		if (!r && (n = merge_acl(dst, src, g, src->ex.acl_groups[i])) < 0)
			r = (int)n;
	}
	if (src->ex.deny_autobind_max && !dst->ex.deny_autobind_max) {
		dst->ex.deny_autobind_min = src->ex.deny_autobind_min;
		dst->ex.deny_autobind_max = src->ex.deny_autobind_max;
	}
	return r;
}

/* Each node's mark: the newer one, so merging is order-independent. */
static int merge_learned(struct hm_model *dst, const struct hm_model *src)
{
	for (const struct hm_learned *l = src->learned; l; l = l->next) {
		int r = hm_learned_set(dst, l->node ? l->node->str : NULL,
				       l->node ? l->node->len : 0,
				       hm_learned_mark(l));

		if (r)
			return r;
	}
	return 0;
}

long hm_model_merge(struct hm_model *dst, const struct hm_model *src)
{
	long total = 0;
	int r = merge_exception(dst, src);

	if (r)
		return r;
	for (size_t i = 0; i < src->n_domains; i++) {
		long n = merge_domain(dst, src, src->domains[i]);

		if (n < 0)
			return n;
		total += n;
	}
	hm_model_relink(dst);
	/* The larger cap wins; 0 (no cap) is the largest. */
	if (!src->max_learning_entry ||
	    (dst->max_learning_entry &&
	     src->max_learning_entry > dst->max_learning_entry))
		dst->max_learning_entry = src->max_learning_entry;
	r = merge_learned(dst, src);
	if (!r)
		r = hm_owners_merge(dst, src);
	return r ? r : total;
}

static bool known_name(const struct hm_model *m, const struct hm_name *n)
{
	return !n || hm_name_lookup(m->names, n->str, n->len);
}

bool hm_model_knows(const struct hm_model *m, const union hm_acl_any *e)
{
	if (e->head.cond && !known_name(m, e->head.cond->text))
		return false;
	hm_for_each_operand(o, e->head.kind) {
		const void *p = hm_operand_ptr(e, o);

		if (o->type == HM_OT_NAME &&
		    !known_name(m, ((const struct hm_name_op *)p)->name))
			return false;
		if ((o->type == HM_OT_WORD || o->type == HM_OT_DOMAIN) &&
		    !known_name(m, *(const struct hm_name *const *)p))
			return false;
	}
	return true;
}
