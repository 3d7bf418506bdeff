// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_check_json.c - hm_check_result_parse() (formats/check_json.c),
 * the reader of `histmac check --format json` output, on arbitrary bytes.
 *
 * Invariants (abort() on a break, a crash for libFuzzer):
 *  - success and a result go together, failure and a diagnostic too;
 *  - the result is sorted by name, each name found by
 *    hm_check_result_find(), and total is the sum of the counts;
 *  - the JSON exporter's quoting of each name reads back to the name.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../formats/formats_private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond) do { if (!(cond)) abort(); } while (0)

static void check_quoting(const char *name)
{
	struct hm_sbuf b = { 0 };
	struct hm_sbuf j = { 0 };
	struct hm_check_result *r = NULL;
	int e;

	hm_sbuf_add_json(&b, name, strlen(name));
	if (b.oom)
		goto out;
	check(hm_utf8_valid(b.s, b.len));
	hm_sbuf_printf(&j, "{\"domain\":%s}", b.s);
	if (j.oom)
		goto out;
	e = hm_check_result_parse(j.s, j.len, "q", NULL, &r);
	check(e == 0 || e == -ENOMEM);
	/* names that are valid UTF-8 come back byte for byte */
	check(!r || !hm_utf8_valid(name, strlen(name)) ||
	      (r->n_domains == 1 && !strcmp(r->domains[0].name, name)));
	hm_check_result_free(r);
out:
	hm_sbuf_free(&b);
	hm_sbuf_free(&j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_diag d = { .max_kept = 4 };
	struct hm_check_result *r = NULL;
	size_t total = 0;
	int e = hm_check_result_parse((const char *)data, size, "fuzz", &d, &r);

	check((e == 0) == (r != NULL));
	check(e == 0 || e == -EINVAL || e == -ENOMEM);
	check(e != -EINVAL || d.n_errors > 0);
	hm_diag_free(&d);
	if (!r)
		return 0;
	for (size_t i = 0; i < r->n_domains; i++) {
		const char *n = r->domains[i].name;

		total += r->domains[i].count;
		check(!i || strcmp(r->domains[i - 1].name, n) < 0);
		check(hm_check_result_find(r, n, strlen(n)) == &r->domains[i]);
		check(r->domains[i].n_lines <= r->domains[i].count ||
		      r->domains[i].n_lines <= 200);
		if (i < 4)
			check_quoting(n);
	}
	check(total == r->total);
	hm_check_result_free(r);
	return 0;
}
