// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roots.c - the root directory of each chrooted process, by (node, pid),
 * from the chroot() calls in the trail and inherited by fork.  A process
 * in a chroot passes names, and audit records them and its CWD, inside
 * that root; TOMOYO names them from the namespace root (a chroot is not a
 * mount), so postfix's smtpd in /var/spool/postfix reading /etc/hosts
 * reads /var/spool/postfix/etc/hosts.  Exits are not audited: a pid seen
 * again under another parent (not reparented to init) is another process
 * and its entry goes; a full table evicts the oldest entry in its probe
 * window.  A process that chrooted before the trail began is not known
 * (its names stay as passed).  Owned by the assembler.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define ROOTS_SLOTS	1024
#define PROBE		8

struct slot {
	uint64_t node;
	int64_t pid;		/* 0: free */
	int64_t ppid;
	uint64_t seq;
	char *root;		/* no trailing '/' */
	size_t len;
};

struct hm_roots {
	struct slot slots[ROOTS_SLOTS];
	uint64_t seq;
	size_t used;
};

struct hm_roots *hm_roots_new(void)
{
	return calloc(1, sizeof(struct hm_roots));
}

static void clear(struct hm_roots *t, struct slot *s)
{
	free(s->root);
	memset(s, 0, sizeof(*s));
	t->used--;
}

void hm_roots_free(struct hm_roots *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < ROOTS_SLOTS; i++)
		free(t->slots[i].root);
	free(t);
}

static size_t hash(uint64_t node, int64_t pid)
{
	uint64_t k = (uint64_t)pid * 0x9E3779B97F4A7C15ull ^ node;

	k ^= k >> 29;
	return (size_t)(k % ROOTS_SLOTS);
}

static struct slot *find(struct hm_roots *t, uint64_t node, int64_t pid)
{
	size_t h = hash(node, pid);

	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) % ROOTS_SLOTS];

		if (s->pid == pid && s->node == node)
			return s;
	}
	return NULL;
}

bool hm_roots_get(struct hm_roots *t, struct hm_bytes node, int64_t pid,
		  int64_t ppid, struct hm_bytes *root)
{
	struct slot *s;

	if (!t->used || pid <= 0)
		return false;
	s = find(t, hm_node_key(node), pid);
	if (!s)
		return false;
	if (ppid > 0 && ppid != s->ppid) {
		if (ppid != 1) {	/* another process with that pid */
			clear(t, s);
			return false;
		}
		s->ppid = ppid;		/* reparented to init */
	}
	root->s = s->root;
	root->len = s->len;
	return true;
}

void hm_roots_drop(struct hm_roots *t, struct hm_bytes node, int64_t pid)
{
	struct slot *s = t->used ? find(t, hm_node_key(node), pid) : NULL;

	if (s)
		clear(t, s);
}

int hm_roots_set(struct hm_roots *t, struct hm_bytes node, int64_t pid,
		 int64_t ppid, const char *root, size_t len)
{
	uint64_t nk = hm_node_key(node);
	size_t h = hash(nk, pid);
	struct slot *victim = NULL;
	char *copy;

	while (len > 0 && root[len - 1] == '/')
		len--;
	if (!len) {		/* back at the real root */
		hm_roots_drop(t, node, pid);
		return 0;
	}
	copy = strndup(root, len);
	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < PROBE; i++) {
		struct slot *s = &t->slots[(h + i) % ROOTS_SLOTS];

		if (s->pid == pid && s->node == nk) {
			victim = s;
			break;
		}
		if (!victim || (victim->pid && (!s->pid || s->seq < victim->seq)))
			victim = s;
	}
	if (victim->pid)
		clear(t, victim);
	victim->node = nk;
	victim->pid = pid;
	victim->ppid = ppid;
	victim->seq = ++t->seq;
	victim->root = copy;
	victim->len = len;
	t->used++;
	return 0;
}
