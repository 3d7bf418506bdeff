// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_acl_write.c - one entry to policy line(s) in a dialect.  The
 * operands are printed by walking the kind table (hm_kinds[]), so every
 * kind goes through the same code; the dialects differ only in the leading
 * words and in what they cannot say:
 *
 *   2.6  no signals, no accept/recv, no 1.8-only condition keywords;
 *        "file execute" is written on its own line (tomoyo-checkpolicy
 *        rejects "file execute/read");
 *   1.8  everything the model holds;
 *   2.1  one line per operation ("4 /x" for read/write/execute), no
 *        conditions (but allow_argv0), no unix sockets, no number groups,
 *        modes and device numbers left out, append written as write.
 *
 * What cannot be said becomes "# not in DIALECT (why): LINE" in the
 * closest words, counted in struct hm_convert_stats.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tomoyo_private.h"

#define BIT(x) (1u << (x))
#define RWX21                                                        \
	(BIT(HM_FILE_EXECUTE) | BIT(HM_FILE_READ) | BIT(HM_FILE_WRITE) | \
	 BIT(HM_FILE_APPEND))

static bool is_file_kind(unsigned kind)
{
	return hm_kinds[kind].ops == HM_OPS_FILE;
}

/* ------------------------------------------------------------ emitting */

/* A policy line starts: false when it is counted but not written. */
static bool line_begin(struct hm_emit *em)
{
	em->n_lines++;
	if (em->skip & HM_EMIT_SKIP_LINES)
		return false;
	hm_sbuf_adds(em->sb, em->prefix);
	return true;
}

static void line_end(struct hm_emit *em)
{
	hm_sbuf_addc(em->sb, '\n');
	if (em->st)
		em->st->lines++;
}

void hm_tomoyo_emit_line(struct hm_emit *em, const char *line, size_t len)
{
	if (!line_begin(em))
		return;
	hm_sbuf_add(em->sb, line, len);
	line_end(em);
}

void hm_tomoyo_emit_comment(struct hm_emit *em, enum hm_conv_what what,
			    const char *why, const char *line, size_t len)
{
	em->n_comments++;
	if (em->skip & HM_EMIT_SKIP_COMMENTS)
		return;
	hm_sbuf_printf(em->sb, "# not in %s (%s): %s",
		       hm_dialect_titles[em->dialect], why, em->prefix);
	hm_sbuf_add(em->sb, line, len);
	hm_sbuf_addc(em->sb, '\n');
	if (em->st) {
		em->st->commented[what]++;
		em->st->n_commented++;
	}
}

void hm_tomoyo_count_widened(struct hm_emit *em, enum hm_conv_what what)
{
	if (em->st && !(em->skip & HM_EMIT_SKIP_COMMENTS)) {
		em->st->widened[what]++;
		em->st->n_widened++;
	}
}

/* Emit the text in @line (then reset it) as a line or a comment. */
static void flush(struct hm_emit *em, struct hm_sbuf *line, unsigned kind,
		  const char *why)
{
	const char *s = hm_sbuf_str(line);

	if (why)
		hm_tomoyo_emit_comment(em, (enum hm_conv_what)kind, why, s,
				       line->len);
	else
		hm_tomoyo_emit_line(em, s, line->len);
	line->len = 0;
	if (line->s)
		line->s[0] = '\0';
}

/* ------------------------------------------------------------ operands */

static void put_operand(struct hm_sbuf *b, const struct hm_operand *o,
			const void *field)
{
	const struct hm_name *n;

	switch (o->type) {
	case HM_OT_NAME:
		hm_tomoyo_put_name_op(b, field);
		return;
	case HM_OT_NUMBER:
		hm_tomoyo_put_number(b, field);
		return;
	case HM_OT_ADDR:
		hm_tomoyo_put_addr(b, field);
		return;
	default:
		n = *(const struct hm_name *const *)field;
		if (n)
			hm_sbuf_add(b, n->str, n->len);
		return;
	}
}

/* The operands of @e, as @d21 (2.1) or 2.6 writes them. */
static void put_operands(struct hm_sbuf *b, const struct hm_acl_head *e,
			 bool d21)
{
	hm_for_each_operand(o, e->kind) {
		const void *field = hm_operand_ptr(e, o);

		if (o->type == HM_OT_PROTO)	/* written with the head */
			continue;
		if (d21 && (o->in21 == HM_IN21_OMIT ||
			    (o->in21 == HM_IN21_OPTIONAL &&
			     hm_tomoyo_is_widest(field, o->widest))))
			continue;
		hm_sbuf_addc(b, ' ');
		put_operand(b, o, field);
	}
}

