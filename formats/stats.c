// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - the counts `histmac stats` prints, the entries not used
 * lately, and both as JSON (docs/JSON.md).  Reads the model; owns only
 * what it returns.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/policy_io.h"
#include "histmac/sensitive.h"
#include "histmac/stats.h"

static void count_domain(struct hm_stats *c, const struct hm_domain *d)
{
	c->profiles[d->profile]++;
	for (int f = 0; f < 8; f++)
		c->flags[f] += !!(d->flags & (1u << f));
	c->entries += d->n_acl;
	if (d->n_acl > c->max_entries) {
		c->max_entries = d->n_acl;
		c->max_domain = d->name->str;
	}
	for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
		c->kinds[e->kind]++;
		for (unsigned b = 0; b < 32; b++) {
			if (!(e->perm & (1u << b)))
				continue;
			if (hm_kinds[e->kind].ops == HM_OPS_NET) {
				if (b < HM_NET_OP_MAX)
					c->net_ops[b]++;
			} else if (hm_kinds[e->kind].ops == HM_OPS_FILE &&
				   b < HM_FILE_OP_MAX) {
				c->file_ops[b]++;
			}
		}
	}
}

void hm_stats_count(const struct hm_model *m, struct hm_stats *out)
{
	struct hm_policy_counts pc;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < m->n_domains; i++)
		count_domain(out, m->domains[i]);
	hm_policy_count(m, &pc);
	out->exception = pc.exception;
	for (const struct hm_group *g = m->ex.groups; g; g = g->next)
		out->groups++;
	for (const struct hm_rewrite_rule *w = m->ex.rewrites; w; w = w->next)
		out->rewrites++;
	for (int i = 0; i < HM_MEM_CAT_MAX; i++)
		out->mem_total += m->mem.bytes[i];
}

/* ------------------------------------------------------------- JSON */

static void json_days(struct hm_sbuf *b, const struct hm_conv_day *d,
		      size_t n)
{
	char t[32];

	hm_sbuf_adds(b, "[");
	for (size_t i = 0; i < n; i++)
		hm_sbuf_printf(b, "%s{\"day\":\"%s\",\"added\":%llu,"
			       "\"widened\":%llu}", i ? "," : "",
			       hm_utc(d[i].day, true, t, sizeof(t)),
			       (unsigned long long)d[i].added,
			       (unsigned long long)d[i].widened);
	hm_sbuf_adds(b, "]");
}

/* ,"quiet_saves":N,"saves":[...]: the learner's saves, numbered from 1. */
static void json_saves(struct hm_sbuf *b, const struct hm_convergence *c)
{
	hm_sbuf_printf(b, ",\"quiet_saves\":%llu,\"saves\":[",
		       (unsigned long long)c->quiet_saves);
	for (size_t i = 0; i < c->n_saves; i++) {
		const struct hm_save_rec *r = &c->saves[i];

		hm_sbuf_printf(b, "%s{\"save\":%zu,\"time\":%lld,"
			       "\"events\":%llu,\"added\":%llu,"
			       "\"widened\":%llu}", i ? "," : "", i + 1,
			       (long long)r->time,
			       (unsigned long long)r->events,
			       (unsigned long long)r->added,
			       (unsigned long long)r->widened);
	}
	hm_sbuf_adds(b, "]");
}

static void json_conv_domain(struct hm_sbuf *b, const struct hm_conv_domain *cd)
{
	hm_sbuf_adds(b, "{\"domain\":");
	hm_sbuf_add_json(b, cd->d->name->str, cd->d->name->len);
	hm_sbuf_printf(b, ",\"verdict\":\"%s\",\"last_new\":%lld,"
		       "\"quiet_days\":%llu,\"quiet_events\":%llu,"
		       "\"unstamped\":%zu,\"days\":",
		       hm_verdict_ids[cd->verdict], (long long)cd->last_new,
		       (unsigned long long)cd->quiet_days,
		       (unsigned long long)cd->quiet_events, cd->unstamped);
	json_days(b, cd->days, cd->n_days);
	hm_sbuf_printf(b, ",\"quiet_saves\":%llu,\"saves\":[",
		       (unsigned long long)cd->quiet_saves);
	for (size_t k = 0; k < cd->n_saves; k++)
		hm_sbuf_printf(b, "%s{\"save\":%zu,\"added\":%llu,"
			       "\"widened\":%llu}", k ? "," : "",
			       cd->saves[k].save + 1,
			       (unsigned long long)cd->saves[k].added,
			       (unsigned long long)cd->saves[k].widened);
	hm_sbuf_adds(b, "]}");
}

