// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * acl.c - ACL entries: merge on add, the per-domain lookup index, and the
 * decision whether a request is allowed.  Shared by the loader, learner,
 * checker and enforcer, so all of them agree on what an entry means.
 *
 * What an entry's operands are comes from the kind table (hm_kinds[]);
 * equality, order and matching are done per operand type.
 *
 * Index: an entry whose key operand (hm_kind.key: the path for file
 * kinds, the unix address, the env name) is a literal word sits in a map
 * keyed by that word's hash and length; a patterned one in a map keyed by
 * its literal directory prefix ("/usr/lib/" for /usr/lib/lib\*.so\*).  A
 * request probes the literal map once and the prefix map once per '/' of
 * its path.  Entries without such an operand (groups, inet, signals) are
 * kept in a short list per kind.  Nothing scans every entry.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "histmac/model.h"
#include "histmac/word.h"
#include "histmac/map.h"
#include "model_private.h"

struct hm_acl_index {
	struct hm_map literal;		/* word key -> chain */
	struct hm_map patterned;	/* dir-prefix key -> chain */
	struct hm_acl_head *other[HM_ACL_KIND_MAX];
	size_t n_patterned;
};

static const size_t kind_size[HM_ACL_KIND_MAX] = {
#define X(e, s, d) [HM_ACL_##e] = sizeof(struct s),
	HM_ACL_KINDS(X)
#undef X
};

size_t hm_acl_size(enum hm_acl_kind kind)
{
	return kind < HM_ACL_KIND_MAX ? kind_size[kind] : 0;
}

/* ------------------------------------------------------------ operands */

bool hm_number_equal(const struct hm_number *a, const struct hm_number *b)
{
	if (a->group || b->group)
		return a->group == b->group;
	return a->min == b->min && a->max == b->max;
}

bool hm_addr_equal(const struct hm_addr *a, const struct hm_addr *b)
{
	if (a->group || b->group)
		return a->group == b->group;
	return a->is_ipv6 == b->is_ipv6 && !memcmp(a->min, b->min, 16) &&
	       !memcmp(a->max, b->max, 16);
}

static bool name_op_equal(const struct hm_name_op *a,
			  const struct hm_name_op *b)
{
	return a->name == b->name && a->group == b->group;
}

static bool same_name(const struct hm_name *a, const struct hm_name *b)
{
	return a == b || (a->hash == b->hash && a->len == b->len &&
			  !memcmp(a->str, b->str, a->len));
}

/*
 * Does @name match @word (a literal word or a pattern)?  A name that is
 * itself a wildcard (an operand the audit trail did not hold, learned as
 * \*) is matched by the identical word only.
 */
bool hm_word_matches(const struct hm_name *word, const struct hm_name *name)
{
	if (same_name(word, name))
		return true;
	return word->is_patterned && !name->is_patterned &&
	       hm_path_matches(name, word);
}

bool hm_name_op_matches(const struct hm_name_op *op,
			const struct hm_name *name)
{
	if (!name)
		return false;
	if (op->name)
		return hm_word_matches(op->name, name);
	for (const struct hm_group_member *mb = op->group->members; mb;
	     mb = mb->next)
		if (hm_word_matches(mb->name, name))
			return true;
	return false;
}

static bool range_has(const struct hm_number *n, uint64_t v)
{
	return n->min <= v && v <= n->max;
}

bool hm_number_matches(const struct hm_number *n, uint64_t v)
{
	if (!n->group)
		return range_has(n, v);
	for (const struct hm_group_member *mb = n->group->members; mb;
	     mb = mb->next)
		if (range_has(&mb->number, v))
			return true;
	return false;
}

static bool addr_range_has(const struct hm_addr *a, bool is_ipv6,
			   const uint8_t addr[16])
{
	size_t len = is_ipv6 ? 16 : 4;

	return a->is_ipv6 == is_ipv6 && memcmp(a->min, addr, len) <= 0 &&
	       memcmp(addr, a->max, len) <= 0;
}

bool hm_addr_matches(const struct hm_addr *a, bool is_ipv6,
		     const uint8_t addr[16])
{
	if (!a->group)
		return addr_range_has(a, is_ipv6, addr);
	for (const struct hm_group_member *mb = a->group->members; mb;
	     mb = mb->next)
		if (addr_range_has(&mb->addr, is_ipv6, addr))
			return true;
	return false;
}

