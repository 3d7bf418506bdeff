/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tomoyo_private.h - what the TOMOYO policy reader and writer files share
 * (tomoyo_*.c) and nobody else sees: the line reader, the parse context,
 * operand parsing and printing, the per-kind syntax table and the
 * condition helpers.
 */
#ifndef HISTMAC_EXPORTERS_TOMOYO_PRIVATE_H
#define HISTMAC_EXPORTERS_TOMOYO_PRIVATE_H

#include <stdio.h>

#include "formats_private.h"
#include "histmac/learned.h"
#include "histmac/policy_io.h"

/* "TOMOYO 2.6", "TOMOYO 2.1", "TOMOYO 1.8": for messages and comments. */
extern const char *const hm_dialect_titles[HM_DIALECT_MAX];

/* ---------------------------------------------------------- line reader */

/*
 * struct hm_lines - lines of a buffer or a FILE, at most HM_MAX_LINE
 * bytes each: the rest of a longer line is read and thrown away, never
 * stored.  @line is NUL-terminated, without its '\n'.
 */
struct hm_lines {
	FILE *f;
	const char *buf;
	size_t len;
	size_t pos;
	char *line;		/* HM_MAX_LINE + 1 bytes */
	size_t n;
	unsigned long lineno;
	bool too_long;		/* the line was cut at HM_MAX_LINE */
	bool has_nul;		/* the line holds a NUL byte */
	char *chunk;		/* @f's bytes read ahead */
	size_t cpos, clen;
};

/**
 * hm_lines_open() - read lines from @f (when non-NULL) or @buf/@len.
 * Returns: 0 or -ENOMEM; close with hm_lines_close() either way.
 */
int hm_lines_open(struct hm_lines *l, FILE *f, const char *buf, size_t len);
void hm_lines_close(struct hm_lines *l);

/**
 * hm_side_open() - open @dir/@name (a side file of a policy directory) to
 * read.  *@path: its name, malloc'd, for diagnostics (caller frees);
 * *@f: NULL when the file does not exist.
 * Returns: 0 (also without the file), -errno of opening, -ENOMEM.
 */
int hm_side_open(const char *dir, const char *name, char **path, FILE **f);

/** hm_lines_next() - the next line: 1, 0 at the end, -EIO. */
int hm_lines_next(struct hm_lines *l);

/** hm_lines_rewind() - back to the first line (FILE: needs a seekable one). */
int hm_lines_rewind(struct hm_lines *l);

/**
 * hm_tomoyo_normalize() - turn runs of spaces and tabs into one space and
 * trim both ends, in place, as TOMOYO does; a CR counts as a space.
 * @bad: set to the offset of the first other control byte, DEL or byte
 *	>= 0x80 (raw bytes TOMOYO words never hold), or SIZE_MAX.
 * Returns: the new length.
 */
size_t hm_tomoyo_normalize(char *s, size_t n, size_t *bad);

/* A cursor over the space-separated words of a normalized line. */
struct hm_words {
	const char *p;
	const char *end;
};

/** hm_words_next() - the next word; false at the end of the line. */
bool hm_words_next(struct hm_words *w, const char **s, size_t *n);

/** hm_words_rest() - what is left of the line (leading space skipped). */
void hm_words_rest(struct hm_words *w, const char **s, size_t *n);

/** hm_word_eq() - is the @n bytes at @s equal to the C string @kw? */
bool hm_word_eq(const char *s, size_t n, const char *kw);

/* -------------------------------------------------------- parse context */

/*
 * struct hm_pctx - one file (or buffer) being parsed.
 * @dom: the domain the following ACL lines belong to (domain policy).
 * @dom_bad: the last domain header was bad (its lines are skipped).
 */
struct hm_pctx {
	struct hm_model *m;
	struct hm_diag *diag;
	const char *file;
	unsigned long line;
	enum hm_dialect dialect;
	struct hm_domain *dom;
	bool dom_bad;
	unsigned long errors;
	int oom;
};

/** hm_pctx_error() - report "FILE:LINE: error: ..." and count it. */
void hm_pctx_error(struct hm_pctx *c, const char *fmt, ...) HM_PRINTF(2, 3);
void hm_pctx_warn(struct hm_pctx *c, const char *fmt, ...) HM_PRINTF(2, 3);

/**
 * hm_pctx_fail() - turn a negative errno from the model into a report:
 * -ENOMEM is remembered in @c->oom, others reported with @what.
 * Returns: @r.
 */
int hm_pctx_fail(struct hm_pctx *c, int r, const char *what);

/* ----------------------------------------------------------- operands */

