/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * map.h (lib) - a small open-addressing map from a 64-bit key to a
 * pointer (lib/map.c).  Used for domains by name, conditions by text, the
 * per-domain ACL index and the enforcer's decision index.  Key 0 is
 * reserved (empty slot).
 */
#ifndef HISTMAC_MAP_H
#define HISTMAC_MAP_H

#include "histmac/common.h"

struct hm_map {
	uint64_t *keys;
	void **vals;
	size_t n_slots;		/* 0 or a power of two */
	size_t count;
	struct hm_mem *mem;
	enum hm_mem_cat cat;
};

/* hm_map_init() - an empty map charging @mem/@cat; allocates lazily. */
void hm_map_init(struct hm_map *map, struct hm_mem *mem, enum hm_mem_cat cat);
void hm_map_fini(struct hm_map *map);

/* hm_map_get() - the value stored under @key, or NULL. */
void *hm_map_get(const struct hm_map *map, uint64_t key);

/* hm_map_put() - store @val under @key (replacing). Returns 0 or -ENOMEM. */
int hm_map_put(struct hm_map *map, uint64_t key, void *val);

/* hm_map_del() - remove @key if present. */
void hm_map_del(struct hm_map *map, uint64_t key);

/* hm_map_ptr_key() - the key for a pointer (never 0 for non-NULL). */
static inline uint64_t hm_map_ptr_key(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

#endif
