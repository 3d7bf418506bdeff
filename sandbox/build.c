// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * build.c - a domain's subtree as per-domain Landlock rulesets, in the
 * table the sandbox applies and hands to the preload library (table.h).
 *
 * A Landlock domain is inherited across exec and can only narrow, so the
 * ruleset a process starts under must hold everything its descendants
 * will need: the union of the grants of its subtree.  The subtree is
 * what the policy's transitions reach: child domains by name, and where
 * each literal "file execute" entry leads by the exception policy.
 * Every domain's entries are translated once; each domain's union is
 * merged (sorted paths, a port bitmap) and cut to the kernel's ABI.
 * Owns the builder state until the table is written; reads the model
 * (interning names while computing transitions).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "histmac/word.h"
#include "histmac/tracker.h"
#include "internal.h"
#include "landlock_abi.h"
#include "table.h"

#define DEFAULT_MAX_PORTS 4096
#define NPORTS 65536
#define NET_RIGHTS HM_SBX_NET_RIGHTS

struct edge {
	uint32_t child;		/* index in builder.doms */
	char *prog;		/* raw path as executed */
	bool setid;		/* its program is set-id (HM_SBX_EXEC_SETID) */
};

struct dom {
	const struct hm_domain *d;
	struct hm_sbx_xlat *x;	/* one per entry */
	size_t n_x;
	struct edge *edges;
	size_t n_edges;
};

struct builder {
	struct hm_model *m;
	const struct hm_sbx_opts *o;
	struct dom *doms;	/* the subtree, root first */
	size_t n, cap;
	const struct hm_domain **kids;	/* every domain, by parent */
	size_t n_kids;
	struct hm_sbx_xlat extra;	/* preload; program at [0] */
	size_t n_program;		/* grants of extra for the program */
	int64_t settle_by;		/* CLOCK_REALTIME ns: wait no longer
					 * for a program to settle */
};

/* --------------------------------------------------------------- edges */

static int cmp_parent(const void *a, const void *b)
{
	const struct hm_domain *x = *(const struct hm_domain *const *)a;
	const struct hm_domain *y = *(const struct hm_domain *const *)b;

	return (x->parent > y->parent) - (x->parent < y->parent);
}

static int index_of(const struct builder *b, const struct hm_domain *d)
{
	for (size_t i = 0; i < b->n; i++)	/* subtrees are small */
		if (b->doms[i].d == d)
			return (int)i;
	return -1;
}

/* Index of @d in the subtree, added (untranslated) when new. */
static int add_dom(struct builder *b, const struct hm_domain *d,
		   uint32_t *out)
{
	int i = index_of(b, d);

	if (i >= 0) {
		*out = (uint32_t)i;
		return 0;
	}
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct dom *n = realloc(b->doms, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		b->doms = n;
		b->cap = cap;
	}
	b->doms[b->n] = (struct dom){ .d = d };
	*out = (uint32_t)b->n++;
	return 0;
}

static int add_edge(struct builder *b, size_t from, const struct hm_domain *to,
		    const char *word, size_t len)
{
	struct dom *f;
	struct edge *e;
	uint32_t child;
	char *raw = malloc(len + 1);
	size_t n;
	int r;

	if (!raw)
		return -ENOMEM;
	if (hm_decode(raw, &n, word, len) || !n || raw[0] != '/') {
		free(raw);	/* a pattern or not a path: no edge name */
		raw = NULL;
	} else {
		raw[n] = '\0';
	}
	r = add_dom(b, to, &child);
	f = &b->doms[from];
	e = r ? NULL : realloc(f->edges, (f->n_edges + 1) * sizeof(*e));
	if (!e) {
		free(raw);
		return -ENOMEM;
	}
	f->edges = e;
	f->edges[f->n_edges++] = (struct edge){ child, raw, false };
	return 0;
}

/* Children by name: "<D> PROG" whose parent pointer is @d. */
static int name_edges(struct builder *b, size_t from)
{
	const struct hm_domain *d = b->doms[from].d;
	const struct hm_domain *key = &(struct hm_domain){ .parent =
						(struct hm_domain *)d };
	const struct hm_domain **k = bsearch(&key, b->kids, b->n_kids,
					     sizeof(*k), cmp_parent);
	int r = 0;

	if (!k)
		return 0;
	while (k > b->kids && k[-1]->parent == d)
		k--;
	for (; !r && k < b->kids + b->n_kids && (*k)->parent == d; k++) {
		const char *sp = strrchr((*k)->name->str, ' ');

		if (sp)
			r = add_edge(b, from, *k, sp + 1, strlen(sp + 1));
	}
	return r;
}

