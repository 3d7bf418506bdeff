/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy_roundtrip.h - the invariant fuzz_policy and fuzz_exception share:
 * what the writer makes of a model in a dialect reads back without an
 * error and writes again to the same text.  2.6 and 1.8 read their
 * "# not in" comments back; 2.1's are only for people, so there they are
 * left out of the comparison.  A broken invariant calls abort().
 */
#ifndef HISTMAC_FUZZ_POLICY_ROUNDTRIP_H
#define HISTMAC_FUZZ_POLICY_ROUNDTRIP_H

#include <stdlib.h>
#include <string.h>

#include "histmac/policy_io.h"

#define check(cond) do { if (!(cond)) abort(); } while (0)

typedef int (*format_fn)(const struct hm_model *, enum hm_dialect, char **,
			 size_t *, struct hm_convert_stats *);
typedef int (*parse_fn)(struct hm_model *, const char *, size_t, int,
			const char *, struct hm_diag *);

/* @s without its "# not in" comment lines; caller frees. */
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

static void round_trip(const struct hm_model *m, enum hm_dialect d,
		       format_fn format, parse_fn parse)
{
	struct hm_model *b = hm_model_new();
	struct hm_diag diag = { .max_kept = 4 };
	char *t1;
	char *t2;
	char *want;
	size_t n1;
	size_t n2;

	check(b);
	check(!format(m, d, &t1, &n1, NULL));
	check(parse(b, t1, n1, (int)d, "t1", &diag) == 0);
	check(!format(b, d, &t2, &n2, NULL));
	want = d == HM_DIALECT_21 ? strip_not_in(t1) : strdup(t1);
	check(want && !strcmp(want, t2));
	free(want);
	free(t1);
	free(t2);
	hm_diag_free(&diag);
	hm_model_free(b);
}

#endif
