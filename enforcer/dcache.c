// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcache.c - the enforcer's decision cache: which (domain, object) pairs
 * were allowed since the policy last changed, and with which operations
 * (a hit still checks how the file is opened).  Fixed size, four-way set
 * associative (the oldest entry of a set goes), counted; a flush is one generation bump, so a reload or a
 * learned entry never walks the table; entries expire after a time to
 * live.  Owns its slots; knows nothing of
 * the model (keys hold the tracker's interned domain name pointer).
 */
#include <stdlib.h>
#include <string.h>

#include "histmac/decide.h"

#define WAYS 4

struct slot {
	struct hm_dcache_key k;
	uint64_t gen;		/* valid when == cache gen */
	uint64_t when_ns;	/* inserted */
	uint32_t granted;	/* what the policy grants on the object */
	const void *use;	/* the entry that grants it (--record-use) */
};

struct hm_dcache {
	struct slot *slots;
	size_t n_sets;		/* power of two */
	uint64_t gen;
	uint64_t ttl_ns;	/* 0: none */
	struct hm_dcache_stats st;
};

struct hm_dcache *hm_dcache_new(size_t slots, uint64_t ttl_ns)
{
	struct hm_dcache *c = calloc(1, sizeof(*c));
	size_t n = 64;

	if (!c)
		return NULL;
	while (n < slots && n < ((size_t)1 << 30))
		n <<= 1;
	c->n_sets = n / WAYS;
	c->slots = calloc(n, sizeof(*c->slots));
	if (!c->slots) {
		hm_dcache_free(c);
		return NULL;
	}
	c->gen = 1;
	c->ttl_ns = ttl_ns;
	c->st.slots = n;
	return c;
}

void hm_dcache_free(struct hm_dcache *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c);
}

static uint64_t fold(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ull;
	return h ^ (h >> 29);
}

static size_t set_of(const struct hm_dcache *c, const struct hm_dcache_key *k)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = fold(h, (uint64_t)(uintptr_t)k->domain);
	h = fold(h, k->ino);
	h = fold(h, k->dev);
	h = fold(h, k->mnt_id);
	h = fold(h, k->exec);
	return (size_t)(h * 0x9e3779b97f4a7c15ull >> 32) & (c->n_sets - 1);
}

static bool same(const struct hm_dcache_key *a, const struct hm_dcache_key *b)
{
	return a->domain == b->domain && a->ino == b->ino && a->dev == b->dev &&
	       a->mnt_id == b->mnt_id && a->ctime_sec == b->ctime_sec &&
	       a->ctime_nsec == b->ctime_nsec && a->mtime_sec == b->mtime_sec &&
	       a->mtime_nsec == b->mtime_nsec && a->exec == b->exec;
}

bool hm_dcache_lookup(struct hm_dcache *c, const struct hm_dcache_key *k,
		      uint64_t now_ns, uint32_t *granted)
{
	const void *use;

	return hm_dcache_lookup_use(c, k, now_ns, granted, &use);
}

bool hm_dcache_lookup_use(struct hm_dcache *c, const struct hm_dcache_key *k,
			  uint64_t now_ns, uint32_t *granted,
			  const void **use)
{
	struct slot *w = &c->slots[WAYS * set_of(c, k)];

	c->st.lookups++;
	for (int i = 0; i < WAYS; i++) {
		if (w[i].gen != c->gen || !same(&w[i].k, k))
			continue;
		if (c->ttl_ns && now_ns - w[i].when_ns > c->ttl_ns) {
			w[i].gen = 0;
			c->st.expired++;
			break;
		}
		c->st.hits++;
		if (granted)
			*granted = w[i].granted;
		*use = w[i].use;
		return true;
	}
	c->st.misses++;
	return false;
}

void hm_dcache_insert(struct hm_dcache *c, const struct hm_dcache_key *k,
		      uint32_t granted, uint64_t now_ns)
{
	hm_dcache_insert_use(c, k, granted, NULL, now_ns);
}

void hm_dcache_insert_use(struct hm_dcache *c, const struct hm_dcache_key *k,
			  uint32_t granted, const void *use, uint64_t now_ns)
{
	struct slot *w = &c->slots[WAYS * set_of(c, k)];
	int i, victim = 0;

	/* Same object, older version: replace it in place. */
	for (i = 0; i < WAYS; i++)
		if (w[i].gen == c->gen && w[i].k.domain == k->domain &&
		    w[i].k.ino == k->ino && w[i].k.dev == k->dev &&
		    w[i].k.exec == k->exec)
			break;
	if (i == WAYS) {
		for (i = 0; i < WAYS; i++) {
			if (w[i].gen != c->gen)
				break;
			if (w[i].when_ns < w[victim].when_ns)
				victim = i;
		}
		if (i == WAYS) {
			i = victim;	/* the oldest */
			c->st.evictions++;
		}
	}
	w[i].k = *k;
	w[i].gen = c->gen;
	w[i].when_ns = now_ns;
	w[i].granted = granted;
	w[i].use = use;
	c->st.inserts++;
}

void hm_dcache_invalidate(struct hm_dcache *c)
{
	c->gen++;
	c->st.invalidations++;
}

void hm_dcache_stats(const struct hm_dcache *c, struct hm_dcache_stats *out)
{
	*out = c->st;
}