static void put_cond(struct hm_sbuf *b, const struct hm_acl_head *e)
{
	if (e->cond) {
		hm_sbuf_addc(b, ' ');
		hm_sbuf_add(b, e->cond->text->str, e->cond->text->len);
	}
}

static unsigned entry_proto(const struct hm_acl_head *e)
{
	const struct hm_operand *o = hm_tomoyo_proto(e->kind);

	return o ? *(const uint8_t *)hm_operand_ptr(e, o) : 0;
}

/* The 2.6/1.8 line of @e with permission bits @perm. */
static void put_modern(struct hm_sbuf *b, const struct hm_acl_head *e,
		       uint32_t perm)
{
	const struct hm_kind *ks = &hm_kinds[e->kind];
	const char *const *names = is_file_kind(e->kind) ? hm_file_op_names :
							   hm_net_op_names;
	unsigned max = is_file_kind(e->kind) ? HM_FILE_OP_MAX : HM_NET_OP_MAX;
	bool first = true;

	hm_sbuf_adds(b, ks->family);
	if (hm_tomoyo_proto(e->kind)) {
		hm_sbuf_addc(b, ' ');
		hm_sbuf_adds(b, hm_net_proto_names[entry_proto(e)]);
	}
	for (unsigned op = 0; ks->ops != HM_OPS_NONE && op < max; op++) {
		if (!(perm & BIT(op)))
			continue;
		hm_sbuf_addc(b, first ? ' ' : '/');
		hm_sbuf_adds(b, names[op]);
		first = false;
	}
	put_operands(b, e, false);
	put_cond(b, e);
}

/* ---------------------------------------------------------- 2.6 / 1.8 */

/* Bits of @e that @d cannot write, and why. */
static uint32_t modern_bad_bits(const struct hm_acl_head *e,
				enum hm_dialect d, const char **why)
{
	const struct hm_name *item = NULL;
	uint32_t allowed;

	if (!(hm_kinds[e->kind].dialects & BIT(d))) {
		*why = "signals are TOMOYO 1.8 and 2.1 only";
		return e->perm;
	}
	if (e->cond && !(hm_tomoyo_cond_dialects(e->cond, &item) & BIT(d))) {
		*why = "a condition keyword is TOMOYO 1.8 only";
		return e->perm;
	}
	if (hm_kinds[e->kind].ops != HM_OPS_NET)
		return 0;
	allowed = hm_net_ops_allowed(e->kind, entry_proto(e), d);
	*why = "accept and recv are TOMOYO 1.8 and 2.1 only";
	return e->perm & ~allowed;
}

/* The line of @e with @perm, made in the policy text itself: a saved
 * policy has a million of them, and a copy of each costs. */
static void modern_line(struct hm_emit *em, const struct hm_acl_head *e,
			uint32_t perm)
{
	if (!line_begin(em))
		return;
	put_modern(em->sb, e, perm);
	line_end(em);
}

static void emit_modern(struct hm_emit *em, const struct hm_acl_head *e,
			struct hm_sbuf *line)
{
	const char *why = NULL;
	uint32_t bad = modern_bad_bits(e, em->dialect, &why);
	uint32_t ok = e->perm & ~bad;
	uint32_t exec = BIT(HM_FILE_EXECUTE);

	if (e->kind == HM_ACL_PATH && (ok & exec) && ok != exec) {
		modern_line(em, e, exec);
		ok &= ~exec;
	}
	if (ok)
		modern_line(em, e, ok);
	if (bad) {
		put_modern(line, e, bad);
		flush(em, line, e->kind, why);
	}
}

/* ---------------------------------------------------------------- 2.1 */

/* Why 2.1 cannot write @e at all, or NULL. */
static const char *whole_entry_why21(const struct hm_acl_head *e)
{
	if (!(hm_kinds[e->kind].dialects & HM_D21))
		return "no unix sockets in TOMOYO 2.1";
	if (e->cond && !(e->kind == HM_ACL_PATH &&
			 hm_tomoyo_cond_argv0(e->cond)))
		return "TOMOYO 2.1 has no conditions";
	hm_for_each_operand(o, e->kind) {
		const struct hm_number *n = hm_operand_ptr(e, o);

		if (o->type == HM_OT_NUMBER && o->in21 != HM_IN21_OMIT &&
		    n->group)
			return "no number_group in TOMOYO 2.1";
	}
	if (e->kind == HM_ACL_SIGNAL) {
		const struct hm_acl_signal *s =
			hm_container_of(e, struct hm_acl_signal, head);

		if (s->sig.min != s->sig.max)
			return "TOMOYO 2.1 signals are single numbers";
	}
	return NULL;
}

