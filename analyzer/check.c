// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check.c - offline permissive mode: every access the policy does not
 * allow becomes a violation, grouped by domain and by the entry that
 * learning would have added (so the report is paste-ready).  Reads the
 * policy model; owns a second model that holds the missing entries, the
 * walker (with a non-creating tracker) and the generalizer - or, as the
 * learner's list of accesses in domains not learning, only the lists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/learn.h"
#include "histmac/word.h"
#include "histmac/map.h"

/* Renew the scratch model after it holds this many names. */
#define SCRATCH_NAMES 4096

/*
 * One grouped list: violations, or attempts (failed calls that never
 * reached a check, on objects the policy does not allow).  Each owns a
 * model that holds its missing entries, so the two never share an entry.
 */
struct vlist {
	struct hm_model *vm;		/* what the policy lacks */
	struct hm_model *scratch;	/* generalizing past the limit */
	uint64_t unlisted;		/* past the limit */
	struct hm_map by_entry;		/* vm entry -> violation */
	struct hm_violation **v;
	size_t n;
	size_t cap;
	bool sorted;
};

/* What is counted with a few examples: Landlock denials that are no
 * violation, accesses of unidentified objects. */
struct note {
	uint64_t n;
	char **ex;
	size_t n_ex, cap;
	size_t max;		/* examples kept at most */
};

struct hm_checker {
	struct hm_model *m;		/* the policy */
	struct vlist denied;
	struct vlist attempts;
	struct hm_walker *w;		/* NULL: a list only */
	struct hm_generalizer *g;
	bool own_g;			/* else borrowed */
	struct note ll[HM_CHECK_LL_MAX];	/* Landlock denied, no
						 * violation: why */
	struct note unid;		/* objects not proven (findings) */
	char **own;			/* the sandbox's own files (encoded) */
	size_t n_own;
	bool own_dir;			/* and its private directory's */
	uint64_t own_reads;		/* accesses of them: not violations */
	int found;			/* in the current event */
	int judged;			/* accesses judged in the current event */
	bool count_uses;		/* stamp the entries that allow */
};

static int vlist_init(struct vlist *l, const struct hm_model *m)
{
	hm_map_init(&l->by_entry, NULL, HM_MEM_OTHER);
	l->vm = hm_model_new();
	if (!l->vm)
		return -ENOMEM;
	l->vm->dialect = m->dialect;
	l->vm->max_learning_entry = 0;
	return 0;
}

static void vlist_fini(struct vlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i]->example_comm);
		free(l->v[i]);
	}
	free(l->v);
	hm_map_fini(&l->by_entry);
	hm_model_free(l->vm);
	hm_model_free(l->scratch);
}

static int checker_alloc(struct hm_model *m, struct hm_checker **out)
{
	struct hm_checker *c = calloc(1, sizeof(*c));
	int r;

	*out = c;
	if (!c)
		return -ENOMEM;
	c->m = m;
	for (int i = 0; i < HM_CHECK_LL_MAX; i++)
		c->ll[i].max = HM_CHECK_LANDLOCK_EXAMPLES;
	c->unid.max = HM_CHECK_UNIDENTIFIED_EXAMPLES;
	r = vlist_init(&c->denied, m);
	if (!r)
		r = vlist_init(&c->attempts, m);
	return r;
}

int hm_checker_new(struct hm_model *m, const struct hm_learn_opts *o,
		   struct hm_diag *d, struct hm_checker **out)
{
	struct hm_checker *c;
	int r = checker_alloc(m, &c);

	if (!r)
		r = hm_walker_new(m, o, false, &c->w);
	if (!r) {
		r = hm_generalizer_new(m, o, d, &c->g);
		c->own_g = !r;
	}
	if (r) {
		hm_checker_free(c);
		return r;
	}
	*out = c;
	return 0;
}

int hm_checker_new_list(struct hm_model *m, struct hm_generalizer *g,
			struct hm_checker **out)
{
	struct hm_checker *c;
	int r = checker_alloc(m, &c);

	if (r) {
		hm_checker_free(c);
		return r;
	}
	c->g = g;
	*out = c;
	return 0;
}

static void note_fini(struct note *l)
{
	for (size_t j = 0; j < l->n_ex; j++)
		free(l->ex[j]);
	free(l->ex);
}

/* Count one in @l; keep @s (owned) while examples are wanted, when it
 * is NULL for lack of memory.  Returns 0 or -ENOMEM. */
