/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sbuf.h (lib) - the one growing string buffer of the library, with JSON
 * and HTML quoting (lib/sbuf.c).
 */
#ifndef HISTMAC_SBUF_H
#define HISTMAC_SBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "histmac/common.h"

/*
 * struct hm_sbuf - a NUL-terminated string (or bytes) that grows: the one
 * buffer of the library, for writers and for the collector's decoding.
 * After an allocation failure @oom is set and further appends do nothing
 * (until hm_sbuf_reset()), so a caller may check once at the end.
 * Zero-initialise; free with hm_sbuf_free().
 */
struct hm_sbuf {
	char *s;
	size_t len;
	size_t cap;
	bool oom;
};

/**
 * hm_sbuf_reserve() - make room for @more bytes after the text (and its
 * NUL), for a caller that writes into @b->s + @b->len itself.
 * @b: the buffer.
 * @more: bytes the caller will add.
 *
 * Returns: 0, or -ENOMEM (then @b->oom is set).
 */
int hm_sbuf_reserve(struct hm_sbuf *b, size_t more);

/**
 * hm_sbuf_add() - append @len bytes at @s (may hold NUL bytes).
 * hm_sbuf_adds() - append a C string; hm_sbuf_addc() - one byte;
 * hm_sbuf_printf() - printf-formatted text.
 * @b: the buffer; on ENOMEM @b->oom is set and the text is dropped.
 *
 * Returns: 0, or -ENOMEM (now or at an earlier append), for callers that
 * stop at the first failure; others check @b->oom once at the end.
 */
int hm_sbuf_add(struct hm_sbuf *b, const void *s, size_t len);
int hm_sbuf_adds(struct hm_sbuf *b, const char *s);
int hm_sbuf_addc(struct hm_sbuf *b, char c);
int hm_sbuf_printf(struct hm_sbuf *b, const char *fmt, ...) HM_PRINTF(2, 3);

/**
 * hm_sbuf_reset() - empty @b for reuse, keeping its memory; clears @b->oom.
 * @b: the buffer.
 */
void hm_sbuf_reset(struct hm_sbuf *b);

/** hm_sbuf_free() - free the text; @b is empty (and usable) again. */
void hm_sbuf_free(struct hm_sbuf *b);

/** hm_sbuf_str() - the string so far ("" when empty); borrowed. */
const char *hm_sbuf_str(const struct hm_sbuf *b);

/**
 * hm_sbuf_add_printable() - append @len bytes, writing every byte outside
 * 0x20-0x7e as TOMOYO's \ooo, so the result is ASCII whatever the model
 * holds (encoded names pass through unchanged).
 */
void hm_sbuf_add_printable(struct hm_sbuf *b, const char *s, size_t len);

/**
 * hm_sbuf_add_json() - append @len bytes as a JSON string, quotes
 * included.  Valid UTF-8 is kept; other bytes >= 0x80 become \u00XX; '<',
 * '>' and '&' are escaped too, so the string can sit inside HTML
 * <script>.
 */
void hm_sbuf_add_json(struct hm_sbuf *b, const char *s, size_t len);

/**
 * hm_sbuf_add_json_text() - hm_sbuf_add_json() that leaves '<', '>' and
 * '&' as they are, for JSON that is not going into HTML.
 */
void hm_sbuf_add_json_text(struct hm_sbuf *b, const char *s, size_t len);

/**
 * hm_sbuf_add_html() - append @len bytes as HTML/XML text: bytes outside
 * 0x20-0x7e as TOMOYO's \\ooo (hm_sbuf_add_printable()), then < > & "
 * as entities.  Fit for element text, attribute values and Graphviz
 * HTML-like labels.
 */
void hm_sbuf_add_html(struct hm_sbuf *b, const char *s, size_t len);

/** hm_utf8_valid() - are @len bytes valid UTF-8 (no overlongs/surrogates)? */
bool hm_utf8_valid(const char *s, size_t len);

#endif /* HISTMAC_SBUF_H */
