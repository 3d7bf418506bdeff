// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_xml_import.c - hm_xml_import_mem() (formats/xml_import.c) on
 * arbitrary bytes, validated against the shipped RELAX NG schema.
 *
 * Invariants (abort() on a break, a crash for libFuzzer):
 *  - an import either returns a model and no error, or an error, a
 *    diagnostic and no model (nothing half imported);
 *  - what imports exports again, and that export imports and exports to
 *    the same bytes (the format round trips);
 *  - every exporter runs on what imported (tree, json, html too).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/exporter.h"
#include "histmac/xml_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond) do { if (!(cond)) abort(); } while (0)

/* Run @e on @m into memory; NULL when it failed for want of memory. */
static char *run(const struct hm_exporter *e, const struct hm_model *m,
		 size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int r;

	if (!f)
		return NULL;
	r = e->write(m, f, NULL);
	fclose(f);
	check(r == 0 || r == -ENOMEM);
	if (r) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_diag d = { .max_kept = 8 };
	struct hm_model *m = NULL;
	struct hm_model *m2 = NULL;
	char *x1;
	char *x2;
	size_t l1 = 0;
	size_t l2 = 0;
	int r;

	r = hm_xml_import_mem((const char *)data, size, "fuzz", HM_FUZZ_SCHEMA,
			      &d, &m);
	check((r == 0) == (m != NULL));
	check(r == 0 || r == -EINVAL || r == -ENOMEM);
	check(r != -EINVAL || d.n_errors > 0);
	hm_diag_free(&d);
	if (r)
		return 0;
	x1 = run(&hm_exporter_xml, m, &l1);
	if (x1) {
		memset(&d, 0, sizeof(d));
		r = hm_xml_import_mem(x1, l1, "again", HM_FUZZ_SCHEMA, &d, &m2);
		check(r == 0 || r == -ENOMEM);
		hm_diag_free(&d);
		x2 = m2 ? run(&hm_exporter_xml, m2, &l2) : NULL;
		check(!x2 || (l1 == l2 && !memcmp(x1, x2, l1)));
		free(x2);
		hm_model_free(m2);
	}
	free(x1);
	for (size_t i = 0; hm_exporters[i]; i++) {
		const struct hm_exporter *e = hm_exporters[i];

		/* bitmaps are slow and add nothing the svg path does not */
		if (!strcmp(e->name, "png") || !strcmp(e->name, "pdf"))
			continue;
		free(run(e, m, &l1));
	}
	hm_model_free(m);
	return 0;
}