/**
 * hm_tomoyo_word() - check @n bytes at @s as a TOMOYO word (length and
 * hm_word_why_invalid()), and intern it.  @what names it in messages.
 * Returns: 0, -EINVAL (reported) or -ENOMEM.
 */
int hm_tomoyo_word(struct hm_pctx *c, const char *s, size_t n,
		   const char *what, const struct hm_name **out);

/** hm_tomoyo_path() - hm_tomoyo_word() that also needs a valid path. */
int hm_tomoyo_path(struct hm_pctx *c, const char *s, size_t n,
		   const char *what, const struct hm_name **out);

/** hm_tomoyo_domainname() - check and intern a domain name. */
int hm_tomoyo_domainname(struct hm_pctx *c, const char *s, size_t n,
			 const struct hm_name **out);

/** hm_tomoyo_group() - "@NAME" (@s points after the '@') of @type. */
int hm_tomoyo_group(struct hm_pctx *c, const char *s, size_t n,
		    enum hm_group_type type, const struct hm_group **out);

/** hm_tomoyo_name_op() - a path operand: a word or "@path_group". */
int hm_tomoyo_name_op(struct hm_pctx *c, const char *s, size_t n,
		      struct hm_name_op *out);

/**
 * hm_tomoyo_number() - "N", "N-M" (decimal, 0octal, 0xhex) or, when
 * @groups, "@number_group".
 */
int hm_tomoyo_number(struct hm_pctx *c, const char *s, size_t n, bool groups,
		     struct hm_number *out);

/** hm_tomoyo_ulong() - one number; false when @s is not one. */
bool hm_tomoyo_ulong(const char *s, size_t n, uint64_t *v, uint8_t *radix);

/** hm_tomoyo_addr() - an IPv4/IPv6 address, "A-B", or "@address_group". */
int hm_tomoyo_addr(struct hm_pctx *c, const char *s, size_t n,
		   struct hm_addr *out);

void hm_tomoyo_put_number(struct hm_sbuf *b, const struct hm_number *n);
void hm_tomoyo_put_addr(struct hm_sbuf *b, const struct hm_addr *a);
void hm_tomoyo_put_name_op(struct hm_sbuf *b, const struct hm_name_op *op);

/* Decimal @v, as "%" PRIu64 / PRId64 write it, without printf's cost:
 * a saved policy has a number or four on each of a million lines. */
void hm_tomoyo_put_u64(struct hm_sbuf *b, uint64_t v);
void hm_tomoyo_put_i64(struct hm_sbuf *b, int64_t v);

/*
 * struct hm_named - the files entries name (hm_acl_files()), gathered by
 * hm_named_add(), each kept once by hm_named_unique() (in the order of
 * their addresses: names of one model are equal only as one pointer).
 * For the package stamp, which needs the set, and the history's objects,
 * which gathers them while it writes the entries: on a large policy a
 * walk over every entry, or a sort of them all by text, costs tens of
 * milliseconds.  Zero-initialise; free(@v).
 */
struct hm_named {
	const struct hm_name **v;
	size_t n, cap;
};

int hm_named_add(struct hm_named *f, const struct hm_acl_head *e);
void hm_named_unique(struct hm_named *f);

/*
 * hm_packages_stamp() (packages.h) in two steps, so that the slow one
 * (reading the database: a thousand files, 9 MB on a desktop) can run on
 * another thread while a save renders the files that do not show the
 * stamps: hm_packages_lookup() only reads @m (and the database), which
 * must not change until hm_packages_apply() sets the stamps it found.
 */
struct hm_pkg_lookup;

/** hm_packages_lookup() - the owners of @m's programs and of the files
 * its entries name, under @root, into *@out (NULL on error).
 * Returns: 0 or -ENOMEM. */
int hm_packages_lookup(const struct hm_model *m, const char *root,
		       struct hm_pkg_lookup **out);

/** hm_packages_apply() - stamp @m with what @k found; frees @k.  @owned:
 * NULL, or empty and given the files now owned (hm_owner_of() of each is
 * set; no other file has an owner), each once.
 * Returns: 0 or -ENOMEM. */
int hm_packages_apply(struct hm_model *m, struct hm_pkg_lookup *k,
		      struct hm_named *owned);

/** hm_packages_lookup_free() - free @k unapplied (NULL: nothing). */
void hm_packages_lookup_free(struct hm_pkg_lookup *k);

/*
 * The history (histmac_entries.conf) in two steps: hm_history_entries()
 * renders the domains and entries and gathers the files they name, and
 * hm_history_finish() adds what the package stamp sets (packages.h).
 * With @late, the first does not read the stamps, so it can run while
 * hm_packages_lookup() does, and the second puts the domains' package
 * lines where @mk marked them (a save: the stamp reads a thousand files);
 * the files with an owner are then the ones hm_packages_apply() gave in
 * @named (the stamp looked up every file named, the gathering here would
 * be its second walk and a sort of them all).
 * The caller may reserve @b and @named first: a save that renders the
 * history on another thread reserves them on its own, so that they grow
 * in its malloc arena (grown in the thread's arena, the copies they leave
 * behind cost 8 MB of peak memory after a 1 GB log).
 */