static int note_add(struct note *l, char *s)
{
	if (l->n++ >= l->max) {
		free(s);
		return 0;
	}
	if (!s || HM_ARRAY_GROW(&l->ex, &l->cap, l->n_ex + 1)) {
		free(s);
		return -ENOMEM;
	}
	l->ex[l->n_ex++] = s;
	return 0;
}

void hm_checker_free(struct hm_checker *c)
{
	if (!c)
		return;
	vlist_fini(&c->denied);
	vlist_fini(&c->attempts);
	for (int i = 0; i < HM_CHECK_LL_MAX; i++)
		note_fini(&c->ll[i]);
	note_fini(&c->unid);
	for (size_t i = 0; i < c->n_own; i++)
		free(c->own[i]);
	free(c->own);
	hm_walker_free(c->w);
	if (c->own_g)
		hm_generalizer_free(c->g);
	free(c);
}

/*
 * A domain the policy lacks still gets what its nearest existing
 * ancestor's acl_groups allow (globally readable files): TOMOYO would
 * have created it with the parent's use_group.
 */
static bool groups_allow(const struct hm_model *m, const struct hm_name *name,
			 const struct hm_request *r)
{
	struct hm_domain fake = { .group_no = -1 };
	size_t len = name->len;

	for (;;) {
		const char *sp = memrchr(name->str, ' ', len);
		const struct hm_name *pn;
		struct hm_domain *anc;

		if (!sp)
			return false;
		len = (size_t)(sp - name->str);
		pn = hm_name_lookup(m->names, name->str, len);
		anc = pn ? hm_model_find_domain(m, pn) : NULL;
		if (anc) {
			memcpy(fake.groups, anc->groups, sizeof(fake.groups));
			return hm_domain_allows(m, &fake, r, NULL);
		}
	}
}

static int push(struct vlist *l, struct hm_violation *v)
{
	if (HM_ARRAY_GROW(&l->v, &l->cap, l->n + 1))
		return -ENOMEM;
	l->v[l->n++] = v;
	l->sorted = false;
	return 0;
}

/* Name the host @a happened on (multi-host logs), up to HM_VIOLATION_NODES. */
static int add_node(struct vlist *l, struct hm_violation *v,
		    const struct hm_access *a)
{
	const struct hm_bytes *node = &a->ev->node;
	const struct hm_name *n;
	int r;

	if (!node->len)
		return 0;
	r = hm_model_intern(l->vm, node->s, node->len, &n);
	if (r)
		return r;
	for (uint32_t i = 0; i < v->n_nodes; i++)
		if (v->nodes[i] == n)
			return 0;
	if (v->n_nodes < HM_VIOLATION_NODES)
		v->nodes[v->n_nodes++] = n;
	else
		v->more_nodes = true;
	return 0;
}

static int record(struct vlist *l, const struct hm_access *a,
		  struct hm_domain *vd, const struct hm_acl_head *entry)
{
	struct hm_violation *v = hm_map_get(&l->by_entry,
					    hm_map_ptr_key(entry));
	int64_t t = a->ev->sec;

	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v || push(l, v)) {
			free(v);
			return -ENOMEM;
		}
		if (hm_map_put(&l->by_entry, hm_map_ptr_key(entry), v)) {
			l->n--;
			free(v);
			return -ENOMEM;
		}
		v->seq = l->n;
		v->domain = vd->name;
		v->no_domain = !a->dom.domain;
		v->entry = entry;
		v->first_sec = t;
		v->example_pid = a->ev->pid;
		v->example_serial = a->ev->serial;
		v->example_errno = a->ev->success ? 0 : (int)-a->ev->exit;
		if (a->ev->comm.s)
			v->example_comm = strndup(a->ev->comm.s, a->ev->comm.len);
	}
	v->count++;
	v->append_opens += a->append_open;
	if (a->ev->landlock_blockers.s)
		v->enforced++;
	if (t && (!v->first_sec || t < v->first_sec))
		v->first_sec = t;
	if (t > v->last_sec)
		v->last_sec = t;
	return add_node(l, v, a);
}

/*
 * Past HM_CHECK_MAX_VIOLATIONS distinct missing entries, a denial is
 * listed only when it adds to an entry already listed; the rest are
 * counted.  To tell without growing the list's model, generalize into a
 * scratch model first.  Returns 1 when @a may be listed, 0 when it was
 * counted as unlisted, negative errno.
 */
