// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * socktab.c - the type of each socket, by (node, pid, fd), learned from socket()
 * and accept() events so that a later bind/connect/listen/sendto on the
 * same descriptor knows whether it is a stream, dgram or raw socket; also
 * the address of bind(), which listen() does not carry.  close() is not
 * audited, so entries are never removed: the table has a fixed size and a
 * new entry evicts the oldest one in its probe window.  Owned by the
 * assembler; nothing else reads it.  The node (node= of a fleet's log,
 * where hosts share pids) is kept as a 64-bit hash: two hosts' sockets
 * mix only if their names collide and pid and fd are the same.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PROBE 8

struct slot {
	uint64_t node;			/* node_key() */
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

/* FNV-1a, 64 bits; 0 for a log without node= */
uint64_t hm_node_key(struct hm_bytes node)
{
	uint64_t h = 0xcbf29ce484222325ull;

	if (!node.s || !node.len)
		return 0;
	for (size_t i = 0; i < node.len; i++)
		h = (h ^ (uint8_t)node.s[i]) * 0x100000001b3ull;
	return h | 1;
}

static size_t hash(uint64_t node, int64_t pid, int fd)
{
	uint64_t k = (uint64_t)pid * 0x9E3779B97F4A7C15ull ^ (uint64_t)fd ^ node;

	k ^= k >> 29;
	k *= 0xBF58476D1CE4E5B9ull;
	return (size_t)(k ^ (k >> 32));
}

static bool same(const struct slot *s, uint64_t node, int64_t pid, int fd)
{
	return s->used && s->node == node && s->pid == pid && s->fd == fd;
}

struct hm_sock_info *hm_socktab_get(struct hm_socktab *t, struct hm_bytes node,
				    int64_t pid, int fd,
				    struct hm_collector_stats *st)
{
	uint64_t nk = hm_node_key(node);
	size_t h = hash(nk, pid, fd);

	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) & t->mask];

		if (same(s, nk, pid, fd)) {
			st->sock_hits++;
			return &s->info;
		}
	}
	st->sock_misses++;
	return NULL;
}

struct hm_sock_info *hm_socktab_put(struct hm_socktab *t, struct hm_bytes node,
				    int64_t pid, int fd,
				    struct hm_collector_stats *st)
{
	uint64_t nk = hm_node_key(node);
	size_t h = hash(nk, pid, fd);
	struct slot *victim = NULL;

	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) & t->mask];

		if (same(s, nk, pid, fd)) {
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
	if (victim->used && !same(victim, nk, pid, fd))
		st->sock_evictions++;
	memset(victim, 0, sizeof(*victim));
	victim->used = true;
	victim->node = nk;
	victim->pid = pid;
	victim->fd = fd;
	victim->seq = ++t->seq;
	return &victim->info;
}
