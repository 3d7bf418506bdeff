/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h (formats) - what `histmac stats` says of a policy: its counts
 * (domains by profile and flag, entries by kind and operation, exception
 * policy, names, memory), the entries a reviewer reads first, and the
 * entries not used lately; and the same as JSON (docs/JSON.md).  The
 * front end prints the text from these structures.
 */
#ifndef HISTMAC_STATS_H
#define HISTMAC_STATS_H

#include "convergence.h"
#include "model.h"
#include "sbuf.h"

/*
 * struct hm_stats - the counts of one policy.
 * @max_domain: the domain with most entries (@max_entries), or NULL.
 * @rewrites: the exception policy's rewrite rules.
 * @mem_total: the model's bytes over all categories.
 */
struct hm_stats {
	size_t profiles[256];
	size_t flags[8];
	size_t kinds[HM_ACL_KIND_MAX];
	size_t file_ops[HM_FILE_OP_MAX];
	size_t net_ops[HM_NET_OP_MAX];
	size_t entries;
	size_t max_entries;
	const char *max_domain;
	size_t exception;
	size_t groups;
	size_t rewrites;
	size_t mem_total;
};

/** hm_stats_count() - count @m into @out. */
void hm_stats_count(const struct hm_model *m, struct hm_stats *out);

/**
 * hm_stats_write_json() - the JSON object of `histmac stats --format
 * json`: @st, the sensitive entries and the domains several logins
 * entered (in full), and @conv.
 * Returns: 0 or -ENOMEM.
 */
int hm_stats_write_json(struct hm_sbuf *b, const struct hm_model *m,
			const struct hm_stats *st,
			const struct hm_convergence *conv);

/*
 * struct hm_unused - an entry that allowed nothing lately.
 * @last: its last use (hm_acl_last_use()), 0 never.
 */
struct hm_unused {
	int64_t last;
	uint64_t uses;
	const struct hm_domain *d;
	const struct hm_acl_head *e;
};

/*
 * struct hm_unused_list - the entries of a policy not used in @days days
 * before @end (the newest event it knows), oldest use first.
 * @all: the entries of the policy.
 */
struct hm_unused_list {
	struct hm_unused *v;
	size_t n;
	size_t all;
	uint64_t days;
	int64_t end;
};

/** hm_unused_find() - fill @out; free with hm_unused_free().
 * Returns: 0 or -ENOMEM. */
int hm_unused_find(const struct hm_model *m, uint64_t days,
		   struct hm_unused_list *out);
void hm_unused_free(struct hm_unused_list *u);

/**
 * hm_unused_write_json() - {"days":N,"end":T,"entries":N,"unused":[...]}
 * (docs/JSON.md).
 * Returns: 0 or -ENOMEM.
 */
int hm_unused_write_json(struct hm_sbuf *b, const struct hm_model *m,
			 const struct hm_unused_list *u);

#endif /* HISTMAC_STATS_H */