/* Where a literal "file execute X" leads by the exception policy. */
static int exec_edge(const struct hm_acl_head *e, void *arg)
{
	struct builder *b = ((void **)arg)[0];
	size_t from = *(size_t *)((void **)arg)[1];
	const struct hm_name *prog, *cand;
	struct hm_domain *to = NULL;
	enum hm_transit type;
	char *next;
	int r;

	if (e->kind != HM_ACL_PATH || !(e->perm & (1u << HM_FILE_EXECUTE)))
		return 0;
	prog = hm_container_of(e, struct hm_acl_path, head)->name.name;
	if (!prog || prog->is_patterned)
		return 0;
	r = hm_transition_compute(b->m, b->doms[from].d->name, prog, NULL,
				  &cand, &next, &type);
	if (r == -ENAMETOOLONG)
		return 0;
	if (r)
		return r;
	r = hm_model_domain(b->m, next, strlen(next), false, &to);
	free(next);
	if (r < 0 || !to)
		return r < 0 ? r : 0;
	/* An exec that stays in the domain (keep_domain, or an
	 * initialize_domain program executing itself: sshd for every
	 * connection) is an edge to itself: without it the program would
	 * be reported as having no edge and nothing below would narrow. */
	return add_edge(b, from, to, prog->str, prog->len);
}

static int compute_edges(struct builder *b, size_t from)
{
	void *arg[2] = { b, &from };
	int r = name_edges(b, from);

	return r ? r : hm_sbx_domain_entries(b->m, b->doms[from].d,
					     exec_edge, arg);
}

int hm_sbx_domain_entries(const struct hm_model *m, const struct hm_domain *d,
			  int (*fn)(const struct hm_acl_head *e, void *arg),
			  void *arg)
{
	int r = 0;

	for (const struct hm_acl_head *e = d->acl; e && !r; e = e->next)
		r = fn(e, arg);
	for (unsigned g = 0; g < 256 && !r; g++) {
		const struct hm_domain *ag = m->ex.acl_groups[g];

		if (!(d->groups[g / 8] & (1u << (g % 8))) || !ag)
			continue;
		for (const struct hm_acl_head *e = ag->acl; e && !r; e = e->next)
			r = fn(e, arg);
	}
	return r;
}

/* ------------------------------------------------------------- subtree */

static void builder_fini(struct builder *b)
{
	for (size_t i = 0; i < b->n; i++) {
		for (size_t j = 0; j < b->doms[i].n_x; j++)
			hm_sbx_xlat_fini(&b->doms[i].x[j]);
		for (size_t j = 0; j < b->doms[i].n_edges; j++)
			free(b->doms[i].edges[j].prog);
		free(b->doms[i].x);
		free(b->doms[i].edges);
	}
	free(b->doms);
	free(b->kids);
	hm_sbx_xlat_fini(&b->extra);
}

/* Breadth first from @root: b->doms is the subtree with its edges. */
static int walk(struct builder *b, struct hm_model *m,
		const struct hm_domain *root)
{
	uint32_t i0;
	int r;

	b->m = m;
	b->kids = malloc((m->n_domains + 1) * sizeof(*b->kids));
	if (!b->kids)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_domains; i++)
		if (m->domains[i]->parent)
			b->kids[b->n_kids++] = m->domains[i];
	qsort(b->kids, b->n_kids, sizeof(*b->kids), cmp_parent);
	r = add_dom(b, root, &i0);
	for (size_t i = 0; !r && i < b->n; i++)
		r = compute_edges(b, i);
	return r;
}

int hm_sbx_subtree(struct hm_model *m, const struct hm_domain *root,
		   const struct hm_domain ***out, size_t *n)
{
	struct builder b = { 0 };
	const struct hm_domain **v;
	int r = walk(&b, m, root);

	v = r ? NULL : malloc(b.n * sizeof(*v));
	if (!r && !v)
		r = -ENOMEM;
	for (size_t i = 0; !r && i < b.n; i++)
		v[i] = b.doms[i].d;
	if (!r) {
		*out = v;
		*n = b.n;
	}
	builder_fini(&b);
	return r;
}

/* --------------------------------------------------------- translation */

static int xlat_one(const struct hm_acl_head *e, void *arg)
{
	void **a = arg;
	struct builder *b = a[0];
	struct dom *d = a[1];
	struct hm_sbx_xlat *x = realloc(d->x, (d->n_x + 1) * sizeof(*x));
	int r;

	if (!x)
		return -ENOMEM;
	d->x = x;
	r = hm_sbx_translate(b->m, e, b->o->root, 0, &d->x[d->n_x]);
	if (!r)
		d->n_x++;
	return r;
}

/* A grant every domain gets (the sandbox's own files). */
static int add_extra(struct builder *b, const char *path, uint64_t access)
{
	struct hm_sbx_grant *g = realloc(b->extra.grants,
					 (b->extra.n + 1) * sizeof(*g));
	char *p = strdup(path);

	if (g)
		b->extra.grants = g;
	if (!g || !p) {
		free(p);
		return -ENOMEM;
	}
	g[b->extra.n++] = (struct hm_sbx_grant){ .path = p, .access = access,
						  .file = true };
	return 0;
}