static int listable(struct hm_checker *c, struct vlist *l,
		    const struct hm_access *a)
{
	union hm_acl_any e;
	struct hm_domain *vd;
	int r;

	if (l->n < HM_CHECK_MAX_VIOLATIONS)
		return 1;
	if (!l->scratch || hm_names_count(l->scratch->names) > SCRATCH_NAMES) {
		hm_model_free(l->scratch);
		l->scratch = hm_model_new();
		if (!l->scratch)
			return -ENOMEM;
	}
	r = hm_generalize_access(c->g, l->scratch, a, &e);
	if (r)
		return r;
	if (hm_model_knows(l->vm, &e) &&
	    !hm_model_domain(l->vm, a->dom.name->str, a->dom.name->len, false,
			     &vd) && vd) {
		union hm_acl_any in_vm;

		if (!hm_acl_clone(l->vm, l->scratch, &e.head, &in_vm) &&
		    hm_domain_find(vd, &in_vm.head))
			return 1;
	}
	l->unlisted++;
	return 0;
}

/* List @a, which the policy does not allow, in @l. */
static int list_access(struct hm_checker *c, struct vlist *l,
		       const struct hm_access *a)
{
	struct hm_acl_head *in;
	struct hm_domain *vd;
	union hm_acl_any e;
	int r = listable(c, l, a);

	if (r <= 0)
		return r;
	r = hm_model_domain(l->vm, a->dom.name->str, a->dom.name->len, true,
			    &vd);
	if (r < 0)
		return r;
	r = hm_generalize_access(c->g, l->vm, a, &e);
	if (!r)
		r = hm_domain_add(l->vm, vd, &e.head, &in);
	if (r < 0)
		return r;
	if (!r)
		in = hm_domain_find(vd, &e.head);
	return in ? record(l, a, vd, in) : -EINVAL;
}

static int check_access(const struct hm_access *a, void *arg)
{
	struct hm_checker *c = arg;

	return hm_checker_access(c, a);
}

/* Is @a the sandbox's own access: a read of its preload library, which
 * every program below `histmac sandbox` loads, or the preload's access
 * to the table's copy or the report FIFO in its private directory? */
static bool own_access(const struct hm_checker *c, const struct hm_access *a)
{
	const struct hm_name *n = a->req.name1;

	if (a->req.kind != HM_ACL_PATH || !n)
		return false;
	if (c->own_dir && a->ctx.has_task &&
	    hm_check_sandbox_file(n->str, n->len, a->req.op,
				  a->ctx.has_path1 ? &a->ctx.path1 : NULL,
				  a->ctx.fsuid))
		return true;
	if (a->req.op != HM_FILE_READ)
		return false;
	for (size_t i = 0; i < c->n_own; i++)
		if (strlen(c->own[i]) == n->len &&
		    !memcmp(c->own[i], n->str, n->len))
			return true;
	return false;
}

/*
 * @a's object is not proven to be the one its name reaches now (replaced
 * since, a directory swapped for a symlink, something mounted over it):
 * what the policy says of the name says nothing of it.  A finding, with
 * the name as the trail gave it and the record's inode.
 */
static int unidentified(struct hm_checker *c, const struct hm_access *a)
{
	const struct hm_cond_obj *o = &a->ctx.path1;
	const struct hm_name *n = a->req.name1;
	char *s;

	c->found++;
	if (c->unid.n >= c->unid.max)
		return note_add(&c->unid, NULL);
	if (asprintf(&s, "file %s %s in %s: inode %llu on %u:%u, not "
			"proven (pid %lld, audit serial %llu)",
			hm_file_op_names[a->req.op], n ? n->str : "-",
			a->dom.name ? a->dom.name->str : "?",
			a->ctx.has_path1 ? (unsigned long long)o->ino : 0ULL,
			a->ctx.has_path1 ? o->dev_major : 0,
			a->ctx.has_path1 ? o->dev_minor : 0,
			(long long)a->ev->pid,
			(unsigned long long)a->ev->serial) < 0)
		s = NULL;
	return note_add(&c->unid, s);
}

int hm_checker_access(struct hm_checker *c, const struct hm_access *a)
{
	const struct hm_domain *d = a->dom.domain;
	const struct hm_acl_head *e = NULL;

	c->judged++;
	if (own_access(c, a)) {
		c->own_reads++;
		return 0;
	}
	if (a->proof != HM_PROOF_OBJECT && !a->attempt)
		return unidentified(c, a);
	if (d ? hm_domain_allows(c->m, d, &a->req, &e) :
		groups_allow(c->m, a->dom.name, &a->req)) {
		if (e && c->count_uses && !a->attempt)
			hm_acl_hist_use(e, a->ev->sec);
		return 0;
	}
	if (a->attempt)
		return list_access(c, &c->attempts, a);
	c->found++;
	return list_access(c, &c->denied, a);
}

