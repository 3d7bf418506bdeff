// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_acl_read.c - one ACL line to one entry, in every dialect:
 *
 *   2.6/1.8  "file read/write /x", "network inet stream bind ADDR PORT",
 *            "misc env NAME", (1.8) "ipc signal SIG DOMAIN", conditions;
 *   2.1      "4 /x", "allow_create /x", "allow_network TCP bind A P",
 *            "allow_signal SIG DOMAIN", "allow_env NAME",
 *            "allow_argv0 PROG NAME".
 *
 * The leading words pick the kind and its permission bits; the operands
 * are then read by walking the kind table (hm_kinds[]), the same for
 * every kind and dialect.  The entry is built on the stack and handed to hm_domain_add(),
 * which merges duplicates.  Bad lines are reported, never half added.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tomoyo_private.h"

/* "a/b/c" -> calls @fn for each part; stops at the first error. */
static int for_each_op(struct hm_pctx *c, const char *s, size_t n,
		       int (*fn)(struct hm_pctx *, const char *, size_t,
				 void *),
		       void *arg)
{
	const char *end = s + n;

	while (s <= end) {
		const char *sl = memchr(s, '/', (size_t)(end - s));
		size_t k = sl ? (size_t)(sl - s) : (size_t)(end - s);
		int r;

		if (!k) {
			hm_pctx_error(c, "empty operation in '%.*s'", (int)n,
				      end - n);
			return -EINVAL;
		}
		r = fn(c, s, k, arg);
		if (r)
			return r;
		if (!sl)
			break;
		s = sl + 1;
	}
	return 0;
}

static int find_name(const char *const *names, size_t count, const char *s,
		     size_t n)
{
	for (size_t i = 0; i < count; i++)
		if (names[i] && hm_word_eq(s, n, names[i]))
			return (int)i;
	return -1;
}

/* ------------------------------------------------------- modern words */

static int file_op(struct hm_pctx *c, const char *s, size_t n, void *arg)
{
	union hm_acl_any *e = arg;
	int op = find_name(hm_file_op_names, HM_FILE_OP_MAX, s, n);

	if (op < 0) {
		hm_pctx_error(c, "unknown file operation '%.*s'",
			      (int)(n > 40 ? 40 : n), s);
		return -EINVAL;
	}
	if (e->head.perm && e->head.kind != hm_file_op_kind[op]) {
		hm_pctx_error(c, "'%s' takes other operands than the "
			      "operations before it; write it on its own line",
			      hm_file_op_names[op]);
		return -EINVAL;
	}
	e->head.kind = (uint8_t)hm_file_op_kind[op];
	e->head.perm |= 1u << op;
	return 0;
}

struct net_arg {
	union hm_acl_any *e;
	unsigned proto;
};

static int net_op(struct hm_pctx *c, const char *s, size_t n, void *arg)
{
	struct net_arg *a = arg;
	enum hm_acl_kind kind = a->e->head.kind;
	int op = find_name(hm_net_op_names, HM_NET_OP_MAX, s, n);

	if (op < 0) {
		hm_pctx_error(c, "unknown network operation '%.*s'",
			      (int)(n > 40 ? 40 : n), s);
		return -EINVAL;
	}
	if (!(hm_net_ops_allowed(kind, a->proto, c->dialect) & (1u << op))) {
		bool in18 = hm_net_ops_allowed(kind, a->proto, HM_DIALECT_18) &
			    (1u << op);

		hm_pctx_error(c, "'%s' on %s %s is %s", hm_net_op_names[op],
			      kind == HM_ACL_UNIX ? "unix" : "inet",
			      hm_net_proto_names[a->proto],
			      in18 ? "TOMOYO 1.8 syntax, not TOMOYO 2.6" :
				     "not an operation TOMOYO checks");
		return -EINVAL;
	}
	a->e->head.perm |= 1u << op;
	return 0;
}

static int modern_network(struct hm_pctx *c, struct hm_words *w,
			  union hm_acl_any *e)
{
	struct net_arg a = { e, 0 };
	const char *s;
	size_t n;
	int proto;