/* ----------------------------------------------------------- conditions */

/*
 * Items evaluate to one of three answers.  UNKNOWN (the context lacks
 * the value, or the evaluator cannot read that keyword at all) makes
 * the condition fail whether the item says "=" or "!=": an entry whose
 * condition cannot be evaluated grants nothing.
 */
enum tri { T_NO, T_YES, T_UNKNOWN };

static enum tri tri_of(bool b)
{
	return b ? T_YES : T_NO;
}

/* Value @v of the context into *@out; false when the context lacks it. */
static bool value_of(const struct hm_cond_ctx *ctx, enum hm_cond_value v,
		     uint64_t *out)
{
	const struct hm_cond_obj *o = &ctx->path1;
	const uint64_t task[] = {
		ctx->uid, ctx->euid, ctx->suid, ctx->fsuid, ctx->gid,
		ctx->egid, ctx->sgid, ctx->fsgid, ctx->pid, ctx->ppid,
	};

	if (v >= HM_CV_TASK_UID && v <= HM_CV_TASK_PPID) {
		*out = task[v - HM_CV_TASK_UID];
		return ctx->has_task;
	}
	switch (v) {
	case HM_CV_EXEC_ARGC:
		*out = ctx->argc;
		return ctx->argv != NULL;
	case HM_CV_EXEC_ENVC:
		*out = ctx->envc;
		return ctx->envp != NULL;
	case HM_CV_PATH1_UID: *out = o->uid; break;
	case HM_CV_PATH1_GID: *out = o->gid; break;
	case HM_CV_PATH1_INO: *out = o->ino; break;
	case HM_CV_PATH1_PERM: *out = o->mode & 07777; break;
	case HM_CV_PATH1_TYPE: *out = o->mode & S_IFMT; break;
	case HM_CV_PATH1_MAJOR: *out = o->rdev_major; break;
	case HM_CV_PATH1_MINOR: *out = o->rdev_minor; break;
	case HM_CV_PATH1_DEV_MAJOR: *out = o->dev_major; break;
	case HM_CV_PATH1_DEV_MINOR: *out = o->dev_minor; break;
	default:
		return false;
	}
	return ctx->has_path1;
}

/* What a numeric item reads on its left (items imported without @lval:
 * from @var). */
static enum hm_cond_value left_value(const struct hm_cond_item *it)
{
	if (it->lval)
		return it->lval;
	if (it->var <= HM_COND_TASK_PPID)
		return HM_CV_TASK_UID + it->var;
	return it->var == HM_COND_EXEC_ARGC ? HM_CV_EXEC_ARGC : HM_CV_NONE;
}

static enum tri number_item(const struct hm_cond_item *it,
			    const struct hm_cond_ctx *ctx)
{
	uint64_t l, r;

	if (!value_of(ctx, left_value(it), &l))
		return T_UNKNOWN;
	if (it->rval)
		return value_of(ctx, it->rval, &r) ? tri_of(l == r) :
						     T_UNKNOWN;
	if (it->rtype)
		return tri_of(l == it->rtype);
	if (it->rbits)
		return tri_of(l & it->rbits);
	return tri_of(hm_number_matches(&it->num, l));
}

/* A string item: @have NULL means not known. */
static enum tri string_item(const struct hm_cond_item *it, const char *have,
			    size_t len)
{
	struct hm_name n = { .str = have, .len = (uint32_t)len };

	if (!have || !it->str)
		return T_UNKNOWN;
	hm_name_fill(&n);
	return tri_of(hm_word_matches(it->str, &n));
}

static enum tri name_item(const struct hm_cond_item *it,
			  const struct hm_name *have)
{
	return string_item(it, have ? have->str : NULL, have ? have->len : 0);
}

/* exec.envp["KEY"]="value" or =NULL (@str NULL: KEY is not set). */
static enum tri envp_item(const struct hm_cond_item *it,
			  const struct hm_cond_ctx *ctx)
{
	const char *val = NULL;

	if (!ctx->envp || !it->key)
		return T_UNKNOWN;
	for (uint32_t i = 0; i < ctx->envc && !val; i++) {
		const char *e = ctx->envp[i];

		if (!strncmp(e, it->key->str, it->key->len) &&
		    e[it->key->len] == '=')
			val = e + it->key->len + 1;
	}
	if (!it->str)
		return tri_of(!val);
	return val ? string_item(it, val, strlen(val)) : T_NO;
}