/* Did 2.1 drop a detail of @e (a mode, device numbers)? */
static bool drops_detail21(const struct hm_acl_head *e)
{
	hm_for_each_operand(o, e->kind)
		if (o->in21 == HM_IN21_OMIT &&
		    !hm_tomoyo_is_widest(hm_operand_ptr(e, o), o->widest))
			return true;
	return false;
}

/* The 2.1 word(s) for the operations @unit of @e, or false if none. */
static bool put_head21(struct hm_sbuf *b, const struct hm_acl_head *e,
		       uint32_t unit)
{
	const struct hm_kind *ks = &hm_kinds[e->kind];
	unsigned op = (unsigned)__builtin_ctz(unit);
	const char *kw;

	if (e->kind == HM_ACL_PATH && (unit & RWX21)) {
		hm_sbuf_printf(b, "%u",
			       (unit & BIT(HM_FILE_EXECUTE) ? 1u : 0u) |
			       (unit & (BIT(HM_FILE_WRITE) |
					BIT(HM_FILE_APPEND)) ? 2u : 0u) |
			       (unit & BIT(HM_FILE_READ) ? 4u : 0u));
		return true;
	}
	if (is_file_kind(e->kind)) {
		kw = hm_file_op_names21[op];
		if (kw)
			hm_sbuf_adds(b, kw);
		return kw != NULL;
	}
	if (e->kind == HM_ACL_INET) {
		kw = hm_net_op21(entry_proto(e), op);
		if (kw)
			hm_sbuf_printf(b, "%s %s %s", ks->family21,
				       hm_net_proto_names21[entry_proto(e)], kw);
		return kw != NULL;
	}
	if (ks->family21)
		hm_sbuf_adds(b, ks->family21);
	return ks->family21 != NULL;
}

/*
 * One 2.1 line for the operations @unit of @e: in 2.1 words if it has
 * them, else (as a comment) in 1.8 words.  @why: the reason the whole
 * entry is a comment, or NULL.
 */
static void emit_unit21(struct hm_emit *em, const struct hm_acl_head *e,
			uint32_t unit, const char *why, struct hm_sbuf *line)
{
	if (!put_head21(line, e, unit)) {
		line->len = 0;
		put_modern(line, e, unit);
		flush(em, line, e->kind, why ? why :
		      "no such operation in TOMOYO 2.1");
		return;
	}
	put_operands(line, e, true);
	if (why)
		put_cond(line, e);
	flush(em, line, e->kind, why);
}

/* file execute PROG exec.argv[0]="NAME" -> allow_argv0 PROG NAME */
static void emit_argv0(struct hm_emit *em, const struct hm_acl_head *e,
		       struct hm_sbuf *line)
{
	const struct hm_name *argv0 = hm_tomoyo_cond_argv0(e->cond);
	uint32_t rest = e->perm & ~BIT(HM_FILE_EXECUTE);

	if (e->perm & BIT(HM_FILE_EXECUTE)) {
		hm_sbuf_adds(line, "allow_argv0");
		put_operands(line, e, true);
		hm_sbuf_addc(line, ' ');
		hm_sbuf_add(line, argv0->str, argv0->len);
		flush(em, line, e->kind, NULL);
	}
	if (rest & RWX21)
		emit_unit21(em, e, rest & RWX21, "TOMOYO 2.1 has no conditions",
			    line);
	rest &= ~RWX21;
	for (unsigned op = 0; op < HM_FILE_OP_MAX; op++)
		if (rest & BIT(op))
			emit_unit21(em, e, BIT(op),
				    "TOMOYO 2.1 has no conditions", line);
}

static void emit21(struct hm_emit *em, const struct hm_acl_head *e,
		   struct hm_sbuf *line)
{
	const char *why = whole_entry_why21(e);
	uint32_t perm = e->perm;

