// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sbuf.c - the one growing buffer: every writer (policy text, XML, JSON,
 * reports, events) and the collector's decoding use it.  With the quoting
 * rules of JSON and HTML and a UTF-8 check.  Owns only the text of the
 * buffer it is handed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/sbuf.h"

/* -------------------------------------------------------------- buffers */

int hm_sbuf_reserve(struct hm_sbuf *b, size_t more)
{
	size_t cap;
	char *n;

	if (b->oom)
		return -ENOMEM;
	if (more < b->cap - b->len)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap - b->len <= more) {
		if (cap > SIZE_MAX / 2)
			goto oom;
		cap *= 2;
	}
	n = realloc(b->s, cap);
	if (!n)
		goto oom;
	b->s = n;
	b->cap = cap;
	return 0;
oom:
	b->oom = true;
	return -ENOMEM;
}

int hm_sbuf_add(struct hm_sbuf *b, const void *s, size_t len)
{
	if (hm_sbuf_reserve(b, len))
		return -ENOMEM;
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
	return 0;
}

int hm_sbuf_adds(struct hm_sbuf *b, const char *s)
{
	return hm_sbuf_add(b, s, strlen(s));
}

int hm_sbuf_addc(struct hm_sbuf *b, char c)
{
	return hm_sbuf_add(b, &c, 1);
}

/* Formatted once into the room the buffer has (the common case: a few
 * words into a growing policy), twice only when it does not fit. */
int hm_sbuf_printf(struct hm_sbuf *b, const char *fmt, ...)
{
	size_t room = b->s && !b->oom ? b->cap - b->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room) {
		b->len += (size_t)n;
		return 0;
	}
	if (room)	/* what did not fit is not part of the text */
		b->s[b->len] = '\0';
	if (n < 0) {
		b->oom = true;	/* EOVERFLOW: the text is dropped all the same */
		return -ENOMEM;
	}
	if (hm_sbuf_reserve(b, (size_t)n))
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void hm_sbuf_reset(struct hm_sbuf *b)
{
	b->len = 0;
	b->oom = false;
	if (b->s)
		b->s[0] = '\0';
}

void hm_sbuf_free(struct hm_sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

const char *hm_sbuf_str(const struct hm_sbuf *b)
{
	return b->s ? b->s : "";
}

void hm_sbuf_add_printable(struct hm_sbuf *b, const char *s, size_t len)
{
	size_t run = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c <= 0x7e)
			continue;
		hm_sbuf_add(b, s + run, i - run);
		hm_sbuf_printf(b, "\\%03o", c);
		run = i + 1;
	}
	hm_sbuf_add(b, s + run, len - run);
}

void hm_sbuf_add_html(struct hm_sbuf *b, const char *s, size_t len)
{
	struct hm_sbuf pr = { 0 };

	hm_sbuf_add_printable(&pr, s, len);
	for (size_t i = 0; i < pr.len; i++) {
		switch (pr.s[i]) {
		case '<':
			hm_sbuf_adds(b, "&lt;");
			break;
		case '>':
			hm_sbuf_adds(b, "&gt;");
			break;
		case '&':
			hm_sbuf_adds(b, "&amp;");
			break;
		case '"':
			hm_sbuf_adds(b, "&quot;");
			break;
		default:
			hm_sbuf_addc(b, pr.s[i]);
		}
	}
	if (pr.oom)
		b->oom = true;
	hm_sbuf_free(&pr);
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool hm_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(p + i, len - i);

		if (!k)
			return false;
		i += k;
	}
	return true;
}

static void add_json(struct hm_sbuf *b, const char *s, size_t len,
		     bool html_safe)
{
	const unsigned char *p = (const unsigned char *)s;

	hm_sbuf_addc(b, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t k;

		switch (c) {
		case '"':
			hm_sbuf_add(b, "\\\"", 2);
			break;
		case '\\':
			hm_sbuf_add(b, "\\\\", 2);
			break;
		case '\n':
			hm_sbuf_add(b, "\\n", 2);
			break;
		case '\t':
			hm_sbuf_add(b, "\\t", 2);
			break;
		case '\r':
			hm_sbuf_add(b, "\\r", 2);
			break;
		case '<':
		case '>':
		case '&':
			if (!html_safe)
				goto plain;
			hm_sbuf_printf(b, "\\u%04x", c);
			break;
		default:
plain:
			if (c < 0x20 || c == 0x7f) {
				hm_sbuf_printf(b, "\\u%04x", c);
				break;
			}
			k = utf8_seq(p + i, len - i);
			if (!k) {
				hm_sbuf_printf(b, "\\u%04x", c);
				break;
			}
			hm_sbuf_add(b, s + i, k);
			i += k;
			continue;
		}
		i++;
	}
	hm_sbuf_addc(b, '"');
}

void hm_sbuf_add_json(struct hm_sbuf *b, const char *s, size_t len)
{
	add_json(b, s, len, true);
}

void hm_sbuf_add_json_text(struct hm_sbuf *b, const char *s, size_t len)
{
	add_json(b, s, len, false);
}
