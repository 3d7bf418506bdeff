// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reroot.c - after transition controls were added to a learned policy
 * (patternize --apply's initialize_domain), give every domain the name
 * the tracker now gives its chain of programs.  A domain learned as
 * "<kernel> /sbin/init /etc/init.d/ssh /usr/sbin/sshd" is unreachable once
 * "initialize_domain /usr/sbin/sshd from any" is in the exception policy:
 * the same processes are now in "<kernel> /usr/sbin/sshd".  Domains that
 * get one name are merged into one (as hm_model_merge() merges a name
 * two hosts learned), and the old ones removed, so the policy still
 * allows what it was learned from.  Changes the model only when every
 * move is safe.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/patternize.h"
#include "histmac/tracker.h"

struct move {
	struct hm_domain *from;
	const struct hm_name *to;
};

/*
 * The name @dom has under @m's transition controls now: its programs
 * executed again, one by one, from its namespace ("<kernel>"), through
 * hm_transition_compute(), the tracker's own rule.  The names in a domain
 * are already aggregated, so this is idempotent: a name it returns maps
 * to itself.
 */
static int replay(struct hm_model *m, const struct hm_name *dom,
		  const struct hm_name **out)
{
	const char *end = dom->str + dom->len;
	const char *sp = memchr(dom->str, ' ', dom->len);
	const struct hm_name *cur = dom;
	int r = 0;

	if (sp)
		r = hm_model_intern(m, dom->str, (size_t)(sp - dom->str), &cur);
	while (!r && sp && sp < end) {
		const char *w = sp + 1;
		const char *e = memchr(w, ' ', (size_t)(end - w));
		struct hm_name prog = { .str = w };
		const struct hm_name *cand;
		enum hm_transit type;
		char *next;

		if (!e)
			e = end;
		prog.len = (uint32_t)(e - w);
		hm_name_fill(&prog);
		r = hm_transition_compute(m, cur, &prog, NULL, &cand, &next,
					  &type);
		if (!r) {
			r = hm_model_intern(m, next, strlen(next), &cur);
			free(next);
		}
		sp = e;
	}
	if (!r)
		*out = cur;
	return r;
}

/* Every domain whose name changes, and what to. */
static int plan(struct hm_model *m, struct move **out, size_t *n)
{
	struct move *v = NULL;
	size_t cap = 0;
	size_t n_dom = m->n_domains;
	int r = 0;

	*n = 0;
	for (size_t i = 0; !r && i < n_dom; i++) {
		struct hm_domain *d = m->domains[i];
		const struct hm_name *to;

		r = replay(m, d->name, &to);
		if (r || to == d->name)
			continue;
		r = HM_ARRAY_GROW(&v, &cap, *n + 1);
		if (!r)
			v[(*n)++] = (struct move){ .from = d, .to = to };
	}
	if (r) {
		free(v);
		*n = 0;
		return r;
	}
	*out = v;
	return 0;
}

/* The profile domain @to will have: its own, or the first mover's. */
static const struct hm_domain *target_profile(const struct hm_model *m,
					      const struct move *v, size_t n,
					      const struct hm_name *to)
{
	const struct hm_domain *t = hm_model_find_domain(m, to);

	for (size_t i = 0; !t && i < n; i++)
		if (v[i].to == to)
			t = v[i].from;
	return t;
}

/*
 * Refuse what cannot be moved safely: domains of different profiles
 * becoming one (which profile the union gets is the administrator's
 * call: the higher would enforce what was learned in another's name, the
 * lower would stop enforcing), and transition controls that name a
 * domain by its old name ("from <kernel> ..."), which would silently stop
 * applying.  Returns: the number of reasons (each in @dg).
 */
static size_t refusals(struct hm_model *m, const struct move *v, size_t n,
		       struct hm_diag *dg)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct hm_domain *t = target_profile(m, v, n, v[i].to);

		if (t->profile == v[i].from->profile)
			continue;
		hm_diag_add(dg, HM_DIAG_ERROR, NULL, 0,
			    "%s (profile %u) would become one domain with %s "
			    "(profile %u) as %s; give them one profile first",
			    v[i].from->name->str, v[i].from->profile,
			    t->name->str, t->profile, v[i].to->str);
		bad++;
	}
	for (const struct hm_transition_rule *t = m->ex.transitions; t;
	     t = t->next) {
		const struct hm_name *to;

		if (!t->domain || t->domain->str[0] != '<' ||
		    replay(m, t->domain, &to) || to == t->domain)
			continue;
		hm_diag_add(dg, HM_DIAG_ERROR, NULL, 0,
			    "%s %s from %s: that domain is now %s; change "
			    "the exception policy first",
			    hm_transition_names[t->type],
			    t->program ? t->program->str : "any",
			    t->domain->str, to->str);
		bad++;
	}
	return bad;
}

