// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * convergence.c - is learning done (convergence.h)?  Reads the stamps of
 * a model's entries; owns the struct hm_convergence it returns.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/convergence.h"

const char *const hm_verdict_ids[4] = {
	"unknown", "learning", "quiet_days", "quiet_events",
};

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t day_of(int64_t t)
{
	return t - ((t % HM_DAY) + HM_DAY) % HM_DAY;
}

int64_t hm_acl_last_use(const struct hm_acl_head *e)
{
	return max64(e->hist.used, max64(e->hist.learned, e->hist.grown));
}

int64_t hm_convergence_end(const struct hm_model *m)
{
	int64_t end = 0;

	for (size_t i = 0; i < m->n_domains; i++) {
		const struct hm_domain *d = m->domains[i];

		end = max64(end, d->last_seen);
		for (const struct hm_acl_head *e = d->acl; e; e = e->next)
			end = max64(end, hm_acl_last_use(e));
	}
	return end;
}

static int cmp_domain(const void *a, const void *b)
{
	const struct hm_conv_domain *x = a, *y = b;

	return strcmp(x->d->name->str, y->d->name->str);
}

/* Count stamp @t (added or widened) into @c's day list @v of @n days
 * starting at @first. */
static void count_day(struct hm_conv_day *v, size_t n, int64_t first,
		      int64_t t, bool widened)
{
	int64_t i;

	if (!t || !n)
		return;
	i = (day_of(t) - first) / HM_DAY;
	if (i < 0)
		i = 0;		/* before the window: its first day */
	if ((size_t)i >= n)
		i = (int64_t)n - 1;
	if (widened)
		v[i].widened++;
	else
		v[i].added++;
}

/* The domain's days with something new, in order. */
static int domain_days(struct hm_conv_domain *cd, const struct hm_conv_day *all,
		       size_t n, int64_t first)
{
	struct hm_conv_day *tmp = calloc(n ? n : 1, sizeof(*tmp));
	size_t k = 0;

	if (!tmp)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		tmp[i].day = all[i].day;
	for (const struct hm_acl_head *e = cd->d->acl; e; e = e->next) {
		count_day(tmp, n, first, e->hist.learned, false);
		count_day(tmp, n, first, e->hist.grown, true);
	}
	for (size_t i = 0; i < n; i++)
		if (tmp[i].added || tmp[i].widened)
			tmp[k++] = tmp[i];
	cd->days = tmp;
	cd->n_days = k;
	return 0;
}

/* The save stamp @t belongs to: the first at or after it (the last for
 * a stamp after every save); saves are in time order. */
static size_t save_of(const struct hm_save_rec *v, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? lo : n - 1;
}

/* Saves after the one holding @last_new (none known: 0). */
static uint64_t saves_after(const struct hm_convergence *c, int64_t last_new)
{
	if (!c->n_saves || !last_new)
		return 0;
	return c->n_saves - 1 - save_of(c->saves, c->n_saves, last_new);
}

static void count_save(struct hm_conv_dsave *v, const struct hm_convergence *c,
		       int64_t t, bool widened)
{
	size_t i;

	if (!t)
		return;
	i = save_of(c->saves, c->n_saves, t);
	v[i].save = i;
	if (widened)
		v[i].widened++;
	else
		v[i].added++;
}

