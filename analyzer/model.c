// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - struct hm_model: domains by name, acl_group pseudo-domains,
 * groups, interned conditions and the exception policy lists.  ACL entries
 * themselves (merge, index, lookup) are in acl.c.  Everything allocated
 * here is owned by the model and freed by hm_model_free().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/learned.h"
#include "histmac/owners.h"
#include "histmac/sbuf.h"
#include "histmac/model.h"
#include "histmac/map.h"
#include "model_private.h"

const char *const hm_acl_kind_names[HM_ACL_KIND_MAX] = {
#define X(e, s, d) [HM_ACL_##e] = d,
	HM_ACL_KINDS(X)
#undef X
};

const char *const hm_file_op_names[HM_FILE_OP_MAX] = {
#define X(e, k, kw, kw21) [HM_FILE_##e] = kw,
	HM_FILE_OPS(X)
#undef X
};

const char *const hm_file_op_names21[HM_FILE_OP_MAX] = {
#define X(e, k, kw, kw21) [HM_FILE_##e] = kw21,
	HM_FILE_OPS(X)
#undef X
};

const enum hm_acl_kind hm_file_op_kind[HM_FILE_OP_MAX] = {
#define X(e, k, kw, kw21) [HM_FILE_##e] = HM_ACL_##k,
	HM_FILE_OPS(X)
#undef X
};

const char *const hm_net_op_names[HM_NET_OP_MAX] = {
#define X(e, kw, ml) [HM_NET_##e] = kw,
	HM_NET_OPS(X)
#undef X
};

const bool hm_net_op_mainline[HM_NET_OP_MAX] = {
#define X(e, kw, ml) [HM_NET_##e] = ml,
	HM_NET_OPS(X)
#undef X
};

const char *const hm_net_proto_names[HM_PROTO_MAX] = {
#define X(e, kw, kw21) [HM_PROTO_##e] = kw,
	HM_NET_PROTOS(X)
#undef X
};

const char *const hm_net_proto_names21[HM_PROTO_MAX] = {
#define X(e, kw, kw21) [HM_PROTO_##e] = kw21,
	HM_NET_PROTOS(X)
#undef X
};

const char *const hm_transition_names[HM_TR_MAX] = {
	[HM_TR_NO_RESET] = "no_reset_domain",
	[HM_TR_RESET] = "reset_domain",
	[HM_TR_NO_INITIALIZE] = "no_initialize_domain",
	[HM_TR_INITIALIZE] = "initialize_domain",
	[HM_TR_NO_KEEP] = "no_keep_domain",
	[HM_TR_KEEP] = "keep_domain",
};

const char *const hm_dialect_names[HM_DIALECT_MAX] = {
	[HM_DIALECT_26] = "tomoyo",
	[HM_DIALECT_21] = "tomoyo-2.1",
	[HM_DIALECT_18] = "tomoyo-1.8",
};

/* Private tables hung off the model. */
struct hm_domain_table {
	struct hm_map by_name;		/* name pointer -> domain */
};

struct hm_cond_table {
	struct hm_map by_text;		/* text pointer -> cond */
	struct hm_cond **all;
	size_t n;
	size_t cap;
};

struct hm_model *hm_model_new(void)
{
	struct hm_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->names = hm_names_new(&m->mem);
	m->by_name = calloc(1, sizeof(*m->by_name));
	m->conds = calloc(1, sizeof(*m->conds));
	if (!m->names || !m->by_name || !m->conds) {
		hm_model_free(m);
		return NULL;
	}
	hm_map_init(&m->by_name->by_name, &m->mem, HM_MEM_DOMAINS);
	hm_map_init(&m->conds->by_text, &m->mem, HM_MEM_ACL);
	m->dialect = HM_DIALECT_26;
	m->default_profile = HM_PROFILE_LEARNING;
	m->inherit_profile = true;
	m->max_learning_entry = 2048;
	return m;
}

void hm_model_set_dialect(struct hm_model *m, enum hm_dialect d)
{
	m->dialect = d;
}