/* A signal's target domain, renamed as the domains are. */
static int rename_targets(struct hm_model *m, struct hm_domain *d)
{
	const struct hm_acl_head **v = hm_domain_sorted_acl(d);
	size_t n = d->n_acl;
	int r = v ? 0 : -ENOMEM;

	for (size_t i = 0; !r && i < n; i++) {
		union hm_acl_any copy;
		struct hm_acl_hist hist = v[i]->hist;
		struct hm_acl_head *in = NULL;
		bool changed = false;

		memcpy(&copy, v[i], hm_acl_size(v[i]->kind));
		hm_for_each_operand(o, v[i]->kind) {
			const struct hm_name **p;

			if (o->type != HM_OT_DOMAIN)
				continue;
			p = hm_operand_ptr(&copy, o);
			if (!*p || (*p)->str[0] != '<')
				continue;
			r = replay(m, *p, p);
			changed |= *p != *(const struct hm_name *const *)
				hm_operand_ptr(v[i], o);
		}
		if (r || !changed)
			continue;
		r = hm_domain_remove(m, d, v[i]);
		if (r >= 0)
			r = hm_domain_add(m, d, &copy.head, &in);
		if (r >= 0 && in)
			hm_acl_hist_merge(&in->hist, &hist);
		r = r < 0 ? r : 0;
	}
	free(v);
	return r;
}

static bool is_patterned(const struct hm_acl_head *e)
{
	hm_for_each_operand(o, e->kind) {
		const struct hm_name_op *op = hm_operand_ptr(e, o);

		if (o->type == HM_OT_NAME && op->name && op->name->is_patterned)
			return true;
	}
	return false;
}

/*
 * What learn does after adding: literal entries a patterned one covers
 * go.  Only entries with one literal name are folded away, never a
 * patterned one, so the patterned ones, picked first, stay valid.
 */
static int fold_all(struct hm_model *m, struct hm_domain *d)
{
	const struct hm_acl_head **v = hm_domain_sorted_acl(d);
	size_t n = 0;
	int r = v ? 0 : -ENOMEM;

	for (size_t i = 0; v && i < d->n_acl; i++)
		if (is_patterned(v[i]))
			v[n++] = v[i];
	for (size_t i = 0; !r && i < n; i++)
		r = hm_domain_fold(m, d, v[i]) < 0 ? -ENOMEM : 0;
	free(v);
	return r;
}

static int move_all(struct hm_model *m, const struct move *v, size_t n,
		    struct hm_reroot_stats *st)
{
	int r = 0;

	for (size_t i = 0; !r && i < n; i++) {
		struct hm_domain *t;
		long added;

		r = hm_model_domain(m, v[i].to->str, v[i].to->len, true, &t);
		if (r < 0)
			break;
		st->created += (size_t)r;
		added = hm_domain_merge(m, t, r == 1, m, v[i].from);
		r = added < 0 ? (int)added : 0;
		if (!r)
			r = fold_all(m, t);
	}
	for (size_t i = 0; !r && i < n; i++)
		hm_model_remove_domain(m, v[i].from);
	for (size_t i = 0; !r && i < m->n_domains; i++)
		r = rename_targets(m, m->domains[i]);
	for (unsigned i = 0; !r && i < HM_ARRAY_SIZE(m->ex.acl_groups); i++)
		if (m->ex.acl_groups[i])
			r = rename_targets(m, m->ex.acl_groups[i]);
	return r;
}

int hm_patternize_reroot(struct hm_model *m, struct hm_diag *d,
			 struct hm_reroot_stats *st)
{
	struct move *v = NULL;
	size_t n = 0;
	int r = plan(m, &v, &n);

	memset(st, 0, sizeof(*st));
	if (r)
		return r;
	if (refusals(m, v, n, d)) {
		free(v);
		return -ECANCELED;
	}
	st->moved = n;
	r = move_all(m, v, n, st);
	free(v);
	return r;
}
