// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * export_util.c - pieces every exporter uses: a growing string buffer,
 * string quoting for JSON, the domain tree (domains arranged by name with
 * absent ancestors filled in) and one-line ACL summaries.  Owns nothing
 * beyond what the caller frees; reads the model only.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "export_private.h"

const struct hm_export_opts hm_export_default_opts;

/* -------------------------------------------------------------- buffers */

static bool sbuf_grow(struct hm_sbuf *b, size_t more)
{
	size_t cap;
	char *n;

	if (b->oom)
		return false;
	if (more < b->cap - b->len)
		return true;
	cap = b->cap ? b->cap : 64;
	while (cap - b->len <= more) {
		if (cap > SIZE_MAX / 2) {
			b->oom = true;
			return false;
		}
		cap *= 2;
	}
	n = realloc(b->s, cap);
	if (!n) {
		b->oom = true;
		return false;
	}
	b->s = n;
	b->cap = cap;
	return true;
}

void hm_sbuf_add(struct hm_sbuf *b, const char *s, size_t len)
{
	if (!sbuf_grow(b, len))
		return;
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
}

void hm_sbuf_adds(struct hm_sbuf *b, const char *s)
{
	hm_sbuf_add(b, s, strlen(s));
}

void hm_sbuf_addc(struct hm_sbuf *b, char c)
{
	hm_sbuf_add(b, &c, 1);
}

void hm_sbuf_printf(struct hm_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !sbuf_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void hm_sbuf_free(struct hm_sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

const char *hm_sbuf_str(const struct hm_sbuf *b)
{
	return b->s ? b->s : "";
}

void hm_sbuf_add_printable(struct hm_sbuf *b, const char *s, size_t len)
{
	size_t run = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c <= 0x7e)
			continue;
		hm_sbuf_add(b, s + run, i - run);
		hm_sbuf_printf(b, "\\%03o", c);
		run = i + 1;
	}
	hm_sbuf_add(b, s + run, len - run);
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
void hm_sbuf_add_html(struct hm_sbuf *b, const char *s, size_t len)
{
	struct hm_sbuf pr = { 0 };

	hm_sbuf_add_printable(&pr, s, len);
	for (size_t i = 0; i < pr.len; i++) {
		switch (pr.s[i]) {
		case '<':
			hm_sbuf_adds(b, "&lt;");
			break;
		case '>':
			hm_sbuf_adds(b, "&gt;");
			break;
		case '&':
			hm_sbuf_adds(b, "&amp;");
			break;
		case '"':
			hm_sbuf_adds(b, "&quot;");
			break;
		default:
			hm_sbuf_addc(b, pr.s[i]);
		}
	}
	if (pr.oom)
		b->oom = true;
	hm_sbuf_free(&pr);
}

static size_t utf8_seq(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool hm_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(p + i, len - i);

		if (!k)
			return false;
		i += k;
	}
	return true;
}

static void add_json(struct hm_sbuf *b, const char *s, size_t len,
		     bool html_safe)
{
	const unsigned char *p = (const unsigned char *)s;

	hm_sbuf_addc(b, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t k;

		switch (c) {
		case '"':
			hm_sbuf_add(b, "\\\"", 2);
			break;
		case '\\':
			hm_sbuf_add(b, "\\\\", 2);
			break;
		case '\n':
			hm_sbuf_add(b, "\\n", 2);
			break;
		case '\t':
			hm_sbuf_add(b, "\\t", 2);
			break;
		case '\r':
			hm_sbuf_add(b, "\\r", 2);
			break;
		case '<':
		case '>':
		case '&':
			if (!html_safe)
				goto plain;
			hm_sbuf_printf(b, "\\u%04x", c);
			break;
		default:
plain:
			if (c < 0x20 || c == 0x7f) {
				hm_sbuf_printf(b, "\\u%04x", c);
				break;
			}
			k = utf8_seq(p + i, len - i);
			if (!k) {
				hm_sbuf_printf(b, "\\u%04x", c);
				break;
			}
			hm_sbuf_add(b, s + i, k);
			i += k;
			continue;
		}
		i++;
	}
	hm_sbuf_addc(b, '"');
}

void hm_sbuf_add_json(struct hm_sbuf *b, const char *s, size_t len)
{
	add_json(b, s, len, true);
}

void hm_sbuf_add_json_text(struct hm_sbuf *b, const char *s, size_t len)
{
	add_json(b, s, len, false);
}

/* --------------------------------------------------------- domain tree */

static uint32_t tree_add(struct hm_dtree *t, const struct hm_domain *dom,
			 const char *name, size_t len, uint32_t parent)
{
	struct hm_tnode *n;
	uint32_t id;
	const char *sp;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct hm_tnode *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return HM_TNONE;
		t->v = v;
		t->cap = cap;
	}
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
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 32;
		uint32_t *v = realloc(st->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		st->v = v;
		st->cap = cap;
	}
	st->v[st->n++] = id;
	return 0;
}

