// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * export_util.c - what the drawing and report exporters share: the domain
 * tree (domains arranged by name with absent ancestors filled in) and
 * one-line ACL summaries.  Owns nothing beyond what the caller frees;
 * reads the model only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export_private.h"

/* --------------------------------------------------------- domain tree */

static uint32_t tree_add(struct hm_dtree *t, const struct hm_domain *dom,
			 const char *name, size_t len, uint32_t parent)
{
	struct hm_tnode *n;
	uint32_t id;
	const char *sp;

	if (HM_ARRAY_GROW(&t->v, &t->cap, t->n + 1))
		return HM_TNONE;
	id = (uint32_t)t->n++;
	n = &t->v[id];
	memset(n, 0, sizeof(*n));
	n->dom = dom;
	n->name = name;
	n->len = (uint32_t)len;
	sp = memrchr(name, ' ', len);
	n->word = sp ? (uint32_t)(sp - name) + 1 : 0;
	n->parent = parent;
	n->first_child = n->last_child = n->next = HM_TNONE;
	n->seq = HM_TNONE;
	if (parent == HM_TNONE) {
		if (t->first_root == HM_TNONE)
			t->first_root = id;
		else
			t->v[t->last_root].next = id;
		t->last_root = id;
		t->n_roots++;
		return id;
	}
	n->depth = t->v[parent].depth + 1;
	if (t->v[parent].first_child == HM_TNONE)
		t->v[parent].first_child = id;
	else
		t->v[t->v[parent].last_child].next = id;
	t->v[parent].last_child = id;
	t->v[parent].n_children++;
	return id;
}

/* Is node @a's name @s's name up to a word boundary? */
static bool is_ancestor(const struct hm_tnode *a, const char *s, size_t len)
{
	return a->len < len && s[a->len] == ' ' && !memcmp(a->name, s, a->len);
}

struct stack {
	uint32_t *v;
	size_t n;
	size_t cap;
};

static int push(struct stack *st, uint32_t id)
{
	if (id == HM_TNONE)
		return -ENOMEM;
	if (HM_ARRAY_GROW(&st->v, &st->cap, st->n + 1))
		return -ENOMEM;
	st->v[st->n++] = id;
	return 0;
}

/*
 * Add domain @d (NULL: one the policy lacks) called @s below the deepest
 * stacked ancestor, absent ancestors first.
 */
static int tree_place(struct hm_dtree *t, struct stack *st,
		      const struct hm_domain *d, const char *s, size_t len)
{
	size_t from;
	uint32_t top;

	while (st->n && !is_ancestor(&t->v[st->v[st->n - 1]], s, len))
		st->n--;
	top = st->n ? st->v[st->n - 1] : HM_TNONE;
	from = st->n ? t->v[top].len + 1 : 0;
	for (size_t p = from; p < len; p++) {
		if (s[p] != ' ' || p == from || s[p - 1] == ' ')
			continue;
		if (push(st, tree_add(t, NULL, s, p, top)))
			return -ENOMEM;
		top = st->v[st->n - 1];
	}
	return push(st, tree_add(t, d, s, len, top));
}

static void tree_count(struct hm_dtree *t, const struct hm_check_result *check)
{
	for (size_t i = 0; i < t->n; i++) {
		struct hm_tnode *n = &t->v[i];
		const struct hm_check_domain *cd;

		if (!check)
			continue;
		cd = hm_check_result_find(check, n->name, n->len);
		if (cd)
			n->viol = (uint32_t)cd->count;
	}
	for (size_t i = 0; i < t->n; i++)
		t->v[i].viol_desc = t->v[i].viol;
	for (size_t i = t->n; i-- > 0;) {
		uint32_t p = t->v[i].parent;

		if (p == HM_TNONE)
			continue;
		t->v[p].n_desc += 1 + t->v[i].n_desc;
		t->v[p].viol_desc += t->v[i].viol_desc;
	}
}

/* Byte order of a model name and a check result's domain name. */
static int cmp_name_str(const struct hm_name *a, const char *b)
{
	size_t bl = strlen(b);
	int c = memcmp(a->str, b, a->len < bl ? a->len : bl);

	return c ? c : (a->len > bl) - (a->len < bl);
}