void hm_model_set_max_learning_entry(struct hm_model *m, uint32_t n)
{
	m->max_learning_entry = n;
}

void hm_model_set_inherit_profile(struct hm_model *m, bool inherit)
{
	m->inherit_profile = inherit;
}

static void free_domain(struct hm_model *m, struct hm_domain *d)
{
	struct hm_acl_head *e = d->acl;

	while (e) {
		struct hm_acl_head *next = e->next;

		hm_mem_free(&m->mem, HM_MEM_ACL, e, hm_acl_size(e->kind));
		e = next;
	}
	hm_acl_index_free(m, d);
	hm_mem_free(&m->mem, HM_MEM_DOMAINS, d, sizeof(*d));
}

static void free_groups(struct hm_model *m)
{
	struct hm_group *g = m->ex.groups;

	while (g) {
		struct hm_group *gn = g->next;
		struct hm_group_member *mb = g->members;

		while (mb) {
			struct hm_group_member *mn = mb->next;

			hm_mem_free(&m->mem, HM_MEM_EXCEPTION, mb, sizeof(*mb));
			mb = mn;
		}
		hm_mem_free(&m->mem, HM_MEM_EXCEPTION, g, sizeof(*g));
		g = gn;
	}
}

/* Free a singly linked list whose link is the first member. */
static void free_list(struct hm_model *m, void *head, size_t size)
{
	while (head) {
		void *next = *(void **)head;

		hm_mem_free(&m->mem, HM_MEM_EXCEPTION, head, size);
		head = next;
	}
}

static void free_exception(struct hm_model *m)
{
	struct hm_rewrite_rule *rw = m->ex.rewrites;

	free_list(m, m->ex.transitions, sizeof(struct hm_transition_rule));
	free_list(m, m->ex.renames, sizeof(struct hm_rename_rule));
	free_list(m, m->ex.file_patterns, sizeof(struct hm_word_entry));
	free_list(m, m->ex.deny_rewrites, sizeof(struct hm_word_entry));
	while (rw) {
		struct hm_rewrite_rule *next = rw->next;

		free(rw->regex_src);
		free(rw->replacement);
		hm_mem_free(&m->mem, HM_MEM_EXCEPTION, rw, sizeof(*rw));
		rw = next;
	}
	for (size_t i = 0; i < HM_ARRAY_SIZE(m->ex.acl_groups); i++)
		if (m->ex.acl_groups[i])
			free_domain(m, m->ex.acl_groups[i]);
	free_groups(m);
}

void hm_model_free(struct hm_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_domains; i++)
		free_domain(m, m->domains[i]);
	free(m->domains);
	free_exception(m);
	if (m->conds) {
		for (size_t i = 0; i < m->conds->n; i++)
			free(m->conds->all[i]);
		free(m->conds->all);
		hm_map_fini(&m->conds->by_text);
		free(m->conds);
	}
	if (m->by_name) {
		hm_map_fini(&m->by_name->by_name);
		free(m->by_name);
	}
	hm_names_free(m->names);
	free(m->path_note);
	hm_learned_free(m);
	free(m->saves);
	hm_owners_free(m);
	free(m);
}

int hm_model_intern(struct hm_model *m, const char *s, size_t len,
		    const struct hm_name **out)
{
	return hm_name_intern(m->names, s, len, out);
}

struct hm_domain *hm_model_find_domain(const struct hm_model *m,
				       const struct hm_name *name)
{
	return hm_map_get(&m->by_name->by_name, hm_map_ptr_key(name));
}

/* The domain named by @name without its last word, if the model has it. */
static struct hm_domain *find_parent(const struct hm_model *m,
				     const struct hm_name *name)
{
	const char *sp = memrchr(name->str, ' ', name->len);
	const struct hm_name *pn;

	if (!sp)
		return NULL;
	pn = hm_name_lookup(m->names, name->str, (size_t)(sp - name->str));
	return pn ? hm_model_find_domain(m, pn) : NULL;
}

static int append_domain(struct hm_model *m, struct hm_domain *d)
{
	if (HM_ARRAY_GROW(&m->domains, &m->cap_domains, m->n_domains + 1))
		return -ENOMEM;
	m->domains[m->n_domains++] = d;
	return 0;
}

