// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcache.c - the enforcer's decision cache: which (domain, object) pairs
 * were allowed since the policy last changed.  Fixed size, two-way set
 * associative, counted; a flush is one generation bump, so a reload or a
 * learned entry never walks the table.  Owns its slots; knows nothing of
 * the model (keys hold the tracker's interned domain name pointer).
 */
#include <stdlib.h>
#include <string.h>

#include "histmac/enforce.h"

struct slot {
	struct hm_dcache_key k;
	uint64_t gen;		/* valid when == cache gen */
};

struct hm_dcache {
	struct slot *slots;
	uint8_t *mru;		/* per set: which way was used last */
	size_t n_sets;		/* power of two */
	uint64_t gen;
	struct hm_dcache_stats st;
};

struct hm_dcache *hm_dcache_new(size_t slots)
{
	struct hm_dcache *c = calloc(1, sizeof(*c));
	size_t n = 64;

	if (!c)
		return NULL;
	while (n < slots && n < ((size_t)1 << 30))
		n <<= 1;
	c->n_sets = n / 2;
	c->slots = calloc(n, sizeof(*c->slots));
	c->mru = calloc(c->n_sets, 1);
	if (!c->slots || !c->mru) {
		hm_dcache_free(c);
		return NULL;
	}
	c->gen = 1;
	c->st.slots = n;
	return c;
}

void hm_dcache_free(struct hm_dcache *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c->mru);
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

bool hm_dcache_lookup(struct hm_dcache *c, const struct hm_dcache_key *k)
{
	size_t s = set_of(c, k);
	struct slot *w = &c->slots[2 * s];

	c->st.lookups++;
	for (int i = 0; i < 2; i++)
		if (w[i].gen == c->gen && same(&w[i].k, k)) {
			c->mru[s] = (uint8_t)i;
			c->st.hits++;
			return true;
		}
	c->st.misses++;
	return false;
}

void hm_dcache_insert(struct hm_dcache *c, const struct hm_dcache_key *k)
{
	size_t s = set_of(c, k);
	struct slot *w = &c->slots[2 * s];
	int i;

	/* Same object, older version: replace it in place. */
	for (i = 0; i < 2; i++)
		if (w[i].gen == c->gen && w[i].k.domain == k->domain &&
		    w[i].k.ino == k->ino && w[i].k.dev == k->dev &&
		    w[i].k.exec == k->exec)
			break;
	if (i == 2) {
		if (w[0].gen != c->gen)
			i = 0;
		else if (w[1].gen != c->gen)
			i = 1;
		else {
			i = !c->mru[s];	/* the least recently used way */
			c->st.evictions++;
		}
	}
	w[i].k = *k;
	w[i].gen = c->gen;
	c->mru[s] = (uint8_t)i;
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