static enum tri item_eval(const struct hm_cond_item *it,
			  const struct hm_cond_ctx *ctx)
{
	switch (it->var) {
	case HM_COND_EXEC_REALPATH:
		return name_item(it, ctx->exec_realpath);
	case HM_COND_SYMLINK_TARGET:
		return name_item(it, ctx->symlink_target);
	case HM_COND_EXEC_ARGV:
		if (!ctx->argv)
			return T_UNKNOWN;
		if (it->index >= ctx->argc)
			return T_NO;
		return string_item(it, ctx->argv[it->index],
				   strlen(ctx->argv[it->index]));
	case HM_COND_OTHER:
		break;
	default:
		return number_item(it, ctx);
	}
	switch (it->test) {
	case HM_CT_INERT:
		return T_YES;
	case HM_CT_NUM:
		return number_item(it, ctx);
	case HM_CT_ENVP:
		return envp_item(it, ctx);
	default:
		return T_UNKNOWN;
	}
}

/* Is @it a test at all (grant_log= and a transit preference are not)? */
static bool is_test(const struct hm_cond_item *it)
{
	return it->var != HM_COND_OTHER || it->test != HM_CT_INERT;
}

bool hm_cond_holds(const struct hm_cond *c, const struct hm_cond_ctx *ctx)
{
	static const struct hm_cond_ctx none;

	if (!c)
		return true;
	for (uint32_t i = 0; i < c->n_items; i++) {
		const struct hm_cond_item *it = &c->items[i];
		enum tri t;

		if (!is_test(it))
			continue;
		t = item_eval(it, ctx ? ctx : &none);
		if (t == T_UNKNOWN || (t == T_YES) == it->negate)
			return false;
	}
	return true;
}

bool hm_cond_item_reads_task(const struct hm_cond_item *it)
{
	enum hm_cond_value l = is_test(it) ? left_value(it) : HM_CV_NONE;

	return (l >= HM_CV_TASK_UID && l <= HM_CV_TASK_PPID) ||
	       (it->rval >= HM_CV_TASK_UID && it->rval <= HM_CV_TASK_PPID);
}

/* --------------------------------------------------- primary operands */

/* The operand @e is filed under in the index, or NULL. */
static const struct hm_operand *key_operand(unsigned kind)
{
	if (kind >= HM_ACL_KIND_MAX || hm_kinds[kind].key == HM_NO_KEY)
		return NULL;
	return &hm_kinds[kind].opnd[hm_kinds[kind].key];
}

/* The word an entry is indexed by, or NULL (none, or a group). */
static const struct hm_name *entry_key(const struct hm_acl_head *e)
{
	const struct hm_operand *o = key_operand(e->kind);
	const void *p;

	if (!o)
		return NULL;
	p = hm_operand_ptr(e, o);
	if (o->type == HM_OT_NAME)
		return ((const struct hm_name_op *)p)->name;
	return *(const struct hm_name *const *)p;
}

/* The literal name a request is looked up by, or NULL. */
static const struct hm_name *request_key(const struct hm_request *r)
{
	const struct hm_operand *o = key_operand(r->kind);

	return o ? *(const struct hm_name *const *)((const char *)r + o->req) :
		   NULL;
}

static uint64_t word_key(uint32_t hash, size_t len)
{
	return ((uint64_t)hash << 32) | (uint32_t)len | (1ull << 31);
}

/* Length of @p's literal prefix up to and including its last '/'. */
static size_t dir_prefix_len(const struct hm_name *p)
{
	const char *s = memrchr(p->str, '/', p->const_len);

	return s ? (size_t)(s - p->str) + 1 : 0;
}

/* ---------------------------------------------------------------- index */

static struct hm_acl_index *index_get(struct hm_model *m, struct hm_domain *d)
{
	if (!d->index) {
		d->index = hm_mem_alloc(&m->mem, HM_MEM_INDEX,
					sizeof(*d->index));
		if (!d->index)
			return NULL;
		hm_map_init(&d->index->literal, &m->mem, HM_MEM_INDEX);
		hm_map_init(&d->index->patterned, &m->mem, HM_MEM_INDEX);
	}
	return d->index;
}

