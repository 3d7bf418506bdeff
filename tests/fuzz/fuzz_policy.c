// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_policy.c - the domain policy reader and writer (formats/tomoyo_*).
 *
 * Input: one byte that picks the dialect (byte % 3: 2.6, 2.1, 1.8), then
 * domain policy text.  Whatever the text, reading must not crash, and for
 * every target dialect what the writer makes of the model must read back
 * without a single error and write again to the same text
 * (policy_roundtrip.h).  A broken invariant calls abort(), which
 * libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy_roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		round_trip(m, (enum hm_dialect)d, hm_policy_format_domain,
			   hm_policy_parse_domain);
	hm_diag_free(&diag);
	hm_model_free(m);
	return 0;
}
