// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * socktab.c - the type of each socket, by (pid, fd), learned from socket()
 * and accept() events so that a later bind/connect/listen/sendto on the
 * same descriptor knows whether it is a stream, dgram or raw socket; also
 * the address of bind(), which listen() does not carry.  close() is not
 * audited, so entries are never removed: the table has a fixed size and a
 * new entry evicts the oldest one in its probe window.  Owned by the
 * assembler; nothing else reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PROBE 8

struct slot {
	int64_t pid;
	int fd;
	bool used;
	uint64_t seq;
	struct hm_sock_info info;
};

struct hm_socktab {
	struct slot *slots;
	size_t mask;
	uint64_t seq;
};

struct hm_socktab *hm_socktab_new(size_t size)
{
	struct hm_socktab *t = calloc(1, sizeof(*t));
	size_t n = 64;

	if (!t)
		return NULL;
	while (n < size)
		n *= 2;
	t->slots = calloc(n, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	t->mask = n - 1;
	return t;
}

void hm_socktab_free(struct hm_socktab *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

static size_t hash(int64_t pid, int fd)
{
	uint64_t k = (uint64_t)pid * 0x9E3779B97F4A7C15ull ^ (uint64_t)fd;

	k ^= k >> 29;
	k *= 0xBF58476D1CE4E5B9ull;
	return (size_t)(k ^ (k >> 32));
}

struct hm_sock_info *hm_socktab_get(struct hm_socktab *t, int64_t pid, int fd,
				    struct hm_collector_stats *st)
{
	size_t h = hash(pid, fd);

	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) & t->mask];

		if (s->used && s->pid == pid && s->fd == fd) {
			st->sock_hits++;
			return &s->info;
		}
	}
	st->sock_misses++;
	return NULL;
}

struct hm_sock_info *hm_socktab_put(struct hm_socktab *t, int64_t pid, int fd,
				    struct hm_collector_stats *st)
{
	size_t h = hash(pid, fd);
	struct slot *victim = NULL;

	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) & t->mask];

		if (s->used && s->pid == pid && s->fd == fd) {
			victim = s;	/* fd reused: replace */
			break;
		}
		if (!s->used) {
			if (!victim || victim->used)
				victim = s;
			continue;
		}
		if (!victim || (victim->used && s->seq < victim->seq))
			victim = s;
	}
	if (victim->used && !(victim->pid == pid && victim->fd == fd))
		st->sock_evictions++;
	memset(victim, 0, sizeof(*victim));
	victim->used = true;
	victim->pid = pid;
	victim->fd = fd;
	victim->seq = ++t->seq;
	return &victim->info;
}