void hm_acl_index_free(struct hm_model *m, struct hm_domain *d)
{
	if (!d->index)
		return;
	hm_map_fini(&d->index->literal);
	hm_map_fini(&d->index->patterned);
	hm_mem_free(&m->mem, HM_MEM_INDEX, d->index, sizeof(*d->index));
	d->index = NULL;
}

/*
 * Where @e lives in the index: *@map and *@key for a map chain, or
 * *@map NULL and the per-kind list.
 */
static void index_slot(struct hm_acl_index *ix, const struct hm_acl_head *e,
		       struct hm_map **map, uint64_t *key)
{
	const struct hm_name *w = entry_key(e);

	*map = NULL;
	*key = 0;
	if (!w)
		return;
	if (!w->is_patterned) {
		*map = &ix->literal;
		*key = word_key(w->hash, w->len);
	} else {
		size_t plen = dir_prefix_len(w);

		*map = &ix->patterned;
		*key = word_key(hm_hash_fnv(w->str, plen), plen);
	}
}

static struct hm_acl_head **chain_of(struct hm_acl_index *ix,
				     const struct hm_acl_head *e,
				     struct hm_map **map, uint64_t *key,
				     struct hm_acl_head **head_store)
{
	index_slot(ix, e, map, key);
	if (!*map)
		return &ix->other[e->kind];
	*head_store = hm_map_get(*map, *key);
	return head_store;
}

static bool cond_equal(const struct hm_acl_head *a,
		       const struct hm_acl_head *b)
{
	return a->cond == b->cond;
}

static bool operand_equal(const struct hm_operand *o, const void *x,
			  const void *y)
{
	switch (o->type) {
	case HM_OT_NAME:
		return name_op_equal(x, y);
	case HM_OT_NUMBER:
		return hm_number_equal(x, y);
	case HM_OT_ADDR:
		return hm_addr_equal(x, y);
	case HM_OT_PROTO:
		return *(const uint8_t *)x == *(const uint8_t *)y;
	default:	/* interned words: the same pointer */
		return *(const struct hm_name *const *)x ==
		       *(const struct hm_name *const *)y;
	}
}

bool hm_acl_same_operands(const struct hm_acl_head *a,
			  const struct hm_acl_head *b)
{
	if (a->kind != b->kind || !cond_equal(a, b) ||
	    a->kind >= HM_ACL_KIND_MAX)
		return false;
	hm_for_each_operand(o, a->kind)
		if (!operand_equal(o, hm_operand_ptr(a, o),
				   hm_operand_ptr(b, o)))
			return false;
	return true;
}

static struct hm_acl_head *find_same(struct hm_acl_head *chain,
				     const struct hm_acl_head *e)
{
	for (; chain; chain = chain->hnext)
		if (hm_acl_same_operands(chain, e))
			return chain;
	return NULL;
}

int hm_domain_add(struct hm_model *m, struct hm_domain *d,
		  const struct hm_acl_head *e, struct hm_acl_head **out)
{
	struct hm_acl_index *ix;
	struct hm_acl_head *head = NULL;
	struct hm_acl_head **chain;
	struct hm_acl_head *old;
	struct hm_acl_head *n;
	struct hm_map *map;
	uint64_t key;

	if (e->kind >= HM_ACL_KIND_MAX || !e->perm)
		return -EINVAL;
	ix = index_get(m, d);
	if (!ix)
		return -ENOMEM;
	chain = chain_of(ix, e, &map, &key, &head);
	old = find_same(*chain, e);
	if (old) {
		uint32_t before = old->perm;

		old->perm |= e->perm;
		if (out)
			*out = old;
		return old->perm != before;
	}
	n = hm_mem_alloc(&m->mem, HM_MEM_ACL, hm_acl_size(e->kind));
	if (!n)
		return -ENOMEM;
	memcpy(n, e, hm_acl_size(e->kind));
	n->next = NULL;
	n->hnext = *chain;
	memset(&n->hist, 0, sizeof(n->hist));
	if (map && hm_map_put(map, key, n)) {
		hm_mem_free(&m->mem, HM_MEM_ACL, n, hm_acl_size(e->kind));
		return -ENOMEM;
	}
	if (!map)
		*chain = n;
	if (map == &ix->patterned)
		ix->n_patterned++;
	*d->acl_tail = n;
	d->acl_tail = &n->next;
	d->n_acl++;
	if (out)
		*out = n;
	return 1;
}

