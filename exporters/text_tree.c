// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * text_tree.c - the domain tree as the 2007 posting printed it:
 *
 *	<kernel>
 *	+ /sbin/init
 *	  + /etc/init.d/rc
 *
 * one line per domain, the program name indented two spaces per level
 * below the namespace root.  Annotations follow in parentheses: each
 * domain's profile and number of ACL entries (what tomoyo-editpolicy's
 * domain list shows), ancestors the policy does not hold, unobserved
 * history, violations, and how many domains --depth left out.  Reads the model through the domain tree of
 * export_util.c; owns nothing.
 */
#include <errno.h>
#include <string.h>

#include "export_private.h"

static void line_notes(struct hm_sbuf *b, const struct hm_tnode *n, bool cut)
{
	struct hm_sbuf f = { 0 };

	if (!n->dom) {
		hm_sbuf_adds(b, " (not in policy)");
	} else {
		hm_sbuf_printf(b, " (profile %u, %zu entr%s", n->dom->profile,
			       n->dom->n_acl, n->dom->n_acl == 1 ? "y" : "ies");
		if (hm_domain_flag_names(&f, n->dom->flags, ", "))
			hm_sbuf_printf(b, ", %s", hm_sbuf_str(&f));
		hm_sbuf_addc(b, ')');
	}
	hm_sbuf_free(&f);
	if (n->viol)
		hm_sbuf_printf(b, " (%u violation%s)", n->viol,
			       n->viol == 1 ? "" : "s");
	if (cut && n->n_desc)
		hm_sbuf_printf(b, " (+%u below)", n->n_desc);
}

static void text_line(struct hm_sbuf *b, const struct hm_tnode *n,
		      unsigned rel_depth, bool cut)
{
	if (rel_depth == 0) {
		hm_sbuf_add_printable(b, n->name, n->len);
	} else {
		for (unsigned i = 1; i < rel_depth; i++)
			hm_sbuf_add(b, "  ", 2);
		hm_sbuf_add(b, "+ ", 2);
		hm_sbuf_add_printable(b, n->name + n->word, n->len - n->word);
	}
	line_notes(b, n, cut);
	hm_sbuf_addc(b, '\n');
}

/* Write out what @b holds; 0, -ENOMEM (an append failed) or -EIO. */
static int flush_buf(struct hm_sbuf *b, FILE *out)
{
	if (b->oom)
		return -ENOMEM;
	if (b->len && fwrite(b->s, 1, b->len, out) != b->len)
		return -EIO;
	b->len = 0;
	return 0;
}

/* Print nodes [@first, @last] (a pre-order range) relative to @base. */
static int text_range(const struct hm_dtree *t, size_t first, size_t last,
		      uint32_t base, const struct hm_export_opts *o, FILE *out)
{
	struct hm_sbuf b = { 0 };
	int r = 0;

	for (size_t i = first; i <= last && !r; i++) {
		const struct hm_tnode *n = &t->v[i];
		unsigned rel = n->depth - base;

		if (o->depth && rel > o->depth)
			continue;
		text_line(&b, n, rel, o->depth && rel == o->depth);
		if (b.len >= 65536)
			r = flush_buf(&b, out);
	}
	if (!r)
		r = flush_buf(&b, out);
	hm_sbuf_free(&b);
	return r;
}

static int text_write(const struct hm_model *m, FILE *out,
		      const struct hm_export_opts *o)
{
	struct hm_dtree t;
	uint32_t root;
	int r;

	if (!o)
		o = &hm_export_default_opts;
	r = hm_dtree_build(m, o->check, &t);
	if (!r)
		r = hm_export_root(&t, o, &root);
	if (!r && t.n) {
		if (root != HM_TNONE)
			r = text_range(&t, root, root + t.v[root].n_desc,
				       t.v[root].depth, o, out);
		else
			r = text_range(&t, 0, t.n - 1, 0, o, out);
	}
	hm_dtree_free(&t);
	return r ? r : hm_export_flush(out);
}

const struct hm_exporter hm_exporter_text = {
	.name = "text",
	.description = "the domain tree as indented text (2007 posting)",
	.write = text_write,
};
