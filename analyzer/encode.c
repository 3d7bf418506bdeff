// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * encode.c - raw bytes <-> TOMOYO names (docs/WILDCARDS.md, 1).
 *
 * Owns no state.  The collector encodes the raw paths of audit records
 * here before they are interned; the matcher (match.c) and the policy
 * parsers only ever see the encoded form.  hm_decode() is the exact
 * inverse: it accepts only what hm_encode() can produce.
 */
#include <errno.h>

#include "histmac/word.h"

/* Bytes written as themselves: 0x21-0x7e except the backslash. */
static bool is_plain(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '\\';
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/**
 * hm_encode_len() - length of the encoded form of @len raw bytes.
 * @raw: the bytes; may hold NUL.
 * @len: their number.
 *
 * Returns: the number of characters hm_encode() writes, without the NUL.
 */
size_t hm_encode_len(const void *raw, size_t len)
{
	const unsigned char *b = raw;
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (is_plain(b[i]))
			n += 1;
		else if (b[i] == '\\')
			n += 2;
		else
			n += 4;
	}
	return n;
}

/**
 * hm_encode() - encode raw bytes as a TOMOYO name.
 * @out: buffer of at least hm_encode_len(@raw, @len) + 1 bytes.
 * @raw: the bytes; may hold NUL, which becomes \000.
 * @len: their number.
 *
 * 0x21-0x7e except '\' stand for themselves, '\' becomes "\\", every other
 * byte becomes a backslash and three octal digits.
 *
 * Returns: the encoded length; @out is NUL-terminated.  @out is the
 * caller's.
 */
size_t hm_encode(char *out, const void *raw, size_t len)
{
	const unsigned char *b = raw;
	char *o = out;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = b[i];

		if (is_plain(c)) {
			*o++ = (char)c;
		} else if (c == '\\') {
			*o++ = '\\';
			*o++ = '\\';
		} else {
			*o++ = '\\';
			*o++ = (char)('0' + (c >> 6));
			*o++ = (char)('0' + ((c >> 3) & 7));
			*o++ = (char)('0' + (c & 7));
		}
	}
	*o = '\0';
	return (size_t)(o - out);
}

/**
 * hm_decode() - the inverse of hm_encode() for a literal word.
 * @out: buffer of at least @len bytes; its contents are unspecified when
 *	the call fails.
 * @out_len: set to the decoded length on success only.
 * @s: the encoded name (need not be NUL-terminated).
 * @len: its length; 0 decodes to zero bytes.
 *
 * Returns: 0, or -EINVAL when @s is not something hm_encode() produces: a
 * raw byte outside 0x21-0x7e, a wildcard, an unknown escape, a lone
 * trailing '\', or a \ooo for a byte the encoder writes as itself
 * (\041, \134, ...).
 */
int hm_decode(void *out, size_t *out_len, const char *s, size_t len)
{
	unsigned char *o = out;
	size_t i = 0;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		unsigned int v;

		if (c != '\\') {
			if (!is_plain(c))
				return -EINVAL;
			*o++ = c;
			i++;
			continue;
		}
		if (i + 1 < len && s[i + 1] == '\\') {
			*o++ = '\\';
			i += 2;
			continue;
		}
		if (i + 4 > len || s[i + 1] < '0' || s[i + 1] > '3' ||
		    !is_octal(s[i + 2]) || !is_octal(s[i + 3]))
			return -EINVAL;
		v = (unsigned int)(s[i + 1] - '0') << 6 |
		    (unsigned int)(s[i + 2] - '0') << 3 |
		    (unsigned int)(s[i + 3] - '0');
		if (is_plain((unsigned char)v) || v == '\\')
			return -EINVAL;
		*o++ = (unsigned char)v;
		i += 4;
	}
	*out_len = (size_t)(o - (unsigned char *)out);
	return 0;
}
