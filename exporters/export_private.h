/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export_private.h - what the exporters that draw or report (tree, text
 * tree, HTML report) share and nobody else sees: the domain tree (domains
 * arranged by name, with the absent ancestors filled in) and ACL summaries.
 */
#ifndef HISTMAC_EXPORTERS_PRIVATE_H
#define HISTMAC_EXPORTERS_PRIVATE_H

#include "formats_private.h"
#include "histmac/exporter.h"

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

/**
 * hm_acl_summary() - append a count of @d's ACL by kind and operation
 * ("12 ACL entries: file read 8, file execute 2, network inet 2") to @b.
 */
void hm_acl_summary(struct hm_sbuf *b, const struct hm_domain *d);

#endif /* HISTMAC_EXPORTERS_PRIVATE_H */
