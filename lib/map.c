// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * map.c - open addressing with linear probing and backward-shift deletion,
 * so lookups never walk tombstones.  Owns only its two arrays.
 */
#include <errno.h>

#include "histmac/map.h"

static inline size_t slot_of(uint64_t key, size_t n_slots)
{
	/* Fibonacci hashing spreads pointer keys (low bits are zero). */
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (n_slots - 1);
}

void hm_map_init(struct hm_map *map, struct hm_mem *mem, enum hm_mem_cat cat)
{
	*map = (struct hm_map){ .mem = mem, .cat = cat };
}

void hm_map_fini(struct hm_map *map)
{
	hm_mem_free(map->mem, map->cat, map->keys,
		    map->n_slots * sizeof(*map->keys));
	hm_mem_free(map->mem, map->cat, map->vals,
		    map->n_slots * sizeof(*map->vals));
	map->keys = NULL;
	map->vals = NULL;
	map->n_slots = map->count = 0;
}

static size_t probe(const struct hm_map *map, uint64_t key)
{
	size_t i = slot_of(key, map->n_slots);

	while (map->keys[i] && map->keys[i] != key)
		i = (i + 1) & (map->n_slots - 1);
	return i;
}

void *hm_map_get(const struct hm_map *map, uint64_t key)
{
	size_t i;

	if (!map->n_slots)
		return NULL;
	i = probe(map, key);
	return map->keys[i] ? map->vals[i] : NULL;
}

static int resize(struct hm_map *map, size_t n_slots)
{
	struct hm_map n = { .mem = map->mem, .cat = map->cat };

	n.keys = hm_mem_alloc(map->mem, map->cat, n_slots * sizeof(*n.keys));
	n.vals = hm_mem_alloc(map->mem, map->cat, n_slots * sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		hm_mem_free(map->mem, map->cat, n.keys,
			    n_slots * sizeof(*n.keys));
		hm_mem_free(map->mem, map->cat, n.vals,
			    n_slots * sizeof(*n.vals));
		return -ENOMEM;
	}
	n.n_slots = n_slots;
	for (size_t i = 0; i < map->n_slots; i++) {
		size_t j;

		if (!map->keys[i])
			continue;
		j = probe(&n, map->keys[i]);
		n.keys[j] = map->keys[i];
		n.vals[j] = map->vals[i];
		n.count++;
	}
	hm_map_fini(map);
	*map = n;
	return 0;
}

int hm_map_put(struct hm_map *map, uint64_t key, void *val)
{
	size_t i;

	if (map->n_slots) {
		i = probe(map, key);
		if (map->keys[i]) {	/* replacing never allocates */
			map->vals[i] = val;
			return 0;
		}
	}
	if ((map->count + 1) * 4 > map->n_slots * 3) {
		int r = resize(map, map->n_slots ? map->n_slots * 2 : 8);

		if (r)
			return r;
	}
	i = probe(map, key);
	if (!map->keys[i]) {
		map->keys[i] = key;
		map->count++;
	}
	map->vals[i] = val;
	return 0;
}

void hm_map_del(struct hm_map *map, uint64_t key)
{
	size_t i;
	size_t j;

	if (!map->n_slots)
		return;
	i = probe(map, key);
	if (!map->keys[i])
		return;
	map->keys[i] = 0;
	map->vals[i] = NULL;
	map->count--;
	/* Shift back later members of the cluster that may sit past the hole. */
	j = i;
	for (;;) {
		size_t home;

		j = (j + 1) & (map->n_slots - 1);
		if (!map->keys[j])
			return;
		home = slot_of(map->keys[j], map->n_slots);
		/* Move j to the hole unless its home lies cyclically in (i, j]. */
		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			map->keys[i] = map->keys[j];
			map->vals[i] = map->vals[j];
			map->keys[j] = 0;
			map->vals[j] = NULL;
			i = j;
		}
	}
}