	if (!hm_words_next(w, &s, &n) ||
	    (!hm_word_eq(s, n, "inet") && !hm_word_eq(s, n, "unix"))) {
		hm_pctx_error(c, "network: expected inet or unix");
		return -EINVAL;
	}
	e->head.kind = hm_word_eq(s, n, "unix") ? HM_ACL_UNIX : HM_ACL_INET;
	if (!hm_words_next(w, &s, &n) ||
	    (proto = find_name(hm_net_proto_names, HM_PROTO_MAX, s, n)) < 0 ||
	    !hm_net_ops_allowed(e->head.kind, (unsigned)proto,
				HM_DIALECT_18)) {
		hm_pctx_error(c, "network: bad socket type");
		return -EINVAL;
	}
	a.proto = (unsigned)proto;
	*(uint8_t *)hm_operand_ptr(e, hm_tomoyo_proto(e->head.kind)) =
		(uint8_t)proto;
	if (!hm_words_next(w, &s, &n)) {
		hm_pctx_error(c, "network: missing operation");
		return -EINVAL;
	}
	return for_each_op(c, s, n, net_op, &a);
}

/* "misc env" / "ipc signal": a family with no operation list. */
static int modern_family(struct hm_pctx *c, struct hm_words *w,
			 const char *first, size_t fn, union hm_acl_any *e)
{
	const char *s;
	size_t n;

	for (unsigned k = 0; k < HM_ACL_KIND_MAX; k++) {
		const char *fam = hm_kinds[k].family;
		size_t fl = strlen(fam);

		if (hm_kinds[k].ops != HM_OPS_NONE || fl <= fn + 1 ||
		    memcmp(fam, first, fn) || fam[fn] != ' ')
			continue;
		if (!hm_words_next(w, &s, &n) ||
		    !hm_word_eq(s, n, fam + fn + 1))
			break;
		e->head.kind = (uint8_t)k;
		e->head.perm = 1;
		return 0;
	}
	hm_pctx_error(c, "unknown keyword '%.*s'", (int)(fn > 40 ? 40 : fn),
		      first);
	return -EINVAL;
}

static int modern_head(struct hm_pctx *c, struct hm_words *w,
		       union hm_acl_any *e)
{
	const char *s;
	size_t n;

	if (!hm_words_next(w, &s, &n))
		return -EINVAL;
	if (hm_word_eq(s, n, "file")) {
		if (!hm_words_next(w, &s, &n)) {
			hm_pctx_error(c, "file: missing operation");
			return -EINVAL;
		}
		return for_each_op(c, s, n, file_op, e);
	}
	if (hm_word_eq(s, n, "network"))
		return modern_network(c, w, e);
	if ((n == 1 && s[0] >= '1' && s[0] <= '7') ||
	    (n > 6 && !memcmp(s, "allow_", 6))) {
		hm_pctx_error(c, "'%.*s' is TOMOYO 2.1 syntax, not %s",
			      (int)(n > 40 ? 40 : n), s,
			      hm_dialect_titles[c->dialect]);
		return -EINVAL;
	}
	return modern_family(c, w, s, n, e);
}

/* ---------------------------------------------------------- 2.1 words */

static int head21_network(struct hm_pctx *c, struct hm_words *w,
			  union hm_acl_any *e)
{
	const char *s;
	size_t n;
	int proto;

	e->head.kind = HM_ACL_INET;
	if (!hm_words_next(w, &s, &n) ||
	    (proto = find_name(hm_net_proto_names21, HM_PROTO_MAX, s, n)) < 0) {
		hm_pctx_error(c, "allow_network: expected TCP, UDP or RAW");
		return -EINVAL;
	}
	e->k_INET.proto = (uint8_t)proto;
	if (!hm_words_next(w, &s, &n))
		goto bad;
	for (unsigned op = 0; op < HM_NET_OP_MAX; op++) {
		const char *kw = hm_net_op21((unsigned)proto, op);

		if (kw && hm_word_eq(s, n, kw)) {
			e->head.perm = 1u << op;
			return 0;
		}
	}
bad:
	hm_pctx_error(c, "allow_network %s: bad operation",
		      hm_net_proto_names21[proto]);
	return -EINVAL;
}

/* "allow_argv0 PROG NAME": file execute PROG exec.argv[0]="NAME". */
static int head21_argv0(struct hm_pctx *c, struct hm_words *w,
			union hm_acl_any *e)
{
	const char *s;
	size_t n;
	char *text;
	int r;

