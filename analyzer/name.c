// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * name.c - interned names (struct hm_names).  Owns the bytes of every name
 * in a model; the model and its entries only hold pointers.  Open
 * addressing on the FNV hash; names are never removed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/intern.h"
#include "histmac/word.h"

struct hm_names {
	struct hm_mem *mem;
	struct hm_name **slots;
	size_t n_slots;		/* power of two */
	size_t count;
};

bool hm_word_is_patterned(const char *s, size_t len, uint32_t *const_len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (s[i] != '\\')
			continue;
		switch (s[i + 1]) {
		case '\\':
		case '0':
		case '1':
		case '2':
		case '3':
			i++;	/* \\ or the first digit of \ooo */
			continue;
		default:
			if (const_len)
				*const_len = (uint32_t)i;
			return true;
		}
	}
	if (const_len)
		*const_len = (uint32_t)len;
	return false;
}

void hm_name_fill(struct hm_name *n)
{
	n->hash = hm_hash_bytes(n->str, n->len);
	n->is_dir = n->len && n->str[n->len - 1] == '/';
	n->is_patterned = hm_word_is_patterned(n->str, n->len, &n->const_len);
}

struct hm_names *hm_names_new(struct hm_mem *mem)
{
	struct hm_names *t = hm_mem_alloc(mem, HM_MEM_NAMES, sizeof(*t));

	if (!t)
		return NULL;
	t->mem = mem;
	t->n_slots = 1024;
	t->slots = hm_mem_alloc(mem, HM_MEM_NAMES,
				t->n_slots * sizeof(*t->slots));
	if (!t->slots) {
		hm_mem_free(mem, HM_MEM_NAMES, t, sizeof(*t));
		return NULL;
	}
	return t;
}

static size_t name_bytes(const struct hm_name *n)
{
	return sizeof(*n) + n->len + 1;
}

void hm_names_free(struct hm_names *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_slots; i++)
		if (t->slots[i])
			hm_mem_free(t->mem, HM_MEM_NAMES, t->slots[i],
				    name_bytes(t->slots[i]));
	hm_mem_free(t->mem, HM_MEM_NAMES, t->slots,
		    t->n_slots * sizeof(*t->slots));
	hm_mem_free(t->mem, HM_MEM_NAMES, t, sizeof(*t));
}

static size_t find_slot(struct hm_name *const *slots, size_t n_slots,
			const char *s, size_t len, uint32_t hash)
{
	size_t i = hash & (n_slots - 1);

	for (;;) {
		const struct hm_name *n = slots[i];

		if (!n || (n->hash == hash && n->len == len &&
			   !memcmp(n->str, s, len)))
			return i;
		i = (i + 1) & (n_slots - 1);
	}
}

static int grow(struct hm_names *t)
{
	size_t n_slots = t->n_slots * 2;
	struct hm_name **slots = hm_mem_alloc(t->mem, HM_MEM_NAMES,
					      n_slots * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->n_slots; i++) {
		struct hm_name *n = t->slots[i];

		if (n)
			slots[find_slot(slots, n_slots, n->str, n->len,
					n->hash)] = n;
	}
	hm_mem_free(t->mem, HM_MEM_NAMES, t->slots,
		    t->n_slots * sizeof(*t->slots));
	t->slots = slots;
	t->n_slots = n_slots;
	return 0;
}

const struct hm_name *hm_name_lookup(const struct hm_names *t, const char *s,
				     size_t len)
{
	uint32_t hash = hm_hash_bytes(s, len);

	return t->slots[find_slot(t->slots, t->n_slots, s, len, hash)];
}

int hm_name_intern(struct hm_names *t, const char *s, size_t len,
		   const struct hm_name **out)
{
	uint32_t hash;
	size_t i;
	struct hm_name *n;
	char *bytes;

	if (memchr(s, '\0', len) || len > UINT32_MAX - 1)
		return -EINVAL;
	hash = hm_hash_bytes(s, len);
	i = find_slot(t->slots, t->n_slots, s, len, hash);
	if (t->slots[i]) {
		*out = t->slots[i];
		return 0;
	}
	if ((t->count + 1) * 4 > t->n_slots * 3) {
		if (grow(t))
			return -ENOMEM;
		i = find_slot(t->slots, t->n_slots, s, len, hash);
	}
	n = hm_mem_alloc(t->mem, HM_MEM_NAMES, sizeof(*n) + len + 1);
	if (!n)
		return -ENOMEM;
	bytes = (char *)(n + 1);
	memcpy(bytes, s, len);
	bytes[len] = '\0';
	n->str = bytes;
	n->len = (uint32_t)len;
	hm_name_fill(n);
	t->slots[i] = n;
	t->count++;
	*out = n;
	return 0;
}

int hm_name_intern_str(struct hm_names *t, const char *s,
		       const struct hm_name **out)
{
	return hm_name_intern(t, s, strlen(s), out);
}

size_t hm_names_count(const struct hm_names *t)
{
	return t->count;
}

int hm_name_cmp(const struct hm_name *a, const struct hm_name *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->str, b->str, n);

	if (c)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}
