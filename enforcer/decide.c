// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decide.c - the enforcer's decision on one fanotify permission event.
 * Owns a small index
 * built from a model it only reads (execute entries by exec.realpath,
 * "file create" entries per domain, the acl_groups every domain uses);
 * the model's own lookup index does the rest.  No I/O: enforcer/ reads
 * the kernel, this file judges, enforcer/ answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/decide.h"
#include "histmac/append.h"
#include "histmac/kernel_names.h"
#include "histmac/naming.h"
#include "histmac/word.h"
#include "histmac/map.h"
#include "histmac/profile.h"

/* ---------------------------------------------------------------- index */

/* An execute entry reachable by the literal value of its exec.realpath. */
struct real_node {
	struct real_node *next;
	const struct hm_domain *dom;
	const struct hm_name *real;	/* interned in the model */
	const struct hm_acl_head *e;
};

struct list {
	const struct hm_acl_head **v;
	size_t n;
	size_t cap;
};

struct hm_enf_index {
	const struct hm_model *m;
	struct hm_map real;		/* mix(dom, real) -> real_node chain */
	struct hm_map creates;		/* dom -> struct list of create */
	struct hm_map real_pat;		/* dom -> execute entries whose
					 * exec.realpath is a pattern */
	uint8_t global[32];		/* acl_groups every domain uses */
	bool any_global;
	bool task_conds;		/* some condition tests task values */
};

static uint64_t mix(const void *a, const void *b)
{
	uint64_t x = (uint64_t)(uintptr_t)a * 0x9e3779b97f4a7c15ull;

	x ^= (uint64_t)(uintptr_t)b + 0x632be59bd9b4e019ull + (x << 6) +
	     (x >> 2);
	return x ? x : 1;
}

static int list_push(struct hm_map *map, const void *dom,
		     const struct hm_acl_head *e)
{
	struct list *l = hm_map_get(map, hm_map_ptr_key(dom));

	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l || hm_map_put(map, hm_map_ptr_key(dom), l)) {
			free(l);
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == e)
			return 0;
	if (HM_ARRAY_GROW(&l->v, &l->cap, l->n + 1))
		return -ENOMEM;
	l->v[l->n++] = e;
	return 0;
}

static void lists_free(struct hm_map *map)
{
	for (size_t i = 0; i < map->n_slots; i++) {
		struct list *l = map->keys[i] ? map->vals[i] : NULL;

		if (l) {
			free(l->v);
			free(l);
		}
	}
	hm_map_fini(map);
}

static int add_real(struct hm_enf_index *ix, const struct hm_domain *d,
		    const struct hm_name *real, const struct hm_acl_head *e)
{
	uint64_t key = mix(d, real);
	struct real_node *head = hm_map_get(&ix->real, key);
	struct real_node *n;

	for (n = head; n; n = n->next)
		if (n->dom == d && n->real == real && n->e == e)
			return 0;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	*n = (struct real_node){ .next = head, .dom = d, .real = real, .e = e };
	if (hm_map_put(&ix->real, key, n)) {
		free(n);
		return -ENOMEM;
	}
	return 0;
}

static bool has_task_item(const struct hm_cond *c)
{
	for (uint32_t i = 0; c && i < c->n_items; i++)
		if (hm_cond_item_reads_task(&c->items[i]))
			return true;
	return false;
}

int hm_enf_index_add(struct hm_enf_index *ix, const struct hm_domain *d,
		     const struct hm_acl_head *e)
{
	int r = 0;

	if (has_task_item(e->cond))
		ix->task_conds = true;

	if (e->kind == HM_ACL_PATH_NUMBER && (e->perm & (1u << HM_FILE_CREATE)))
		return list_push(&ix->creates, d, e);
	if (e->kind != HM_ACL_PATH || !(e->perm & (1u << HM_FILE_EXECUTE)) ||
	    !e->cond)
		return 0;
	for (uint32_t i = 0; !r && i < e->cond->n_items; i++) {
		const struct hm_cond_item *it = &e->cond->items[i];

		if (it->var != HM_COND_EXEC_REALPATH || it->negate || !it->str)
			continue;
		if (it->str->is_patterned)
			r = list_push(&ix->real_pat, d, e);
		else
			r = add_real(ix, d, it->str, e);
	}
	return r;
}

static int index_domain(struct hm_enf_index *ix, const struct hm_domain *d)
{
	int r = 0;

	for (const struct hm_acl_head *e = d->acl; !r && e; e = e->next)
		r = hm_enf_index_add(ix, d, e);
	return r;
}

