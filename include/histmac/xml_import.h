/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xml_import.h (formats) - reading an xml export back into a model,
 * validated against the format's RELAX NG schema (formats/xml_import.c):
 * the inverse of hm_exporter_xml (export_format.h).
 */
#ifndef HISTMAC_XML_IMPORT_H
#define HISTMAC_XML_IMPORT_H

#include <stddef.h>

#include "model.h"

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

#endif /* HISTMAC_XML_IMPORT_H */
