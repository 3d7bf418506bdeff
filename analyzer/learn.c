// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * learn.c - learning mode: every access the walker reports that the
 * domain does not already allow becomes an entry (generalized), added with
 * hm_domain_add() so duplicates merge.  Owns the walker and generalizer;
 * writes into the caller's model.  Per-domain cap: max_learning_entry;
 * a domain at its cap interns nothing new in the model (hm_learn_quota(),
 * the enforcer's live learning's check too).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/append.h"
#include "histmac/learn.h"
#include "histmac/learned.h"
#include "histmac/profile.h"

/* Renew the scratch model after it holds this many names. */
#define SCRATCH_NAMES 4096

struct hm_learner {
	struct hm_model *m;
	struct hm_walker *w;
	struct hm_generalizer *g;
	struct hm_checker *ck;		/* domains not in learning mode */
	struct hm_model *scratch;	/* generalizing for full domains */
	struct hm_diag *d;
	uint8_t profile;
	struct hm_learn_stats st;
	int added;			/* in the current event */
	const struct hm_event *counted;	/* event already counted in a domain */
	const struct hm_domain *counted_in;
};

static void count_event(struct hm_learner *l, const struct hm_access *a)
{
	struct hm_domain *d = a->dom.domain;
	int64_t t = a->ev->sec;

	if (l->counted == a->ev && l->counted_in == d)
		return;
	l->counted = a->ev;
	l->counted_in = d;
	if (!hm_learned_counted(l->m, a->ev)) {	/* re-learning counts nothing */
		d->events++;
		d->quiet_events++;	/* until this event adds something */
	}
	if (t && (!d->first_seen || t < d->first_seen))
		d->first_seen = t;
	if (t > d->last_seen)
		d->last_seen = t;
}

bool hm_learn_full(const struct hm_model *m, const struct hm_domain *d)
{
	return m->max_learning_entry && d->n_acl >= m->max_learning_entry;
}

/* Refused by max_learning_entry; says whether it is @d's first time. */
static void refuse(struct hm_domain *d, struct hm_learn_added *out)
{
	out->what = HM_LEARN_QUOTA;
	out->first_quota_hit = !(d->flags & HM_DOMAIN_QUOTA_EXCEEDED);
	d->flags |= HM_DOMAIN_QUOTA_EXCEEDED;
}

/*
 * The stamp of what an event of second @sec adds: its second, or the next
 * when the model's last save came within @sec.  Stamps are whole
 * seconds, and a save ends within a second as often as not: what the
 * rest of that second teaches is the next save's, and so the saves'
 * counts (histmac_saves.conf) and what stats gives each domain per save,
 * both by stamps, agree.  An older event (a rotated log learned after a
 * newer one) keeps its own second: the curve per day is in the log's
 * time.
 */
static int64_t stamp(const struct hm_model *m, int64_t sec)
{
	return sec && sec == hm_model_last_save(m) ? sec + 1 : sec;
}

/* What @out says was added or widened at second @sec, stamped, and @d's
 * quiet count restarted (convergence, stats). */
static void stamp_added(const struct hm_model *m, struct hm_domain *d,
			const struct hm_learn_added *out, int64_t sec)
{
	struct hm_acl_hist *h = &out->in->hist;

	sec = stamp(m, sec);
	if (out->what == HM_LEARN_WIDENED) {
		/* within the second it was learned in: part of learning it */
		if (sec > h->grown && sec > h->learned)
			h->grown = sec;
	} else if (!h->learned || sec < h->learned) {
		/* earlier when it folded entries learned before */
		h->learned = sec;
	}
	d->quiet_events = 0;
}

int hm_learn_add(struct hm_model *m, struct hm_domain *d,
		 const union hm_acl_any *e, int64_t sec,
		 struct hm_learn_added *out)
{
	size_t before = d->n_acl;
	int r;