/* Groups used by every domain, when every domain that can exist is under
 * <kernel> (no reset_domain) and <kernel> itself is in the policy: a
 * domain the policy lacks inherits its nearest ancestor's groups. */
static void find_global(struct hm_enf_index *ix, const struct hm_model *m)
{
	const struct hm_name *k = hm_name_lookup(m->names, HM_KERNEL,
						 HM_KERNEL_LEN);

	memset(ix->global, 0, sizeof(ix->global));
	ix->any_global = false;
	if (!k || !hm_model_find_domain(m, k) || !m->n_domains)
		return;
	for (const struct hm_transition_rule *t = m->ex.transitions; t;
	     t = t->next)
		if (t->type == HM_TR_RESET)
			return;
	memset(ix->global, 0xff, sizeof(ix->global));
	for (size_t i = 0; i < m->n_domains; i++)
		for (size_t b = 0; b < sizeof(ix->global); b++)
			ix->global[b] &= m->domains[i]->groups[b];
	for (unsigned g = 0; g < 256; g++) {
		if (!m->ex.acl_groups[g])
			ix->global[g / 8] &= (uint8_t)~(1u << (g % 8));
		else if (ix->global[g / 8] & (1u << (g % 8)))
			ix->any_global = true;
	}
}

int hm_enf_index_new(const struct hm_model *m, struct hm_enf_index **out)
{
	struct hm_enf_index *ix = calloc(1, sizeof(*ix));
	int r = 0;

	if (!ix)
		return -ENOMEM;
	ix->m = m;
	hm_map_init(&ix->real, NULL, HM_MEM_INDEX);
	hm_map_init(&ix->creates, NULL, HM_MEM_INDEX);
	hm_map_init(&ix->real_pat, NULL, HM_MEM_INDEX);
	for (size_t i = 0; !r && i < m->n_domains; i++)
		r = index_domain(ix, m->domains[i]);
	for (unsigned g = 0; !r && g < 256; g++)
		if (m->ex.acl_groups[g])
			r = index_domain(ix, m->ex.acl_groups[g]);
	if (r) {
		hm_enf_index_free(ix);
		return r;
	}
	find_global(ix, m);
	*out = ix;
	return 0;
}

void hm_enf_index_free(struct hm_enf_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->real.n_slots; i++) {
		struct real_node *n = ix->real.keys[i] ? ix->real.vals[i] : NULL;

		while (n) {
			struct real_node *next = n->next;

			free(n);
			n = next;
		}
	}
	hm_map_fini(&ix->real);
	lists_free(&ix->creates);
	lists_free(&ix->real_pat);
	free(ix);
}

bool hm_enf_index_global(const struct hm_enf_index *ix)
{
	return ix->any_global;
}

bool hm_enf_index_needs_task(const struct hm_enf_index *ix)
{
	return ix->task_conds;
}

/* ------------------------------------------------------------- decision */

/* The containers whose entries apply: the domain, then its acl_groups. */
struct containers {
	const struct hm_domain *v[257];
	size_t n;
};

static void containers_of(const struct hm_model *m, const struct hm_domain *d,
			  const uint8_t groups[32], struct containers *c)
{
	c->n = 0;
	if (d)
		c->v[c->n++] = d;
	for (unsigned g = 0; g < 256; g++)
		if ((groups[g / 8] & (1u << (g % 8))) && m->ex.acl_groups[g])
			c->v[c->n++] = m->ex.acl_groups[g];
}

static const struct hm_acl_head *
create_match(const struct hm_enf_index *ix, const struct containers *c,
	     const struct hm_name *path, const struct hm_cond_ctx *task)
{
	struct hm_cond_ctx ctx = { 0 };

	/* TOMOYO checks a create before the file exists: no path1.* (the
	 * empty file the open found may be someone else's) */
	if (task)
		ctx = *task;
	ctx.has_path1 = false;
	for (size_t i = 0; i < c->n; i++) {
		const struct list *l = hm_map_get(&ix->creates,
						  hm_map_ptr_key(c->v[i]));

		for (size_t j = 0; l && j < l->n; j++) {
			const struct hm_acl_path_number *x = hm_container_of(
				l->v[j], struct hm_acl_path_number, head);

			if (hm_name_op_matches(&x->name, path) &&
			    hm_cond_holds(l->v[j]->cond, &ctx))
				return l->v[j];
		}
	}
	return NULL;
}

/* An execute entry whose exec.realpath is @path: literal ones through
 * the index, patterned ones from a (short) list. */
