// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_write.c - a model's domain and exception policy as text in a
 * dialect, deterministically: a "# histmac VERSION DIALECT" header,
 * domains in name order with their entries in hm_acl_cmp() order, groups
 * by type and name with sorted members, rules in the order they were
 * read (aggregators: first match wins, so order matters).  Entry lines
 * come from tomoyo_acl_write.c; what a dialect cannot say becomes a
 * counted "# not in ..." comment.  Reads the model only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tomoyo_private.h"

#define D21(em) ((em)->dialect == HM_DIALECT_21)

void hm_tomoyo_header(struct hm_sbuf *b, enum hm_dialect dialect)
{
	hm_sbuf_printf(b, "# histmac %s %s\n", HM_VERSION,
		       hm_dialect_names[dialect]);
}

/* Write a comment built in @tmp, then empty @tmp. */
static void comment(struct hm_emit *em, enum hm_conv_what what,
		    const char *why, struct hm_sbuf *tmp)
{
	hm_tomoyo_emit_comment(em, what, why, hm_sbuf_str(tmp), tmp->len);
	if (tmp->oom)
		em->sb->oom = true;
	tmp->len = 0;
}

static void line(struct hm_emit *em, struct hm_sbuf *tmp)
{
	hm_tomoyo_emit_line(em, hm_sbuf_str(tmp), tmp->len);
	if (tmp->oom)
		em->sb->oom = true;
	tmp->len = 0;
}

/* ------------------------------------------------------- domain policy */

static void write_groups_used(struct hm_emit *em, const struct hm_domain *d,
			      struct hm_sbuf *tmp)
{
	for (unsigned g = 0; g < 256; g++) {
		if (!(d->groups[g / 8] & (1u << (g % 8))))
			continue;
		if (D21(em) && g == 0)
			continue;	/* 2.1: allow_read is global */
		hm_sbuf_printf(tmp, "use_group %u", g);
		if (D21(em))
			comment(em, HM_CONV_USE_GROUP, "no acl_group in "
				"TOMOYO 2.1, only the global allow_read", tmp);
		else
			line(em, tmp);
	}
	if (D21(em) && !(d->groups[0] & 1)) {
		hm_sbuf_adds(tmp, "ignore_global_allow_read");
		line(em, tmp);
	}
}

static void write_flags(struct hm_emit *em, const struct hm_domain *d,
			struct hm_sbuf *tmp)
{
	static const struct {
		unsigned flag;
		const char *kw;
	} flags[] = {
		{ HM_DOMAIN_QUOTA_EXCEEDED, "quota_exceeded" },
		{ HM_DOMAIN_TRANSITION_FAILED, "transition_failed" },
	};

	for (size_t i = 0; i < HM_ARRAY_SIZE(flags); i++) {
		if (!(d->flags & flags[i].flag))
			continue;
		hm_sbuf_adds(tmp, flags[i].kw);
		if (D21(em))
			comment(em, HM_CONV_DOMAIN_FLAG,
				"no domain flags in TOMOYO 2.1", tmp);
		else
			line(em, tmp);
	}
}

/* histmac's own domain state, as a comment every dialect keeps. */
static void write_annotation(struct hm_sbuf *b, const struct hm_domain *d)
{
	if (!(d->flags & (HM_DOMAIN_HISTORY_UNOBSERVED |
			  HM_DOMAIN_PARENT_UNOBSERVED)) &&
	    !d->events && !d->first_seen && !d->last_seen && !d->logins.n)
		return;
	hm_sbuf_adds(b, "# histmac:");
	if (d->flags & HM_DOMAIN_HISTORY_UNOBSERVED)
		hm_sbuf_adds(b, " history_unobserved");
	if (d->flags & HM_DOMAIN_PARENT_UNOBSERVED)
		hm_sbuf_adds(b, " parent_unobserved");
	if (d->events)
		hm_sbuf_printf(b, " events=%llu",
			       (unsigned long long)d->events);
	if (d->first_seen)
		hm_sbuf_printf(b, " first_seen=%lld", (long long)d->first_seen);
	if (d->last_seen)
		hm_sbuf_printf(b, " last_seen=%lld", (long long)d->last_seen);
	if (d->logins.n) {
		hm_sbuf_adds(b, " logins=");
		hm_logins_text(&d->logins, b);
	}
	hm_sbuf_addc(b, '\n');
}

