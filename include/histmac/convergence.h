/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * convergence.h (analyzer) - is learning done?  From the stamps a policy
 * keeps (history.h) alone: per domain and in all, when the last new entry
 * was learned, how many entries each day of the learning period added (and
 * each save of the learner, where the policy keeps its saves:
 * histmac_saves.conf), and a verdict.  Times are audit times and "now" is
 * the newest event the policy knows (not the clock), so a policy copied
 * elsewhere reads the same.  `histmac stats` prints it, the report draws it.
 */
#ifndef HISTMAC_CONVERGENCE_H
#define HISTMAC_CONVERGENCE_H

#include "histmac/model.h"

#define HM_DAY 86400
#define HM_CONV_QUIET_EVENTS 1000	/* the default of quiet_events */
#define HM_CONV_MAX_DAYS 1000	/* older days are counted in the first */

enum hm_verdict {
	HM_VERDICT_UNKNOWN,	/* no stamps (learned before they were kept) */
	HM_VERDICT_LEARNING,	/* its last events still added entries */
	HM_VERDICT_QUIET_DAYS,	/* nothing new for a day or more */
	HM_VERDICT_QUIET_EVENTS,/* nothing new for o->quiet_events events */
};

extern const char *const hm_verdict_ids[4];	/* "unknown", "learning", ... */

/* Entries a day added (learned) and widened (a permission added). */
struct hm_conv_day {
	int64_t day;		/* UTC midnight */
	uint64_t added;
	uint64_t widened;
};

/* What the domain's entries say one save (its index) added. */
struct hm_conv_dsave {
	size_t save;
	uint64_t added;
	uint64_t widened;
};

struct hm_conv_domain {
	const struct hm_domain *d;
	enum hm_verdict verdict;
	int64_t last_new;	/* newest learned or grown stamp, 0 none */
	uint64_t quiet_days;	/* whole days from @last_new to the end */
	uint64_t quiet_events;	/* events since (hm_domain) */
	size_t unstamped;	/* entries without a learned time */
	struct hm_conv_day *days;	/* days with something new, in order */
	size_t n_days;
	uint64_t quiet_saves;	/* saves after the one with @last_new */
	struct hm_conv_dsave *saves;	/* saves with something new */
	size_t n_saves;
};

struct hm_convergence {
	int64_t end;		/* the newest event the policy knows */
	int64_t last_new;
	size_t unstamped;
	size_t no_entries;	/* domains without entries: not judged */
	size_t n_verdict[4];
	struct hm_conv_day *days;	/* every day, first to @end's */
	size_t n_days;
	struct hm_conv_domain *domains;	/* with entries, sorted by name */
	size_t n_domains;
	const struct hm_save_rec *saves; /* the model's, borrowed; an entry
					 * belongs to the first save at or
					 * after its stamp */
	size_t n_saves;
	uint64_t quiet_saves;	/* saves after the one with @last_new */
};

/**
 * hm_convergence_new() - compute it for @m.
 * @quiet_events: events without anything new that make a domain quiet
 *	before a whole day has passed (0: days only).
 * Returns: 0 or -ENOMEM; free *@out with hm_convergence_free().
 */
int hm_convergence_new(const struct hm_model *m, uint64_t quiet_events,
		       struct hm_convergence **out);
void hm_convergence_free(struct hm_convergence *c);

/** hm_convergence_end() - the newest audit time @m knows: events seen,
 * entries learned and used. */
int64_t hm_convergence_end(const struct hm_model *m);

/** hm_acl_last_use() - when @e last allowed something: used, or the
 * access that taught it (learned, grown); 0 unknown. */
int64_t hm_acl_last_use(const struct hm_acl_head *e);

#endif /* HISTMAC_CONVERGENCE_H */
