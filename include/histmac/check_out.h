/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_out.h (formats) - printing what `histmac check` found: paste-ready
 * policy text grouped by domain, or JSON (read back by `histmac tree
 * --highlight` and `histmac report`).
 */
#ifndef HISTMAC_CHECK_OUT_H
#define HISTMAC_CHECK_OUT_H

#include <stdio.h>

#include "learn.h"

/* A domain whose program's package version changed since it was learned. */
struct hm_check_upgrade {
	const char *domain;
	const char *package;
	const char *learned;	/* version stamped when learned */
	const char *now;	/* installed now; "(none)" if not */
};

/* Totals printed in the header (text) or the top object (JSON). */
struct hm_check_summary {
	const char *policy;		/* the policy directory */
	uint64_t events;		/* events read */
	uint64_t accesses;		/* permission checks made */
	const struct hm_walk_stats *walk;
	uint64_t collector_skipped;	/* malformed or cut records */
	uint64_t exe_changed;		/* processes whose exe= changed
					 * without an exec (kept in their
					 * domain) */
	bool list_attempts;		/* text: every attempt, not a summary */
	const struct hm_check_upgrade *upgrades;	/* sorted by domain */
	size_t n_upgrades;
};

/**
 * hm_check_write_text() - the violations of @c as policy text in
 * @dialect: a domain header line, then for each missing entry a comment
 * (how often, when, which process) and the entry, ready to paste into
 * domain_policy.conf.  Entries the dialect cannot say are comments.
 * Attempts follow, commented out: summarised per domain and errno (the
 * largest groups, each with an example), or one by one when
 * @s->list_attempts.
 * Returns: 0, -EIO when writing failed, -ENOMEM.
 */
int hm_check_write_text(struct hm_checker *c, enum hm_dialect dialect,
			const struct hm_check_summary *s, FILE *f);

/**
 * hm_check_write_json() - the same as one JSON object:
 * {"policy", "events", "accesses", "denied", "domains", "unlisted"
 *  (denials past HM_CHECK_MAX_VIOLATIONS distinct entries), "violations": [
 *   {"domain", "no_domain", "line", "count", "first", "last", "pid",
 *    "comm", "serial"} ...], "skipped": {reason: count}}; reasons are
 *    snake_case ids: "malformed_records" and hm_walk_skip_ids[].
 * Returns: 0, -EIO, -ENOMEM.
 */
int hm_check_write_json(struct hm_checker *c, enum hm_dialect dialect,
			const struct hm_check_summary *s, FILE *f);

#endif /* HISTMAC_CHECK_OUT_H */