static int translate_all(struct builder *b)
{
	int r = 0;

	for (size_t i = 0; i < b->n && !r; i++) {
		void *a[2] = { b, &b->doms[i] };

		r = hm_sbx_domain_entries(b->m, b->doms[i].d, xlat_one, a);
	}
	if (!r && b->o->program) {
		r = hm_sbx_exec_grants(b->o->root, b->o->program, &b->extra);
		b->n_program = b->extra.n;
	}
	if (!r && b->o->table_path)
		r = add_extra(b, b->o->table_path, HM_LL_FS_READ_FILE);
	if (!r && b->o->report_path)
		r = add_extra(b, b->o->report_path, HM_LL_FS_WRITE_FILE);
	if (!r && b->o->preload) {
		char *p = strdup(b->o->preload);
		struct hm_sbx_xlat pre = { 0 };

		r = p ? hm_sbx_exec_grants(b->o->root, p, &pre) : -ENOMEM;
		free(p);
		/* the preload is read, never executed */
		for (size_t i = 0; !r && i < pre.n; i++) {
			struct hm_sbx_grant *g;

			g = realloc(b->extra.grants,
				    (b->extra.n + 1) * sizeof(*g));
			if (!g) {
				r = -ENOMEM;
				break;
			}
			b->extra.grants = g;
			g[b->extra.n] = pre.grants[i];
			g[b->extra.n].access = HM_LL_FS_READ_FILE;
			pre.grants[i].path = NULL;
			b->extra.n++;
		}
		hm_sbx_xlat_fini(&pre);
	}
	return r;
}

/* --------------------------------------------------------------- union */

struct pgrant {
	const char *path;
	uint64_t access;
	bool file;	/* every grant on it was a file's (hm_sbx_grant) */
};

/* A move of the subtree (struct hm_sbx_move) by its parents' paths. */
struct umove {
	const char *from, *to;
	bool dir;
	uint64_t added;		/* what widen_moves() added on @from */
	const struct hm_sbx_xlat *x;	/* its entry */
};

struct uset {
	struct pgrant *p;
	size_t n, cap;
	struct umove *mv;
	size_t n_mv, cap_mv;
	uint8_t *ports[NET_RIGHTS];	/* port bitmap per network right */
	uint32_t n_ports[NET_RIGHTS];
	bool signal, abstract;		/* not scopable */
	uint64_t entries;
	uint64_t covered;	/* grants dropped: a directory's holds them */
	uint64_t static_execs;
	uint64_t widened[HM_SBX_W_MAX];
	uint64_t unenforced[HM_SBX_NE_MAX];
};

