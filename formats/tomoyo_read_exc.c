// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_read_exc.c - one exception policy line into the model's
 * struct hm_exception: transition controls, aggregator and (2.1) alias,
 * path/number/address groups, acl_group N <ACL>, 2.1's allow_read,
 * file_pattern and deny_rewrite, 1.8's deny_autobind.  One table maps
 * each keyword to its handler and the dialects that have it.
 */
#include <errno.h>
#include <string.h>

#include "tomoyo_private.h"

struct exc_kw {
	const char *kw;
	int (*fn)(struct hm_pctx *c, const struct exc_kw *k, const char *s,
		  size_t n);
	int arg;
	unsigned dialects;
};

/* ---------------------------------------------------------- transitions */

static int transition_program(struct hm_pctx *c, const char *s, size_t n,
			      const struct hm_name **out)
{
	*out = NULL;
	if (hm_word_eq(s, n, "any"))
		return 0;
	if (memchr(s, ' ', n)) {
		hm_pctx_error(c, "program '%.*s' is more than one word",
			      (int)(n > 80 ? 80 : n), s);
		return -EINVAL;
	}
	return hm_tomoyo_path(c, s, n, "program", out);
}

/* "any", a domain name, or a program name (the last word of a domain). */
static int transition_domain(struct hm_pctx *c, const char *s, size_t n,
			     const struct hm_name **out)
{
	*out = NULL;
	if (hm_word_eq(s, n, "any"))
		return 0;
	if (s[0] == '<')
		return hm_tomoyo_domainname(c, s, n, out);
	return transition_program(c, s, n, out);
}

static int ex_transition(struct hm_pctx *c, const struct exc_kw *k,
			 const char *s, size_t n)
{
	struct hm_transition_rule r = { .type = (uint8_t)k->arg };
	const char *from = memmem(s, n, " from ", 6);
	bool keep = k->arg == HM_TR_KEEP || k->arg == HM_TR_NO_KEEP;
	int e;

	if (!n) {
		hm_pctx_error(c, "%s: missing program", k->kw);
		return -EINVAL;
	}
	if (from) {
		e = transition_program(c, s, (size_t)(from - s), &r.program);
		if (!e)
			e = transition_domain(c, from + 6,
					      n - (size_t)(from + 6 - s),
					      &r.domain);
	} else if (keep) {
		e = transition_domain(c, s, n, &r.domain);	/* 2.1 form */
	} else {
		e = transition_program(c, s, n, &r.program);
	}
	if (e)
		return e;
	e = hm_model_add_transition(c->m, &r);
	return e < 0 ? hm_pctx_fail(c, e, k->kw) : 0;
}

/* --------------------------------------------------- aggregator, alias */

static int two_words(struct hm_pctx *c, const struct exc_kw *k,
		     const char *s, size_t n, const char **a, size_t *an,
		     const char **b, size_t *bn)
{
	struct hm_words w = { s, s + n };
	const char *x;
	size_t xn;

	if (!hm_words_next(&w, a, an) || !hm_words_next(&w, b, bn)) {
		hm_pctx_error(c, "%s: expected two names", k->kw);
		return -EINVAL;
	}
	if (hm_words_next(&w, &x, &xn)) {
		hm_pctx_error(c, "%s: unexpected '%.*s'", k->kw,
			      (int)(xn > 40 ? 40 : xn), x);
		return -EINVAL;
	}
	return 0;
}

static int ex_rename(struct hm_pctx *c, const struct exc_kw *k,
		     const char *s, size_t n)
{
	struct hm_rename_rule r = { .is_alias = k->arg };
	const char *a;
	const char *b;
	size_t an;
	size_t bn;
	int e = two_words(c, k, s, n, &a, &an, &b, &bn);

	if (!e)
		e = hm_tomoyo_path(c, a, an, "original name", &r.original);
	if (!e)
		e = hm_tomoyo_path(c, b, bn, "new name", &r.renamed);
	if (e)
		return e;
	if (r.renamed->is_patterned || (r.is_alias && r.original->is_patterned)) {
		hm_pctx_error(c, "%s: '%s' may not hold wildcards", k->kw,
			      r.renamed->is_patterned ? r.renamed->str :
							r.original->str);
		return -EINVAL;
	}
	e = hm_model_add_rename(c->m, &r);
	return e < 0 ? hm_pctx_fail(c, e, k->kw) : 0;
}

/* --------------------------------------------------------------- groups */

