/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patternize.h (analyzer) - looking at a learned policy for names that vary
 * from run to run (temporary files, numbered logs, hashes) and for services
 * reached along several chains, and suggesting rewrite rules and
 * initialize_domain entries for them, as tomoyo-findtemp and
 * tomoyo-patternize helped with.
 */
#ifndef HISTMAC_PATTERNIZE_H
#define HISTMAC_PATTERNIZE_H

#include "learn.h"

enum hm_suggestion_type {
	HM_SUGGEST_REWRITE,	/* a rewrite.conf rule */
	HM_SUGGEST_INITIALIZE,	/* initialize_domain PROGRAM from any */
};

/*
 * struct hm_suggestion - one suggestion.
 * @regex, @replacement: the rewrite rule (HM_SUGGEST_REWRITE).
 * @program: the program (HM_SUGGEST_INITIALIZE), interned in the model.
 * @n_names: distinct literal names the rule covers (rewrite), or parent
 *	domains the program is reached from (initialize).
 * @n_domains: domains holding such names.
 * @n_absent: of @n_names, how many do not exist on this host now.
 * @example: one covered name (rewrite) or one parent domain.
 * @by_script: (initialize) a daemon its init script starts through
 *	helpers that execute at once, from one parent domain or more.
 * @refused: (rewrite) why the rule is only shown, never applied: it
 *	would cover more than the names that motivated it, or (@review)
 *	what it rests on is for a person to judge; NULL otherwise.
 * @refused_by: the name it would cover, or its example, with @refused.
 * @review: held for review rather than refused: a timestamp or a log's
 *	rotation counter one name shows, or a widening over the names a
 *	domain chose in a directory it writes (@domain set).
 * @domain: (widening) the domain whose names motivated it.
 * @first, @last: (widening) when the first and the last of its names
 *	were learned (audit time; 0 unknown).
 */
struct hm_suggestion {
	enum hm_suggestion_type type;
	char *regex;
	char *replacement;
	const struct hm_name *program;
	size_t n_names;
	size_t n_domains;
	size_t n_absent;
	char *example;
	bool by_script;
	const char *refused;
	char *refused_by;
	bool review;
	const struct hm_name *domain;
	int64_t first, last;
};

struct hm_patternize_opts {
	size_t min_names;	/* names sharing a shape to suggest (3) */
	bool check_fs;		/* count names absent on this host (true) */
	const char *fs_root;	/* look under this root; NULL for / */
};

/**
 * hm_patternize_suggest() - suggestions for @m, most names first.
 * @out: malloc()ed array of *@n; free with hm_suggestions_free().
 * Returns: 0 or negative errno.
 */
int hm_patternize_suggest(const struct hm_model *m,
			  const struct hm_patternize_opts *o,
			  struct hm_suggestion **out, size_t *n);

void hm_suggestions_free(struct hm_suggestion *s, size_t n);

/**
 * hm_patternize_widens() - what the rewrite rules of @s that are not
 * refused would widen in @m: @fn is called once per rule and domain
 * with the number of entries whose literal names the rule covers there
 * and one such name, in the model's domain order.  A non-zero return of
 * @fn stops and is returned.
 * Returns: 0, negative errno, or what @fn returned.
 */
int hm_patternize_widens(const struct hm_model *m,
			 const struct hm_suggestion *s, size_t n,
			 int (*fn)(const struct hm_suggestion *s,
				   const struct hm_domain *d, size_t entries,
				   const struct hm_name *example, void *arg),
			 void *arg);

/* What hm_patternize_reroot() did. */
struct hm_reroot_stats {
	size_t moved;		/* domains renamed or merged into another */
	size_t created;		/* domains that did not exist before */
};

/* What hm_patternize_apply() did. */
struct hm_patternize_result {
	size_t rewritten;		/* entries whose names were rewritten */
	struct hm_reroot_stats reroot;	/* domains moved */
};

/**
 * hm_patternize_apply() - add the suggestions to @m (rewrite rules and
 * initialize_domain entries), re-root the domains the exception policy
 * now names otherwise (hm_patternize_reroot()), then rewrite every
 * literal name in the domain policy that a rule now covers, folding
 * covered entries into the patterned ones.
 * Returns: 0; -ECANCELED when the re-rooting was refused (reasons in @d;
 *	@m has the rules added: do not save it); negative errno (rules
 *	that do not compile go to @d).
 */
int hm_patternize_apply(struct hm_model *m, const struct hm_suggestion *s,
			size_t n, struct hm_diag *d,
			struct hm_patternize_result *res);

/**
 * hm_patternize_reroot() - give every domain of @m the name the tracker
 * gives its chain of programs under @m's transition controls now
 * (initialize_domain restarts at "<kernel> PROG", keep_domain stays,
 * reset_domain changes namespace), so domains learned before a control
 * was added are reachable again.  Domains that get one name are merged
 * (hm_domain_merge(): entries and their history united, then folded
 * under the patterned ones, as learning folds), the old ones removed,
 * and signal targets naming them renamed.
 * Refused, @m unchanged, when domains of different profiles would become
 * one, or a transition control names a domain that would be renamed.
 * Returns: 0; -ECANCELED when refused (each reason in @d); negative errno.
 */
int hm_patternize_reroot(struct hm_model *m, struct hm_diag *d,
			 struct hm_reroot_stats *st);

#endif /* HISTMAC_PATTERNIZE_H */
