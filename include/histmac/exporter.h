/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exporter.h (exporters) - turning a model into something people (or jq, or
 * a browser) read: the domain tree as Graphviz dot/svg/png/pdf or the
 * posting's indented text and the HTML report (exporters/), beside the
 * whole model as XML or JSON (export_format.h).  Exporters only read the
 * model.  The table of them lives in exporters/registry.c; `--format` and
 * `--help` read it.
 */
#ifndef HISTMAC_EXPORTER_H
#define HISTMAC_EXPORTER_H

#include "export_format.h"

/* Defaults for the drawn tree; see struct hm_export_opts. */
#define HM_TREE_MAX_CHILDREN	40	/* per parent, then "+K more" */
#define HM_TREE_MAX_NODES	1500	/* drawn nodes in all */

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
extern const struct hm_exporter hm_exporter_html;

#endif /* HISTMAC_EXPORTER_H */
