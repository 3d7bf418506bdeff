// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_encode.c - hm_encode() / hm_decode() (encode.c).
 *
 * The input is used twice: as raw bytes to encode, and as an encoded name
 * to decode.  Invariants (abort() on a break, a crash for libFuzzer):
 *  - encode: the length is hm_encode_len(), every character is 0x21-0x7e,
 *    the result is a valid literal word, and decodes back to the input;
 *  - decode: it succeeds exactly on valid literal words (and ""), and then
 *    re-encoding gives the input back byte for byte (one spelling per
 *    byte string).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/word.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond) do { if (!(cond)) abort(); } while (0)

static void check_encode(const uint8_t *data, size_t size)
{
	size_t want = hm_encode_len(data, size);
	char *enc = malloc(want + 1);
	uint8_t *back = malloc(want + 1);
	size_t back_len = 0;
	size_t n;

	if (!enc || !back)
		goto out;
	n = hm_encode(enc, data, size);
	check(n == want && enc[n] == '\0');
	check(n >= size && n <= size * 4);
	for (size_t i = 0; i < n; i++)
		check(enc[i] > 0x20 && enc[i] < 0x7f);
	check(!size || hm_word_is_valid(enc, n));
	check(!hm_word_is_patterned(enc, n, NULL));
	check(!hm_decode(back, &back_len, enc, n));
	check(back_len == size && !memcmp(back, data, size));
out:
	free(enc);
	free(back);
}

static void check_decode(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	uint8_t *raw = malloc(size + 1);
	char *again = NULL;
	size_t raw_len = 0;
	bool literal;
	int rc;

	if (!raw)
		return;
	literal = hm_word_is_valid(s, size) &&
		  !hm_word_is_patterned(s, size, NULL);
	rc = hm_decode(raw, &raw_len, s, size);
	check(rc == 0 || rc == -EINVAL);
	check((rc == 0) == (literal || size == 0));
	if (rc)
		goto out;
	check(raw_len <= size);
	again = malloc(hm_encode_len(raw, raw_len) + 1);
	if (!again)
		goto out;
	check(hm_encode(again, raw, raw_len) == size);
	check(!memcmp(again, s, size));
out:
	free(raw);
	free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > HM_MAX_WORD * 4)
		return 0;
	check_encode(data, size);
	check_decode(data, size);
	return 0;
}
