// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * generalize.c - from a literal access to the entry worth learning:
 * PCRE2 rewrite rules (rewrite.conf and built-in ones for pids and
 * inodes), 2.1 file_pattern, and port ranges for ephemeral ports.  Owns
 * the compiled rules; reads the model's exception policy; interns results
 * in the model it is given.  Used by the learner, the checker (to print
 * what learning would add) and patternize.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "histmac/append.h"
#include "histmac/learn.h"
#include "histmac/word.h"

struct rule {
	pcre2_code *re;
	char *replacement;
};

struct hm_generalizer {
	struct rule *rules;
	size_t n_rules;
	pcre2_match_data *md;
	const struct hm_word_entry *file_patterns;
	struct hm_learn_opts o;
	char *buf;
	size_t cap;
};

/*
 * Built-in rules, applied before the user's: what changes on every run
 * without meaning anything.  Replacements are literal TOMOYO words; \K
 * and lookarounds keep the context out of the match.
 */
static const struct {
	const char *re;
	const char *rep;
} builtin[] = {
	{ "^proc:/\\K[0-9]+(?=/|$)", "\\$" },		/* other pids */
	{ "^proc:/[^/]+/task/\\K[0-9]+(?=/|$)", "\\$" }, /* threads */
	{ "^proc:/.*/fd(?:info)?/\\K[0-9]+$", "\\$" },	/* descriptors */
	{ "^(?:pipe|socket|anon_inode):\\[\\K[0-9]+(?=\\]$)", "\\$" },
};

static int add_rule(struct hm_generalizer *g, const char *src,
		    const char *rep, const char *file, unsigned long line,
		    struct hm_diag *d)
{
	int code;
	PCRE2_SIZE off;
	struct rule *r = &g->rules[g->n_rules];

	r->re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, 0,
			      &code, &off, NULL);
	if (!r->re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof(msg));
		hm_diag_add(d, HM_DIAG_ERROR, file, line,
			    "rewrite rule does not compile at offset %zu: %s",
			    (size_t)off, (char *)msg);
		return 0;
	}
	r->replacement = strdup(rep);
	if (!r->replacement) {
		pcre2_code_free(r->re);
		return -ENOMEM;
	}
	g->n_rules++;
	return 0;
}

int hm_generalizer_new(const struct hm_model *m, const struct hm_learn_opts *o,
		       struct hm_diag *d, struct hm_generalizer **out)
{
	struct hm_generalizer *g = calloc(1, sizeof(*g));
	size_t n = HM_ARRAY_SIZE(builtin);
	int r = 0;

	if (!g)
		return -ENOMEM;
	if (o)
		g->o = *o;
	else
		hm_learn_opts_default(&g->o);
	for (const struct hm_rewrite_rule *rw = m->ex.rewrites; rw; rw = rw->next)
		n++;
	g->rules = calloc(n, sizeof(*g->rules));
	g->md = pcre2_match_data_create(4, NULL);
	if (!g->rules || !g->md)
		r = -ENOMEM;
	for (size_t i = 0; !r && g->o.builtin_rules && i < HM_ARRAY_SIZE(builtin); i++)
		r = add_rule(g, builtin[i].re, builtin[i].rep, NULL, 0, d);
	for (const struct hm_rewrite_rule *rw = m->ex.rewrites; !r && rw;
	     rw = rw->next)
		r = add_rule(g, rw->regex_src, rw->replacement, "rewrite.conf",
			     rw->line, d);
	if (r) {
		hm_generalizer_free(g);
		return r;
	}
	g->file_patterns = m->ex.file_patterns;
	*out = g;
	return 0;
}

void hm_generalizer_free(struct hm_generalizer *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n_rules; i++) {
		pcre2_code_free(g->rules[i].re);
		free(g->rules[i].replacement);
	}
	free(g->rules);
	pcre2_match_data_free(g->md);
	free(g->buf);
	free(g);
}

static int reserve(struct hm_generalizer *g, size_t need)
{
	char *n;

	if (need <= g->cap)
		return 0;
	if (need > 4 * HM_MAX_WORD)
		return -E2BIG;
	n = realloc(g->buf, need);
	if (!n)
		return -ENOMEM;
	g->buf = n;
	g->cap = need;
	return 0;
}

/*
 * Replace every match of @r in @s (length *@len, in g->buf or not) and
 * leave the result in g->buf.  Returns 1 if anything changed, 0 if not,
 * negative errno.
 */