	if (!why && e->cond) {
		emit_argv0(em, e, line);
		return;
	}
	if (!(hm_kinds[e->kind].dialects & HM_D21)) {
		put_modern(line, e, perm);	/* no 2.1 words at all */
		flush(em, line, e->kind, why);
		return;
	}
	if (hm_kinds[e->kind].ops == HM_OPS_NONE) {
		emit_unit21(em, e, 1, why, line);
		return;
	}
	if (e->kind == HM_ACL_PATH && (perm & RWX21)) {
		emit_unit21(em, e, perm & RWX21, why, line);
		perm &= ~RWX21;
	}
	for (unsigned op = 0; op < 32; op++)
		if (perm & BIT(op))
			emit_unit21(em, e, BIT(op), why, line);
	if (em->n_lines && (drops_detail21(e) ||
			    (e->kind == HM_ACL_PATH &&
			     (e->perm & BIT(HM_FILE_APPEND)) &&
			     !(e->perm & BIT(HM_FILE_WRITE)))))
		hm_tomoyo_count_widened(em, (enum hm_conv_what)e->kind);
}

/* @e as 2.1 sees it: omitted numbers at their widest, @perm 1. */
static void view21(union hm_acl_any *v, const struct hm_acl_head *e)
{
	memcpy(v, e, hm_acl_size(e->kind));
	v->head.perm = 1;
	hm_for_each_operand(o, e->kind)
		if (o->in21 == HM_IN21_OMIT)
			*(struct hm_number *)hm_operand_ptr(v, o) = *o->widest;
}

int hm_tomoyo_cmp21(const struct hm_acl_head *a, const struct hm_acl_head *b,
		    bool *same21)
{
	union hm_acl_any x;
	union hm_acl_any y;
	int c;

	view21(&x, a);
	view21(&y, b);
	c = hm_acl_cmp(&x.head, &y.head);
	if (same21)
		*same21 = c == 0;
	return c ? c : hm_acl_cmp(a, b);
}

void hm_tomoyo_emit_group21(struct hm_emit *em,
			    const struct hm_acl_head *const *v, size_t n)
{
	union hm_acl_any merged;
	unsigned skip = em->skip;
	unsigned lines;

	memcpy(&merged, v[0], hm_acl_size(v[0]->kind));
	for (size_t i = 1; i < n; i++)
		merged.head.perm |= v[i]->perm;
	em->skip = skip | HM_EMIT_SKIP_COMMENTS;
	hm_tomoyo_emit_acl(em, &merged.head);
	lines = em->n_lines;
	em->skip = skip | HM_EMIT_SKIP_LINES;
	for (size_t i = 0; i < n; i++)
		hm_tomoyo_emit_acl(em, v[i]);
	em->skip = skip;
	em->n_lines = lines;	/* what the group wrote */
}

/* ------------------------------------------------------------- public */

void hm_tomoyo_emit_acl_comment(struct hm_emit *em,
				const struct hm_acl_head *e, uint32_t perm,
				const char *why)
{
	struct hm_sbuf line = { 0 };

	put_modern(&line, e, perm);
	flush(em, &line, e->kind, why);
	if (line.oom)
		em->sb->oom = true;
	hm_sbuf_free(&line);
}

void hm_tomoyo_emit_acl(struct hm_emit *em, const struct hm_acl_head *e)
{
	struct hm_sbuf line = { 0 };

	em->n_lines = 0;
	em->n_comments = 0;
	if (e->kind >= HM_ACL_KIND_MAX || !e->perm)
		return;
	if (em->dialect == HM_DIALECT_21)
		emit21(em, e, &line);
	else
		emit_modern(em, e, &line);
	if (line.oom)
		em->sb->oom = true;
	hm_sbuf_free(&line);
}

int hm_acl_format_to(struct hm_sbuf *b, const struct hm_model *m,
		     const struct hm_acl_head *e, enum hm_dialect dialect,
		     bool *is_comment)
{
	struct hm_emit em = {
		.sb = b, .m = m, .dialect = dialect, .prefix = "",
	};
	size_t start = b->len;

	if ((int)dialect < 0 || dialect >= HM_DIALECT_MAX)
		return -EINVAL;
	hm_tomoyo_emit_acl(&em, e);
	if (b->oom)
		return -ENOMEM;
	if (b->len > start && b->s[b->len - 1] == '\n')
		b->s[--b->len] = '\0';
	if (is_comment)
		*is_comment = em.n_lines == 0;
	return 0;
}

int hm_acl_format(const struct hm_model *m, const struct hm_acl_head *e,
		  enum hm_dialect dialect, char **out, bool *is_comment)
{
	struct hm_sbuf sb = { 0 };
	int r = hm_acl_format_to(&sb, m, e, dialect, is_comment);

	if (r) {
		hm_sbuf_free(&sb);
		return r;
	}
	if (!sb.s) {
		sb.s = strdup("");
		if (!sb.s)
			return -ENOMEM;
	}
	*out = sb.s;
	return 0;
}
