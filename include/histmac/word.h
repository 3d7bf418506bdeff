/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * word.h (analyzer) - TOMOYO words: encoding, validation and wildcard
 * matching, with exactly the kernel's semantics (see docs/WILDCARDS.md).
 *
 * All functions here work on encoded names (ASCII 0x21-0x7e, escapes \\ and
 * \ooo).  Raw bytes from audit records go through hm_encode() first.
 */
#ifndef HISTMAC_WORD_H
#define HISTMAC_WORD_H

#include "intern.h"

/* Most wildcard tokens (\* \@ \$ \X \A \{ \}) a word may hold. */
#define HM_MAX_WILDCARDS 20

/**
 * hm_encode_len() - length of the encoded form of @len raw bytes.
 */
size_t hm_encode_len(const void *raw, size_t len);

/**
 * hm_encode() - encode raw bytes as a TOMOYO name: 0x21-0x7e except '\'
 * as themselves, '\' as "\\", every other byte (NUL included) as \ooo.
 * @out: buffer of at least hm_encode_len(raw, len) + 1 bytes.
 * Returns: the encoded length; @out is NUL-terminated.
 */
size_t hm_encode(char *out, const void *raw, size_t len);

/**
 * hm_decode() - the inverse of hm_encode() for a literal word.
 * @out: buffer of at least @len bytes.
 * @out_len: decoded length.
 * Returns: 0, or -EINVAL when @s is not a valid encoding of a literal name
 * (a wildcard, a bad escape, or a \ooo the encoder would not produce).
 */
int hm_decode(void *out, size_t *out_len, const char *s, size_t len);

/**
 * hm_word_is_valid() - would TOMOYO accept @s as a word?
 * Checks characters, escapes, \{ \} placement and pairing, and the limit
 * of HM_MAX_WILDCARDS tokens.
 */
bool hm_word_is_valid(const char *s, size_t len);

/** hm_path_is_valid() - a valid word holding '/', first '/' before any '.'. */
bool hm_path_is_valid(const char *s, size_t len);

/**
 * hm_domainname_is_valid() - "<word>" followed by zero or more valid paths,
 * each after exactly one space.
 */
bool hm_domainname_is_valid(const char *s, size_t len);

/**
 * hm_word_why_invalid() - a short English reason @s is not a valid word
 * ("bad escape \q at offset 4"), for FILE:LINE diagnostics.
 * Returns: NULL when the word is valid, else a static or @buf string.
 */
const char *hm_word_why_invalid(const char *s, size_t len, char *buf,
				size_t bufsz);

/**
 * hm_word_is_patterned() - does @s contain a wildcard?  \\ and \ooo are
 * not wildcards.  Sets *@const_len (may be NULL) to the length of the
 * literal prefix (the whole length when not patterned).
 */
bool hm_word_is_patterned(const char *s, size_t len, uint32_t *const_len);

/**
 * hm_path_matches() - does @name (a literal encoded name) match @pattern?
 * Both are interned or hm_name_fill()ed.  A pattern without wildcards
 * matches only the identical name.
 */
bool hm_path_matches(const struct hm_name *name, const struct hm_name *pattern);

/** hm_path_matches_str() - hm_path_matches() on plain C strings. */
bool hm_path_matches_str(const char *name, const char *pattern);

#endif /* HISTMAC_WORD_H */
