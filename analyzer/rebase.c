// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rebase.c - a long-running learner meets an edited policy.  The learner
 * holds the policy it loaded or last saved (the base) and the policy it
 * learned into since (current); the administrator may have changed the
 * directory meanwhile: profiles set, entries or domains deleted.  What the
 * learner adds to the directory's policy is only what it learned since the
 * base, so the edits survive.  Owns nothing; reads current and base.
 */
#include <errno.h>
#include <string.h>

#include "histmac/model.h"
#include "histmac/rebase.h"

static int domain_in(struct hm_model *m, const struct hm_domain *d,
		     bool create, struct hm_domain **out)
{
	return hm_model_domain(m, d->name->str, d->name->len, create, out);
}

/* The bits of @e that @b (in @base) lacks; all of them when @b lacks @e. */
static int new_bits(struct hm_model *base, const struct hm_domain *b,
		    const struct hm_model *cur, const struct hm_acl_head *e,
		    bool *any, uint32_t *bits)
{
	union hm_acl_any tmp;
	const struct hm_acl_head *f;
	int r;

	*any = true;
	*bits = e->perm;
	if (!b)
		return 0;
	r = hm_acl_clone(base, cur, e, &tmp);	/* names as @base has them */
	if (r)
		return r;
	f = hm_domain_find(b, &tmp.head);
	if (f) {
		*bits = e->perm & ~f->perm;
		*any = *bits != 0;
	}
	return 0;
}

/* Copy into @delta what @d (of @cur) learned since @base. */
static int delta_domain(struct hm_model *delta, struct hm_model *base,
			const struct hm_model *cur, const struct hm_domain *d)
{
	struct hm_domain *b = NULL;
	struct hm_domain *out = NULL;
	int r = domain_in(base, d, false, &b);

	if (r < 0)
		return r;
	if (!b && (r = domain_in(delta, d, true, &out)) < 0)
		return r;	/* a domain new since the base: keep it */
	for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
		union hm_acl_any x;
		struct hm_acl_head *in = NULL;
		uint32_t bits;
		bool any;

		r = new_bits(base, b, cur, e, &any, &bits);
		if (r)
			return r;
		if (!any)
			continue;
		r = hm_acl_clone(delta, cur, e, &x);
		if (!r && !out)
			r = domain_in(delta, d, true, &out);
		x.head.perm = bits;
		if (r >= 0)
			r = hm_domain_add(delta, out, &x.head, &in);
		if (r < 0)
			return r;
		in->hist = e->hist;
		in->hist.uses = 0;	/* counted once, by keep_history() */
	}
	if (out) {
		out->profile = d->profile;
		out->flags = d->flags;
		memcpy(out->groups, d->groups, sizeof(out->groups));
	}
	return 0;
}

/* The history of @d's entries that @t (on disk) still has. */
static int keep_history(struct hm_model *disk, struct hm_domain *t,
			const struct hm_model *cur, const struct hm_domain *d)
{
	for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
		union hm_acl_any x;
		struct hm_acl_head *f;
		int r = hm_acl_clone(disk, cur, e, &x);

		if (r)
			return r;
		f = hm_domain_find(t, &x.head);
		if (f)
			hm_acl_hist_keep(&f->hist, &e->hist);
	}
	return 0;
}

/* The package stamp is the learner's (it stamps before each save). */
static int keep_package(struct hm_model *disk, struct hm_domain *t,
			const struct hm_domain *d)
{
	t->package = t->package_version = NULL;
	if (!d->package)
		return 0;
	if (hm_model_intern(disk, d->package->str, d->package->len,
			    &t->package) < 0 ||
	    hm_model_intern(disk, d->package_version->str,
			    d->package_version->len, &t->package_version) < 0)
		return -ENOMEM;
	return 0;
}

/* Counters are the learner's own: they only grow (but for the events
 * since a domain's last new entry, which are the learner's as they are). */
static int keep_counters(struct hm_model *disk, const struct hm_model *cur)
{
	for (size_t i = 0; i < cur->n_domains; i++) {
		const struct hm_domain *d = cur->domains[i];
		struct hm_domain *t = NULL;
		int r;

		if (domain_in(disk, d, false, &t) < 0 || !t)
			continue;
		t->quiet_events = d->quiet_events;
		r = keep_package(disk, t, d);
		if (!r)
			r = keep_history(disk, t, cur, d);
		if (r)
			return r;
		if (d->events > t->events)
			t->events = d->events;
		if (d->first_seen && (!t->first_seen ||
				      d->first_seen < t->first_seen))
			t->first_seen = d->first_seen;
		if (d->last_seen > t->last_seen)
			t->last_seen = d->last_seen;
		hm_logins_add_all(&t->logins, &d->logins);
	}
	return 0;
}

/* A domain the administrator kept keeps the administrator's profile. */
static void disk_profiles_win(struct hm_model *delta,
			      const struct hm_model *disk)
{
	for (size_t i = 0; i < delta->n_domains; i++) {
		struct hm_domain *d = delta->domains[i];
		struct hm_domain *t = NULL;

		if (domain_in((struct hm_model *)disk, d, false, &t) >= 0 && t)
			d->profile = 0;	/* merge keeps the higher */
		d->events = 0;
		d->first_seen = d->last_seen = 0;
	}
}

int hm_model_rebase(struct hm_model *disk, const struct hm_model *cur,
		    struct hm_model *base)
{
	struct hm_model *delta = hm_model_new();
	long n = 0;
	int r = delta ? 0 : -ENOMEM;

	for (size_t i = 0; !r && i < cur->n_domains; i++)
		r = delta_domain(delta, base, cur, cur->domains[i]);
	if (!r) {
		disk_profiles_win(delta, disk);
		delta->max_learning_entry = disk->max_learning_entry;
		/* the marks: merge keeps the newer of each node's */
		for (const struct hm_learned *l = cur->learned; !r && l;
		     l = l->next)
			r = hm_learned_set(delta, l->node ? l->node->str : NULL,
					   l->node ? l->node->len : 0,
					   hm_learned_mark(l));
	}
	if (!r)
		n = hm_model_merge(disk, delta);
	if (n < 0)
		r = (int)n;
	if (!r)
		r = keep_counters(disk, cur);
	hm_model_free(delta);
	return r;
}

int hm_model_copy(const struct hm_model *m, struct hm_model **out)
{
	struct hm_model *c = hm_model_new();
	long n;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->max_learning_entry = m->max_learning_entry;
	n = hm_model_merge(c, m);
	if (n < 0) {
		hm_model_free(c);
		return (int)n;
	}
	*out = c;
	return 0;
}