/* ,"convergence":{...}: the text's numbers, times in audit seconds. */
static void json_convergence(struct hm_sbuf *b, const struct hm_convergence *c)
{
	hm_sbuf_printf(b, ",\"convergence\":{\"end\":%lld,\"last_new\":%lld,"
		       "\"unstamped\":%zu,\"days\":", (long long)c->end,
		       (long long)c->last_new, c->unstamped);
	json_days(b, c->days, c->n_days);
	json_saves(b, c);
	hm_sbuf_adds(b, ",\"domains\":[");
	for (size_t i = 0; i < c->n_domains; i++) {
		hm_sbuf_adds(b, i ? "," : "");
		json_conv_domain(b, &c->domains[i]);
	}
	hm_sbuf_adds(b, "]}");
}

/* ,"NAME":{"KEY":N,...} of the non-zero @v[i], keys from @names. */
static void json_counts(struct hm_sbuf *b, const char *name,
			const size_t *v, size_t n, const char *const *names)
{
	bool first = true;

	hm_sbuf_printf(b, ",\"%s\":{", name);
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		hm_sbuf_adds(b, first ? "" : ",");
		if (names)
			hm_sbuf_add_json(b, names[i], strlen(names[i]));
		else
			hm_sbuf_printf(b, "\"%zu\"", i);
		hm_sbuf_printf(b, ":%zu", v[i]);
		first = false;
	}
	hm_sbuf_addc(b, '}');
}

struct json_sensitive {
	const struct hm_model *m;
	struct hm_sbuf *b;
	size_t n;
};

static int json_sensitive_one(const struct hm_domain *d,
			      const struct hm_acl_head *e, const char *why,
			      void *arg)
{
	struct json_sensitive *S = arg;
	char *line = NULL;

	if (hm_acl_format(S->m, e, S->m->dialect, &line, NULL))
		return -ENOMEM;
	hm_sbuf_adds(S->b, S->n++ ? ",{\"domain\":" : "{\"domain\":");
	hm_sbuf_add_json(S->b, d->name->str, d->name->len);
	hm_sbuf_adds(S->b, ",\"entry\":");
	hm_sbuf_add_json(S->b, line, strlen(line));
	hm_sbuf_printf(S->b, ",\"why\":\"%s\"}", why);
	free(line);
	return 0;
}

/* ,"several_logins":[{"domain":...,"logins":"-,1000"},...] */
static void json_logins(struct hm_sbuf *b, const struct hm_model *m)
{
	size_t n = 0;

	hm_sbuf_adds(b, ",\"several_logins\":[");
	for (size_t i = 0; i < m->n_domains; i++) {
		const struct hm_domain *d = m->domains[i];

		if (!hm_domain_several_logins(d))
			continue;
		hm_sbuf_adds(b, n++ ? ",{\"domain\":" : "{\"domain\":");
		hm_sbuf_add_json(b, d->name->str, d->name->len);
		hm_sbuf_adds(b, ",\"logins\":\"");
		hm_logins_text(&d->logins, b);
		hm_sbuf_adds(b, "\"}");
	}
	hm_sbuf_addc(b, ']');
}

static void json_kinds(struct hm_sbuf *b, const struct hm_stats *st)
{
	const char *ids[HM_ACL_KIND_MAX];

	for (int k = 0; k < HM_ACL_KIND_MAX; k++)
		ids[k] = hm_kinds[k].id;
	json_counts(b, "kinds", st->kinds, HM_ACL_KIND_MAX, ids);
}

static void json_memory(struct hm_sbuf *b, const struct hm_model *m,
			const struct hm_stats *st)
{
	hm_sbuf_adds(b, ",\"memory\":{");
	for (int i = 0; i < HM_MEM_CAT_MAX; i++)
		hm_sbuf_printf(b, "\"%s\":{\"bytes\":%zu,\"blocks\":%zu},",
			       hm_mem_cat_names[i], m->mem.bytes[i],
			       m->mem.count[i]);
	hm_sbuf_printf(b, "\"total\":%zu}", st->mem_total);
}