static int push_path(struct uset *u, const char *path, uint64_t access,
		     bool file)
{
	if (u->n == u->cap) {
		size_t cap = u->cap ? 2 * u->cap : 256;
		struct pgrant *n = realloc(u->p, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		u->p = n;
		u->cap = cap;
	}
	u->p[u->n++] = (struct pgrant){ path, access, file };
	return 0;
}

static int push_moves(struct uset *u, const struct hm_sbx_xlat *x)
{
	for (size_t i = 0; i < x->n_moves; i++) {
		const struct hm_sbx_move *m = &x->moves[i];

		if (u->n_mv == u->cap_mv) {
			size_t cap = u->cap_mv ? 2 * u->cap_mv : 16;
			struct umove *n = realloc(u->mv, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			u->mv = n;
			u->cap_mv = cap;
		}
		u->mv[u->n_mv++] = (struct umove){ x->grants[m->from].path,
						   x->grants[m->to].path,
						   m->dir, 0, x };
	}
	return 0;
}

static void set_ports(uint8_t *map, uint32_t *count, uint64_t lo,
		      uint64_t hi)
{
	for (uint64_t p = lo; p <= hi && p < NPORTS; p++) {
		if (!(map[p / 8] & (1u << (p % 8))))
			(*count)++;
		map[p / 8] |= (uint8_t)(1u << (p % 8));
	}
}

static int add_xlat(struct uset *u, const struct hm_sbx_xlat *x)
{
	uint32_t widen = 0;
	int r = 0;

	for (size_t i = 0; i < x->n && !r; i++) {
		const struct hm_sbx_grant *g = &x->grants[i];

		widen |= g->widen;
		if (g->path) {
			r = push_path(u, g->path, g->access, g->file);
			continue;
		}
		for (unsigned b = 0; b < NET_RIGHTS; b++)
			if (g->access & (1ULL << b))
				set_ports(u->ports[b], &u->n_ports[b], g->port,
					  g->port_max);
	}
	for (unsigned w = 0; w < HM_SBX_W_MAX; w++)
		u->widened[w] += !!(widen & (1u << w));
	if (!r)
		r = push_moves(u, x);
	u->unenforced[x->unenforced]++;
	u->signal |= x->scope_signal;
	u->abstract |= x->scope_abstract;
	u->static_execs += x->static_exec;
	return r;
}

static int cmp_pgrant(const void *a, const void *b)
{
	return strcmp(((const struct pgrant *)a)->path,
		      ((const struct pgrant *)b)->path);
}

/* Sort and merge equal paths. */
static void merge_paths(struct uset *u)
{
	size_t k = 0;

	if (u->n < 2)	/* qsort() of a NULL array is undefined */
		return;
	qsort(u->p, u->n, sizeof(*u->p), cmp_pgrant);
	for (size_t i = 0; i < u->n; i++) {
		if (k && !strcmp(u->p[k - 1].path, u->p[i].path)) {
			u->p[k - 1].access |= u->p[i].access;
			u->p[k - 1].file &= u->p[i].file;
		} else
			u->p[k++] = u->p[i];
	}
	u->n = k;
}

/* The grant on exactly @path in sorted @u, or NULL. */
static const struct pgrant *find_path(const struct uset *u, const char *path)
{
	struct pgrant key = { .path = path };

	return bsearch(&key, u->p, u->n, sizeof(*u->p), cmp_pgrant);
}

/* @buf (an absolute path) becomes its parent: "/a/b" -> "/a" -> "/";
 * false at "/". */
static bool up(char *buf)
{
	size_t len = strlen(buf);

	if (len <= 1)
		return false;
	while (len > 1 && buf[len - 1] != '/')
		len--;
	buf[len > 1 ? len - 1 : 1] = '\0';	/* "/a/b/" -> "/a/b" */
	return true;
}

/* Does a grant on a directory above @g (not one learned as a file: that
 * is refused when it is a directory, apply.c) hold all of @g's rights?
 * Landlock's rights hold beneath the object, so @g adds nothing. */
static bool covered(const struct uset *u, const struct pgrant *g)
{
	char buf[PATH_MAX];
	size_t len = strlen(g->path);

	if (len >= sizeof(buf) || g->path[0] != '/')
		return false;
	memcpy(buf, g->path, len + 1);
	while (up(buf)) {
		const struct pgrant *a = find_path(u, buf);

		if (a && !a->file && !(g->access & ~a->access))
			return true;
	}
	return false;
}

/* What the rules of sorted @u grant on directory @dir: its own and those
 * of the directories above it (a rule learned as a file is refused on a
 * directory, apply.c). */
static uint64_t rights_at(const struct uset *u, const char *dir)
{
	char buf[PATH_MAX];
	uint64_t access = 0;
	size_t len = strlen(dir);

	if (len >= sizeof(buf) || dir[0] != '/')
		return 0;
	memcpy(buf, dir, len + 1);
	do {
		const struct pgrant *a = find_path(u, buf);

		if (a && !a->file)
			access |= a->access;
	} while (up(buf));
	return access;
}

/*
 * Landlock's rule for a rename or link into another directory
 * (security/landlock/fs.c: current_check_refer_path() collects, with
 * collect_domain_accesses(), per layer the rights granted on each parent
 * and the directories above it; no_more_access() compares them).  Beyond
 * fs.refer on both parents (and fs.remove_* on the source's, fs.make_* on
 * the destination's), in every layer of the process's domain each
 * handled right granted on the destination's parent or a directory above
 * it must also be granted on the source's parent, a directory above it,
 * or the moved object itself: for a file the file rights (execute,
 * write_file, read_file, truncate, ioctl_dev; HM_LL_FS_FILE_RIGHTS), for a
 * directory every right.  Otherwise the call fails with EXDEV: the object
 * would gain a right by moving.
 *
 * Every table domain's ruleset is a layer, and it holds the moves of
 * every domain of its subtree: so each ruleset, merged, gives each of its
 * moves' sources the rights it grants above the destination that the
 * source lacks.  The name learned is not known to be the file moved, so
 * the grant is on the source's parent.  Adding to a source can raise what
 * another move's destination has (a chain in/ -> act/ -> done/, or a
 * destination beneath a source): repeated until nothing changes.  @u
 * sorted and merged; each move's parents have a rule in it.
 */
static void widen_moves(struct uset *u)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t i = 0; i < u->n_mv; i++) {
			struct umove *m = &u->mv[i];
			struct pgrant *from = (struct pgrant *)find_path(u,
								m->from);
			uint64_t add = rights_at(u, m->to) &
				       ~rights_at(u, m->from);

			if (!m->dir)
				add &= HM_LL_FS_FILE_RIGHTS;
			if (!add || !from)
				continue;
			from->access |= add;
			m->added |= add;
			changed = true;
		}
	}
	for (size_t i = 0; i < u->n_mv;) {	/* entries widened, each once */
		const struct hm_sbx_xlat *x = u->mv[i].x;
		bool any = false;

		for (; i < u->n_mv && u->mv[i].x == x; i++)
			any |= u->mv[i].added != 0;
		u->widened[HM_SBX_W_REFER] += any;
	}
}

/*
 * Drop the grants a directory's grant above them already holds (a
 * pattern's directory and the files learned in it; a directory granted
 * more): fewer rules make every lookup of an open's walk cheaper
 * (bench/RESULTS.md) and grant nothing more.  @u sorted, merged.
 */
static void drop_covered(struct uset *u)
{
	bool *drop = calloc(u->n ? u->n : 1, sizeof(*drop));
	size_t k = 0;

	if (!drop)
		return;		/* keep them all: still exact */
	for (size_t i = 0; i < u->n; i++)
		drop[i] = covered(u, &u->p[i]);
	for (size_t i = 0; i < u->n; i++)
		if (!drop[i])
			u->p[k++] = u->p[i];
	u->covered += u->n - k;
	u->n = k;
	free(drop);
}

static void uset_fini(struct uset *u)
{
	free(u->p);
	free(u->mv);
	for (unsigned b = 0; b < NET_RIGHTS; b++)
		free(u->ports[b]);
}