static const struct hm_acl_head *
realpath_match(const struct hm_model *m, const struct hm_enf_index *ix,
	       const struct containers *c, const struct hm_name *path,
	       const struct hm_cond_ctx *ctx)
{
	const struct hm_name *real = hm_name_lookup(m->names, path->str,
						    path->len);

	for (size_t i = 0; i < c->n; i++) {
		const struct list *l;

		if (real)
			for (const struct real_node *n = hm_map_get(
				     &ix->real, mix(c->v[i], real));
			     n; n = n->next)
				if (n->dom == c->v[i] && n->real == real &&
				    hm_cond_holds(n->e->cond, ctx))
					return n->e;
		l = hm_map_get(&ix->real_pat, hm_map_ptr_key(c->v[i]));
		for (size_t j = 0; l && j < l->n; j++)
			if (hm_cond_holds(l->v[j]->cond, ctx))
				return l->v[j];
	}
	return NULL;
}

static void decide_exec(const struct hm_model *m,
			const struct hm_enf_index *ix,
			const struct hm_domain *acl_dom,
			const struct containers *c,
			const struct hm_enf_query *q,
			struct hm_enf_answer *out)
{
	struct hm_cond_ctx ctx = { 0 };
	struct hm_request req = { .kind = HM_ACL_PATH,
				  .op = HM_FILE_EXECUTE, .name1 = q->path,
				  .ctx = &ctx };
	const struct hm_acl_head *e;
	const struct hm_name *lit;

	if (q->ctx)
		ctx = *q->ctx;
	ctx.exec_realpath = q->path;
	out->allowed = hm_domain_allows(m, acl_dom, &req, &out->match);
	lit = hm_acl_literal_name(out->match);
	if (out->allowed && lit && lit->len == q->path->len &&
	    !memcmp(lit->str, q->path->str, lit->len)) {
		out->program = lit;
		return;
	}
	/* Called by another name (a symlink): the learned entry names it. */
	e = realpath_match(m, ix, c, q->path, &ctx);
	if (e) {
		out->allowed = true;
		out->match = e;
		lit = hm_acl_literal_name(e);
		out->program = lit ? lit : q->path;
		return;
	}
	out->program = q->path;
}

uint32_t hm_enf_open_ops(uint64_t flags, bool empty)
{
	uint64_t acc = flags & O_ACCMODE;
	uint32_t ops = 0;

	if (acc != O_WRONLY)
		ops |= 1u << HM_FILE_READ;
	if (acc != O_RDONLY)
		ops |= 1u << ((flags & O_APPEND) ? HM_FILE_APPEND :
						   HM_FILE_WRITE);
	/* the kernel truncates a regular file even on O_RDONLY|O_TRUNC */
	if ((flags & O_TRUNC) && !empty)
		ops |= 1u << HM_FILE_TRUNCATE;
	if ((flags & O_CREAT) && empty)
		ops |= HM_ENF_OPEN_CREAT;
	return ops;
}

bool hm_enf_open_allows(uint32_t granted, uint32_t ask)
{
	if ((ask & HM_ENF_OPEN_CREAT) && (granted & HM_ENF_OPEN_CREAT))
		return true;
	ask &= HM_ENF_OPEN_OPS;
	return ask && !(ask & ~granted);
}

uint32_t hm_enf_append_ask(uint32_t ask, bool append_only)
{
	if (!(ask & 1u << HM_FILE_APPEND))
		return ask;
	return (ask & ~(1u << HM_FILE_APPEND)) |
	       1u << hm_append_asks(append_only);
}

/* The operations an open is judged by, in struct hm_enf_answer's by_op
 * order. */
static const unsigned open_ops[] = { HM_FILE_READ, HM_FILE_WRITE,
				     HM_FILE_APPEND, HM_FILE_TRUNCATE };

/*
 * What @d grants on the query's path, one operation at a time (an open
 * for reading and writing may be granted by two entries); @by_op[i]: the
 * entry that grants ops[i].  *@cond: some entry that granted one has a
 * condition.
 */
static uint32_t granted_ops(const struct hm_model *m,
			    const struct hm_domain *d,
			    const struct hm_enf_query *q,
			    const struct hm_acl_head **by_op, bool *cond)
{
	struct hm_request req = { .kind = HM_ACL_PATH, .name1 = q->path,
				  .ctx = q->ctx };
	uint32_t granted = 0;

	*cond = false;
	for (size_t i = 0; i < HM_ARRAY_SIZE(open_ops); i++) {
		const struct hm_acl_head *e;

		by_op[i] = NULL;
		req.op = open_ops[i];
		if (!hm_domain_allows(m, d, &req, &e))
			continue;
		granted |= 1u << open_ops[i];
		*cond |= e->cond != NULL;
		by_op[i] = e;
	}
	return granted;
}