static int group_member(struct hm_pctx *c, enum hm_group_type type,
			const char *s, size_t n, struct hm_group_member *mb)
{
	if (s[0] == '@') {
		hm_pctx_error(c, "a group cannot hold a group ('%.*s')",
			      (int)(n > 40 ? 40 : n), s);
		return -EINVAL;
	}
	switch (type) {
	case HM_GROUP_PATH:
		return hm_tomoyo_word(c, s, n, "path_group member", &mb->name);
	case HM_GROUP_NUMBER:
		return hm_tomoyo_number(c, s, n, false, &mb->number);
	default:
		return hm_tomoyo_addr(c, s, n, &mb->addr);
	}
}

static int ex_group(struct hm_pctx *c, const struct exc_kw *k, const char *s,
		    size_t n)
{
	struct hm_group_member mb = { 0 };
	const struct hm_group *cg;
	const char *a;
	const char *b;
	size_t an;
	size_t bn;
	int e = two_words(c, k, s, n, &a, &an, &b, &bn);

	if (!e)
		e = hm_tomoyo_group(c, a, an, (enum hm_group_type)k->arg, &cg);
	if (!e)
		e = group_member(c, (enum hm_group_type)k->arg, b, bn, &mb);
	if (e)
		return e;
	e = hm_group_add(c->m, (struct hm_group *)cg, &mb);
	return e < 0 ? hm_pctx_fail(c, e, k->kw) : 0;
}

/* ------------------------------------------------------------ acl_group */

static int ex_acl_group(struct hm_pctx *c, const struct exc_kw *k,
			const char *s, size_t n)
{
	struct hm_words w = { s, s + n };
	const char *ws;
	size_t wn;
	uint64_t no;
	uint8_t radix;
	struct hm_domain *g;
	int e;

	if (!hm_words_next(&w, &ws, &wn) ||
	    !hm_tomoyo_ulong(ws, wn, &no, &radix) || radix != HM_RADIX_DEC ||
	    no > 255) {
		hm_pctx_error(c, "%s: expected a number from 0 to 255", k->kw);
		return -EINVAL;
	}
	hm_words_rest(&w, &ws, &wn);
	if (!wn) {
		hm_pctx_error(c, "%s %u: missing ACL", k->kw, (unsigned)no);
		return -EINVAL;
	}
	e = hm_model_acl_group(c->m, (unsigned)no, &g);
	if (e)
		return hm_pctx_fail(c, e, k->kw);
	return hm_tomoyo_parse_acl(c, g, ws, wn) < 0 ? -EINVAL : 0;
}

/* 2.1 "allow_read PATH": readable by every domain = acl_group 0. */
static int ex_allow_read(struct hm_pctx *c, const struct exc_kw *k,
			 const char *s, size_t n)
{
	struct hm_acl_path e = {
		.head = { .kind = HM_ACL_PATH, .perm = 1u << HM_FILE_READ },
	};
	struct hm_domain *g;
	int r;

	if (!n || memchr(s, ' ', n)) {
		hm_pctx_error(c, "%s: expected one path", k->kw);
		return -EINVAL;
	}
	r = hm_tomoyo_name_op(c, s, n, &e.name);
	if (r)
		return r;
	r = hm_model_acl_group(c->m, 0, &g);
	if (!r)
		r = hm_domain_add(c->m, g, &e.head, NULL);
	return r < 0 ? hm_pctx_fail(c, r, k->kw) : 0;
}

/* -------------------------------------------------- one-word entries */

static int ex_word(struct hm_pctx *c, const struct exc_kw *k, const char *s,
		   size_t n)
{
	struct hm_word_entry **list = k->arg ? &c->m->ex.deny_rewrites :
					       &c->m->ex.file_patterns;
	const struct hm_name *w;
	int r;

	if (!n || memchr(s, ' ', n)) {
		hm_pctx_error(c, "%s: expected one path", k->kw);
		return -EINVAL;
	}
	r = hm_tomoyo_path(c, s, n, "path", &w);
	if (r)
		return r;
	r = hm_model_add_word(c->m, list, w);
	return r < 0 ? hm_pctx_fail(c, r, k->kw) : 0;
}

