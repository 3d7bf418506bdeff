// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arena.c - the collector's per-batch memory.  Every string and array an
 * event points to is bump-allocated here; the collector resets the arena
 * when the events of one batch have all been handed out.  Chunks are kept
 * over a reset up to a retained budget, so a steady stream allocates
 * nothing, and one huge event does not pin its memory for ever.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK_SIZE	(64u << 10)
#define RETAIN_MAX	(4u << 20)

struct hm_arena_chunk {
	struct hm_arena_chunk *next;
	size_t size;
	size_t used;
	max_align_t data[];
};

static struct hm_arena_chunk *chunk_new(size_t need)
{
	size_t size = need > CHUNK_SIZE ? need : CHUNK_SIZE;
	struct hm_arena_chunk *ch = malloc(sizeof(*ch) + size);

	if (!ch)
		return NULL;
	ch->next = NULL;
	ch->size = size;
	ch->used = 0;
	return ch;
}

void *hm_arena_alloc(struct hm_arena *a, size_t size)
{
	struct hm_arena_chunk *ch = a->head;
	size_t al = (size + 15) & ~(size_t)15;
	void *p;

	if (al < size)
		return NULL;
	if (!ch || ch->size - ch->used < al) {
		struct hm_arena_chunk *n = NULL;

		/* a kept chunk that fits, else a new one */
		if (ch && ch->next && ch->next->size >= al) {
			n = ch->next;
			ch->next = n->next;
		} else {
			n = chunk_new(al);
			if (!n)
				return NULL;
		}
		if (ch) {
			/* move the current chunk to the full list */
			struct hm_arena_chunk *rest = ch->next;

			ch->next = a->full;
			a->full = ch;
			n->next = rest;
		}
		n->used = 0;
		a->head = n;
		ch = n;
	}
	p = (char *)ch->data + ch->used;
	ch->used += al;
	return p;
}

char *hm_arena_strndup(struct hm_arena *a, const char *s, size_t len)
{
	char *p = hm_arena_alloc(a, len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void hm_arena_reset(struct hm_arena *a)
{
	struct hm_arena_chunk *ch = a->full;
	struct hm_arena_chunk *spare;
	size_t kept = 0;

	if (!a->head)
		return;
	/* put full chunks after head as spares, within the budget */
	spare = a->head->next;
	a->head->used = 0;
	kept = a->head->size;
	for (struct hm_arena_chunk *s = spare; s; s = s->next)
		kept += s->size;
	while (ch) {
		struct hm_arena_chunk *next = ch->next;

		if (kept + ch->size <= RETAIN_MAX) {
			ch->next = spare;
			spare = ch;
			kept += ch->size;
		} else {
			free(ch);
		}
		ch = next;
	}
	a->full = NULL;
	a->head->next = spare;
	a->retained = kept;
}

void hm_arena_free(struct hm_arena *a)
{
	struct hm_arena_chunk *lists[2] = { a->head, a->full };

	for (int i = 0; i < 2; i++) {
		struct hm_arena_chunk *ch = lists[i];

		while (ch) {
			struct hm_arena_chunk *next = ch->next;

			free(ch);
			ch = next;
		}
	}
	memset(a, 0, sizeof(*a));
}
