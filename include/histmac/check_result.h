/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_result.h (formats) - reading `histmac check --format json` back:
 * the violations per domain, which the tree and the report highlight
 * (formats/check_json.c).
 */
#ifndef HISTMAC_CHECK_RESULT_H
#define HISTMAC_CHECK_RESULT_H

#include <stddef.h>

struct hm_diag;

/*
 * struct hm_check_domain - the violations of one domain in a check result.
 * @name: the domain name (NUL-terminated, as written in the JSON).
 * @count: number of violations.
 * @lines: up to @n_lines descriptions, one per violation (the "acl",
 *	"line" or "suggestion" member, else its members as "key: value").
 */
struct hm_check_domain {
	char *name;
	size_t count;
	char **lines;
	size_t n_lines;
};

/* struct hm_check_result - violations per domain, sorted by name. */
struct hm_check_result {
	struct hm_check_domain *domains;
	size_t n_domains;
	size_t total;
};

/**
 * hm_check_result_parse() - read `histmac check --format json` output.
 * Every JSON object with a string member "domain" is a violation of that
 * domain, or, when it also holds an array "violations", as many as that
 * array has elements; objects inside a member "attempts" (failed calls
 * that never reached a check) are not violations.  Unknown members are
 * ignored, so the reader
 * follows the checker's format as it grows.
 * @buf, @len: the JSON text.
 * @name: file name for diagnostics.
 * @diag: syntax errors as "FILE:LINE: message".
 * @out: set only on success; caller frees with hm_check_result_free().
 * Returns: 0, -EINVAL (not JSON; see @diag), -ENOMEM.
 */
int hm_check_result_parse(const char *buf, size_t len, const char *name,
			  struct hm_diag *diag, struct hm_check_result **out);
void hm_check_result_free(struct hm_check_result *r);

/**
 * hm_check_result_find() - the entry for domain @name, or NULL.
 * Borrowed until hm_check_result_free().
 */
const struct hm_check_domain *
hm_check_result_find(const struct hm_check_result *r, const char *name,
		     size_t len);

#endif /* HISTMAC_CHECK_RESULT_H */