	e->head.kind = HM_ACL_PATH;
	e->head.perm = 1u << HM_FILE_EXECUTE;
	if (!hm_words_next(w, &s, &n)) {
		hm_pctx_error(c, "allow_argv0: missing program");
		return -EINVAL;
	}
	r = hm_tomoyo_name_op(c, s, n, &e->k_PATH.name);
	if (r)
		return r;
	if (!hm_words_next(w, &s, &n)) {
		hm_pctx_error(c, "allow_argv0: missing argv[0]");
		return -EINVAL;
	}
	if (asprintf(&text, "exec.argv[0]=\"%.*s\"", (int)n, s) < 0)
		return hm_pctx_fail(c, -ENOMEM, "allow_argv0");
	r = hm_tomoyo_cond(c, text, strlen(text), false, &e->head.cond);
	free(text);
	return r;
}

static int head21(struct hm_pctx *c, struct hm_words *w, union hm_acl_any *e,
		  bool *operands_done)
{
	static const uint32_t digit_perm[8] = {
		[1] = 1u << HM_FILE_EXECUTE, [2] = 1u << HM_FILE_WRITE,
		[4] = 1u << HM_FILE_READ,
	};
	const char *s;
	size_t n;
	int op;

	if (!hm_words_next(w, &s, &n))
		return -EINVAL;
	if (n == 1 && s[0] >= '1' && s[0] <= '7') {
		unsigned v = (unsigned)(s[0] - '0');

		e->head.kind = HM_ACL_PATH;
		e->head.perm = digit_perm[v & 1] | digit_perm[v & 2] |
			       digit_perm[v & 4];
		return 0;
	}
	if (hm_word_eq(s, n, "allow_read/write")) {
		e->head.kind = HM_ACL_PATH;
		e->head.perm = (1u << HM_FILE_READ) | (1u << HM_FILE_WRITE);
		return 0;
	}
	if (hm_word_eq(s, n, "allow_network"))
		return head21_network(c, w, e);
	if (hm_word_eq(s, n, "allow_argv0")) {
		*operands_done = true;
		return head21_argv0(c, w, e);
	}
	for (unsigned k = 0; k < HM_ACL_KIND_MAX; k++) {
		if (hm_kinds[k].family21 &&
		    hm_word_eq(s, n, hm_kinds[k].family21)) {
			e->head.kind = (uint8_t)k;
			e->head.perm = 1;
			return 0;
		}
	}
	op = find_name(hm_file_op_names21, HM_FILE_OP_MAX, s, n);
	if (op >= 0) {
		e->head.kind = (uint8_t)hm_file_op_kind[op];
		e->head.perm = 1u << op;
		return 0;
	}
	if (hm_word_eq(s, n, "file") || hm_word_eq(s, n, "network") ||
	    hm_word_eq(s, n, "misc") || hm_word_eq(s, n, "ipc"))
		hm_pctx_error(c, "'%.*s' is TOMOYO 2.6 syntax, not TOMOYO 2.1",
			      (int)n, s);
	else
		hm_pctx_error(c, "unknown keyword '%.*s'",
			      (int)(n > 40 ? 40 : n), s);
	return -EINVAL;
}

/* ------------------------------------------------------------ operands */

/* A domain name operand: "<ns>" and the following words starting '/'. */
static int domain_operand(struct hm_pctx *c, struct hm_words *w,
			  const char *s, size_t n, const struct hm_name **out)
{
	const char *end = s + n;

	while (end + 1 < w->end && end[0] == ' ' && end[1] == '/') {
		const char *sp = memchr(end + 1, ' ',
					(size_t)(w->end - end - 1));

		end = sp ? sp : w->end;
	}
	w->p = end;
	return hm_tomoyo_domainname(c, s, (size_t)(end - s), out);
}

