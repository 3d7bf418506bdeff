// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_exception.c - the exception policy reader and writer
 * (exporters/tomoyo_*).
 *
 * Input: one byte that picks the dialect (byte % 3: 2.6, 2.1, 1.8), then
 * exception policy text.  Reading must not crash; for every target
 * dialect the written text must read back without an error and write
 * again to the same text, but for the "# not in" comments of a
 * conversion.  Also formats every acl_group entry alone (hm_acl_format).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/policy_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond) do { if (!(cond)) abort(); } while (0)

static char *strip_not_in(const char *s)
{
	char *out = malloc(strlen(s) + 1);
	char *o = out;

	check(out);
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);

		if (strncmp(s, "# not in ", 9)) {
			memcpy(o, s, n);
			o += n;
		}
		s += n;
	}
	*o = '\0';
	return out;
}

static void round_trip(const struct hm_model *m, enum hm_dialect d)
{
	struct hm_model *b = hm_model_new();
	struct hm_diag diag = { .max_kept = 4 };
	char *t1;
	char *t2;
	char *want;
	size_t n1;
	size_t n2;

	check(b);
	check(!hm_policy_format_exception(m, d, &t1, &n1, NULL));
	check(hm_policy_parse_exception(b, t1, n1, (int)d, "t1", &diag) == 0);
	check(!hm_policy_format_exception(b, d, &t2, &n2, NULL));
	/* 2.6 and 1.8 read their "# not in" comments back; 2.1's are only
	 * for people. */
	want = d == HM_DIALECT_21 ? strip_not_in(t1) : strdup(t1);
	check(want && !strcmp(want, t2));
	free(want);
	free(t1);
	free(t2);
	hm_diag_free(&diag);
	hm_model_free(b);
}

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
		round_trip(m, (enum hm_dialect)d);
	format_entries(m);
	hm_diag_free(&diag);
	hm_model_free(m);
	return 0;
}