/* The union over the subtree of @from (indexes into b->doms). */
static int subtree_union(struct builder *b, size_t from, struct uset *u)
{
	uint8_t *seen = calloc(b->n, 1);
	uint32_t *queue = malloc(b->n * sizeof(*queue));
	size_t head = 0, tail = 0;
	int r = 0;

	for (unsigned k = 0; k < NET_RIGHTS; k++)
		if (!(u->ports[k] = calloc(NPORTS / 8, 1)))
			r = -ENOMEM;
	if (!seen || !queue)
		r = -ENOMEM;
	if (!r) {
		queue[tail++] = (uint32_t)from;
		seen[from] = 1;
	}
	while (!r && head < tail) {
		const struct dom *d = &b->doms[queue[head++]];

		for (size_t i = 0; i < d->n_x && !r; i++, u->entries++)
			r = add_xlat(u, &d->x[i]);
		for (size_t i = 0; i < d->n_edges; i++)
			if (!seen[d->edges[i].child]) {
				seen[d->edges[i].child] = 1;
				queue[tail++] = d->edges[i].child;
			}
	}
	/* the preload everywhere; the program only where it is executed */
	for (size_t i = from ? b->n_program : 0; !r && i < b->extra.n; i++)
		r = push_path(u, b->extra.grants[i].path,
			      b->extra.grants[i].access,
			      b->extra.grants[i].file);
	free(seen);
	free(queue);
	if (!r) {
		merge_paths(u);
		if (b->o->abi >= 2)	/* ABI 1 refuses every such move */
			widen_moves(u);
		drop_covered(u);
	}
	return r;
}

/* --------------------------------------------------------------- table */

struct out {
	char *buf;
	size_t len, cap;
};

static int out_add(struct out *o, const void *p, size_t len, uint32_t *off)
{
	if (o->len + len > UINT32_MAX)
		return -E2BIG;
	if (o->len + len > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *n;

		while (cap < o->len + len)
			cap *= 2;
		n = realloc(o->buf, cap);
		if (!n)
			return -ENOMEM;
		o->buf = n;
		o->cap = cap;
	}
	if (off)
		*off = (uint32_t)o->len;
	memcpy(o->buf + o->len, p, len);
	o->len += len;
	return 0;
}

static int out_str(struct out *o, const char *s, uint32_t *off)
{
	return out_add(o, s, strlen(s) + 1, off);
}

struct tables {
	struct out dom, edge, rule, str;
	int abi;
	uint32_t max_ports;
	uint64_t fs;		/* the file system rights handled */
};

/* One domain's rules, cut to the ABI; fills @td's masks and rule range. */
static int write_rules(struct tables *t, const struct uset *u,
		       struct hm_sbx_tdom *td)
{
	uint64_t fs = t->fs;
	int r = 0;

	td->handled_fs = fs;
	for (unsigned b = 0; b < NET_RIGHTS; b++)
		if (t->abi >= hm_sbx_net_right_abi(b) &&
		    u->n_ports[b] <= t->max_ports)
			td->handled_net |= 1ULL << b;
	if (t->abi >= 6)
		td->scoped = (u->signal ? 0 : HM_LL_SCOPE_SIGNAL) |
			     (u->abstract ? 0 : HM_LL_SCOPE_ABSTRACT_UNIX);
	td->rule_first = (uint32_t)(t->rule.len / sizeof(struct hm_sbx_trule));
	for (size_t i = 0; i < u->n && !r; i++) {
		struct hm_sbx_trule ru = { .type = u->p[i].file ?
						   HM_SBX_RULE_FILE :
						   HM_SBX_RULE_PATH,
					   .access = u->p[i].access & fs };

		if (!ru.access)
			continue;
		r = out_str(&t->str, u->p[i].path, &ru.path);
		if (!r)
			r = out_add(&t->rule, &ru, sizeof(ru), NULL);
		td->n_rules++;
	}
	for (uint32_t p = 0; p < NPORTS && !r && td->handled_net; p++) {
		struct hm_sbx_trule ru = { .type = HM_SBX_RULE_PORT, .port = p };

		for (unsigned b = 0; b < NET_RIGHTS; b++)
			if (u->ports[b][p / 8] & (1u << (p % 8)))
				ru.access |= 1ULL << b;
		ru.access &= td->handled_net;
		if (!ru.access)
			continue;
		r = out_add(&t->rule, &ru, sizeof(ru), NULL);
		td->n_rules++;
	}
	return r;
}

/* Does entry @x need rights the ABI lacks, or truncate left unhandled? */
static void count_unhandled(const struct hm_sbx_xlat *x, int abi,
			    uint64_t handled, struct hm_sbx_summary *s)
{
	uint64_t abi_fs = hm_sbx_fs_abi_mask(abi);
	uint64_t abi_net = (abi >= 4 ? HM_LL_NET_TCP : 0) |
			   (abi >= 10 ? HM_LL_NET_UDP : 0);
	uint64_t want = 0, want_net = 0;

	for (size_t k = 0; k < x->n; k++)
		if (x->grants[k].path)
			want |= x->grants[k].access;
		else
			want_net |= x->grants[k].access;
	s->abi_unenforced += !!(want & ~abi_fs) || !!(want_net & ~abi_net);
	s->truncate_unenforced += !!(want & abi_fs & ~handled &
				     HM_LL_FS_TRUNCATE);
}