/* Count Landlock's denial @ev in @l; the first few are kept as
 * "BLOCKERS OBJECT (pid PID)", the object as a TOMOYO-encoded path. */
static int note_landlock(struct note *l, const struct hm_event *ev)
{
	const struct hm_bytes *p = ev->n_paths ? &ev->paths[0].path : NULL;
	char *obj = NULL, *s;

	if (l->n >= l->max)
		return note_add(l, NULL);
	if (p && p->len) {
		obj = malloc(hm_encode_len(p->s, p->len) + 1);
		if (!obj)
			return -ENOMEM;
		hm_encode(obj, p->s, p->len);
	}
	if (asprintf(&s, "%.*s %s (pid %lld, syscall %d)",
		     (int)ev->landlock_blockers.len, ev->landlock_blockers.s,
		     obj ? obj : "-", (long long)ev->pid, ev->syscall) < 0)
		s = NULL;
	free(obj);
	return note_add(l, s);
}

int hm_checker_event(struct hm_checker *c, const struct hm_event *ev)
{
	int r;

	if (!c->w)
		return -EINVAL;	/* a list only (hm_checker_new_list()) */
	c->found = 0;
	c->judged = 0;
	r = hm_walker_event(c->w, ev, check_access, c);
	if (r >= 0 && !c->found && ev->landlock_blockers.s)
		r = note_landlock(&c->ll[c->judged ? HM_CHECK_LL_ALLOWED :
				   HM_CHECK_LL_UNJUDGED], ev);
	return r < 0 ? r : c->found;
}

static int cmp_violation(const void *a, const void *b)
{
	const struct hm_violation *x = *(const struct hm_violation *const *)a;
	const struct hm_violation *y = *(const struct hm_violation *const *)b;

	return hm_name_cmp(x->domain, y->domain) ?:
	       hm_acl_cmp(x->entry, y->entry);
}

static const struct hm_violation *const *sorted(struct vlist *l, size_t *n)
{
	if (!l->sorted && l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_violation);
	l->sorted = true;
	*n = l->n;
	return (const struct hm_violation *const *)l->v;
}

const struct hm_violation *const *hm_checker_violations(struct hm_checker *c,
							 size_t *n)
{
	return sorted(&c->denied, n);
}

const struct hm_violation *const *hm_checker_attempts(struct hm_checker *c,
						       size_t *n)
{
	return sorted(&c->attempts, n);
}

const struct hm_model *hm_checker_model(const struct hm_checker *c)
{
	return c->denied.vm;
}

const struct hm_model *hm_checker_attempts_model(const struct hm_checker *c)
{
	return c->attempts.vm;
}

void hm_checker_count_uses(struct hm_checker *c, bool on)
{
	c->count_uses = on;
}

struct hm_walker *hm_checker_walker(struct hm_checker *c)
{
	return c->w;
}

uint64_t hm_checker_unlisted(const struct hm_checker *c)
{
	return c->denied.unlisted;
}

uint64_t hm_checker_attempts_unlisted(const struct hm_checker *c)
{
	return c->attempts.unlisted;
}

uint64_t hm_checker_landlock(const struct hm_checker *c,
			     enum hm_check_ll kind, const char *const **ex,
			     size_t *n_ex)
{
	*ex = (const char *const *)c->ll[kind].ex;
	*n_ex = c->ll[kind].n_ex;
	return c->ll[kind].n;
}

int hm_checker_own_files(struct hm_checker *c, const char *const *paths,
			 size_t n)
{
	char **own = calloc(n ? n : 1, sizeof(*own));

	if (!own)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		own[i] = malloc(hm_encode_len(paths[i], strlen(paths[i])) + 1);
		if (!own[i]) {
			while (i--)
				free(own[i]);
			free(own);
			return -ENOMEM;
		}
		hm_encode(own[i], paths[i], strlen(paths[i]));
	}
	for (size_t i = 0; i < c->n_own; i++)
		free(c->own[i]);
	free(c->own);
	c->own = own;
	c->n_own = n;
	c->own_dir = true;
	return 0;
}

uint64_t hm_checker_unidentified(const struct hm_checker *c,
				 const char *const **ex, size_t *n_ex)
{
	*ex = (const char *const *)c->unid.ex;
	*n_ex = c->unid.n_ex;
	return c->unid.n;
}

uint64_t hm_checker_own_reads(const struct hm_checker *c)
{
	return c->own_reads;
}
