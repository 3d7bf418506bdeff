/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export_private.h - what the exporters share and nobody else sees: a
 * growing string buffer, the domain tree (domains arranged by name, with
 * the absent ancestors filled in), ACL summaries and JSON string quoting.
 */
#ifndef HISTMAC_EXPORTERS_PRIVATE_H
#define HISTMAC_EXPORTERS_PRIVATE_H

#include <stdio.h>

#include "histmac/exporter.h"

/* ------------------------------------------------------------- buffers */

/*
 * struct hm_sbuf - a NUL-terminated string that grows.  After an
 * allocation failure @oom is set and further appends do nothing, so a
 * caller checks once at the end.  Zero-initialise; free with
 * hm_sbuf_free().
 */
struct hm_sbuf {
	char *s;
	size_t len;
	size_t cap;
	bool oom;
};

/**
 * hm_sbuf_add() - append @len bytes at @s (may hold NUL bytes).
 * hm_sbuf_adds() - append a C string; hm_sbuf_addc() - one byte;
 * hm_sbuf_printf() - printf-formatted text.
 * @b: the buffer; on ENOMEM @b->oom is set and the text is dropped.
 */
void hm_sbuf_add(struct hm_sbuf *b, const char *s, size_t len);
void hm_sbuf_adds(struct hm_sbuf *b, const char *s);
void hm_sbuf_addc(struct hm_sbuf *b, char c);
void hm_sbuf_printf(struct hm_sbuf *b, const char *fmt, ...) HM_PRINTF(2, 3);

/** hm_sbuf_free() - free the text; @b is empty (and usable) again. */
void hm_sbuf_free(struct hm_sbuf *b);

/** hm_sbuf_str() - the string so far ("" when empty); borrowed. */
const char *hm_sbuf_str(const struct hm_sbuf *b);

/**
 * hm_sbuf_add_printable() - append @len bytes, writing every byte outside
 * 0x20-0x7e as TOMOYO's \ooo, so the result is ASCII whatever the model
 * holds (encoded names pass through unchanged).
 */
void hm_sbuf_add_printable(struct hm_sbuf *b, const char *s, size_t len);

/**
 * hm_sbuf_add_json() - append @len bytes as a JSON string, quotes
 * included.  Valid UTF-8 is kept; other bytes >= 0x80 become \u00XX; '<',
 * '>' and '&' are escaped too, so the string can sit inside HTML
 * <script>.
 */
void hm_sbuf_add_json(struct hm_sbuf *b, const char *s, size_t len);

/**
 * hm_sbuf_add_json_text() - hm_sbuf_add_json() that leaves '<', '>' and
 * '&' as they are, for JSON that is not going into HTML.
 */
void hm_sbuf_add_json_text(struct hm_sbuf *b, const char *s, size_t len);

/**
 * hm_sbuf_add_html() - append @len bytes as HTML/XML text: bytes outside
 * 0x20-0x7e as TOMOYO's \\ooo (hm_sbuf_add_printable()), then < > & "
 * as entities.  Fit for element text, attribute values and Graphviz
 * HTML-like labels.
 */
void hm_sbuf_add_html(struct hm_sbuf *b, const char *s, size_t len);

/** hm_utf8_valid() - are @len bytes valid UTF-8 (no overlongs/surrogates)? */
bool hm_utf8_valid(const char *s, size_t len);

/* --------------------------------------------------------- domain tree */

#define HM_TNONE UINT32_MAX

/*
 * struct hm_tnode - one node of the domain tree.
 * @dom: the domain, or NULL for an ancestor the model does not hold
 *	("<kernel> /a" when only "<kernel> /a /b" is there).
 * @name, @len: the full domain name (not NUL-terminated for an absent
 *	ancestor); borrowed from the model.
 * @word: offset of the last word in @name (0 for a namespace root).
 * @seq: position of @dom in name order (node ids "dom-SEQ"); HM_TNONE for
 *	an absent ancestor.
 * @n_desc: nodes below this one; @viol: this domain's violations;
 *	@viol_desc: violations in the subtree, this node included.
 */