static void summarize(const struct uset *u, const struct hm_sbx_tdom *td,
		      const struct builder *b, struct hm_sbx_summary *s)
{
	*s = (struct hm_sbx_summary){ 0 };
	s->domains = b->n;
	s->entries = u->entries;
	s->static_execs = u->static_execs;
	s->grants = td->n_rules;
	memcpy(s->widened, u->widened, sizeof(s->widened));
	memcpy(s->unenforced, u->unenforced, sizeof(s->unenforced));
	s->handled_fs = td->handled_fs;
	s->handled_net = td->handled_net;
	s->scoped = td->scoped;
	s->ports_too_wide_bind = b->o->abi >= 4 &&
				 !(td->handled_net & HM_LL_NET_BIND_TCP);
	s->ports_too_wide_connect = b->o->abi >= 4 &&
				    !(td->handled_net & HM_LL_NET_CONNECT_TCP);
	s->ports_too_wide_udp = b->o->abi >= 10 &&
				(td->handled_net & HM_LL_NET_UDP) != HM_LL_NET_UDP;
	for (size_t i = 0; i < b->n; i++)
		for (size_t j = 0; j < b->doms[i].n_x; j++)
			count_unhandled(&b->doms[i].x[j], b->o->abi,
					td->handled_fs, s);
}

/* How long a file's ctime may not vouch for it: a change right after a
 * look could keep the ctime it had (the kernel stamps from a clock that
 * advances a tick at a time, some file systems by the second). */
#define SETTLE_NS 1000000000LL

static int64_t realtime_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* When the newest of @info's files is a second old. */
static int64_t settled_at(const struct hm_sbx_exec_info *info)
{
	int64_t newest = 0;

	for (uint32_t i = 0; i < info->n; i++)
		if (info->id[i].ctime_ns > newest)
			newest = info->id[i].ctime_ns;
	return newest + SETTLE_NS;
}

/*
 * Look at @prog; a program changed in the second before the build (a
 * deploy, then a restart) is looked at again once that second is over,
 * waiting at most until @b->settle_by (a second after the build began),
 * so that the table vouches for it and the preload does not read it
 * before each exec: those reads are the caller's domain's in the audit
 * trail, and nothing in the trail can tell them from the program's own
 * (the preload runs in the program's process).  Returns 0 when @info
 * holds a look that is a second old, 1 when it is younger, -1 when
 * @prog cannot be looked at.
 */
static int settled_look(const struct builder *b, const char *prog,
			struct hm_sbx_exec_info *info)
{
	int64_t at, left;

	if (hm_sbx_inspect(b->o->root, prog, info))
		return -1;
	at = settled_at(info);
	if (at <= realtime_ns())
		return 0;
	if (at > b->settle_by)
		return 1;	/* changed while the build ran */
	while ((left = at - realtime_ns()) > 0)	/* (again after a signal) */
		nanosleep(&(struct timespec){ .tv_sec = left / 1000000000,
					      .tv_nsec = left % 1000000000 },
			  NULL);
	if (hm_sbx_inspect(b->o->root, prog, info))
		return -1;
	return settled_at(info) > realtime_ns();
}

/*
 * Edge @te's program as the preload needs it (table.h), looked at now,
 * before COMMAND starts, so that the preload does not read it before
 * each exec of it (settled_look()).  Not vouched for, so read by the
 * preload at the exec as a program the table does not know: one that
 * cannot be read now (a file made later), and one a file of which
 * changed while the build ran or still in the second after.  *@setid
 * and HM_SBX_EXEC_SETID say whether it is set-id even then: the domains
 * above it are marked by what the build saw (mark_setid()), while the
 * preload, believing an edge's flags only with HM_SBX_EXEC_KNOWN, reads
 * the program again at the exec.
 */
static int inspect_edge(const struct builder *b, struct tables *t,
			const char *prog, struct hm_sbx_tedge *te, bool *setid)
{
	struct hm_sbx_exec_info info;
	int settled = settled_look(b, prog, &info);
	int r = 0;

	*setid = false;
	if (settled < 0)
		return 0;
	*setid = info.setid;
	te->flags = info.setid ? HM_SBX_EXEC_SETID : 0;
	if (settled)
		return 0;
	te->files[0] = (struct hm_sbx_tfile){ .path = te->program,
					      .id = info.id[0] };
	for (uint32_t i = 1; !r && i < info.n; i++) {
		te->files[i].id = info.id[i];
		r = out_str(&t->str, info.interp[i - 1], &te->files[i].path);
	}
	if (r)
		return r;
	te->n_files = info.n;
	te->flags = HM_SBX_EXEC_KNOWN |
		    (info.is_static ? HM_SBX_EXEC_STATIC : 0) |
		    (info.setid ? HM_SBX_EXEC_SETID : 0);
	return 0;
}

static int write_domain(struct builder *b, struct tables *t, size_t i,
			struct hm_sbx_summary *sum)
{
	struct hm_sbx_tdom td = { 0 };
	struct uset u = { 0 };
	int r = subtree_union(b, i, &u);