	memset(out, 0, sizeof(*out));
	if (!e || (hm_learn_full(m, d) && !hm_domain_find(d, &e->head))) {
		refuse(d, out);
		return 0;
	}
	r = hm_domain_add(m, d, &e->head, &out->in);
	if (r <= 0)
		return r;	/* 0: the entry already had those bits */
	if (d->n_acl == before) {
		out->what = HM_LEARN_WIDENED;
		stamp_added(m, d, out, sec);
		return 0;
	}
	out->what = HM_LEARN_ADDED;
	r = hm_domain_fold(m, d, out->in);
	if (r < 0)
		return r;
	out->folded = (uint32_t)r;
	stamp_added(m, d, out, sec);
	return 0;
}

static void quota_hit(struct hm_learner *l, struct hm_domain *d, bool first)
{
	if (first)
		hm_diag_add(l->d, HM_DIAG_WARNING, NULL, 0,
			    "%s: max_learning_entry (%u) reached; "
			    "learning stops for this domain",
			    d->name->str, l->m->max_learning_entry);
	l->st.quota_hits++;
}

/* Returns 1 when something was added, 0, or negative errno. */
static int add_entry(struct hm_learner *l, struct hm_domain *d,
		     const union hm_acl_any *e, int64_t ev_sec)
{
	struct hm_learn_added res;
	int r = hm_learn_add(l->m, d, e, ev_sec, &res);

	if (r)
		return r;
	switch (res.what) {
	case HM_LEARN_QUOTA:
		quota_hit(l, d, res.first_quota_hit);
		return 0;
	case HM_LEARN_WIDENED:
		l->st.perms_new++;
		return 1;
	case HM_LEARN_ADDED:
		l->st.entries_new++;
		l->st.folded += res.folded;
		return 1;
	default:
		return 0;
	}
}

/*
 * A domain at max_learning_entry only gets permission bits merged into
 * entries it holds, whose names are all in the model.  Generalizing into
 * the model would intern every new name the log shows and never use it:
 * a process opening a million distinct files would grow the learner
 * without bound.  So generalize into a scratch model first, and go on
 * (in the model, where it interns nothing new) only when the model knows
 * every name; otherwise the access is a quota hit.
 */
int hm_learn_quota(struct hm_model *m, struct hm_domain *d,
		   struct hm_generalizer *g, struct hm_model **scratch,
		   const struct hm_access *a, const struct hm_request *req,
		   struct hm_learn_added *res)
{
	const struct hm_cond *cond = NULL;
	union hm_acl_any e;
	int r;

	if (!hm_learn_full(m, d))
		return 1;
	if (!*scratch || hm_names_count((*scratch)->names) > SCRATCH_NAMES) {
		hm_model_free(*scratch);
		*scratch = hm_model_new();
		if (!*scratch)
			return -ENOMEM;
	}
	r = a ? hm_generalize_cond(*scratch, a, &cond) : 0;
	if (!r)
		r = hm_generalize_request(g, *scratch, req, cond, &e);
	if (r)
		return r;
	if (hm_model_knows(m, &e))
		return 1;
	memset(res, 0, sizeof(*res));
	refuse(d, res);
	return 0;
}

/*
 * Does @d allow @a, and all that learning it would add: an O_APPEND open
 * asks "file write", and a policy for a TOMOYO kernel needs "file append"
 * as well (append.h).  @used: the entry that allows @a.
 */
static bool allows_learned(const struct hm_model *m,
			   const struct hm_domain *d, const struct hm_access *a,
			   const struct hm_acl_head **used)
{
	uint32_t more = a->append_open ? hm_append_learns(false) : 0;
	struct hm_request r = a->req;

	if (!hm_domain_allows(m, d, &a->req, used))
		return false;
	for (r.op = 0; r.op < HM_FILE_OP_MAX; r.op++)
		if ((more & 1u << r.op) && !hm_domain_allows(m, d, &r, NULL))
			return false;
	return true;
}

