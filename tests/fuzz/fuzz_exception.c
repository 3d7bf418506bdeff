// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_exception.c - the exception policy reader and writer
 * (formats/tomoyo_*).
 *
 * Input: one byte that picks the dialect (byte % 3: 2.6, 2.1, 1.8), then
 * exception policy text.  Reading must not crash; for every target
 * dialect the written text must read back without an error and write
 * again to the same text (policy_roundtrip.h).  Also formats every acl_group entry alone (hm_acl_format).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy_roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


static void format_entries(const struct hm_model *m)
{
	for (size_t g = 0; g < HM_ARRAY_SIZE(m->ex.acl_groups); g++) {
		if (!m->ex.acl_groups[g])
			continue;
		for (const struct hm_acl_head *e = m->ex.acl_groups[g]->acl; e;
		     e = e->next) {
			for (int d = 0; d < HM_DIALECT_MAX; d++) {
				char *s;
				bool comment;

				check(!hm_acl_format(m, e, (enum hm_dialect)d,
						     &s, &comment));
				check(!comment || !strncmp(s, "# not in ", 9));
				free(s);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_model *m;
	struct hm_diag diag = { .max_kept = 4 };
	int r;

	if (!size)
		return 0;
	m = hm_model_new();
	check(m);
	r = hm_policy_parse_exception(m, (const char *)data + 1, size - 1,
				      data[0] % 3, "fuzz", &diag);
	check(r >= 0);
	check((unsigned long)r == diag.n_errors);
	for (int d = 0; d < HM_DIALECT_MAX; d++)
		round_trip(m, (enum hm_dialect)d, hm_policy_format_exception,
			   hm_policy_parse_exception);
	format_entries(m);
	hm_diag_free(&diag);
	hm_model_free(m);
	return 0;
}