struct hm_acl_head *hm_domain_find(const struct hm_domain *d,
				   const struct hm_acl_head *e)
{
	struct hm_acl_head *head = NULL;
	struct hm_acl_head **chain;
	struct hm_map *map;
	uint64_t key;

	if (!d->index || e->kind >= HM_ACL_KIND_MAX)
		return NULL;
	chain = chain_of(d->index, e, &map, &key, &head);
	return find_same(*chain, e);
}

/*
 * The operand a patterned entry folds literal ones by, in a copy we may
 * change: the key, when it is the kind's only path operand.
 */
static struct hm_name_op *fold_op(struct hm_acl_head *e)
{
	const struct hm_operand *key = key_operand(e->kind);
	unsigned names = 0;

	if (!key || key->type != HM_OT_NAME)
		return NULL;
	hm_for_each_operand(o, e->kind)
		names += o->type == HM_OT_NAME;
	return names == 1 ? hm_operand_ptr(e, key) : NULL;
}

/* Is literal entry @e covered by @pat: the same but for its name? */
static bool covered_by(const struct hm_acl_head *e,
		       const struct hm_acl_head *pat, const struct hm_name *pk)
{
	union hm_acl_any buf;
	struct hm_acl_head *copy = &buf.head;
	const struct hm_name *ek = entry_key(e);

	if (e == pat || e->kind != pat->kind || e->cond != pat->cond ||
	    !ek || ek->is_patterned || !(e->perm & pat->perm) ||
	    !hm_path_matches(ek, pk))
		return false;
	memcpy(copy, e, hm_acl_size(e->kind));
	fold_op(copy)->name = pk;
	return hm_acl_same_operands(copy, pat);
}

int hm_domain_fold(struct hm_model *m, struct hm_domain *d,
		   const struct hm_acl_head *pat)
{
	const struct hm_name *pk = entry_key(pat);
	struct hm_acl_head *e;
	struct hm_acl_head *next;
	int n = 0;

	if (!pk || !pk->is_patterned || !fold_op((struct hm_acl_head *)pat))
		return 0;
	for (e = d->acl; e; e = next) {
		union hm_acl_any buf;
		struct hm_acl_head *victim = &buf.head;
		int r;

		next = e->next;
		if (!covered_by(e, pat, pk))
			continue;
		memcpy(victim, e, hm_acl_size(e->kind));
		victim->perm = e->perm & pat->perm;
		/* the pattern was learned when the first it covers was */
		hm_acl_hist_merge((struct hm_acl_hist *)&pat->hist, &e->hist);
		r = hm_domain_remove(m, d, victim);
		if (r < 0)
			return r;
		n += r;
	}
	return n;
}

/* Unlink @victim from @d's insertion-order list. */
static void unlink_from_list(struct hm_domain *d, struct hm_acl_head *victim)
{
	struct hm_acl_head **link = &d->acl;

	while (*link != victim)
		link = &(*link)->next;
	*link = victim->next;
	if (d->acl_tail == &victim->next)
		d->acl_tail = link;
	d->n_acl--;
}

int hm_domain_remove(struct hm_model *m, struct hm_domain *d,
		     const struct hm_acl_head *e)
{
	struct hm_acl_head *head = NULL;
	struct hm_acl_head **chain;
	struct hm_acl_head **link;
	struct hm_acl_head *old;
	struct hm_map *map;
	uint64_t key;

	if (!d->index || e->kind >= HM_ACL_KIND_MAX)
		return 0;
	chain = chain_of(d->index, e, &map, &key, &head);
	for (link = chain; *link; link = &(*link)->hnext)
		if (hm_acl_same_operands(*link, e))
			break;
	old = *link;
	if (!old || !(old->perm & e->perm))
		return 0;
	old->perm &= ~e->perm;
	if (old->perm)
		return 1;
	*link = old->hnext;
	if (map && link == chain) {
		if (head)
			hm_map_put(map, key, head);	/* replaces: no alloc */
		else
			hm_map_del(map, key);
	}
	if (map == &d->index->patterned)
		d->index->n_patterned--;
	unlink_from_list(d, old);
	hm_mem_free(&m->mem, HM_MEM_ACL, old, hm_acl_size(old->kind));
	return 1;
}