/* Add @d below the deepest stacked ancestor, absent ancestors first. */
static int tree_place(struct hm_dtree *t, struct stack *st,
		      const struct hm_domain *d)
{
	const char *s = d->name->str;
	size_t len = d->name->len;
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

		if (!check || !n->dom)
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

int hm_dtree_build(const struct hm_model *m,
		   const struct hm_check_result *check, struct hm_dtree *t)
{
	struct hm_domain **sorted = hm_model_sorted_domains(m);
	struct stack st = { 0 };
	int r = 0;

	memset(t, 0, sizeof(*t));
	t->first_root = HM_TNONE;
	t->last_root = HM_TNONE;
	if (!sorted)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_domains && !r; i++) {
		r = tree_place(t, &st, sorted[i]);
		if (!r)
			t->v[st.v[st.n - 1]].seq = (uint32_t)i;
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

static const char *const profile_names[] = {
	[HM_PROFILE_DISABLED] = "disabled",
	[HM_PROFILE_LEARNING] = "learning",
	[HM_PROFILE_PERMISSIVE] = "permissive",
	[HM_PROFILE_ENFORCING] = "enforcing",
};

const char *hm_profile_name(unsigned profile, char *buf, size_t bufsz)
{
	if (profile < HM_ARRAY_SIZE(profile_names))
		return profile_names[profile];
	snprintf(buf, bufsz, "profile %u", profile);
	return buf;
}

const char *const hm_domain_flag_ids[8] = {
	"history-unobserved", "parent-unobserved", "transition-failed",
	"quota-exceeded", "flag-4", "flag-5", "flag-6", "flag-7",
};

int hm_domain_flag_names(struct hm_sbuf *b, unsigned flags, const char *sep)
{
	int n = 0;

	for (unsigned i = 0; i < 8; i++) {
		if (!(flags & (1u << i)))
			continue;
		if (n++)
			hm_sbuf_adds(b, sep);
		hm_sbuf_adds(b, hm_domain_flag_ids[i]);
	}
	return n;
}

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

int hm_export_flush(FILE *f)
{
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}

/* ------------------------------------------------------- typed entries */

const char *const hm_acl_kind_ids[HM_ACL_KIND_MAX] = {
	[HM_ACL_PATH] = "path",
	[HM_ACL_PATH_NUMBER] = "path-number",
	[HM_ACL_MKDEV] = "mkdev",
	[HM_ACL_PATH2] = "path2",
	[HM_ACL_MOUNT] = "mount",
	[HM_ACL_INET] = "inet",
	[HM_ACL_UNIX] = "unix",
	[HM_ACL_SIGNAL] = "signal",
	[HM_ACL_ENV] = "env",
};

const char *const hm_radix_names[3] = {
	[HM_RADIX_DEC] = "dec", [HM_RADIX_OCT] = "oct", [HM_RADIX_HEX] = "hex",
};

const char *const hm_cond_var_names[HM_COND_VAR_MAX] = {
	[HM_COND_TASK_UID] = "task.uid",
	[HM_COND_TASK_EUID] = "task.euid",
	[HM_COND_TASK_SUID] = "task.suid",
	[HM_COND_TASK_FSUID] = "task.fsuid",
	[HM_COND_TASK_GID] = "task.gid",
	[HM_COND_TASK_EGID] = "task.egid",
	[HM_COND_TASK_SGID] = "task.sgid",
	[HM_COND_TASK_FSGID] = "task.fsgid",
	[HM_COND_TASK_PID] = "task.pid",
	[HM_COND_TASK_PPID] = "task.ppid",
	[HM_COND_EXEC_REALPATH] = "exec.realpath",
	[HM_COND_EXEC_ARGC] = "exec.argc",
	[HM_COND_EXEC_ARGV] = "exec.argv",
	[HM_COND_SYMLINK_TARGET] = "symlink.target",
	[HM_COND_OTHER] = "other",
};

bool hm_acl_has_perm(unsigned kind)
{
	return kind < HM_ACL_KIND_MAX && kind != HM_ACL_SIGNAL &&
	       kind != HM_ACL_ENV;
}

const char *hm_acl_op_name(unsigned kind, unsigned op)
{
	if (kind == HM_ACL_INET || kind == HM_ACL_UNIX)
		return op < HM_NET_OP_MAX ? hm_net_op_names[op] : NULL;
	if (!hm_acl_has_perm(kind) || op >= HM_FILE_OP_MAX ||
	    hm_file_op_kind[op] != kind)
		return NULL;
	return hm_file_op_names[op];
}

const char *hm_addr_format(const struct hm_addr *a, int which, char *buf)
{
	const uint8_t *p = which ? a->max : a->min;

	if (!inet_ntop(a->is_ipv6 ? AF_INET6 : AF_INET, p, buf, 64))
		strcpy(buf, "?");
	return buf;
}