int hm_stats_write_json(struct hm_sbuf *b, const struct hm_model *m,
			const struct hm_stats *st,
			const struct hm_convergence *conv)
{
	static const char *const flag_ids[] = {
		"history_unobserved", "parent_unobserved",
		"transition_failed", "quota_exceeded", "flag_4", "flag_5",
		"flag_6", "flag_7",
	};
	struct json_sensitive S = { .m = m, .b = b };
	int r;

	hm_sbuf_printf(b, "{\"domains\":%zu,\"sensitive\":[", m->n_domains);
	r = hm_sensitive_entries(m, json_sensitive_one, &S);
	if (r)
		return r;
	hm_sbuf_addc(b, ']');
	json_logins(b, m);
	json_counts(b, "profiles", st->profiles, 256, NULL);
	json_counts(b, "flags", st->flags, 8, flag_ids);
	hm_sbuf_printf(b, ",\"entries\":%zu,\"largest_domain\":", st->entries);
	if (st->max_domain) {
		hm_sbuf_add_json(b, st->max_domain, strlen(st->max_domain));
		hm_sbuf_printf(b, ",\"largest_domain_entries\":%zu",
			       st->max_entries);
	} else {
		hm_sbuf_adds(b, "null");
	}
	json_kinds(b, st);
	json_counts(b, "file_ops", st->file_ops, HM_FILE_OP_MAX,
		    hm_file_op_names);
	json_counts(b, "network_ops", st->net_ops, HM_NET_OP_MAX,
		    hm_net_op_names);
	hm_sbuf_printf(b, ",\"exception_entries\":%zu,\"groups\":%zu,"
		       "\"rewrite_rules\":%zu,\"dialect\":\"%s\","
		       "\"names\":%zu", st->exception, st->groups,
		       st->rewrites, hm_dialect_names[m->dialect],
		       hm_names_count(m->names));
	json_memory(b, m, st);
	json_convergence(b, conv);
	hm_sbuf_adds(b, "}\n");
	return b->oom ? -ENOMEM : 0;
}

/* ------------------------------------------------------------ unused */

static int cmp_unused(const void *a, const void *b)
{
	const struct hm_unused *x = a, *y = b;
	int c = strcmp(x->d->name->str, y->d->name->str);

	if (x->last != y->last)
		return x->last < y->last ? -1 : 1;
	return c ? c : hm_acl_cmp(x->e, y->e);
}

int hm_unused_find(const struct hm_model *m, uint64_t days,
		   struct hm_unused_list *out)
{
	int64_t end = hm_convergence_end(m);
	int64_t since = end - (int64_t)days * HM_DAY;

	*out = (struct hm_unused_list){ .days = days, .end = end };
	for (size_t i = 0; i < m->n_domains; i++)
		out->all += m->domains[i]->name ? m->domains[i]->n_acl : 0;
	out->v = calloc(out->all + 1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_domains; i++) {
		const struct hm_domain *d = m->domains[i];

		for (const struct hm_acl_head *e = d->acl; d->name && e;
		     e = e->next)
			if (hm_acl_last_use(e) < since)
				out->v[out->n++] = (struct hm_unused){
					hm_acl_last_use(e), e->hist.uses, d, e };
	}
	qsort(out->v, out->n, sizeof(*out->v), cmp_unused);
	return 0;
}

void hm_unused_free(struct hm_unused_list *u)
{
	free(u->v);
	u->v = NULL;
}

int hm_unused_write_json(struct hm_sbuf *b, const struct hm_model *m,
			 const struct hm_unused_list *u)
{
	hm_sbuf_printf(b, "{\"days\":%llu,\"end\":%lld,\"entries\":%zu,"
		       "\"unused\":[", (unsigned long long)u->days,
		       (long long)u->end, u->all);
	for (size_t i = 0; i < u->n; i++) {
		const struct hm_unused *x = &u->v[i];
		char *line = NULL;

		if (hm_acl_format(m, x->e, m->dialect, &line, NULL))
			return -ENOMEM;
		hm_sbuf_adds(b, i ? ",{\"domain\":" : "{\"domain\":");
		hm_sbuf_add_json(b, x->d->name->str, x->d->name->len);
		hm_sbuf_adds(b, ",\"entry\":");
		hm_sbuf_add_json(b, line, strlen(line));
		hm_sbuf_printf(b, ",\"uses\":%llu,\"last_used\":%lld}",
			       (unsigned long long)x->uses, (long long)x->last);
		free(line);
	}
	hm_sbuf_adds(b, "]}\n");
	return b->oom ? -ENOMEM : 0;
}