static int parse_operand(struct hm_pctx *c, const struct hm_operand *o,
			 void *field, struct hm_words *w)
{
	bool d21 = c->dialect == HM_DIALECT_21;
	const char *s;
	size_t n;

	if (d21 && o->in21 == HM_IN21_OMIT) {
		*(struct hm_number *)field = *o->widest;
		return 0;
	}
	if (!hm_words_next(w, &s, &n)) {
		if (d21 && o->in21 == HM_IN21_OPTIONAL) {
			*(struct hm_number *)field = *o->widest;
			return 0;
		}
		hm_pctx_error(c, "missing %s", o->what);
		return -EINVAL;
	}
	switch (o->type) {
	case HM_OT_NAME:
		return hm_tomoyo_name_op(c, s, n, field);
	case HM_OT_NUMBER:
		return hm_tomoyo_number(c, s, n, !d21, field);
	case HM_OT_ADDR:
		return hm_tomoyo_addr(c, s, n, field);
	case HM_OT_DOMAIN:
		return domain_operand(c, w, s, n, field);
	default:
		return hm_tomoyo_word(c, s, n, o->what, field);
	}
}

static int parse_operands(struct hm_pctx *c, union hm_acl_any *e,
			  struct hm_words *w)
{
	hm_for_each_operand(o, e->head.kind) {
		int r;

		if (o->type == HM_OT_PROTO)	/* read with the head */
			continue;
		r = parse_operand(c, o, hm_operand_ptr(e, o), w);
		if (r)
			return r;
	}
	return 0;
}

/* What follows the operands: a condition, or nothing in 2.1. */
static int parse_tail(struct hm_pctx *c, union hm_acl_any *e,
		      struct hm_words *w)
{
	const char *s;
	size_t n;
	bool exec_only = e->head.kind == HM_ACL_PATH &&
			 e->head.perm == 1u << HM_FILE_EXECUTE;

	hm_words_rest(w, &s, &n);
	if (!n)
		return 0;
	if (c->dialect == HM_DIALECT_21) {
		hm_pctx_error(c, "unexpected '%.*s' (TOMOYO 2.1 has no "
			      "conditions)", (int)(n > 40 ? 40 : n), s);
		return -EINVAL;
	}
	return hm_tomoyo_cond(c, s, n, exec_only, &e->head.cond);
}

int hm_tomoyo_parse_acl(struct hm_pctx *c, struct hm_domain *d,
			const char *s, size_t n)
{
	struct hm_words w = { s, s + n };
	union hm_acl_any e;
	bool done = false;
	int r;

	memset(&e, 0, sizeof(e));
	if (c->dialect == HM_DIALECT_21)
		r = head21(c, &w, &e, &done);
	else
		r = modern_head(c, &w, &e);
	if (r)
		return r;
	if (!(hm_kinds[e.head.kind].dialects & (1u << c->dialect))) {
		hm_pctx_error(c, "%s is not %s syntax",
			      hm_kinds[e.head.kind].family,
			      hm_dialect_titles[c->dialect]);
		return -EINVAL;
	}
	if (!done && (r = parse_operands(c, &e, &w)))
		return r;
	if ((r = parse_tail(c, &e, &w)))
		return r;
	r = hm_domain_add(c->m, d, &e.head, NULL);
	if (r < 0)
		return hm_pctx_fail(c, r, "entry");
	return r;
}

int hm_acl_parse_line(struct hm_model *m, struct hm_domain *d,
		      const char *line, size_t len, enum hm_dialect dialect,
		      const char *file, unsigned long lineno,
		      struct hm_diag *diag)
{
	struct hm_pctx c = {
		.m = m, .diag = diag, .file = file, .line = lineno,
		.dialect = dialect,
	};
	size_t bad;
	char *buf;
	int r;

	if ((int)dialect < 0 || dialect >= HM_DIALECT_MAX ||
	    len > HM_MAX_LINE) {
		hm_pctx_error(&c, len > HM_MAX_LINE ? "line too long" :
			      "bad dialect");
		return -EINVAL;
	}
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (memchr(line, '\0', len)) {
		hm_pctx_error(&c, "NUL byte in line");
		r = -EINVAL;
	} else if ((len = hm_tomoyo_normalize(buf, len, &bad)), bad != SIZE_MAX) {
		hm_pctx_error(&c, "raw byte 0x%02x (write it as \\%03o)",
			      (unsigned char)buf[bad], (unsigned char)buf[bad]);
		r = -EINVAL;
	} else if (!len) {
		hm_pctx_error(&c, "empty line");
		r = -EINVAL;
	} else {
		r = hm_tomoyo_parse_acl(&c, d, buf, len);
	}
	free(buf);
	if (c.oom)
		return -ENOMEM;
	return r;
}
