// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * transition.c - where an exec leads: the exception policy's aggregator,
 * alias and transition controls applied in TOMOYO's order.  Pure: reads
 * the model's exception policy, creates nothing but interned names.
 * Used by the tracker, and through it by the learner and the enforcer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/word.h"
#include "histmac/tracker.h"

const char *const hm_transit_names[HM_TRANSIT_MAX] = {
	[HM_TRANSIT_CHILD] = "child",
	[HM_TRANSIT_INITIALIZE] = "initialize",
	[HM_TRANSIT_RESET] = "reset",
	[HM_TRANSIT_KEEP] = "keep",
	[HM_TRANSIT_UNOBSERVED] = "unobserved",
};

/* The last word of domain name @d (the program it was entered by). */
static struct hm_name last_word(const struct hm_name *d)
{
	const char *sp = memrchr(d->str, ' ', d->len);
	struct hm_name n;

	n.str = sp ? sp + 1 : d->str;
	n.len = (uint32_t)(d->len - (size_t)(n.str - d->str));
	hm_name_fill(&n);
	return n;
}

static bool rule_matches(const struct hm_transition_rule *r,
			 const struct hm_name *cur,
			 const struct hm_name *last,
			 const struct hm_name *program)
{
	if (r->program && !hm_word_matches(r->program, program))
		return false;
	if (!r->domain)
		return true;
	if (r->domain->str[0] == '<')
		return r->domain == cur ||
		       (r->domain->len == cur->len &&
			!memcmp(r->domain->str, cur->str, cur->len));
	return hm_word_matches(r->domain, last);
}

static bool any_rule(const struct hm_model *m, enum hm_transition type,
		     const struct hm_name *cur, const struct hm_name *last,
		     const struct hm_name *program)
{
	for (const struct hm_transition_rule *r = m->ex.transitions; r;
	     r = r->next)
		if (r->type == type && rule_matches(r, cur, last, program))
			return true;
	return false;
}

/* TOMOYO's precedence: the first type that matches wins, and a no_ type
 * that matches skips its positive twin. */
static enum hm_transit transition_type(const struct hm_model *m,
				       const struct hm_name *cur,
				       const struct hm_name *program)
{
	static const enum hm_transit positive[HM_TR_MAX] = {
		[HM_TR_RESET] = HM_TRANSIT_RESET,
		[HM_TR_INITIALIZE] = HM_TRANSIT_INITIALIZE,
		[HM_TR_KEEP] = HM_TRANSIT_KEEP,
	};
	struct hm_name last = last_word(cur);

	if (!m->ex.transitions)
		return HM_TRANSIT_CHILD;
	for (int type = 0; type < HM_TR_MAX; type++) {
		if (!any_rule(m, type, cur, &last, program))
			continue;
		if (type == HM_TR_NO_RESET || type == HM_TR_NO_INITIALIZE ||
		    type == HM_TR_NO_KEEP) {
			type++;		/* skip the positive twin */
			continue;
		}
		return positive[type];
	}
	return HM_TRANSIT_CHILD;
}

/*
 * The program name a domain is called by.  2.6 and 1.8 use the path passed
 * to execve.  The 2007 syntax named domains by the real path, unless an
 * "alias REALPATH SYMLINK" said to keep the symlink's name.
 */
static const struct hm_name *program_name(const struct hm_model *m,
					  const struct hm_name *program,
					  const struct hm_name *realpath)
{
	const struct hm_rename_rule *r;

	if (m->dialect != HM_DIALECT_21 || !realpath)
		return program;
	for (r = m->ex.renames; r; r = r->next)
		if (r->is_alias && hm_word_matches(r->original, realpath) &&
		    hm_word_matches(r->renamed, program))
			return program;
	return realpath;
}

static const struct hm_name *aggregate(const struct hm_model *m,
				       const struct hm_name *program)
{
	for (const struct hm_rename_rule *r = m->ex.renames; r; r = r->next)
		if (!r->is_alias && hm_word_matches(r->original, program))
			return r->renamed;
	return program;
}

/* "<ns>" of domain @cur: its first word. */
static size_t namespace_len(const struct hm_name *cur)
{
	const char *sp = memchr(cur->str, ' ', cur->len);

	return sp ? (size_t)(sp - cur->str) : cur->len;
}

static int join(char **next, const char *a, size_t alen, const char *b,
		size_t blen, char sep, char close)
{
	size_t len = alen + 1 + blen + (close ? 1 : 0);
	char *s;

	if (len > HM_MAX_DOMAIN)
		return -ENAMETOOLONG;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, a, alen);
	s[alen] = sep;
	memcpy(s + alen + 1, b, blen);
	if (close)
		s[alen + 1 + blen] = close;
	s[len] = '\0';
	*next = s;
	return 0;
}

int hm_transition_compute(struct hm_model *m, const struct hm_name *cur,
			  const struct hm_name *program,
			  const struct hm_name *realpath,
			  const struct hm_name **candidate, char **next,
			  enum hm_transit *type)
{
	const struct hm_name *prog = aggregate(m, program_name(m, program,
							       realpath));
	int r = hm_model_intern(m, prog->str, prog->len, candidate);

	if (r)
		return r;
	*type = transition_type(m, cur, prog);
	switch (*type) {
	case HM_TRANSIT_KEEP:
		*next = strndup(cur->str, cur->len);
		return *next ? 0 : -ENOMEM;
	case HM_TRANSIT_RESET:
		return join(next, "", 0, prog->str, prog->len, '<', '>');
	case HM_TRANSIT_INITIALIZE:
		return join(next, cur->str, namespace_len(cur), prog->str,
			    prog->len, ' ', 0);
	default:
		return join(next, cur->str, cur->len, prog->str, prog->len,
			    ' ', 0);
	}
}