static int cmp21(const void *a, const void *b)
{
	return hm_tomoyo_cmp21(*(const struct hm_acl_head *const *)a,
			       *(const struct hm_acl_head *const *)b, NULL);
}

/*
 * 2.1 leaves modes out, so entries that differ only there read back as
 * one: write them as one group (hm_tomoyo_emit_group21()).
 * Returns: the number of policy lines written.
 */
static size_t write_acl21(struct hm_emit *em, const struct hm_acl_head **v,
			  size_t n)
{
	size_t lines = 0;
	size_t start = 0;

	qsort(v, n, sizeof(*v), cmp21);
	for (size_t i = 1; i <= n; i++) {
		bool same = false;

		if (i < n)
			hm_tomoyo_cmp21(v[i - 1], v[i], &same);
		if (same)
			continue;
		hm_tomoyo_emit_group21(em, v + start, i - start);
		lines += em->n_lines;
		start = i;
	}
	return lines;
}

static int write_domain(struct hm_emit *em, const struct hm_domain *d)
{
	const struct hm_acl_head **acl = hm_domain_sorted_acl(d);
	struct hm_sbuf tmp = { 0 };
	size_t lines = 0;

	if (!acl)
		return -ENOMEM;
	hm_sbuf_add(em->sb, d->name->str, d->name->len);
	hm_sbuf_printf(em->sb, "\nuse_profile %u\n", d->profile);
	write_groups_used(em, d, &tmp);
	write_flags(em, d, &tmp);
	write_annotation(em->sb, d);
	hm_sbuf_addc(em->sb, '\n');
	if (D21(em))
		lines = write_acl21(em, acl, d->n_acl);
	for (size_t i = 0; i < d->n_acl && !D21(em); i++) {
		hm_tomoyo_emit_acl(em, acl[i]);
		lines += em->n_lines;
	}
	/* Only after policy lines: a text that reads back the same. */
	if (lines)
		hm_sbuf_addc(em->sb, '\n');
	free(acl);
	hm_sbuf_free(&tmp);
	return 0;
}

/* path_note may hold anything: keep it on one printable line. */
static void write_path_note(struct hm_sbuf *b, const char *note)
{
	if (!note || !*note)
		return;
	hm_sbuf_adds(b, "# histmac: path_note ");
	for (const char *p = note; *p; p++)
		hm_sbuf_addc(b, (unsigned char)*p < 0x20 ||
				(unsigned char)*p == 0x7f ? ' ' : *p);
	hm_sbuf_addc(b, '\n');
}

static int cmp_learned(const void *a, const void *b)
{
	const struct hm_name *x = (*(const struct hm_learned *const *)a)->node;
	const struct hm_name *y = (*(const struct hm_learned *const *)b)->node;

	if (!x || !y)
		return !!x - !!y;	/* no node first */
	return strcmp(x->str, y->str);
}

/* One "learned" line per node, sorted, so saves are deterministic. */
static int write_learned(struct hm_sbuf *b, const struct hm_model *m)
{
	const struct hm_learned **v;
	size_t n = 0;

	for (const struct hm_learned *l = m->learned; l; l = l->next)
		n++;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	for (const struct hm_learned *l = m->learned; l; l = l->next)
		if (hm_learned_mark(l)->sec)
			v[n++] = l;
	qsort(v, n, sizeof(v[0]), cmp_learned);
	for (size_t i = 0; i < n; i++) {
		const struct hm_stamp *at = hm_learned_mark(v[i]);

		hm_sbuf_printf(b, "# histmac: learned %s %lld.%03u:%llu\n",
			       v[i]->node ? v[i]->node->str : "-",
			       (long long)at->sec, at->msec,
			       (unsigned long long)at->serial);
	}
	free(v);
	return 0;
}