/* ------------------------------------------------------------- matching */

/* 1.8 semantics: @prefix is a domain name that @target equals or that
 * @target extends by more words. */
static bool domain_prefix_matches(const struct hm_name *prefix,
				  const struct hm_name *target)
{
	if (!target || target->len < prefix->len ||
	    memcmp(target->str, prefix->str, prefix->len))
		return false;
	return target->len == prefix->len || target->str[prefix->len] == ' ';
}

static const struct hm_name *req_name(const struct hm_request *r,
				      const struct hm_operand *o)
{
	return *(const struct hm_name *const *)((const char *)r + o->req);
}

static bool operand_matches(const struct hm_operand *o, const void *x,
			    const struct hm_request *r)
{
	switch (o->type) {
	case HM_OT_NAME:
		return hm_name_op_matches(x, req_name(r, o));
	case HM_OT_NUMBER:
		return hm_number_matches(x, *(const uint64_t *)(const void *)
					 ((const char *)r + o->req));
	case HM_OT_ADDR:
		return hm_addr_matches(x, r->is_ipv6, r->addr);
	case HM_OT_WORD:
		return req_name(r, o) &&
		       hm_word_matches(*(const struct hm_name *const *)x,
				       req_name(r, o));
	case HM_OT_DOMAIN:
		return domain_prefix_matches(*(const struct hm_name *const *)x,
					     req_name(r, o));
	case HM_OT_PROTO:
		return *(const uint8_t *)x == r->proto;
	default:
		return false;
	}
}

bool hm_acl_matches(const struct hm_model *m, const struct hm_acl_head *e,
		    const struct hm_request *r)
{
	(void)m;
	if (e->kind != r->kind || e->kind >= HM_ACL_KIND_MAX)
		return false;
	if (hm_kinds[e->kind].ops != HM_OPS_NONE &&
	    !(e->perm & (r->op_mask ? r->op_mask : 1u << r->op)))
		return false;
	hm_for_each_operand(o, e->kind)
		if (!operand_matches(o, hm_operand_ptr(e, o), r))
			return false;
	return hm_cond_holds(e->cond, r->ctx);
}

static const struct hm_acl_head *chain_match(const struct hm_model *m,
					     const struct hm_acl_head *e,
					     const struct hm_request *r)
{
	for (; e; e = e->hnext)
		if (hm_acl_matches(m, e, r))
			return e;
	return NULL;
}

/* Probe the patterned map at every '/'-ending prefix of @name, and at "". */
static const struct hm_acl_head *
patterned_match(const struct hm_model *m, const struct hm_acl_index *ix,
		const struct hm_name *name, const struct hm_request *r)
{
	uint32_t h = HM_FNV_BASIS;	/* of "", as hm_hash_fnv() */
	const struct hm_acl_head *e;

	for (size_t i = 0;; i++) {
		if (i == 0 || name->str[i - 1] == '/') {
			e = chain_match(m, hm_map_get(&ix->patterned,
						      word_key(h, i)), r);
			if (e)
				return e;
		}
		if (i == name->len)
			return NULL;
		h = hm_fnv_step(h, (unsigned char)name->str[i]);
	}
}

static const struct hm_acl_head *index_match(const struct hm_model *m,
					     const struct hm_domain *d,
					     const struct hm_request *r)
{
	const struct hm_acl_index *ix = d->index;
	const struct hm_name *key = request_key(r);
	const struct hm_acl_head *e;

	if (!ix || r->kind >= HM_ACL_KIND_MAX)
		return NULL;
	if (key) {
		e = chain_match(m, hm_map_get(&ix->literal,
					      word_key(key->hash, key->len)), r);
		if (e)
			return e;
		if (ix->n_patterned) {
			e = patterned_match(m, ix, key, r);
			if (e)
				return e;
		}
	}
	return chain_match(m, ix->other[r->kind], r);
}

bool hm_domain_allows(const struct hm_model *m, const struct hm_domain *d,
		      const struct hm_request *r,
		      const struct hm_acl_head **match)
{
	const struct hm_acl_head *e = index_match(m, d, r);

	for (unsigned g = 0; !e && g < 256; g++) {
		if (!(d->groups[g / 8] & (1u << (g % 8))) ||
		    !m->ex.acl_groups[g])
			continue;
		e = index_match(m, m->ex.acl_groups[g], r);
	}
	if (match)
		*match = e;
	return e != NULL;
}