	if (!r)
		r = out_str(&t->str, b->doms[i].d->name->str, &td.name);
	if (!r)
		r = write_rules(t, &u, &td);
	td.edge_first = (uint32_t)(t->edge.len / sizeof(struct hm_sbx_tedge));
	for (size_t j = 0; !r && j < b->doms[i].n_edges; j++) {
		struct hm_sbx_tedge te = { .child = b->doms[i].edges[j].child };

		if (!b->doms[i].edges[j].prog)
			continue;
		r = out_str(&t->str, b->doms[i].edges[j].prog, &te.program);
		if (!r)
			r = inspect_edge(b, t, b->doms[i].edges[j].prog, &te,
					 &b->doms[i].edges[j].setid);
		if (!r)
			r = out_add(&t->edge, &te, sizeof(te), NULL);
		td.n_edges++;
	}
	if (!r)
		r = out_add(&t->dom, &td, sizeof(td), NULL);
	if (!r && i == 0 && sum)
		summarize(&u, &td, b, sum);
	uset_fini(&u);
	return r;
}

/* Are the rules of table domains @a and @b the same ruleset? */
static bool same_rules(const struct tables *t, const struct hm_sbx_tdom *a,
		       const struct hm_sbx_tdom *b)
{
	const struct hm_sbx_trule *r = (const void *)t->rule.buf;

	if (a->n_rules != b->n_rules || a->handled_fs != b->handled_fs ||
	    a->handled_net != b->handled_net || a->scoped != b->scoped)
		return false;
	for (uint32_t i = 0; i < a->n_rules; i++) {
		const struct hm_sbx_trule *x = &r[a->rule_first + i];
		const struct hm_sbx_trule *y = &r[b->rule_first + i];

		if (x->type != y->type || x->access != y->access ||
		    x->port != y->port ||
		    strcmp(t->str.buf + x->path, t->str.buf + y->path))
			return false;
	}
	return true;
}

/*
 * Landlock stacks at most 16 rulesets on a thread, so an exec into a
 * domain whose ruleset is its parent's (a leaf that learned nothing its
 * parent's subtree lacks, a chain of identical steps) must not spend
 * one: each domain names the first domain with the same ruleset, and the
 * preload skips the layer when both name the same.  Rules are sorted,
 * so equal sets are equal sequences.
 */
static void mark_same_rulesets(struct tables *t)
{
	struct hm_sbx_tdom *d = (void *)t->dom.buf;
	size_t n = t->dom.len / sizeof(*d);

	for (size_t i = 0; i < n; i++) {
		d[i].ruleset = (uint32_t)i;
		for (size_t j = 0; j < i; j++)
			if (d[j].ruleset == j && same_rules(t, &d[i], &d[j])) {
				d[i].ruleset = (uint32_t)j;
				break;
			}
	}
}

/*
 * Mark each domain that executes a set-id program, or reaches one that
 * does through its transitions (HM_SBX_DOM_SETID): a domain, its parent,
 * and so up to the root.  Without no_new_privs a process without
 * CAP_SYS_ADMIN cannot narrow (landlock_restrict_self() needs one of the
 * two), and with it the kernel ignores the set-id bits of every program
 * below: so a process entering a marked domain keeps its parent's bound,
 * and the set-id program keeps its privilege, inside the inherited
 * domain (Landlock domains survive a set-id exec).  Edges without a
 * program name (pattern execs) carry marks up too: the preload cannot
 * follow them, and what runs below them must not lose its privilege
 * either.  Domains are written in the builder's order.
 */
static void mark_setid(const struct builder *b, struct tables *t)
{
	struct hm_sbx_tdom *d = (void *)t->dom.buf;
	bool more = true;

	for (size_t i = 0; i < b->n; i++)
		for (size_t j = 0; j < b->doms[i].n_edges; j++)
			if (b->doms[i].edges[j].setid)
				d[i].flags |= HM_SBX_DOM_SETID;
	while (more) {		/* up to the root: depth rounds at most */
		more = false;
		for (size_t i = 0; i < b->n; i++)
			for (size_t j = 0; j < b->doms[i].n_edges &&
			     !(d[i].flags & HM_SBX_DOM_SETID); j++)
				if (d[b->doms[i].edges[j].child].flags &
				    HM_SBX_DOM_SETID) {
					d[i].flags |= HM_SBX_DOM_SETID;
					more = true;
				}
	}
}