struct hm_tnode {
	const struct hm_domain *dom;
	const char *name;
	uint32_t len;
	uint32_t word;
	uint32_t parent;
	uint32_t first_child;
	uint32_t last_child;
	uint32_t next;
	uint32_t n_children;
	uint32_t depth;
	uint32_t n_desc;
	uint32_t seq;
	uint32_t viol;
	uint32_t viol_desc;
};

/*
 * struct hm_dtree - the domains as a forest, nodes in pre-order (which is
 * name order).  Roots are linked through @first_root and ->next.
 */
struct hm_dtree {
	struct hm_tnode *v;
	size_t n;
	size_t cap;
	size_t n_domains;
	uint32_t first_root;
	uint32_t last_root;
	uint32_t n_roots;
};

/**
 * hm_dtree_build() - arrange the domains of @m by name.
 * @check: violations to count per node; may be NULL.
 * Returns: 0 or -ENOMEM; free @t with hm_dtree_free() either way.
 */
int hm_dtree_build(const struct hm_model *m,
		   const struct hm_check_result *check, struct hm_dtree *t);
void hm_dtree_free(struct hm_dtree *t);

/** hm_dtree_find() - the node called @name (domain or absent ancestor). */
uint32_t hm_dtree_find(const struct hm_dtree *t, const char *name,
		       size_t len);

/**
 * hm_export_root() - the node a tree export starts from: the node
 * @o->root names, or every root.  Reports an unknown root into @o->diag.
 * @out: set to a node index, or HM_TNONE for "every root".
 * Returns: 0 or -ENOENT.
 */
int hm_export_root(const struct hm_dtree *t, const struct hm_export_opts *o,
		   uint32_t *out);

/**
 * hm_tree_svg() - the drawn tree (as the svg exporter draws it) in memory.
 * @out: malloc()ed NUL-terminated SVG; caller frees with free().
 * Returns: 0 or negative errno.
 */
int hm_tree_svg(const struct hm_model *m, const struct hm_export_opts *o,
		char **out, size_t *len);

/* ----------------------------------------------------------- summaries */

/** hm_profile_name() - "disabled", "learning", ... or "profile N". */
const char *hm_profile_name(unsigned profile, char *buf, size_t bufsz);

/**
 * hm_acl_summary() - append a count of @d's ACL by kind and operation
 * ("12 ACL entries: file read 8, file execute 2, network inet 2") to @b.
 */
void hm_acl_summary(struct hm_sbuf *b, const struct hm_domain *d);

/**
 * hm_domain_flag_names() - append @flags as words separated by @sep
 * ("history-unobserved", "parent-unobserved", ...).
 * Returns: the number of words appended.
 */
int hm_domain_flag_names(struct hm_sbuf *b, unsigned flags, const char *sep);

/** hm_export_default_opts - all zero; for a NULL @o. */
extern const struct hm_export_opts hm_export_default_opts;

/** hm_export_flush() - fflush @f; 0 or -EIO when it or any write failed. */
int hm_export_flush(FILE *f);

/* ------------------------------------------------------- typed entries */

/* "path", "path-number", "mkdev", "path2", "mount", "inet", "unix",
 * "signal", "env" */
extern const char *const hm_acl_kind_ids[HM_ACL_KIND_MAX];
/* Operands come from hm_kind_operands (model.h). */
extern const char *const hm_radix_names[3];
extern const char *const hm_cond_var_names[HM_COND_VAR_MAX];
extern const char *const hm_domain_flag_ids[8];

/** hm_acl_has_perm() - does @kind carry operation bits (not signal/env)? */
bool hm_acl_has_perm(unsigned kind);

/**
 * hm_acl_op_name() - the keyword of bit @op of an entry of @kind, or NULL
 * when that bit means nothing for the kind.
 */
const char *hm_acl_op_name(unsigned kind, unsigned op);

/**
 * hm_addr_format() - @a's min or max (@which 0/1) as text (inet_ntop).
 * @buf: at least 64 bytes.
 */
const char *hm_addr_format(const struct hm_addr *a, int which, char *buf);

#endif /* HISTMAC_EXPORTERS_PRIVATE_H */
