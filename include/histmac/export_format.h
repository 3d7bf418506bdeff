/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export_format.h (formats) - what an output format is (struct hm_exporter)
 * and what it may be asked for (struct hm_export_opts), and the two formats
 * the formats room writes itself: the whole model as XML and as JSON
 * (formats/xml.c, formats/json.c).  The drawn and reported formats and the
 * table of all of them are the exporters room's (exporter.h).
 */
#ifndef HISTMAC_EXPORT_FORMAT_H
#define HISTMAC_EXPORT_FORMAT_H

#include <stdio.h>

#include "model.h"

struct hm_check_result;

/*
 * struct hm_export_opts - what a write function may be asked for.
 * Zero-initialised means: the whole model, default limits, no highlight.
 * @root: draw only the subtree of this domain name (an absent ancestor of
 *	a domain also counts); NULL for every root.  Tree formats only.
 * @depth: levels drawn below the root(s); 0 for all.
 * @max_children: children drawn per parent before the rest are folded
 *	into one "+K more" node; 0 for HM_TREE_MAX_CHILDREN.
 * @max_nodes: nodes drawn in all (breadth first); 0 for HM_TREE_MAX_NODES.
 * @check: violations to mark (hm_check_result_parse()); may be NULL.
 * @title: a title for pictures and pages; NULL for a default.
 * @diag: where write functions report problems with their options (an
 *	unknown root); may be NULL.
 */
struct hm_provenance;

struct hm_export_opts {
	const char *root;
	unsigned depth;
	unsigned max_children;
	unsigned max_nodes;
	const struct hm_check_result *check;
	/* report: list the entries of @prov fewer than @rare hosts had */
	struct hm_provenance *prov;
	unsigned rare;
	/* report: mark entries not used in the last @unused days (0: none) */
	unsigned unused;
	const char *title;
	struct hm_diag *diag;
};

/*
 * struct hm_exporter - one output format.
 * @write: writes @m to @out.  Returns 0, -ENOENT when @o->root names no
 *	domain, -EIO when writing failed, -ENOMEM, or another negative errno.
 */
struct hm_exporter {
	const char *name;
	const char *description;
	int (*write)(const struct hm_model *m, FILE *out,
		     const struct hm_export_opts *o);
};

extern const struct hm_exporter hm_exporter_xml;
extern const struct hm_exporter hm_exporter_json;

#endif /* HISTMAC_EXPORT_FORMAT_H */
