/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.h (lib) - histmac.conf: "key = value" lines, as auditd.conf.  The
 * parser knows no key by itself; the caller hands it the keys it accepts,
 * and every bad line is reported as FILE:LINE into a struct hm_diag.
 */
#ifndef HISTMAC_CONFIG_H
#define HISTMAC_CONFIG_H

#include <stddef.h>

#include "histmac/common.h"

#define HM_CONFIG_MAX_SIZE	(1u << 20)	/* bytes in one file */
#define HM_CONFIG_MAX_LINE	4096		/* bytes in one line */

/* One accepted "key = value" line; both strings are NUL-terminated. */
struct hm_config_item {
	const char *key;
	const char *value;
	unsigned long line;	/* 1-based line in the file */
};

struct hm_config;

/**
 * hm_config_parse() - parse the text of a configuration file.
 * @text: the file's bytes (need not be NUL-terminated).
 * @len: bytes in @text, at most HM_CONFIG_MAX_SIZE.
 * @name: file name for diagnostics.
 * @keys: NULL-terminated list of accepted keys; another key is an error.
 * @diag: gets "FILE:LINE: error: ..." for every line that is refused
 *	(no '=', bad or unknown key, a key given twice, empty value,
 *	control characters, a line longer than HM_CONFIG_MAX_LINE).
 * @out: the accepted lines, also when some were refused; caller frees
 *	with hm_config_free().
 *
 * Blank lines and lines whose first non-blank character is '#' are
 * skipped.  Whitespace around the key and the value is dropped; the value
 * keeps inner spaces (lists are space-separated).
 * Returns: 0, -EFBIG if @len is too large, -ENOMEM.
 */
int hm_config_parse(const char *text, size_t len, const char *name,
		    const char *const *keys, struct hm_diag *diag,
		    struct hm_config **out);

/**
 * hm_config_read() - read and parse configuration file @path, as
 * hm_config_parse().
 * Returns: 0, -errno from open/read (-ENOENT: no such file), -EFBIG,
 * -ENOMEM.  The caller decides whether a missing file matters.
 */
int hm_config_read(const char *path, const char *const *keys,
		   struct hm_diag *diag, struct hm_config **out);

/**
 * hm_config_get() - the value of @key, or NULL when the file does not
 * set it.  Borrowed until hm_config_free().
 */
const char *hm_config_get(const struct hm_config *c, const char *key);

/**
 * hm_config_items() - the accepted lines in file order.
 * @n: gets their number.
 * Returns: the array (NULL when @n is 0); borrowed until hm_config_free().
 */
const struct hm_config_item *hm_config_items(const struct hm_config *c,
					     size_t *n);

/** hm_config_free() - free @c and all its strings; NULL is fine. */
void hm_config_free(struct hm_config *c);

#endif
