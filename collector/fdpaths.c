// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fdpaths.c - the file each writable descriptor was opened on, by (node,
 * pid, fd), from the trail's successful opens, so that ftruncate(fd),
 * which audit records without a PATH, is named (TOMOYO checks it as
 * "file truncate PATH").  close() is not audited: a new open of the same
 * descriptor replaces the entry, a full probe window drops its oldest.
 * Only writable opens are kept (ftruncate needs one).  Owned by the
 * assembler.
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
	char *path;
	size_t len;
};

struct hm_fdpaths {
	struct slot slots[SLOTS];
	uint64_t seq;
};

struct hm_fdpaths *hm_fdpaths_new(void)
{
	return calloc(1, sizeof(struct hm_fdpaths));
}

void hm_fdpaths_free(struct hm_fdpaths *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < SLOTS; i++)
		free(t->slots[i].path);
	free(t);
}

static size_t hash(uint64_t node, int64_t pid, int fd)
{
	uint64_t k = (uint64_t)pid * 0x9E3779B97F4A7C15ull ^ (uint64_t)fd ^
		     node;

	k ^= k >> 29;
	return (size_t)(k % SLOTS);
}

int hm_fdpaths_put(struct hm_fdpaths *t, struct hm_bytes node, int64_t pid,
		   int fd, const char *path, size_t len)
{
	uint64_t nk = hm_node_key(node);
	size_t h = hash(nk, pid, fd);
	struct slot *victim = NULL;
	char *copy = strndup(path, len);

	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) % SLOTS];

		if (s->pid == pid && s->fd == fd && s->node == nk) {
			victim = s;
			break;
		}
		if (!victim || (victim->pid && (!s->pid || s->seq < victim->seq)))
			victim = s;
	}
	free(victim->path);
	*victim = (struct slot){ .node = nk, .pid = pid, .fd = fd,
				 .seq = ++t->seq, .path = copy, .len = len };
	return 0;
}

bool hm_fdpaths_get(struct hm_fdpaths *t, struct hm_bytes node, int64_t pid,
		    int fd, struct hm_bytes *path)
{
	uint64_t nk = hm_node_key(node);
	size_t h = hash(nk, pid, fd);

	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) % SLOTS];

		if (s->pid == pid && s->fd == fd && s->node == nk) {
			path->s = s->path;
			path->len = s->len;
			return true;
		}
	}
	return false;
}