struct hm_history_mark {
	const struct hm_domain *d;
	size_t start;	/* where its text starts in @b */
	size_t head;	/* where its first lines end (0: none written) */
	size_t ins;	/* where its package lines start, in put_packages() */
};

struct hm_history_part {
	bool late;	/* the stamp is set between the two steps */
	struct hm_sbuf b;
	struct hm_named named;	/* @late: filled in by the caller */
	struct hm_history_mark *mk;	/* @late: one per named domain */
	size_t n_mk, header;
};

/** hm_history_entries() - the first step.  Returns: 0 or -ENOMEM (then
 * hm_history_part_free()). */
int hm_history_entries(const struct hm_model *m, struct hm_history_part *h);

/** hm_history_finish() - the second step, as hm_history_text() into *@out;
 * takes @h's buffers (frees them, or hands @b's text to *@out).
 * Returns: 0 or -ENOMEM. */
int hm_history_finish(const struct hm_model *m, struct hm_history_part *h,
		      struct hm_file_out *out);

void hm_history_part_free(struct hm_history_part *h);

/**
 * hm_acl_format_to() - hm_acl_format() appended to @b (no copy): @e's
 * line(s) in @dialect, without the last '\n'.
 * Returns: 0, -EINVAL (no such dialect) or -ENOMEM (now or before).
 */
int hm_acl_format_to(struct hm_sbuf *b, const struct hm_model *m,
		     const struct hm_acl_head *e, enum hm_dialect dialect,
		     bool *is_comment);

/* -------------------------------------------------- per-kind syntax */

/** hm_tomoyo_proto() - the protocol operand of @kind, or NULL. */
const struct hm_operand *hm_tomoyo_proto(unsigned kind);

/* union hm_acl_any (an entry of any kind) is in histmac/model.h. */

/**
 * hm_net_ops_allowed() - the operations (bitmask of enum hm_net_op) that
 * @dialect can write for network @kind with @proto; 0 when the protocol
 * does not exist for the kind.
 */
uint32_t hm_net_ops_allowed(enum hm_acl_kind kind, unsigned proto,
			    enum hm_dialect dialect);

/**
 * hm_net_op21() - the 2.1 word of network operation @op on @proto
 * ("connect" for dgram send), or NULL.
 */
const char *hm_net_op21(unsigned proto, unsigned op);

/** hm_tomoyo_is_widest() - does @n equal the default @w (no group)? */
bool hm_tomoyo_is_widest(const struct hm_number *n,
			 const struct hm_number *w);

/* --------------------------------------------------------- conditions */

/*
 * Which context a condition is parsed in: the kernel allows transit
 * preferences ("keep", "child", ...) only on file execute lines.
 */
struct hm_cond_ctx_parse {
	bool execute_only;
};

/**
 * hm_tomoyo_cond_item_eval() - fill in what the evaluator reads (@test,
 * @lval, @rval ...) of an item that came without it (an XML import),
 * from its @text; an HM_COND_OTHER item that does not parse stays
 * "cannot evaluate".
 * Returns: 0 or -ENOMEM.
 */
int hm_tomoyo_cond_item_eval(struct hm_model *m, struct hm_cond_item *it);

/**
 * hm_tomoyo_cond() - parse the condition words @s/@n (items "left=right",
 * "left!=right", space separated) and intern the condition.
 * Returns: 0, -EINVAL (reported) or -ENOMEM.
 */
int hm_tomoyo_cond(struct hm_pctx *c, const char *s, size_t n,
		   bool execute_only, const struct hm_cond **out);

/**
 * hm_tomoyo_cond_dialects() - the dialects that can write @cond
 * (bitmask of 1 << enum hm_dialect); 2.1 writes none.
 * @why: set to the first item only 1.8 (or only 2.6) knows; may be NULL.
 */
unsigned hm_tomoyo_cond_dialects(const struct hm_cond *cond,
				 const struct hm_name **why);

/**
 * hm_tomoyo_cond_argv0() - is @cond exactly `exec.argv[0]="NAME"`?
 * Returns: NAME (interned), or NULL.
 */
const struct hm_name *hm_tomoyo_cond_argv0(const struct hm_cond *cond);

/* ------------------------------------------------------ ACL lines */

/**
 * hm_tomoyo_parse_acl() - parse a normalized ACL line in @c->dialect into
 * domain (or acl_group) @d.
 * Returns: 1 added, 0 already there, -EINVAL (reported), -ENOMEM.
 */