static int learn_access(const struct hm_access *a, void *arg)
{
	struct hm_learner *l = arg;
	struct hm_domain *d = a->dom.domain;
	const struct hm_acl_head *used;
	struct hm_learn_added res;
	union hm_acl_any e;
	int r;

	if (!d || a->attempt)	/* an attempt is evidence, not behaviour */
		return 0;
	count_event(l, a);
	switch (hm_profile_mode(d->profile)) {
	case HM_PROFILE_DISABLED:	/* TOMOYO checks nothing */
		return 0;
	case HM_PROFILE_LEARNING:
		break;
	default:	/* permissive, enforcing: what is missing is a violation */
		return hm_checker_access(l->ck, a);
	}
	if (a->proof == HM_PROOF_NONE)	/* counted by the walker */
		return 0;
	if (allows_learned(l->m, d, a, &used)) {
		if (!hm_learned_counted(l->m, a->ev))
			hm_acl_hist_use(used, a->ev->sec);
		return 0;
	}
	r = hm_learn_quota(l->m, d, l->g, &l->scratch, a, &a->req, &res);
	if (r <= 0) {
		if (!r)
			quota_hit(l, d, res.first_quota_hit);
		return r;
	}
	r = hm_generalize_access(l->g, l->m, a, &e);
	if (!r)
		r = add_entry(l, d, &e, a->ev->sec);
	if (r > 0 && hm_domain_allows(l->m, d, &a->req, &used))
		hm_acl_hist_use(used, a->ev->sec);	/* taught is used */
	if (r > 0)
		l->added++;
	return r < 0 ? r : 0;
}

int hm_learner_new(struct hm_model *m, const struct hm_learn_opts *o,
		   uint8_t profile, struct hm_diag *d,
		   struct hm_learner **out)
{
	struct hm_learner *l = calloc(1, sizeof(*l));
	struct hm_domain *kernel;
	int r;

	if (!l)
		return -ENOMEM;
	l->m = m;
	l->d = d;
	l->profile = profile;
	m->default_profile = profile;
	r = hm_model_domain(m, HM_KERNEL, HM_KERNEL_LEN, true, &kernel);
	/* TOMOYO's <kernel> uses acl_group 0 (globally readable files). */
	if (r == 1 && m->ex.acl_groups[0])
		kernel->groups[0] |= 1;
	if (r >= 0)
		r = hm_walker_new(m, o, true, &l->w);
	if (r >= 0)
		r = hm_generalizer_new(m, o, d, &l->g);
	if (r >= 0)
		r = hm_checker_new_list(m, l->g, &l->ck);
	if (r < 0) {
		hm_learner_free(l);
		return r;
	}
	*out = l;
	return 0;
}

void hm_learner_free(struct hm_learner *l)
{
	if (!l)
		return;
	hm_walker_free(l->w);
	hm_checker_free(l->ck);		/* borrows l->g */
	hm_generalizer_free(l->g);
	hm_model_free(l->scratch);
	free(l);
}

int hm_learner_event(struct hm_learner *l, const struct hm_event *ev)
{
	size_t domains = l->m->n_domains;
	int r;

	l->added = 0;
	l->st.events++;
	l->st.events_new += !hm_learned_counted(l->m, ev);
	r = hm_walker_event(l->w, ev, learn_access, l);
	if (r >= 0 && hm_learned_note(l->m, ev) < 0)
		r = -ENOMEM;
	l->st.domains_new += l->m->n_domains - domains;
	return r < 0 ? r : l->added;
}

int hm_learner_set_model(struct hm_learner *l, struct hm_model *m,
			 const struct hm_learn_opts *o)
{
	struct hm_generalizer *g;
	struct hm_checker *ck = NULL;
	int r = hm_generalizer_new(m, o, l->d, &g);

	if (!r)
		r = hm_checker_new_list(m, g, &ck);
	if (r) {
		hm_generalizer_free(g);
		return r;
	}
	hm_checker_free(l->ck);	/* (violations so far are dropped) */
	l->ck = ck;
	hm_generalizer_free(l->g);
	l->g = g;
	l->m = m;
	m->default_profile = l->profile;
	l->counted = NULL;
	l->counted_in = NULL;
	hm_walker_set_model(l->w, m);
	return 0;
}

void hm_learner_stats(const struct hm_learner *l, struct hm_learn_stats *out)
{
	*out = l->st;
}

struct hm_walker *hm_learner_walker(struct hm_learner *l)
{
	return l->w;
}

struct hm_checker *hm_learner_checker(struct hm_learner *l)
{
	return l->ck;
}
