/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rebase.h (analyzer) - add what a long-running learner learned to a policy
 * that was edited under it (analyzer/rebase.c).
 */
#ifndef HISTMAC_REBASE_H
#define HISTMAC_REBASE_H

#include "histmac/learned.h"

struct hm_model;

/**
 * hm_model_rebase() - add to @disk (the policy as the directory holds it
 * now) what @cur learned since @base (the policy as the learner loaded or
 * last saved it): entries and permission bits @base lacks, domains @base
 * lacks, and the learned marks.  What @disk changed wins: its profiles,
 * and entries or domains it no longer has that @cur only had from @base.
 * @base: names may be interned into it (a scratch copy).
 * Returns: 0 or negative errno (@disk may be partly merged then).
 */
int hm_model_rebase(struct hm_model *disk, const struct hm_model *cur,
		    struct hm_model *base);

/**
 * hm_model_copy() - a deep copy of @m's domains, entries, exception
 * policy and marks.
 * Returns: 0 or negative errno; caller frees *@out with hm_model_free().
 */
int hm_model_copy(const struct hm_model *m, struct hm_model **out);

#endif /* HISTMAC_REBASE_H */
