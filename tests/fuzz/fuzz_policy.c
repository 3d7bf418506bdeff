// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_policy.c - the domain policy reader and writer (exporters/tomoyo_*).
 *
 * Input: one byte that picks the dialect (byte % 3: 2.6, 2.1, 1.8), then
 * domain policy text.  Whatever the text, reading must not crash, and for
 * every target dialect what the writer makes of the model must read back
 * without a single error and write again to the same text - "# not in"
 * comment lines included, which 2.6 reads back (2.1's are only for
 * people, so there they are left out of the comparison).  A broken
 * invariant calls
 * abort(), which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/policy_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond) do { if (!(cond)) abort(); } while (0)

/* @s without its "# not in" comment lines. */
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
	size_t n1;
	size_t n2;

	check(b);
	check(!hm_policy_format_domain(m, d, &t1, &n1, NULL));
	check(hm_policy_parse_domain(b, t1, n1, (int)d, "t1", &diag) == 0);
	check(!hm_policy_format_domain(b, d, &t2, &n2, NULL));
	/* 2.6 and 1.8 read their "# not in" comments back; 2.1's are only
	 * for people. */
	if (d == HM_DIALECT_21) {
		char *want = strip_not_in(t1);

		check(!strcmp(want, t2));
		free(want);
	} else {
		check(!strcmp(t1, t2));
	}
	free(t1);
	free(t2);
	hm_diag_free(&diag);
	hm_model_free(b);
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
	r = hm_policy_parse_domain(m, (const char *)data + 1, size - 1,
				   data[0] % 3, "fuzz", &diag);
	check(r >= 0);
	check((unsigned long)r == diag.n_errors);
	for (int d = 0; d < HM_DIALECT_MAX; d++)
		round_trip(m, (enum hm_dialect)d);
	hm_diag_free(&diag);
	hm_model_free(m);
	return 0;
}
