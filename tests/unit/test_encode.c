// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_encode.c - raw bytes <-> TOMOYO names (encode.c), against
 * docs/WILDCARDS.md section 1.  Tables walked by one loop each.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/word.h"

struct encode_case {
	const char *raw;
	size_t len;		/* raw may hold NUL */
	const char *enc;
};

#define RAW(s) s, sizeof(s) - 1

static const struct encode_case encode_cases[] = {
	{ RAW(""), "" },
	{ RAW("/etc/passwd"), "/etc/passwd" },
	{ RAW("a b"), "a\\040b" },
	{ RAW("\t"), "\\011" },
	{ RAW("\n"), "\\012" },
	{ RAW("\r"), "\\015" },
	{ RAW(" "), "\\040" },
	{ RAW("\x7f"), "\\177" },
	{ RAW("\x80"), "\\200" },
	{ RAW("\xff"), "\\377" },
	{ RAW("\xc3\xa9"), "\\303\\251" },
	{ RAW("C:\\dir"), "C:\\\\dir" },
	{ RAW("\\"), "\\\\" },
	{ RAW("\\\\"), "\\\\\\\\" },
	{ RAW("\0"), "\\000" },
	{ RAW("\0\x01"), "\\000\\001" },
	{ RAW("\0/tmp/.X11-unix/X0"), "\\000/tmp/.X11-unix/X0" },
	{ RAW("abc\0def"), "abc\\000def" },
	{ RAW("!"), "!" },
	{ RAW("~"), "~" },
	{ RAW("*?$+"), "*?$+" },
	{ RAW("\\*"), "\\\\*" },
	{ RAW("proc:/self/fd/3"), "proc:/self/fd/3" },
	{ RAW("pipe:[4026532]"), "pipe:[4026532]" },
	{ RAW("/home/a b/My Music/"), "/home/a\\040b/My\\040Music/" },
	{ RAW("\x1b[0m"), "\\033[0m" },
	{ RAW("\x20\x21"), "\\040!" },
	{ RAW("\x7e\x7f"), "~\\177" },
	{ RAW("\\040"), "\\\\040" },
};

static void test_encode_table(void **state)
{
	unsigned int failures = 0;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(encode_cases); i++) {
		const struct encode_case *c = &encode_cases[i];
		char out[128];
		char back[128];
		size_t n = hm_encode_len(c->raw, c->len);
		size_t back_len = SIZE_MAX;
		size_t got;
		int rc;

		memset(out, 'Z', sizeof(out));
		got = hm_encode(out, c->raw, c->len);
		rc = hm_decode(back, &back_len, out, got);
		if (n != strlen(c->enc) || got != n || strcmp(out, c->enc) ||
		    rc || back_len != c->len || memcmp(back, c->raw, c->len)) {
			print_error("encode case %zu: want \"%s\" got \"%s\" "
				    "(len %zu/%zu, decode %d)\n", i, c->enc,
				    out, n, got, rc);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

struct decode_bad_case {
	const char *enc;
};

static const struct decode_bad_case decode_bad_cases[] = {
	{ "a b" },
	{ "a\tb" },
	{ "\x7f" },
	{ "\xc3\xa9" },
	{ "\\" },
	{ "abc\\" },
	{ "\\q" },
	{ "\\*" },
	{ "\\@" },
	{ "\\?" },
	{ "\\$" },
	{ "\\+" },
	{ "\\x" },
	{ "\\X" },
	{ "\\a" },
	{ "\\A" },
	{ "\\-" },
	{ "\\{" },
	{ "\\}" },
	{ "\\041" },
	{ "\\101" },
	{ "\\134" },
	{ "\\176" },
	{ "\\400" },
	{ "\\08" },
	{ "\\0" },
	{ "\\00" },
	{ "\\\\\\" },
	{ "/ok/then\\q" },
};

static void test_decode_bad_table(void **state)
{
	unsigned int failures = 0;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(decode_bad_cases); i++) {
		const char *s = decode_bad_cases[i].enc;
		char out[64];
		size_t out_len = 12345;
		int rc = hm_decode(out, &out_len, s, strlen(s));

		if (rc != -EINVAL || out_len != 12345) {
			print_error("decode bad case %zu: \"%s\" gave %d\n", i,
				    s, rc);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/* Every byte value on its own: its class, its form, and the way back. */
static void test_every_byte(void **state)
{
	unsigned int failures = 0;

	(void)state;
	for (unsigned int b = 0; b < 256; b++) {
		unsigned char raw = (unsigned char)b;
		char out[8];
		unsigned char back[8];
		size_t back_len = 0;
		size_t n = hm_encode(out, &raw, 1);
		bool plain = b >= 0x21 && b <= 0x7e && b != '\\';
		size_t want = plain ? 1 : b == '\\' ? 2 : 4;
		bool form_ok = n == want && hm_encode_len(&raw, 1) == want;

		if (n == 1)
			form_ok = form_ok && out[0] == (char)b;
		if (n == 2)
			form_ok = form_ok && !strcmp(out, "\\\\");
		if (n == 4)
			form_ok = form_ok && out[0] == '\\' &&
				  (unsigned int)(out[1] - '0') * 64 +
				  (unsigned int)(out[2] - '0') * 8 +
				  (unsigned int)(out[3] - '0') == b &&
				  out[1] >= '0' && out[1] <= '3';
		if (!form_ok || out[n] != '\0' ||
		    hm_decode(back, &back_len, out, n) || back_len != 1 ||
		    back[0] != raw ||
		    !hm_word_is_valid(out, n) ||
		    hm_word_is_patterned(out, n, NULL)) {
			print_error("byte 0x%02x: encoded \"%s\"\n", b, out);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/* All 65536 byte pairs round-trip, and one buffer holding every byte. */
static void test_pairs_and_all_bytes(void **state)
{
	unsigned char all[256];
	char enc[256 * 4 + 1];
	unsigned char back[256 * 4];
	size_t back_len;
	unsigned int failures = 0;

	(void)state;
	for (unsigned int a = 0; a < 256; a++) {
		for (unsigned int b = 0; b < 256; b++) {
			unsigned char raw[2] = { (unsigned char)a,
						 (unsigned char)b };
			size_t n = hm_encode(enc, raw, 2);

			if (hm_decode(back, &back_len, enc, n) ||
			    back_len != 2 || memcmp(back, raw, 2)) {
				if (failures++ < 10)
					print_error("pair %02x %02x\n", a, b);
			}
		}
	}
	for (unsigned int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	assert_int_equal(hm_encode(enc, all, 256), hm_encode_len(all, 256));
	/* 93 plain bytes, the backslash, 162 bytes as \ooo */
	assert_int_equal(hm_encode_len(all, 256), 93 + 2 + 162 * 4);
	assert_int_equal(hm_decode(back, &back_len, enc, strlen(enc)), 0);
	assert_int_equal(back_len, 256);
	assert_memory_equal(back, all, 256);
	assert_true(hm_word_is_valid(enc, strlen(enc)));
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_table),
		cmocka_unit_test(test_decode_bad_table),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_pairs_and_all_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