static struct hm_domain *new_domain(struct hm_model *m)
{
	struct hm_domain *d = hm_mem_alloc(&m->mem, HM_MEM_DOMAINS, sizeof(*d));

	if (!d)
		return NULL;
	d->acl_tail = &d->acl;
	d->group_no = -1;
	d->profile = m->default_profile;
	return d;
}

int hm_model_domain(struct hm_model *m, const char *name, size_t len,
		    bool create, struct hm_domain **out)
{
	const struct hm_name *n;
	struct hm_domain *d;
	int r;

	*out = NULL;
	n = hm_name_lookup(m->names, name, len);
	d = n ? hm_model_find_domain(m, n) : NULL;
	if (d || !create) {
		*out = d;
		return 0;
	}
	if (!n && (r = hm_model_intern(m, name, len, &n)))
		return r;
	d = new_domain(m);
	if (!d)
		return -ENOMEM;
	d->name = n;
	d->parent = find_parent(m, n);
	if (hm_map_put(&m->by_name->by_name, hm_map_ptr_key(n), d) ||
	    append_domain(m, d)) {
		hm_map_del(&m->by_name->by_name, hm_map_ptr_key(n));
		free_domain(m, d);
		return -ENOMEM;
	}
	*out = d;
	return 1;
}

void hm_model_remove_domain(struct hm_model *m, struct hm_domain *d)
{
	for (size_t i = 0; i < m->n_domains; i++) {
		if (m->domains[i] != d)
			continue;
		/* keep creation order: the text is written in it */
		memmove(&m->domains[i], &m->domains[i + 1],
			(m->n_domains - i - 1) * sizeof(m->domains[0]));
		m->n_domains--;
		hm_map_del(&m->by_name->by_name, hm_map_ptr_key(d->name));
		free_domain(m, d);
		hm_model_relink(m);
		return;
	}
}

void hm_model_relink(struct hm_model *m)
{
	for (size_t i = 0; i < m->n_domains; i++)
		m->domains[i]->parent = find_parent(m, m->domains[i]->name);
}

int hm_model_acl_group(struct hm_model *m, unsigned no,
		       struct hm_domain **out)
{
	struct hm_domain *d;

	if (no >= HM_ARRAY_SIZE(m->ex.acl_groups))
		return -EINVAL;
	d = m->ex.acl_groups[no];
	if (!d) {
		d = new_domain(m);
		if (!d)
			return -ENOMEM;
		d->group_no = (int)no;
		d->profile = 0;
		m->ex.acl_groups[no] = d;
	}
	*out = d;
	return 0;
}

struct hm_group *hm_model_find_group(const struct hm_model *m,
				     enum hm_group_type type,
				     const char *name, size_t len)
{
	const struct hm_name *n = hm_name_lookup(m->names, name, len);

	if (!n)
		return NULL;
	for (struct hm_group *g = m->ex.groups; g; g = g->next)
		if (g->name == n && g->type == type)
			return g;
	return NULL;
}