/* header | domains | edges | rules | strings, 8-byte aligned parts. */
static int assemble(struct tables *t, size_t n_domains, uint32_t flags,
		    void **blob, size_t *size)
{
	struct hm_sbx_thdr h = {
		.magic = HM_SBX_MAGIC, .version = HM_SBX_VERSION,
		.abi = (uint32_t)t->abi, .restrict_flags = flags,
		.n_domains = (uint32_t)n_domains,
		.n_edges = (uint32_t)(t->edge.len / sizeof(struct hm_sbx_tedge)),
		.n_rules = (uint32_t)(t->rule.len / sizeof(struct hm_sbx_trule)),
		.str_len = (uint32_t)t->str.len,
	};
	size_t off = (sizeof(h) + 7) & ~(size_t)7;
	char *p;

	h.dom_off = (uint32_t)off;
	off += (t->dom.len + 7) & ~(size_t)7;
	h.edge_off = (uint32_t)off;
	off += (t->edge.len + 7) & ~(size_t)7;
	h.rule_off = (uint32_t)off;
	off += (t->rule.len + 7) & ~(size_t)7;
	h.str_off = (uint32_t)off;
	off += t->str.len;
	if (off > UINT32_MAX)
		return -E2BIG;
	h.size = off;
	p = calloc(1, off);
	if (!p)
		return -ENOMEM;
	memcpy(p, &h, sizeof(h));
	memcpy(p + h.dom_off, t->dom.buf, t->dom.len);
	if (t->edge.len)
		memcpy(p + h.edge_off, t->edge.buf, t->edge.len);
	if (t->rule.len)
		memcpy(p + h.rule_off, t->rule.buf, t->rule.len);
	memcpy(p + h.str_off, t->str.buf, t->str.len);
	*blob = p;
	*size = off;
	return 0;
}

int hm_sbx_table(struct hm_model *m, const struct hm_domain *root,
		 const struct hm_sbx_opts *o, void **blob, size_t *size,
		 struct hm_sbx_summary *sum)
{
	struct builder b = { .o = o,
			     .settle_by = realtime_ns() + SETTLE_NS };
	struct tables t = { .abi = o->abi,
			    .max_ports = o->max_ports ? o->max_ports :
						       DEFAULT_MAX_PORTS };
	int r;

	/* every right of the ABI but device ioctl (docs/SANDBOX.md) */
	t.fs = hm_sbx_fs_abi_mask(o->abi) & ~(uint64_t)HM_LL_FS_IOCTL_DEV;
	if (o->no_truncate)
		t.fs &= ~(uint64_t)HM_LL_FS_TRUNCATE;
	r = walk(&b, m, root);
	if (!r)
		r = translate_all(&b);
	if (!r)
		r = out_str(&t.str, "", NULL);	/* offset 0: "" */
	for (size_t i = 0; !r && i < b.n; i++)
		r = write_domain(&b, &t, i, sum);
	if (!r) {
		mark_same_rulesets(&t);
		mark_setid(&b, &t);
	}
	/* from ABI 8 every thread gets the domain, not only the caller */
	if (!r)
		r = assemble(&t, b.n, HM_LL_RESTRICT_LOG_NEW_EXEC_ON |
			     (o->abi >= 8 ? HM_LL_RESTRICT_TSYNC : 0), blob,
			     size);
	free(t.dom.buf);
	free(t.edge.buf);
	free(t.rule.buf);
	free(t.str.buf);
	builder_fini(&b);
	return r;
}

/* ------------------------------------------------------ widened moves */

void hm_sbx_widened_moves_free(struct hm_sbx_widened_move *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].from);
		free(v[i].to);
	}
	free(v);
}

/* Add @m to @v (@n of them), one per source and destination. */
static int note_move(struct hm_sbx_widened_move **v, size_t *n,
		     const struct umove *m)
{
	struct hm_sbx_widened_move *w;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].from, m->from) &&
		    !strcmp((*v)[i].to, m->to)) {
			(*v)[i].added |= m->added;
			return 0;
		}
	w = realloc(*v, (*n + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	*v = w;
	w[*n] = (struct hm_sbx_widened_move){ strdup(m->from), strdup(m->to),
					      m->added };
	if (!w[*n].from || !w[*n].to) {
		free(w[*n].from);
		free(w[*n].to);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

int hm_sbx_widened_moves(struct hm_model *m, const struct hm_domain *root,
			 const struct hm_sbx_opts *o,
			 struct hm_sbx_widened_move **out, size_t *n)
{
	struct hm_sbx_opts only = { .abi = o->abi, .root = o->root };
	struct builder b = { .o = &only };
	struct uset u = { 0 };
	int r = walk(&b, m, root);

	*out = NULL;
	*n = 0;
	if (!r)
		r = translate_all(&b);
	if (!r)
		r = subtree_union(&b, 0, &u);
	for (size_t i = 0; !r && i < u.n_mv; i++)
		if (u.mv[i].added)
			r = note_move(out, n, &u.mv[i]);
	if (r) {
		hm_sbx_widened_moves_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	uset_fini(&u);
	builder_fini(&b);
	return r;
}

/* ---------------------------------------------------------- transition */

int hm_sbx_enter_domain(struct hm_model *m, const char *caller,
			const char *program, char **out)
{
	size_t plen = strlen(program);
	char *enc = malloc(hm_encode_len(program, plen) + 1);
	const struct hm_name *cur, *prog, *cand;
	enum hm_transit type;
	int r;

	if (!enc)
		return -ENOMEM;
	enc[hm_encode(enc, program, plen)] = '\0';
	if (strncmp(caller, "<", 1) || strlen(caller) > HM_MAX_DOMAIN) {
		free(enc);
		return -EINVAL;
	}
	r = hm_model_intern(m, caller, strlen(caller), &cur);
	if (!r)
		r = hm_model_intern(m, enc, strlen(enc), &prog);
	free(enc);
	return r ? r : hm_transition_compute(m, cur, prog, prog, &cand, out,
					     &type);
}
