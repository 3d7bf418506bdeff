// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * registry.c - the table of exporters that `--format` and `--help` read.
 * To add one, define a const struct hm_exporter in exporters/<name>.c and
 * add a row here (and, for a file extension, a row to ext_table).
 */
#include <string.h>
#include <strings.h>

#include "histmac/exporter.h"

const struct hm_exporter *const hm_exporters[] = {
	&hm_exporter_xml,
	&hm_exporter_json,
	&hm_exporter_text,
	&hm_exporter_dot,
	&hm_exporter_svg,
	&hm_exporter_png,
	&hm_exporter_pdf,
	&hm_exporter_html,
	NULL,
};

static const struct {
	const char *ext;
	const struct hm_exporter *exp;
} ext_table[] = {
	{ ".xml", &hm_exporter_xml },	{ ".json", &hm_exporter_json },
	{ ".txt", &hm_exporter_text },	{ ".text", &hm_exporter_text },
	{ ".dot", &hm_exporter_dot },	{ ".gv", &hm_exporter_dot },
	{ ".svg", &hm_exporter_svg },	{ ".png", &hm_exporter_png },
	{ ".pdf", &hm_exporter_pdf },	{ ".html", &hm_exporter_html },
	{ ".htm", &hm_exporter_html },
};

const struct hm_exporter *hm_exporter_find(const char *name)
{
	for (size_t i = 0; hm_exporters[i]; i++)
		if (!strcmp(hm_exporters[i]->name, name))
			return hm_exporters[i];
	return NULL;
}

const struct hm_exporter *hm_exporter_for_file(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (!dot || strchr(dot, '/'))
		return NULL;
	for (size_t i = 0; i < sizeof(ext_table) / sizeof(ext_table[0]); i++)
		if (!strcasecmp(dot, ext_table[i].ext))
			return ext_table[i].exp;
	return NULL;
}