/* The domain's saves with something new, in order. */
static int domain_saves(struct hm_conv_domain *cd,
			const struct hm_convergence *c)
{
	struct hm_conv_dsave *tmp;
	size_t k = 0;

	cd->quiet_saves = saves_after(c, cd->last_new);
	if (!c->n_saves)
		return 0;
	tmp = calloc(c->n_saves, sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	for (const struct hm_acl_head *e = cd->d->acl; e; e = e->next) {
		count_save(tmp, c, e->hist.learned, false);
		count_save(tmp, c, e->hist.grown, true);
	}
	for (size_t i = 0; i < c->n_saves; i++)
		if (tmp[i].added || tmp[i].widened)
			tmp[k++] = tmp[i];
	cd->saves = tmp;
	cd->n_saves = k;
	return 0;
}

static void judge(struct hm_conv_domain *cd, int64_t end, uint64_t quiet)
{
	const struct hm_domain *d = cd->d;

	for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
		cd->last_new = max64(cd->last_new,
				     max64(e->hist.learned, e->hist.grown));
		cd->unstamped += !e->hist.learned;
	}
	cd->quiet_events = d->quiet_events;
	if (!cd->last_new) {
		cd->verdict = HM_VERDICT_UNKNOWN;
		return;
	}
	cd->quiet_days = (uint64_t)(end - cd->last_new) / HM_DAY;
	if (!cd->quiet_events)
		cd->verdict = HM_VERDICT_LEARNING;	/* its last event taught */
	else if (cd->quiet_days)
		cd->verdict = HM_VERDICT_QUIET_DAYS;
	else if (quiet && cd->quiet_events >= quiet)
		cd->verdict = HM_VERDICT_QUIET_EVENTS;
	else
		cd->verdict = HM_VERDICT_LEARNING;
}

/* The first day of the window: the oldest stamp or first event. */
static int64_t first_time(const struct hm_model *m, int64_t end)
{
	int64_t first = end;

	for (size_t i = 0; i < m->n_domains; i++) {
		const struct hm_domain *d = m->domains[i];

		if (d->first_seen && d->first_seen < first)
			first = d->first_seen;
		for (const struct hm_acl_head *e = d->acl; e; e = e->next)
			if (e->hist.learned && e->hist.learned < first)
				first = e->hist.learned;
	}
	if (end - first > (int64_t)(HM_CONV_MAX_DAYS - 1) * HM_DAY)
		first = end - (int64_t)(HM_CONV_MAX_DAYS - 1) * HM_DAY;
	return first;
}

static int fill(struct hm_convergence *c, const struct hm_model *m,
		uint64_t quiet)
{
	int64_t first = day_of(first_time(m, c->end));
	int r = 0;

	c->n_days = c->end ? (size_t)((day_of(c->end) - first) / HM_DAY) + 1 : 0;
	c->days = calloc(c->n_days + 1, sizeof(*c->days));
	c->domains = calloc(m->n_domains + 1, sizeof(*c->domains));
	if (!c->days || !c->domains)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_days; i++)
		c->days[i].day = first + (int64_t)i * HM_DAY;
	for (size_t i = 0; i < m->n_domains; i++) {
		const struct hm_domain *d = m->domains[i];
		struct hm_conv_domain *cd = &c->domains[c->n_domains];

		if (!d->name || !d->n_acl) {
			c->no_entries += d->name != NULL;
			continue;	/* an acl_group; nothing to learn */
		}
		cd->d = d;
		c->n_domains++;
		judge(cd, c->end, quiet);
		c->n_verdict[cd->verdict]++;
		c->unstamped += cd->unstamped;
		c->last_new = max64(c->last_new, cd->last_new);
		for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
			count_day(c->days, c->n_days, first, e->hist.learned,
				  false);
			count_day(c->days, c->n_days, first, e->hist.grown,
				  true);
		}
	}
	qsort(c->domains, c->n_domains, sizeof(*c->domains), cmp_domain);
	c->saves = m->saves;
	c->n_saves = m->n_saves;
	c->quiet_saves = saves_after(c, c->last_new);
	for (size_t i = 0; !r && i < c->n_domains; i++) {
		r = domain_days(&c->domains[i], c->days, c->n_days, first);
		if (!r)
			r = domain_saves(&c->domains[i], c);
	}
	return r;
}

int hm_convergence_new(const struct hm_model *m, uint64_t quiet_events,
		       struct hm_convergence **out)
{
	struct hm_convergence *c = calloc(1, sizeof(*c));
	int r;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->end = hm_convergence_end(m);
	r = fill(c, m, quiet_events);
	if (r) {
		hm_convergence_free(c);
		return r;
	}
	*out = c;
	return 0;
}

void hm_convergence_free(struct hm_convergence *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_domains; i++) {
		free(c->domains[i].days);
		free(c->domains[i].saves);
	}
	free(c->domains);
	free(c->days);
	free(c);
}