static int apply_rule(struct hm_generalizer *g, const struct rule *r,
		      const char *s, size_t *len)
{
	size_t rlen = strlen(r->replacement);
	char *out = NULL;
	char *n;
	size_t olen = 0;
	size_t pos = 0;
	size_t done = 0;
	int changed = 0;

	while (pos <= *len) {
		PCRE2_SIZE *ov;
		int rc = pcre2_match(r->re, (PCRE2_SPTR)s, *len, pos, 0, g->md,
				     NULL);

		if (rc < 0)
			break;
		ov = pcre2_get_ovector_pointer(g->md);
		if (olen + (ov[0] - done) + rlen + 1 > 4 * HM_MAX_WORD) {
			free(out);
			return 0;	/* runaway replacement: keep literal */
		}
		n = realloc(out, olen + (ov[0] - done) + rlen + 1);
		if (!n) {
			free(out);
			return -ENOMEM;
		}
		out = n;
		memcpy(out + olen, s + done, ov[0] - done);
		olen += ov[0] - done;
		memcpy(out + olen, r->replacement, rlen);
		olen += rlen;
		done = ov[1];
		changed = 1;
		pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;	/* empty match */
	}
	if (!changed)
		return 0;
	/* Finish in @out first: @s may be g->buf, which reserve() moves. */
	n = realloc(out, olen + (*len - done) + 1);
	if (!n) {
		free(out);
		return -ENOMEM;
	}
	out = n;
	memcpy(out + olen, s + done, *len - done);
	olen += *len - done;
	if (reserve(g, olen + 1)) {
		free(out);
		return -ENOMEM;
	}
	memcpy(g->buf, out, olen);
	g->buf[olen] = '\0';
	*len = olen;
	free(out);
	return 1;
}

int hm_generalize_word(struct hm_generalizer *g, struct hm_model *m,
		       const struct hm_name *name, const struct hm_name **out)
{
	const char *s = name->str;
	size_t len = name->len;
	int r;

	if (name->is_patterned)
		return hm_model_intern(m, s, len, out);
	for (size_t i = 0; i < g->n_rules; i++) {
		r = apply_rule(g, &g->rules[i], s, &len);
		if (r < 0)
			return r;
		if (r)
			s = g->buf;
	}
	if (s != name->str && !hm_word_is_valid(s, len)) {
		s = name->str;	/* a rule made an invalid word: keep literal */
		len = name->len;
	}
	if (s == name->str) {
		for (const struct hm_word_entry *fp = g->file_patterns; fp;
		     fp = fp->next)
			if (hm_path_matches(name, fp->word)) {
				*out = fp->word;
				return 0;
			}
	}
	return hm_model_intern(m, s, len, out);
}

static struct hm_number number(uint64_t v, enum hm_radix radix)
{
	return (struct hm_number){ .min = v, .max = v, .radix_min = radix,
				   .radix_max = radix };
}

static struct hm_number port_range(const struct hm_generalizer *g,
				   unsigned op, uint64_t port)
{
	const struct hm_learn_opts *o = &g->o;
	uint64_t lo = 0, hi = 0;

	if (op == HM_NET_ACCEPT || op == HM_NET_RECV) {
		lo = o->peer_port_min;
		hi = o->peer_port_max;
	} else if (op == HM_NET_CONNECT || op == HM_NET_SEND) {
		lo = o->ephemeral_min;
		hi = o->ephemeral_max;
	}
	if (hi && lo <= port && port <= hi)
		return (struct hm_number){ .min = lo, .max = hi };
	return number(port, HM_RADIX_DEC);
}

/* Modes print in octal; ioctl commands and mount flags in hex. */
static enum hm_radix radix_of(unsigned op)
{
	if (op == HM_FILE_IOCTL || op == HM_FILE_MOUNT)
		return HM_RADIX_HEX;
	if (op == HM_FILE_CHOWN || op == HM_FILE_CHGRP)
		return HM_RADIX_DEC;
	return HM_RADIX_OCT;
}

/*
 * Operand @o of the entry learned from @r: names generalized, a domain
 * name as it is, numbers and addresses as single values.  A name the
 * request lacks is left NULL, for the kind's hook or for -EINVAL.
 */
static int learn_operand(struct hm_generalizer *g, struct hm_model *m,
			 const struct hm_request *r, const struct hm_operand *o,
			 void *field)
{
	const void *rf = (const char *)r + o->req;
	const struct hm_name *n = NULL;
	struct hm_addr *a = field;

	/* only name operands point at a pointer (an address is bytes) */
	if (o->type == HM_OT_NAME || o->type == HM_OT_WORD ||
	    o->type == HM_OT_DOMAIN)
		n = *(const struct hm_name *const *)rf;

	switch (o->type) {
	case HM_OT_NAME:
		return n ? hm_generalize_word(g, m, n,
					      &((struct hm_name_op *)field)->name) :
			   0;
	case HM_OT_WORD:
		return n ? hm_generalize_word(g, m, n, field) : 0;
	case HM_OT_DOMAIN:
		return n ? hm_model_intern(m, n->str, n->len, field) : 0;
	case HM_OT_NUMBER:
		*(struct hm_number *)field = number(
			*(const uint64_t *)rf,
			o->radix == HM_RADIX_OF_OP ? radix_of(r->op) : o->radix);
		return 0;
	case HM_OT_ADDR:
		a->is_ipv6 = r->is_ipv6;
		memcpy(a->min, r->addr, 16);
		memcpy(a->max, r->addr, 16);
		return 0;
	default:
		*(uint8_t *)field = r->proto;
		return 0;
	}
}