static int ex_autobind(struct hm_pctx *c, const struct exc_kw *k,
		       const char *s, size_t n)
{
	struct hm_exception *ex = &c->m->ex;
	struct hm_number v;

	if (!n || memchr(s, ' ', n)) {
		hm_pctx_error(c, "%s: expected a port or range", k->kw);
		return -EINVAL;
	}
	if (hm_tomoyo_number(c, s, n, false, &v))
		return -EINVAL;
	if (!v.max || v.max > 65535) {
		hm_pctx_error(c, "%s: ports are 1 to 65535", k->kw);
		return -EINVAL;
	}
	if (ex->deny_autobind_max &&
	    (ex->deny_autobind_min != v.min || ex->deny_autobind_max != v.max)) {
		hm_pctx_error(c, "%s: only one range is kept (%llu-%llu)",
			      k->kw, (unsigned long long)ex->deny_autobind_min,
			      (unsigned long long)ex->deny_autobind_max);
		return -EINVAL;
	}
	ex->deny_autobind_min = v.min;
	ex->deny_autobind_max = v.max;
	return 0;
}

/* ---------------------------------------------------------------- table */

static const struct exc_kw exc_kws[] = {
	{ "initialize_domain", ex_transition, HM_TR_INITIALIZE, HM_DALL },
	{ "no_initialize_domain", ex_transition, HM_TR_NO_INITIALIZE, HM_DALL },
	{ "keep_domain", ex_transition, HM_TR_KEEP, HM_DALL },
	{ "no_keep_domain", ex_transition, HM_TR_NO_KEEP, HM_DALL },
	{ "reset_domain", ex_transition, HM_TR_RESET, HM_DMODERN },
	{ "no_reset_domain", ex_transition, HM_TR_NO_RESET, HM_DMODERN },
	{ "aggregator", ex_rename, 0, HM_DALL },
	{ "alias", ex_rename, 1, HM_D21 },
	{ "path_group", ex_group, HM_GROUP_PATH, HM_DALL },
	{ "number_group", ex_group, HM_GROUP_NUMBER, HM_DMODERN },
	{ "address_group", ex_group, HM_GROUP_ADDRESS, HM_DALL },
	{ "acl_group", ex_acl_group, 0, HM_DMODERN },
	{ "allow_read", ex_allow_read, 0, HM_D21 },
	{ "file_pattern", ex_word, 0, HM_D21 },
	{ "deny_rewrite", ex_word, 1, HM_D21 },
	{ "deny_autobind", ex_autobind, 0, HM_D18 },
};

static const char *only_in(unsigned dialects)
{
	if (dialects == HM_D21)
		return "TOMOYO 2.1";
	if (dialects == HM_D18)
		return "TOMOYO 1.8";
	return "TOMOYO 2.6 and 1.8";
}

/* "<kernel> acl_group ..." -> "acl_group ..." (only the <kernel> namespace). */
static int strip_namespace(struct hm_pctx *c, const char **s, size_t *n)
{
	static const char kernel[] = HM_KERNEL " ";
	const char *sp;

	if ((*s)[0] != '<')
		return 0;
	if (*n > sizeof(kernel) - 1 &&
	    !memcmp(*s, kernel, sizeof(kernel) - 1) &&
	    c->dialect != HM_DIALECT_21) {
		*s += sizeof(kernel) - 1;
		*n -= sizeof(kernel) - 1;
		return 0;
	}
	sp = memchr(*s, ' ', *n);
	hm_pctx_error(c, "namespace '%.*s' is not supported (only <kernel>)",
		      (int)(sp ? sp - *s : 40), *s);
	return -EINVAL;
}

int hm_tomoyo_parse_exception_line(struct hm_pctx *c, const char *s,
				   size_t n)
{
	const char *sp;
	size_t kn;

	if (s[0] == '#')
		return 0;	/* annotations belong to the domain policy */
	if (strip_namespace(c, &s, &n))
		return -EINVAL;
	sp = memchr(s, ' ', n);
	kn = sp ? (size_t)(sp - s) : n;
	for (size_t i = 0; i < HM_ARRAY_SIZE(exc_kws); i++) {
		const struct exc_kw *k = &exc_kws[i];

		if (!hm_word_eq(s, kn, k->kw))
			continue;
		if (!(k->dialects & (1u << c->dialect))) {
			hm_pctx_error(c, "'%s' is %s syntax, not %s", k->kw,
				      only_in(k->dialects),
				      hm_dialect_titles[c->dialect]);
			return -EINVAL;
		}
		return k->fn(c, k, sp ? sp + 1 : s + n,
			     sp ? n - kn - 1 : 0);
	}
	hm_pctx_error(c, "unknown exception policy keyword '%.*s'",
		      (int)(kn > 40 ? 40 : kn), s);
	return -EINVAL;
}
