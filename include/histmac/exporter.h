/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exporter.h - turning a model into something people (or jq, or a
 * browser) read: the domain tree as Graphviz dot/svg/png/pdf or the
 * posting's indented text, the whole model as XML or JSON, and the HTML
 * report.  Exporters only read the model.  The table of them lives in
 * exporters/registry.c; `--format` and `--help` read it.
 *
 * Also here: the XML importer (the inverse of the xml exporter) and the
 * reader of `histmac check --format json` results used to highlight
 * domains with violations.
 */
#ifndef HISTMAC_EXPORTER_H
#define HISTMAC_EXPORTER_H

#include <stdio.h>

#include "model.h"

struct hm_check_result;

/* Defaults for the drawn tree; see struct hm_export_opts. */
#define HM_TREE_MAX_CHILDREN	40	/* per parent, then "+K more" */
#define HM_TREE_MAX_NODES	1500	/* drawn nodes in all */

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

/* The table, NULL-terminated, in the order --help lists it. */
extern const struct hm_exporter *const hm_exporters[];

/**
 * hm_exporter_find() - the exporter called @name.
 * Returns: the exporter (static), or NULL when there is none.
 */
const struct hm_exporter *hm_exporter_find(const char *name);

/**
 * hm_exporter_for_file() - the exporter a file name's extension implies
 * (".svg" -> svg, ".gv" and ".dot" -> dot, ".txt" -> text, ...).
 * Returns: the exporter (static), or NULL.
 */
const struct hm_exporter *hm_exporter_for_file(const char *path);

/* The exporters, for callers that want one without a lookup. */
extern const struct hm_exporter hm_exporter_dot;
extern const struct hm_exporter hm_exporter_svg;
extern const struct hm_exporter hm_exporter_png;
extern const struct hm_exporter hm_exporter_pdf;
extern const struct hm_exporter hm_exporter_text;
extern const struct hm_exporter hm_exporter_xml;
extern const struct hm_exporter hm_exporter_json;
extern const struct hm_exporter hm_exporter_html;

/* ----------------------------------------------------------- xml import */

/**
 * hm_xml_schema_path() - where the RELAX NG schema of the xml format is:
 * $HISTMAC_SCHEMA if set, else schema/histmac.rng or
 * ../share/histmac/histmac.rng next to the running binary (a build tree,
 * a relocated install), else DATADIR/histmac/histmac.rng of the install
 * prefix the build was configured for.
 * Returns: a path (static storage; the last candidate when none exists).
 */
const char *hm_xml_schema_path(void);

/**
 * hm_xml_import() - read an xml export back into a new model.
 * @path: the file ("-" is not special: pass "/dev/stdin").
 * @schema: the RELAX NG schema to validate against; NULL for
 *	hm_xml_schema_path().
 * @diag: every problem, as "FILE:LINE: message" (schema errors included).
 * @out: the model, set only on success; caller frees with hm_model_free().
 *
 * The document is validated against the schema while it is read, and
 * the references the schema cannot check (groups, parents, condition
 * variables) are checked as they are resolved.  On any error nothing is
 * returned: a model is never half imported.
 * Returns: 0, -EINVAL when the input is invalid (see @diag), -ENOENT when
 * the schema cannot be loaded, -ENOMEM, -EIO.
 */
int hm_xml_import(const char *path, const char *schema, struct hm_diag *diag,
		  struct hm_model **out);

/**
 * hm_xml_import_mem() - hm_xml_import() of @len bytes at @buf; @name is
 * the file name used in diagnostics.
 */
int hm_xml_import_mem(const char *buf, size_t len, const char *name,
		      const char *schema, struct hm_diag *diag,
		      struct hm_model **out);

/* --------------------------------------------------------- check result */

/*
 * struct hm_check_domain - the violations of one domain in a check result.
 * @name: the domain name (NUL-terminated, as written in the JSON).
 * @count: number of violations.
 * @lines: up to @n_lines descriptions, one per violation (the "acl",
 *	"line" or "suggestion" member, else its members as "key: value").
 */
struct hm_check_domain {
	char *name;
	size_t count;
	char **lines;
	size_t n_lines;
};

/* struct hm_check_result - violations per domain, sorted by name. */
struct hm_check_result {
	struct hm_check_domain *domains;
	size_t n_domains;
	size_t total;
};

/**
 * hm_check_result_parse() - read `histmac check --format json` output.
 * Every JSON object with a string member "domain" is a violation of that
 * domain, or, when it also holds an array "violations", as many as that
 * array has elements; objects inside a member "attempts" (failed calls
 * that never reached a check) are not violations.  Unknown members are
 * ignored, so the reader
 * follows the checker's format as it grows.
 * @buf, @len: the JSON text.
 * @name: file name for diagnostics.
 * @diag: syntax errors as "FILE:LINE: message".
 * @out: set only on success; caller frees with hm_check_result_free().
 * Returns: 0, -EINVAL (not JSON; see @diag), -ENOMEM.
 */
int hm_check_result_parse(const char *buf, size_t len, const char *name,
			  struct hm_diag *diag, struct hm_check_result **out);
void hm_check_result_free(struct hm_check_result *r);

/**
 * hm_check_result_find() - the entry for domain @name, or NULL.
 * Borrowed until hm_check_result_free().
 */
const struct hm_check_domain *
hm_check_result_find(const struct hm_check_result *r, const char *name,
		     size_t len);

#endif /* HISTMAC_EXPORTER_H */