/* Ephemeral ports become the range they come from (not for raw). */
static int learn_inet(struct hm_generalizer *g, struct hm_model *m,
		      const struct hm_request *r, union hm_acl_any *e)
{
	(void)m;
	if (r->proto != HM_PROTO_RAW)
		e->k_INET.port = port_range(g, r->op, r->port);
	return 0;
}

/* A mount whose type the request lacks: "none". */
static int learn_mount(struct hm_generalizer *g, struct hm_model *m,
		       const struct hm_request *r, union hm_acl_any *e)
{
	(void)g;
	if (r->name3)
		return 0;
	return hm_model_intern(m, "none", 4, &e->k_MOUNT.fstype.name);
}

/* What a kind learns beyond its operands' types. */
static int (*const learn_hook[HM_ACL_KIND_MAX])(
	struct hm_generalizer *g, struct hm_model *m,
	const struct hm_request *r, union hm_acl_any *e) = {
	[HM_ACL_INET] = learn_inet,
	[HM_ACL_MOUNT] = learn_mount,
};

/* Does every name operand of @e hold a name? */
static bool names_set(const union hm_acl_any *e)
{
	hm_for_each_operand(o, e->head.kind) {
		const void *p = hm_operand_ptr(e, o);

		if (o->type == HM_OT_NAME &&
		    !((const struct hm_name_op *)p)->name)
			return false;
		if ((o->type == HM_OT_WORD || o->type == HM_OT_DOMAIN) &&
		    !*(const struct hm_name *const *)p)
			return false;
	}
	return true;
}

int hm_generalize_request(struct hm_generalizer *g, struct hm_model *m,
			  const struct hm_request *r,
			  const struct hm_cond *cond, union hm_acl_any *buf)
{
	int rc = 0;

	memset(buf, 0, sizeof(*buf));
	buf->head.kind = (uint8_t)r->kind;
	buf->head.cond = cond;
	if (r->kind >= HM_ACL_KIND_MAX)
		return -EINVAL;
	buf->head.perm = hm_kinds[r->kind].ops == HM_OPS_NONE ? 1 :
							       1u << r->op;
	hm_for_each_operand(o, r->kind)
		if (!rc)
			rc = learn_operand(g, m, r, o, hm_operand_ptr(buf, o));
	if (!rc && learn_hook[r->kind])
		rc = learn_hook[r->kind](g, m, r, buf);
	if (!rc && !names_set(buf))
		rc = -EINVAL;
	return rc;
}

/* A condition of one string item: KEY="VALUE". */
static int string_cond(struct hm_model *m, enum hm_cond_var var,
		       const char *key, const struct hm_name *val,
		       const struct hm_cond **out)
{
	struct hm_cond_item item = { .var = (uint8_t)var };
	char *text;
	int r;

	if (asprintf(&text, "%s=\"%s\"", key, val->str) < 0)
		return -ENOMEM;
	r = hm_model_intern(m, val->str, val->len, &item.str);
	if (!r)
		r = hm_model_intern(m, text, strlen(text), &item.text);
	free(text);
	if (r)
		return r;
	return hm_model_cond_items(m, item.text, &item, 1, out);
}

/*
 * What TOMOYO's learning mode appends: exec.realpath on an execute whose
 * real path differs from the name it was called by, symlink.target on a
 * symlink whose target the trail holds.
 */
int hm_generalize_cond(struct hm_model *m, const struct hm_access *a,
		       const struct hm_cond **out)
{
	const struct hm_name *real = a->ctx.exec_realpath;
	const struct hm_request *r = &a->req;

	*out = NULL;
	if (r->kind != HM_ACL_PATH)
		return 0;
	if (r->op == HM_FILE_EXECUTE && real && !a->no_realpath_cond &&
	    !(real->len == r->name1->len &&
	      !memcmp(real->str, r->name1->str, real->len)))
		return string_cond(m, HM_COND_EXEC_REALPATH, "exec.realpath",
				   real, out);
	if (r->op == HM_FILE_SYMLINK && a->ctx.symlink_target)
		return string_cond(m, HM_COND_SYMLINK_TARGET, "symlink.target",
				   a->ctx.symlink_target, out);
	return 0;
}

int hm_generalize_access(struct hm_generalizer *g, struct hm_model *m,
			 const struct hm_access *a, union hm_acl_any *buf)
{
	const struct hm_cond *cond;
	int r = hm_generalize_cond(m, a, &cond);

	if (!r)
		r = hm_generalize_request(g, m, &a->req, cond, buf);
	if (!r && a->append_open)
		buf->head.perm |= hm_append_learns(false);
	return r;
}
