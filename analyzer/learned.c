// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * learned.c - the per-node "learned up to" marks of a model.  Owns the
 * mark list of the model it is handed; the learner notes each event, the
 * policy reader and merge set marks, the writer saves hm_learned_mark().
 * A handful of nodes at most in practice, so a list serves.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/learned.h"
#include "histmac/model.h"

int hm_stamp_cmp(const struct hm_stamp *a, const struct hm_stamp *b)
{
	if (a->sec != b->sec)
		return a->sec < b->sec ? -1 : 1;
	if (a->msec != b->msec)
		return a->msec < b->msec ? -1 : 1;
	if (a->serial != b->serial)
		return a->serial < b->serial ? -1 : 1;
	return 0;
}

static struct hm_learned *find(const struct hm_model *m,
			       const struct hm_name *node)
{
	for (struct hm_learned *l = m->learned; l; l = l->next)
		if (l->node == node)
			return l;
	return NULL;
}

/*
 * A node name a policy can keep: one printable word of at most 255 bytes
 * (a host name).  Other nodes get no mark: their counters count again on
 * a re-learn, which is all a mark is for.
 */
static bool keepable(const char *s, size_t len)
{
	if (!len || len > 255)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return len != 1 || s[0] != '-';
}

/* The node of @ev as interned in @m; NULL for none.  1 found, 0 not
 * keepable, -ENOMEM. */
static int event_node(struct hm_model *m, const struct hm_event *ev,
		      const struct hm_name **out)
{
	*out = NULL;
	if (!ev->node.s || !ev->node.len)
		return 1;
	if (!keepable(ev->node.s, ev->node.len))
		return 0;
	return hm_model_intern(m, ev->node.s, ev->node.len, out) < 0 ?
	       -ENOMEM : 1;
}

static int get(struct hm_model *m, const struct hm_name *node,
	       struct hm_learned **out)
{
	struct hm_learned *l = find(m, node);

	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l)
			return -ENOMEM;
		l->node = node;
		l->next = m->learned;
		m->learned = l;
	}
	*out = l;
	return 0;
}

static struct hm_stamp stamp_of(const struct hm_event *ev)
{
	return (struct hm_stamp){ ev->sec, ev->msec, ev->serial };
}

bool hm_learned_counted(const struct hm_model *m, const struct hm_event *ev)
{
	struct hm_stamp at = stamp_of(ev);

	for (const struct hm_learned *l = m->learned; l; l = l->next) {
		bool same = l->node ? ev->node.len == l->node->len &&
				      !memcmp(ev->node.s, l->node->str,
					      l->node->len) :
				      !ev->node.len;

		if (same)
			return hm_stamp_cmp(&at, &l->base) <= 0;
	}
	return false;
}

int hm_learned_note(struct hm_model *m, const struct hm_event *ev)
{
	struct hm_stamp at = stamp_of(ev);
	const struct hm_name *node;
	struct hm_learned *l;
	int r = event_node(m, ev, &node);

	if (r <= 0)
		return r;
	r = get(m, node, &l);
	if (!r && hm_stamp_cmp(&at, &l->top) > 0)
		l->top = at;
	return r;
}

int hm_learned_set(struct hm_model *m, const char *node, size_t len,
		   const struct hm_stamp *at)
{
	const struct hm_name *name = NULL;
	struct hm_learned *l;
	int r = 0;

	if (node && len && !keepable(node, len))
		return 0;
	if (node && len)
		r = hm_model_intern(m, node, len, &name);

	if (!r)
		r = get(m, name, &l);
	if (!r && hm_stamp_cmp(at, &l->base) > 0)
		l->base = *at;
	return r;
}

const struct hm_stamp *hm_learned_mark(const struct hm_learned *l)
{
	return hm_stamp_cmp(&l->top, &l->base) > 0 ? &l->top : &l->base;
}

void hm_learned_free(struct hm_model *m)
{
	while (m->learned) {
		struct hm_learned *n = m->learned->next;

		free(m->learned);
		m->learned = n;
	}
}