static int domain_text(const struct hm_model *m, struct hm_emit *em)
{
	struct hm_domain **v = hm_model_sorted_domains(m);
	int r = 0;

	if (!v)
		return -ENOMEM;
	hm_tomoyo_header(em->sb, em->dialect);
	write_path_note(em->sb, m->path_note);
	if (write_learned(em->sb, m) < 0) {
		free(v);
		return -ENOMEM;
	}
	hm_sbuf_addc(em->sb, '\n');
	for (size_t i = 0; i < m->n_domains && !r; i++)
		r = write_domain(em, v[i]);
	free(v);
	return r;
}

/* ---------------------------------------------------- exception policy */

static const enum hm_conv_what group_what[HM_GROUP_TYPE_MAX] = {
	[HM_GROUP_PATH] = HM_CONV_PATH_GROUP,
	[HM_GROUP_NUMBER] = HM_CONV_NUMBER_GROUP,
	[HM_GROUP_ADDRESS] = HM_CONV_ADDRESS_GROUP,
};

static const char *const group_kw[HM_GROUP_TYPE_MAX] = {
	[HM_GROUP_PATH] = "path_group",
	[HM_GROUP_NUMBER] = "number_group",
	[HM_GROUP_ADDRESS] = "address_group",
};

static int cmp_group(const void *a, const void *b)
{
	const struct hm_group *x = *(const struct hm_group *const *)a;
	const struct hm_group *y = *(const struct hm_group *const *)b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return hm_name_cmp(x->name, y->name);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int cmp_member(const void *a, const void *b)
{
	const struct hm_group_member *x =
		*(const struct hm_group_member *const *)a;
	const struct hm_group_member *y =
		*(const struct hm_group_member *const *)b;
	int c;

	if (x->name || y->name)
		return x->name && y->name ? hm_name_cmp(x->name, y->name) :
					    (x->name ? 1 : -1);
	if (x->addr.is_ipv6 != y->addr.is_ipv6)
		return x->addr.is_ipv6 ? 1 : -1;
	c = memcmp(x->addr.min, y->addr.min, 16);
	if (!c)
		c = memcmp(x->addr.max, y->addr.max, 16);
	if (!c)
		c = cmp_u64(x->number.min, y->number.min);
	return c ? c : cmp_u64(x->number.max, y->number.max);
}

static void put_member(struct hm_sbuf *b, const struct hm_group *g,
		       const struct hm_group_member *mb)
{
	if (g->type == HM_GROUP_PATH)
		hm_sbuf_add(b, mb->name->str, mb->name->len);
	else if (g->type == HM_GROUP_NUMBER)
		hm_tomoyo_put_number(b, &mb->number);
	else
		hm_tomoyo_put_addr(b, &mb->addr);
}

static int write_group(struct hm_emit *em, const struct hm_group *g,
		       struct hm_sbuf *tmp)
{
	const struct hm_group_member **v = malloc((g->n_members + 1) *
						  sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (const struct hm_group_member *mb = g->members; mb; mb = mb->next)
		v[n++] = mb;
	qsort(v, n, sizeof(*v), cmp_member);
	for (size_t i = 0; i < n; i++) {
		hm_sbuf_printf(tmp, "%s %s ", group_kw[g->type], g->name->str);
		put_member(tmp, g, v[i]);
		if (D21(em) && g->type == HM_GROUP_NUMBER)
			comment(em, group_what[g->type],
				"no number_group in TOMOYO 2.1", tmp);
		else
			line(em, tmp);
	}
	free(v);
	return 0;
}

static int write_groups(struct hm_emit *em, const struct hm_model *m,
			struct hm_sbuf *tmp)
{
	size_t n = 0;
	const struct hm_group **v;
	int r = 0;

	for (const struct hm_group *g = m->ex.groups; g; g = g->next)
		n++;
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	for (const struct hm_group *g = m->ex.groups; g; g = g->next)
		v[n++] = g;
	qsort(v, n, sizeof(*v), cmp_group);
	for (size_t i = 0; i < n && !r; i++)
		r = write_group(em, v[i], tmp);
	free(v);
	return r;
}

static void write_renames(struct hm_emit *em, const struct hm_model *m,
			  struct hm_sbuf *tmp)
{
	for (const struct hm_rename_rule *r = m->ex.renames; r; r = r->next) {
		hm_sbuf_printf(tmp, "%s %s %s",
			       r->is_alias ? "alias" : "aggregator",
			       r->original->str, r->renamed->str);
		if (r->is_alias && !D21(em))
			comment(em, HM_CONV_ALIAS, "alias is TOMOYO 2.1 only; "
				"domains are named by the symlink path", tmp);
		else
			line(em, tmp);
	}
}

/* Why 2.1 cannot write transition rule @r, or NULL. */
static const char *transition_why21(const struct hm_transition_rule *r)
{
	bool keep = r->type == HM_TR_KEEP || r->type == HM_TR_NO_KEEP;

	if (r->type == HM_TR_RESET || r->type == HM_TR_NO_RESET)
		return "no reset_domain in TOMOYO 2.1";
	if (keep && !r->program && !r->domain)
		return "TOMOYO 2.1 has no 'any'";
	if (keep && r->program && !r->domain)
		return "TOMOYO 2.1 keep_domain needs a domain";
	if (!keep && !r->program)
		return "TOMOYO 2.1 has no 'any' program";
	return NULL;
}

static void put_transition21(struct hm_sbuf *b,
			     const struct hm_transition_rule *r)
{
	hm_sbuf_adds(b, hm_transition_names[r->type]);
	if (r->program) {
		hm_sbuf_printf(b, " %s", r->program->str);
		if (r->domain)
			hm_sbuf_adds(b, " from");
	}
	if (r->domain)
		hm_sbuf_printf(b, " %s", r->domain->str);
}

static void write_transitions(struct hm_emit *em, const struct hm_model *m,
			      struct hm_sbuf *tmp)
{
	for (const struct hm_transition_rule *r = m->ex.transitions; r;
	     r = r->next) {
		const char *why = D21(em) ? transition_why21(r) : NULL;

		if (D21(em) && !why) {
			put_transition21(tmp, r);
			line(em, tmp);
			continue;
		}
		hm_sbuf_printf(tmp, "%s %s from %s",
			       hm_transition_names[r->type],
			       r->program ? r->program->str : "any",
			       r->domain ? r->domain->str : "any");
		if (why)
			comment(em, HM_CONV_TRANSITION, why, tmp);
		else
			line(em, tmp);
	}
}

/* 2.1: acl_group 0's plain "file read" are the global allow_read. */
static void write_acl_entry21(struct hm_emit *em, unsigned no,
			      const char *prefix, const struct hm_acl_head *e,
			      struct hm_sbuf *tmp)
{
	uint32_t rest = e->perm;

	if (no == 0 && e->kind == HM_ACL_PATH && !e->cond &&
	    (e->perm & (1u << HM_FILE_READ))) {
		hm_sbuf_adds(tmp, "allow_read ");
		hm_tomoyo_put_name_op(tmp, &hm_container_of(e,
				      struct hm_acl_path, head)->name);
		line(em, tmp);
		rest &= ~(1u << HM_FILE_READ);
	}
	if (!rest)
		return;
	em->prefix = prefix;
	hm_tomoyo_emit_acl_comment(em, e, rest, "TOMOYO 2.1 has no "
				   "acl_group, only the global allow_read");
	em->prefix = "";
}

static int write_acl_groups(struct hm_emit *em, const struct hm_model *m,
			    struct hm_sbuf *tmp)
{
	char prefix[32];

	for (unsigned no = 0; no < HM_ARRAY_SIZE(m->ex.acl_groups); no++) {
		const struct hm_domain *g = m->ex.acl_groups[no];
		const struct hm_acl_head **acl;

		if (!g || !g->n_acl)
			continue;
		acl = hm_domain_sorted_acl(g);
		if (!acl)
			return -ENOMEM;
		snprintf(prefix, sizeof(prefix), "acl_group %u ", no);
		for (size_t i = 0; i < g->n_acl; i++) {
			if (D21(em)) {
				write_acl_entry21(em, no, prefix, acl[i], tmp);
				continue;
			}
			em->prefix = prefix;
			hm_tomoyo_emit_acl(em, acl[i]);
			em->prefix = "";
		}
		free(acl);
	}
	return 0;
}

static void write_words(struct hm_emit *em, const struct hm_word_entry *w,
			const char *kw, enum hm_conv_what what,
			struct hm_sbuf *tmp)
{
	for (; w; w = w->next) {
		hm_sbuf_printf(tmp, "%s %s", kw, w->word->str);
		if (D21(em))
			line(em, tmp);
		else
			comment(em, what, what == HM_CONV_FILE_PATTERN ?
				"file_pattern is TOMOYO 2.1 only; use "
				"histmac patternize" :
				"deny_rewrite is TOMOYO 2.1 only; grant "
				"append without write instead", tmp);
	}
}

static void write_autobind(struct hm_emit *em, const struct hm_model *m,
			   struct hm_sbuf *tmp)
{
	const struct hm_exception *ex = &m->ex;

	if (!ex->deny_autobind_max)
		return;
	hm_sbuf_printf(tmp, "deny_autobind %llu",
		       (unsigned long long)ex->deny_autobind_min);
	if (ex->deny_autobind_max != ex->deny_autobind_min)
		hm_sbuf_printf(tmp, "-%llu",
			       (unsigned long long)ex->deny_autobind_max);
	if (em->dialect == HM_DIALECT_18)
		line(em, tmp);
	else
		comment(em, HM_CONV_DENY_AUTOBIND,
			"deny_autobind is TOMOYO 1.8 only", tmp);
}

static int exception_text(const struct hm_model *m, struct hm_emit *em)
{
	struct hm_sbuf tmp = { 0 };
	int r;

	hm_tomoyo_header(em->sb, em->dialect);
	r = write_groups(em, m, &tmp);
	if (!r) {
		write_renames(em, m, &tmp);
		write_transitions(em, m, &tmp);
		r = write_acl_groups(em, m, &tmp);
	}
	if (!r) {
		write_words(em, m->ex.file_patterns, "file_pattern",
			    HM_CONV_FILE_PATTERN, &tmp);
		write_words(em, m->ex.deny_rewrites, "deny_rewrite",
			    HM_CONV_DENY_REWRITE, &tmp);
		write_autobind(em, m, &tmp);
	}
	if (tmp.oom)
		em->sb->oom = true;
	hm_sbuf_free(&tmp);
	return r;
}

/* -------------------------------------------------------------- public */

static int render(const struct hm_model *m, enum hm_dialect dialect,
		  int (*fn)(const struct hm_model *, struct hm_emit *),
		  char **out, size_t *out_len, struct hm_convert_stats *st)
{
	struct hm_sbuf sb = { 0 };
	struct hm_emit em = {
		.sb = &sb, .m = m, .dialect = dialect, .prefix = "", .st = st,
	};
	int r;

	if ((int)dialect < 0 || dialect >= HM_DIALECT_MAX)
		return -EINVAL;
	r = fn(m, &em);
	if (!r && sb.oom)
		r = -ENOMEM;
	if (r) {
		hm_sbuf_free(&sb);
		return r;
	}
	*out = sb.s;
	*out_len = sb.len;
	return 0;
}

int hm_policy_format_domain(const struct hm_model *m, enum hm_dialect dialect,
			    char **out, size_t *out_len,
			    struct hm_convert_stats *st)
{
	return render(m, dialect, domain_text, out, out_len, st);
}

int hm_policy_format_exception(const struct hm_model *m,
			       enum hm_dialect dialect, char **out,
			       size_t *out_len, struct hm_convert_stats *st)
{
	return render(m, dialect, exception_text, out, out_len, st);
}

static int write_to(FILE *f, int (*format)(const struct hm_model *,
					   enum hm_dialect, char **, size_t *,
					   struct hm_convert_stats *),
		    const struct hm_model *m, enum hm_dialect dialect,
		    struct hm_convert_stats *st)
{
	char *s;
	size_t n;
	int r = format(m, dialect, &s, &n, st);

	if (r)
		return r;
	if (fwrite(s, 1, n, f) != n)
		r = -EIO;
	free(s);
	return r;
}

int hm_policy_write_domain(const struct hm_model *m, enum hm_dialect dialect,
			   FILE *f, struct hm_convert_stats *st)
{
	return write_to(f, hm_policy_format_domain, m, dialect, st);
}

int hm_policy_write_exception(const struct hm_model *m,
			      enum hm_dialect dialect, FILE *f,
			      struct hm_convert_stats *st)
{
	return write_to(f, hm_policy_format_exception, m, dialect, st);
}