/* The first entry that grants something, and whether it grants all of
 * it alone (struct hm_enf_answer's match and only). */
static void first_and_only(struct hm_enf_answer *out)
{
	out->match = NULL;
	out->only = NULL;
	for (size_t i = 0; i < HM_ARRAY_SIZE(out->by_op); i++) {
		if (!out->by_op[i])
			continue;
		if (!out->match) {
			out->match = out->only = out->by_op[i];
		} else if (out->by_op[i] != out->match) {
			out->only = NULL;
			return;
		}
	}
}

static void decide_open(const struct hm_model *m,
			const struct hm_enf_index *ix,
			const struct hm_domain *acl_dom,
			const struct containers *c,
			const struct hm_enf_query *q,
			struct hm_enf_answer *out)
{
	const struct hm_acl_head *create;
	bool cond;

	out->granted = granted_ops(m, acl_dom, q, out->by_op, &cond);
	create = create_match(ix, c, q->path, q->ctx);
	if (create) {
		out->granted |= HM_ENF_OPEN_CREAT;
		cond |= create->cond != NULL;
		out->by_op[4] = create;
	}
	first_and_only(out);
	if (q->ask) {
		out->allowed = hm_enf_open_allows(out->granted, q->ask);
	} else {
		/* no mode can be refused: no need to read it */
		out->allowed = (out->granted & HM_ENF_OPEN_OPS) ==
			       HM_ENF_OPEN_OPS;
		out->need_mode = !out->allowed && out->granted;
	}
	out->cacheable = !cond;
	if ((out->granted & HM_ENF_OPEN_OPS) == HM_ENF_OPEN_OPS &&
	    ix->any_global) {
		struct hm_domain global = { .group_no = -1 };
		const struct hm_acl_head *g[4];

		memcpy(global.groups, ix->global, sizeof(global.groups));
		/* an ignore mark lets every process open the file in every
		 * mode: only when every operation is granted by entries with
		 * no condition (task.uid=0 holds for root, not the rest) */
		out->global = granted_ops(m, &global, q, g, &cond) ==
				      HM_ENF_OPEN_OPS && !cond;
	}
}

void hm_enf_count_use(const struct hm_enf_answer *a, bool exec, uint32_t ask,
		      int64_t sec)
{
	if (exec || a->only) {
		if (a->match)
			hm_acl_hist_use(a->match, sec);
		return;
	}
	/* an empty file opened with O_CREAT is the create entry's */
	if ((ask & HM_ENF_OPEN_CREAT) && a->by_op[4]) {
		hm_acl_hist_use(a->by_op[4], sec);
		return;
	}
	for (size_t i = 0; i < HM_ARRAY_SIZE(open_ops); i++) {
		const struct hm_acl_head *e = a->by_op[i];
		bool seen = false;

		for (size_t j = 0; e && j < i; j++)
			seen |= a->by_op[j] == e && (ask & 1u << open_ops[j]);
		if (e && !seen && (ask & 1u << open_ops[i]))
			hm_acl_hist_use(e, sec);
	}
}

void hm_enf_decide(const struct hm_model *m, const struct hm_enf_index *ix,
		   const struct hm_enf_query *q, struct hm_enf_answer *out)
{
	const struct hm_domain *d = q->domain;
	const struct hm_domain *near = d ? d : hm_domain_nearest(m,
							      q->domain_name);
	struct hm_domain fake = { .group_no = -1 };
	const struct hm_domain *acl_dom = d;
	struct containers c;

	memset(out, 0, sizeof(*out));
	out->profile = near ? near->profile : m->default_profile;
	if (!d) {
		/* No ACL of its own; the groups TOMOYO would have given it. */
		if (near)
			memcpy(fake.groups, near->groups, sizeof(fake.groups));
		acl_dom = &fake;
	}
	containers_of(m, d, acl_dom->groups, &c);
	if (q->exec) {
		decide_exec(m, ix, acl_dom, &c, q, out);
		out->only = out->match;
		out->cacheable = !out->match || !out->match->cond;
	} else {
		decide_open(m, ix, acl_dom, &c, q, out);
	}
	/* an open's entry may be cached with what it grants, even when the
	 * mode is yet to be read */
	out->cacheable &= out->allowed || out->need_mode;
}
