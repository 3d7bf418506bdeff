// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proctab.c - a string per (node, pid, slot) of the processes in the
 * trail, with a number beside it: the root of each chrooted process
 * (slot -1, the number its ppid: roots), the file each writable
 * descriptor was opened on (slot fd: ftruncate).  Exits and close() are
 * not audited: a put for the same key replaces, a full probe window
 * drops its oldest entry.  Owned by the assembler.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SLOTS	4096
#define PROBE	8

struct slot {
	uint64_t node;
	int64_t pid;		/* 0: free */
	int fd;
	uint64_t seq;
	int64_t num;
	char *s;
	size_t len;
};

struct hm_proctab {
	struct slot slots[SLOTS];
	uint64_t seq;
	size_t used;
};

struct hm_proctab *hm_proctab_new(void)
{
	return calloc(1, sizeof(struct hm_proctab));
}

void hm_proctab_free(struct hm_proctab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < SLOTS; i++)
		free(t->slots[i].s);
	free(t);
}

static size_t hash(uint64_t node, int64_t pid, int fd)
{
	uint64_t k = (uint64_t)pid * 0x9E3779B97F4A7C15ull ^ (uint64_t)fd ^
		     node;

	k ^= k >> 29;
	return (size_t)(k % SLOTS);
}

static struct slot *find(struct hm_proctab *t, uint64_t nk, int64_t pid,
			 int fd)
{
	size_t h = hash(nk, pid, fd);

	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) % SLOTS];

		if (s->pid == pid && s->fd == fd && s->node == nk)
			return s;
	}
	return NULL;
}

int hm_proctab_put(struct hm_proctab *t, struct hm_bytes node, int64_t pid,
		   int fd, int64_t num, const char *s, size_t len)
{
	uint64_t nk = hm_node_key(node);
	size_t h = hash(nk, pid, fd);
	struct slot *victim = find(t, nk, pid, fd);
	char *copy = strndup(s, len);

	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; !victim && i < PROBE; i++) {
		struct slot *v = &t->slots[(h + i) % SLOTS];

		if (!v->pid) {
			victim = v;
			break;
		}
	}
	if (!victim) {		/* the window is full: its oldest goes */
		victim = &t->slots[h % SLOTS];
		for (size_t i = 1; i < PROBE; i++) {
			struct slot *v = &t->slots[(h + i) % SLOTS];

			if (v->seq < victim->seq)
				victim = v;
		}
	}
	if (!victim->pid)
		t->used++;
	free(victim->s);
	*victim = (struct slot){ .node = nk, .pid = pid, .fd = fd,
				 .seq = ++t->seq, .num = num, .s = copy,
				 .len = len };
	return 0;
}

int64_t *hm_proctab_get(struct hm_proctab *t, struct hm_bytes node,
			int64_t pid, int fd, struct hm_bytes *s)
{
	struct slot *x = t->used && pid > 0 ?
				 find(t, hm_node_key(node), pid, fd) : NULL;

	if (!x)
		return NULL;
	s->s = x->s;
	s->len = x->len;
	return &x->num;
}

void hm_proctab_drop(struct hm_proctab *t, struct hm_bytes node, int64_t pid,
		     int fd)
{
	struct slot *x = t->used ? find(t, hm_node_key(node), pid, fd) : NULL;

	if (!x)
		return;
	free(x->s);
	memset(x, 0, sizeof(*x));
	t->used--;
}