int hm_tomoyo_parse_acl(struct hm_pctx *c, struct hm_domain *d,
			const char *s, size_t n);

/*
 * struct hm_emit - where entry lines go while a policy is written.
 * @prefix: written before each line ("acl_group 3 "); "" for none.
 * @st: counts; may be NULL.
 * @n_lines, @n_comments: lines made by the last hm_tomoyo_emit_acl()
 *	(written or, with @skip, left out).
 * @skip: HM_EMIT_SKIP_LINES / HM_EMIT_SKIP_COMMENTS: make but do not
 *	write those (2.1 writes a group's lines once, its comments per entry).
 */
struct hm_emit {
	struct hm_sbuf *sb;
	const struct hm_model *m;
	enum hm_dialect dialect;
	const char *prefix;
	struct hm_convert_stats *st;
	unsigned n_lines;
	unsigned n_comments;
	unsigned skip;
};

enum {
	HM_EMIT_SKIP_LINES = 1,
	HM_EMIT_SKIP_COMMENTS = 2,
};

/** hm_tomoyo_emit_acl() - write @e as line(s) of @em->dialect. */
void hm_tomoyo_emit_acl(struct hm_emit *em, const struct hm_acl_head *e);

/**
 * hm_tomoyo_cmp21() - the order 2.1 writes entries in: by kind, the
 * operands 2.1 writes (not the modes and device numbers it leaves out)
 * and condition; then hm_acl_cmp().  Entries equal but for the first
 * three are one 2.1 group (they read back as one entry).
 * @same21: set to whether they are in one group; may be NULL.
 */
int hm_tomoyo_cmp21(const struct hm_acl_head *a, const struct hm_acl_head *b,
		    bool *same21);

/**
 * hm_tomoyo_emit_group21() - write the @n entries of one 2.1 group
 * (hm_tomoyo_cmp21()) as the lines of their merged operations, then the
 * comments of each entry, so that the text reads back to what it says.
 */
void hm_tomoyo_emit_group21(struct hm_emit *em,
			    const struct hm_acl_head *const *v, size_t n);

/**
 * hm_tomoyo_emit_acl_comment() - write the operations @perm of @e, in
 * 1.8 words, as one "# not in ..." comment (reason @why).
 */
void hm_tomoyo_emit_acl_comment(struct hm_emit *em,
				const struct hm_acl_head *e, uint32_t perm,
				const char *why);

/**
 * hm_tomoyo_emit_comment() - write "# not in DIALECT (WHY): LINE" and
 * count it as @what.
 */
void hm_tomoyo_emit_comment(struct hm_emit *em, enum hm_conv_what what,
			    const char *why, const char *line, size_t len);

/** hm_tomoyo_emit_line() - write PREFIX LINE '\n' and count it. */
void hm_tomoyo_emit_line(struct hm_emit *em, const char *line, size_t len);

/** hm_tomoyo_count_widened() - count one widened entry of @what. */
void hm_tomoyo_count_widened(struct hm_emit *em, enum hm_conv_what what);

/* -------------------------------------------------- exception policy */

/**
 * hm_tomoyo_parse_exception_line() - one normalized exception policy
 * line.  Returns: 0, -EINVAL (reported), -ENOMEM.
 */
int hm_tomoyo_parse_exception_line(struct hm_pctx *c, const char *s,
				   size_t n);

/**
 * hm_tomoyo_parse_text() - the shared reading loop: every line of @l is
 * normalized, checked for NUL, raw bytes and length, and handed to @fn.
 * Returns: 0, or -ENOMEM / -EIO.
 */
int hm_tomoyo_parse_text(struct hm_pctx *c, struct hm_lines *l,
			 int (*fn)(struct hm_pctx *, const char *, size_t));

/** hm_tomoyo_detect_lines() - hm_policy_detect() over a line reader. */
int hm_tomoyo_detect_lines(struct hm_lines *l);

/** hm_tomoyo_parse_rewrite_lines() - rewrite.conf from a line reader. */
int hm_tomoyo_parse_rewrite_lines(struct hm_pctx *c, struct hm_lines *l);

/**
 * hm_tomoyo_parse_domain_line() - one normalized domain policy line:
 * domain header, attribute, annotation or ACL.
 */
int hm_tomoyo_parse_domain_line(struct hm_pctx *c, const char *s, size_t n);

/** hm_tomoyo_header() - "# histmac VERSION DIALECT\n". */
void hm_tomoyo_header(struct hm_sbuf *b, enum hm_dialect dialect);

#endif /* HISTMAC_EXPORTERS_TOMOYO_PRIVATE_H */