/* -------------------------------------------------------------- ordering */

static int cmp_name(const struct hm_name *a, const struct hm_name *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? 1 : -1;
	return hm_name_cmp(a, b);
}

static int cmp_name_op(const struct hm_name_op *a, const struct hm_name_op *b)
{
	/* Groups ("@X") sort after words, as they print with '@'. */
	if (!a->group != !b->group)
		return a->group ? 1 : -1;
	if (a->group)
		return cmp_name(a->group->name, b->group->name);
	return cmp_name(a->name, b->name);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_number(const struct hm_number *a, const struct hm_number *b)
{
	if (!a->group != !b->group)
		return a->group ? 1 : -1;
	if (a->group)
		return cmp_name(a->group->name, b->group->name);
	return cmp_u64(a->min, b->min) ?: cmp_u64(a->max, b->max);
}

static int cmp_addr(const struct hm_addr *a, const struct hm_addr *b)
{
	if (!a->group != !b->group)
		return a->group ? 1 : -1;
	if (a->group)
		return cmp_name(a->group->name, b->group->name);
	if (a->is_ipv6 != b->is_ipv6)
		return a->is_ipv6 ? 1 : -1;
	return memcmp(a->min, b->min, 16) ?: memcmp(a->max, b->max, 16);
}

/* The lowest permission bit: entries sort by their first operation. */
static int first_op(uint32_t perm)
{
	return perm ? __builtin_ctz(perm) : 32;
}

static int cmp_operand(const struct hm_operand *o, const void *x,
		       const void *y)
{
	switch (o->type) {
	case HM_OT_NAME:
		return cmp_name_op(x, y);
	case HM_OT_NUMBER:
		return cmp_number(x, y);
	case HM_OT_ADDR:
		return cmp_addr(x, y);
	case HM_OT_PROTO:
		return cmp_u64(*(const uint8_t *)x, *(const uint8_t *)y);
	default:
		return cmp_name(*(const struct hm_name *const *)x,
				*(const struct hm_name *const *)y);
	}
}

/* Sort rank of operand @i of @kind: protocol, key, then the rest. */
static int sort_rank(unsigned kind, int i)
{
	if (hm_kinds[kind].opnd[i].type == HM_OT_PROTO)
		return 0;
	return i == hm_kinds[kind].key ? 1 : 2;
}

static int cmp_operands(const struct hm_acl_head *a,
			const struct hm_acl_head *b)
{
	const struct hm_operand *ops;

	if (a->kind >= HM_ACL_KIND_MAX)
		return 0;
	ops = hm_kinds[a->kind].opnd;
	for (int rank = 0; rank < 3; rank++) {
		for (int i = 0; ops[i].id; i++) {
			int c;

			if (sort_rank(a->kind, i) != rank)
				continue;
			c = cmp_operand(&ops[i], hm_operand_ptr(a, &ops[i]),
					hm_operand_ptr(b, &ops[i]));
			if (c)
				return c;
		}
	}
	return 0;
}

int hm_acl_cmp(const struct hm_acl_head *a, const struct hm_acl_head *b)
{
	int c = cmp_u64(a->kind, b->kind);

	if (c)
		return c;
	c = cmp_operands(a, b);
	if (c)
		return c;
	c = cmp_u64(first_op(a->perm), first_op(b->perm));
	if (c)
		return c;
	return cmp_name(a->cond ? a->cond->text : NULL,
			b->cond ? b->cond->text : NULL);
}

static int cmp_entry_ptr(const void *a, const void *b)
{
	return hm_acl_cmp(*(const struct hm_acl_head *const *)a,
			  *(const struct hm_acl_head *const *)b);
}

const struct hm_acl_head **hm_domain_sorted_acl(const struct hm_domain *d)
{
	const struct hm_acl_head **v = malloc((d->n_acl + 1) * sizeof(*v));
	size_t i = 0;

	if (!v)
		return NULL;
	for (const struct hm_acl_head *e = d->acl; e; e = e->next)
		v[i++] = e;
	qsort(v, i, sizeof(*v), cmp_entry_ptr);
	return v;
}