int hm_dtree_build(const struct hm_model *m,
		   const struct hm_check_result *check, struct hm_dtree *t)
{
	struct hm_domain **sorted = hm_model_sorted_domains(m);
	const struct hm_check_domain *cd = check ? check->domains : NULL;
	const struct hm_check_domain *cd_end = cd ? cd + check->n_domains : NULL;
	struct stack st = { 0 };
	size_t i = 0;
	int r = 0;

	memset(t, 0, sizeof(*t));
	t->first_root = HM_TNONE;
	t->last_root = HM_TNONE;
	if (!sorted)
		return -ENOMEM;
	/* Both in name order: the model's domains and, merged in, those
	 * the check names that the model lacks (drawn as absent). */
	while (!r && (i < m->n_domains || cd < cd_end)) {
		int c = i == m->n_domains ? 1 : cd == cd_end ? -1 :
			cmp_name_str(sorted[i]->name, cd->name);

		if (c > 0) {
			r = tree_place(t, &st, NULL, cd->name,
				       strlen(cd->name));
			cd++;
			continue;
		}
		if (c == 0)
			cd++;
		r = tree_place(t, &st, sorted[i], sorted[i]->name->str,
			       sorted[i]->name->len);
		if (!r)
			t->v[st.v[st.n - 1]].seq = (uint32_t)i;
		i++;
	}
	t->n_domains = m->n_domains;
	free(st.v);
	free(sorted);
	if (!r)
		tree_count(t, check);
	return r;
}

void hm_dtree_free(struct hm_dtree *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

uint32_t hm_dtree_find(const struct hm_dtree *t, const char *name, size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].len == len && !memcmp(t->v[i].name, name, len))
			return (uint32_t)i;
	return HM_TNONE;
}

int hm_export_root(const struct hm_dtree *t, const struct hm_export_opts *o,
		   uint32_t *out)
{
	*out = HM_TNONE;
	if (!o->root)
		return 0;
	*out = hm_dtree_find(t, o->root, strlen(o->root));
	if (*out != HM_TNONE)
		return 0;
	hm_diag_add(o->diag, HM_DIAG_ERROR, NULL, 0,
		    "no domain named '%s' in the policy", o->root);
	return -ENOENT;
}

/* ----------------------------------------------------------- summaries */

/* Kinds that are not counted per operation: their summary word. */
static const char *const kind_words[HM_ACL_KIND_MAX] = {
	[HM_ACL_INET] = "network inet",
	[HM_ACL_UNIX] = "network unix",
	[HM_ACL_SIGNAL] = "ipc signal",
	[HM_ACL_ENV] = "misc env",
};

static bool is_file_kind(unsigned kind)
{
	return hm_acl_has_perm(kind) && kind != HM_ACL_INET &&
	       kind != HM_ACL_UNIX;
}

void hm_acl_summary(struct hm_sbuf *b, const struct hm_domain *d)
{
	size_t ops[HM_FILE_OP_MAX] = { 0 };
	size_t kinds[HM_ACL_KIND_MAX] = { 0 };
	int n = 0;

	for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
		if (e->kind >= HM_ACL_KIND_MAX)
			continue;
		kinds[e->kind]++;
		if (!is_file_kind(e->kind))
			continue;
		for (unsigned op = 0; op < HM_FILE_OP_MAX; op++)
			if (e->perm & (1u << op))
				ops[op]++;
	}
	hm_sbuf_printf(b, "%zu ACL entr%s", d->n_acl,
		       d->n_acl == 1 ? "y" : "ies");
	for (unsigned op = 0; op < HM_FILE_OP_MAX; op++) {
		if (!ops[op])
			continue;
		hm_sbuf_printf(b, "%s file %s %zu", n++ ? "," : ":",
			       hm_file_op_names[op], ops[op]);
	}
	for (unsigned k = 0; k < HM_ACL_KIND_MAX; k++) {
		if (!kinds[k] || !kind_words[k])
			continue;
		hm_sbuf_printf(b, "%s %s %zu", n++ ? "," : ":", kind_words[k],
			       kinds[k]);
	}
}
