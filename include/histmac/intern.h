/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * intern.h (analyzer) - interned names, as TOMOYO's tmy_save_name() kept
 * them.
 *
 * Every word the model holds (paths in encoded TOMOYO form, domain names,
 * group names, condition text) is interned once in a struct hm_names table.
 * Two equal strings from the same table are the same pointer, so the model
 * compares names by pointer.  The table owns the bytes.
 */
#ifndef HISTMAC_INTERN_H
#define HISTMAC_INTERN_H

#include "common.h"

/*
 * struct hm_name - one interned name.
 * @str: the bytes, NUL-terminated (encoded TOMOYO words never hold NUL).
 * @len: strlen(str).
 * @hash: hm_hash_bytes(str, len).
 * @const_len: length of the literal prefix before the first wildcard;
 *	equals @len when !is_patterned.
 * @is_dir: ends with '/'.
 * @is_patterned: holds a wildcard (\* \@ \? \$ \+ \x \X \a \A \- \{ \}).
 */
struct hm_name {
	const char *str;
	uint32_t len;
	uint32_t hash;
	uint32_t const_len;
	bool is_dir;
	bool is_patterned;
};

struct hm_names;

/**
 * hm_names_new() - create an empty table.
 * @mem: memory counters to charge (HM_MEM_NAMES); may be NULL.
 * Returns: the table or NULL on ENOMEM; caller frees with hm_names_free().
 */
struct hm_names *hm_names_new(struct hm_mem *mem);
void hm_names_free(struct hm_names *t);

/**
 * hm_name_intern() - find or add @len bytes at @s.
 * @t: table.
 * @s: bytes (need not be NUL-terminated; must not contain NUL).
 * @len: their length.
 * @out: the interned name, borrowed until hm_names_free(@t).
 * Returns: 0, -EINVAL if @s holds a NUL byte, or -ENOMEM.
 */
int hm_name_intern(struct hm_names *t, const char *s, size_t len,
		   const struct hm_name **out);

/** hm_name_intern_str() - hm_name_intern() of a C string. */
int hm_name_intern_str(struct hm_names *t, const char *s,
		       const struct hm_name **out);

/**
 * hm_name_lookup() - find @s without adding it.
 * Returns: the interned name, or NULL if it is not in @t.
 */
const struct hm_name *hm_name_lookup(const struct hm_names *t, const char *s,
				     size_t len);

/** hm_names_count() - number of distinct names held. */
size_t hm_names_count(const struct hm_names *t);

/**
 * hm_name_fill() - compute hash/flags of a name that is not interned
 * (a stack-built name for a one-off match).  @n->str and @n->len must be set.
 */
void hm_name_fill(struct hm_name *n);

/** hm_name_cmp() - strcmp() order on two names, for sorted output. */
int hm_name_cmp(const struct hm_name *a, const struct hm_name *b);

#endif /* HISTMAC_INTERN_H */