int hm_model_group(struct hm_model *m, enum hm_group_type type,
		   const char *name, size_t len, struct hm_group **out)
{
	const struct hm_name *n;
	struct hm_group **tail = &m->ex.groups;
	struct hm_group *g;
	int r = hm_model_intern(m, name, len, &n);

	if (r)
		return r;
	for (g = m->ex.groups; g; g = g->next) {
		if (g->name == n) {
			if (g->type != type)
				return -EEXIST;
			*out = g;
			return 0;
		}
		tail = &g->next;
	}
	g = hm_mem_alloc(&m->mem, HM_MEM_EXCEPTION, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->type = (uint8_t)type;
	g->name = n;
	g->tail = &g->members;
	*tail = g;
	*out = g;
	return 0;
}

static bool member_equal(enum hm_group_type type,
			 const struct hm_group_member *a,
			 const struct hm_group_member *b)
{
	switch (type) {
	case HM_GROUP_PATH:
		return a->name == b->name;
	case HM_GROUP_NUMBER:
		return hm_number_equal(&a->number, &b->number);
	default:
		return hm_addr_equal(&a->addr, &b->addr);
	}
}

int hm_group_add(struct hm_model *m, struct hm_group *g,
		 const struct hm_group_member *member)
{
	struct hm_group_member *n;

	for (n = g->members; n; n = n->next)
		if (member_equal(g->type, n, member))
			return 0;
	n = hm_mem_alloc(&m->mem, HM_MEM_EXCEPTION, sizeof(*n));
	if (!n)
		return -ENOMEM;
	*n = *member;
	n->next = NULL;
	*g->tail = n;
	g->tail = &n->next;
	g->n_members++;
	return 1;
}

int hm_model_cond(struct hm_model *m, const struct hm_cond *c,
		  const struct hm_cond **out)
{
	struct hm_cond_table *t = m->conds;
	struct hm_cond *n = hm_map_get(&t->by_text, hm_map_ptr_key(c->text));
	size_t size;

	if (n) {
		*out = n;
		return 0;
	}
	if (HM_ARRAY_GROW(&t->all, &t->cap, t->n + 1))
		return -ENOMEM;
	size = sizeof(*c) + c->n_items * sizeof(c->items[0]);
	n = malloc(size);
	if (!n)
		return -ENOMEM;
	memcpy(n, c, size);
	if (hm_map_put(&t->by_text, hm_map_ptr_key(n->text), n)) {
		free(n);
		return -ENOMEM;
	}
	t->all[t->n++] = n;
	m->mem.bytes[HM_MEM_ACL] += size;
	*out = n;
	return 0;
}

int hm_model_cond_items(struct hm_model *m, const struct hm_name *text,
			const struct hm_cond_item *items, uint32_t n,
			const struct hm_cond **out)
{
	struct hm_cond *c = malloc(sizeof(*c) + n * sizeof(*items));
	int r;

	if (!c)
		return -ENOMEM;
	c->text = text;
	c->n_items = n;
	memcpy(c->items, items, n * sizeof(*items));
	r = hm_model_cond(m, c, out);
	free(c);
	return r;
}

/* Append @size bytes copied from @item to the list at @head, unless
 * @same finds an equal one.  The link is the first member. */
static int add_unique(struct hm_model *m, void **head, const void *item,
		      size_t size, bool (*same)(const void *, const void *))
{
	void **link = head;
	void *n;

	for (void *p = *head; p; p = *(void **)p) {
		if (same(p, item))
			return 0;
		link = (void **)p;
	}
	n = hm_mem_alloc(&m->mem, HM_MEM_EXCEPTION, size);
	if (!n)
		return -ENOMEM;
	memcpy(n, item, size);
	*(void **)n = NULL;
	*link = n;
	return 1;
}

static bool same_transition(const void *a, const void *b)
{
	const struct hm_transition_rule *x = a;
	const struct hm_transition_rule *y = b;

	return x->type == y->type && x->program == y->program &&
	       x->domain == y->domain;
}

static bool same_rename(const void *a, const void *b)
{
	const struct hm_rename_rule *x = a;
	const struct hm_rename_rule *y = b;

	return x->original == y->original && x->renamed == y->renamed &&
	       x->is_alias == y->is_alias;
}

static bool same_word(const void *a, const void *b)
{
	return ((const struct hm_word_entry *)a)->word ==
	       ((const struct hm_word_entry *)b)->word;
}

int hm_model_add_transition(struct hm_model *m,
			    const struct hm_transition_rule *r)
{
	if (r->type >= HM_TR_MAX)
		return -EINVAL;
	return add_unique(m, (void **)&m->ex.transitions, r, sizeof(*r),
			  same_transition);
}

int hm_model_add_rename(struct hm_model *m, const struct hm_rename_rule *r)
{
	return add_unique(m, (void **)&m->ex.renames, r, sizeof(*r),
			  same_rename);
}

int hm_model_add_word(struct hm_model *m, struct hm_word_entry **list,
		      const struct hm_name *word)
{
	struct hm_word_entry e = { .word = word };

	return add_unique(m, (void **)list, &e, sizeof(e), same_word);
}

int hm_model_add_rewrite(struct hm_model *m, const char *regex,
			 const char *replacement, unsigned long line)
{
	struct hm_rewrite_rule **link = &m->ex.rewrites;
	struct hm_rewrite_rule *r;

	for (r = m->ex.rewrites; r; r = r->next) {
		if (!strcmp(r->regex_src, regex) &&
		    !strcmp(r->replacement, replacement))
			return 0;
		link = &r->next;
	}
	r = hm_mem_alloc(&m->mem, HM_MEM_EXCEPTION, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->regex_src = strdup(regex);
	r->replacement = strdup(replacement);
	r->line = line;
	if (!r->regex_src || !r->replacement) {
		free(r->regex_src);
		free(r->replacement);
		hm_mem_free(&m->mem, HM_MEM_EXCEPTION, r, sizeof(*r));
		return -ENOMEM;
	}
	*link = r;
	return 1;
}

static int cmp_domain(const void *a, const void *b)
{
	const struct hm_domain *x = *(const struct hm_domain *const *)a;
	const struct hm_domain *y = *(const struct hm_domain *const *)b;

	return hm_name_cmp(x->name, y->name);
}

struct hm_domain **hm_model_sorted_domains(const struct hm_model *m)
{
	struct hm_domain **v = malloc((m->n_domains + 1) * sizeof(*v));

	if (!v)
		return NULL;
	if (m->n_domains)	/* m->domains is NULL in an empty model */
		memcpy(v, m->domains, m->n_domains * sizeof(*v));
	qsort(v, m->n_domains, sizeof(*v), cmp_domain);
	return v;
}

/* ----------------------------------------------------------- logins */

void hm_logins_add(struct hm_logins *l, uint32_t auid)
{
	if (hm_logins_has(l, auid))
		return;
	if (l->n < HM_LOGINS_MAX)
		l->v[l->n] = auid;
	if (l->n <= HM_LOGINS_MAX)
		l->n++;
}

void hm_logins_add_all(struct hm_logins *l, const struct hm_logins *src)
{
	for (uint8_t i = 0; i < src->n && i < HM_LOGINS_MAX; i++)
		hm_logins_add(l, src->v[i]);
	if (src->n > HM_LOGINS_MAX)
		l->n = HM_LOGINS_MAX + 1;
}

bool hm_logins_has(const struct hm_logins *l, uint32_t auid)
{
	for (uint8_t i = 0; i < l->n && i < HM_LOGINS_MAX; i++)
		if (l->v[i] == auid)
			return true;
	return false;
}

void hm_logins_text(const struct hm_logins *l, struct hm_sbuf *b)
{
	for (uint8_t i = 0; i < l->n && i < HM_LOGINS_MAX; i++) {
		if (i)
			hm_sbuf_addc(b, ',');
		if (l->v[i] == HM_LOGIN_UNSET)
			hm_sbuf_addc(b, '-');
		else
			hm_sbuf_printf(b, "%u", l->v[i]);
	}
	if (l->n > HM_LOGINS_MAX)
		hm_sbuf_adds(b, ",+");
}

int hm_logins_parse(struct hm_logins *l, const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		size_t len = (size_t)((comma ? comma : end) - s);
		unsigned long v = 0;

		if (len == 1 && *s == '+') {
			l->n = HM_LOGINS_MAX + 1;
		} else if (len == 1 && *s == '-') {
			hm_logins_add(l, HM_LOGIN_UNSET);
		} else {
			if (!len || len > 10)
				return -EINVAL;
			for (size_t i = 0; i < len; i++) {
				if (s[i] < '0' || s[i] > '9')
					return -EINVAL;
				v = v * 10 + (unsigned long)(s[i] - '0');
			}
			if (v >= HM_LOGIN_UNSET)
				return -EINVAL;
			hm_logins_add(l, (uint32_t)v);
		}
		s += len + (comma != NULL);
	}
	return 0;
}
