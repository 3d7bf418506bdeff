/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * learned.h (analyzer) - how far a policy has learned, per host
 * (analyzer/learned.c).
 *
 * A policy remembers, for each node (host) of its logs, the newest audit
 * event it learned from.  Entries are a set, so learning an event twice
 * adds nothing; the per-domain event counters are not, so an event at or
 * before the mark the policy was loaded with is not counted again.
 * Re-learning a log therefore leaves the policy byte-identical.
 */
#ifndef HISTMAC_LEARNED_H
#define HISTMAC_LEARNED_H

#include <stdbool.h>
#include <stdint.h>

#include "histmac/event.h"

struct hm_model;

/* An audit event's place in its node's stream: audit(SEC.MSEC:SERIAL). */
struct hm_stamp {
	int64_t sec;
	uint32_t msec;
	uint64_t serial;
};

/*
 * struct hm_learned - one node's marks.
 * @node: interned node name, NULL for logs without node=.
 * @base: the mark as loaded (events at or before it were counted before).
 * @top: the newest event learned in this run (may be older than @base).
 */
struct hm_learned {
	struct hm_learned *next;
	const struct hm_name *node;
	struct hm_stamp base;
	struct hm_stamp top;
};

/** hm_stamp_cmp() - order of two stamps: < 0, 0, > 0. */
int hm_stamp_cmp(const struct hm_stamp *a, const struct hm_stamp *b);

/**
 * hm_learned_counted() - was @ev counted when the policy learned before
 * (at or before the loaded mark of its node)?
 */
bool hm_learned_counted(const struct hm_model *m, const struct hm_event *ev);

/**
 * hm_learned_note() - raise the mark of @ev's node to @ev.
 * Returns: 0 or -ENOMEM.
 */
int hm_learned_note(struct hm_model *m, const struct hm_event *ev);

/**
 * hm_learned_set() - merge a mark read from a policy (or another model)
 * into @m's loaded marks: the newer one wins.
 * @node, @len: node name; NULL/0 for "no node".
 * Returns: 0 or negative errno.
 */
int hm_learned_set(struct hm_model *m, const char *node, size_t len,
		   const struct hm_stamp *at);

/** hm_learned_mark() - what a save writes for @l: the newer of its marks. */
const struct hm_stamp *hm_learned_mark(const struct hm_learned *l);

/** hm_learned_free() - free @m's marks (hm_model_free() calls it). */
void hm_learned_free(struct hm_model *m);

#endif /* HISTMAC_LEARNED_H */
