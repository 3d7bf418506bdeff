// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json.c - the whole model as one JSON document for jq users: policy
 * settings, the exception policy, then every domain in name order with
 * its ACL entries in hm_acl_cmp() order, each with typed fields.  The
 * layout is documented member by member in docs/JSON.md.
 *
 * Strings are the model's encoded TOMOYO words, so they are ASCII; any
 * other byte is escaped (export_util.c) and the output is valid UTF-8
 * whatever the model holds.  Reads the model; owns only its buffer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats_private.h"
#include "histmac/policy_io.h"

struct jw {
	struct hm_sbuf b;
	FILE *out;
	int err;
};

static void jw_flush(struct jw *w, bool force)
{
	if (w->err || (!force && w->b.len < 65536))
		return;
	if (w->b.oom)
		w->err = -ENOMEM;
	else if (w->b.len && fwrite(w->b.s, 1, w->b.len, w->out) != w->b.len)
		w->err = -EIO;
	w->b.len = 0;
}

static void jname(struct hm_sbuf *b, const struct hm_name *n)
{
	if (n)
		hm_sbuf_add_json_text(b, n->str, n->len);
	else
		hm_sbuf_adds(b, "null");
}

static void jstr(struct hm_sbuf *b, const char *s)
{
	if (s)
		hm_sbuf_add_json_text(b, s, strlen(s));
	else
		hm_sbuf_adds(b, "null");
}

/* "key": */
static void jkey(struct hm_sbuf *b, bool *first, const char *key)
{
	if (!*first)
		hm_sbuf_add(b, ", ", 2);
	*first = false;
	hm_sbuf_add_json_text(b, key, strlen(key));
	hm_sbuf_add(b, ": ", 2);
}

static void jgroup(struct hm_sbuf *b, const struct hm_group *g)
{
	hm_sbuf_adds(b, "{\"group\": ");
	jname(b, g->name);
	hm_sbuf_addc(b, '}');
}

static void jnumber(struct hm_sbuf *b, const struct hm_number *n)
{
	if (n->group) {
		jgroup(b, n->group);
		return;
	}
	hm_sbuf_printf(b, "{\"min\": %" PRIu64 ", \"max\": %" PRIu64
		       ", \"radix\": \"%s\"", n->min, n->max,
		       hm_radix_names[n->radix_min % 3]);
	if (n->radix_max != n->radix_min)
		hm_sbuf_printf(b, ", \"radix_max\": \"%s\"",
			       hm_radix_names[n->radix_max % 3]);
	hm_sbuf_addc(b, '}');
}

static void jaddr(struct hm_sbuf *b, const struct hm_addr *a)
{
	char lo[64];
	char hi[64];

	if (a->group) {
		jgroup(b, a->group);
		return;
	}
	hm_sbuf_printf(b, "{\"min\": \"%s\", \"max\": \"%s\", \"ipv6\": %s}",
		       hm_addr_format(a, 0, lo), hm_addr_format(a, 1, hi),
		       a->is_ipv6 ? "true" : "false");
}

static void joperand(struct hm_sbuf *b, const struct hm_acl_head *e,
		     const struct hm_operand *op)
{
	const void *p = hm_operand_ptr(e, op);
	const struct hm_name_op *no = p;
	uint8_t proto;

	switch (op->type) {
	case HM_OT_NAME:
		if (no->group)
			jgroup(b, no->group);
		else
			jname(b, no->name);
		break;
	case HM_OT_NUMBER:
		jnumber(b, p);
		break;
	case HM_OT_ADDR:
		jaddr(b, p);
		break;
	case HM_OT_WORD:
	case HM_OT_DOMAIN:
		jname(b, *(const struct hm_name *const *)p);
		break;
	case HM_OT_PROTO:
		proto = *(const uint8_t *)p;
		jstr(b, proto < HM_PROTO_MAX ? hm_net_proto_names[proto] :
					       "unknown");
		break;
	}
}

static void jcond(struct hm_sbuf *b, const struct hm_cond *c)
{
	if (!c) {
		hm_sbuf_adds(b, "null");
		return;
	}
	hm_sbuf_adds(b, "{\"text\": ");
	jname(b, c->text);
	hm_sbuf_adds(b, ", \"items\": [");
	for (uint32_t i = 0; i < c->n_items; i++) {
		const struct hm_cond_item *it = &c->items[i];

		hm_sbuf_adds(b, i ? ", {\"var\": " : "{\"var\": ");
		jstr(b, it->var < HM_COND_VAR_MAX ?
				hm_cond_var_names[it->var] : "other");
		hm_sbuf_printf(b, ", \"negate\": %s, \"index\": %" PRIu32
			       ", \"number\": ", it->negate ? "true" : "false",
			       it->index);
		if (it->str)
			hm_sbuf_adds(b, "null");
		else
			jnumber(b, &it->num);
		hm_sbuf_adds(b, ", \"string\": ");
		jname(b, it->str);
		hm_sbuf_adds(b, ", \"text\": ");
		jname(b, it->text);
		hm_sbuf_addc(b, '}');
	}
	hm_sbuf_adds(b, "]}");
}

static void jperm(struct hm_sbuf *b, const struct hm_acl_head *e)
{
	bool first = true;

	hm_sbuf_addc(b, '[');
	for (unsigned op = 0; op < 32; op++) {
		const char *name = hm_acl_op_name(e->kind, op);

		if (!(e->perm & (1u << op)) || !name)
			continue;
		if (!first)
			hm_sbuf_add(b, ", ", 2);
		first = false;
		jstr(b, name);
	}
	hm_sbuf_addc(b, ']');
}

/* One ACL entry as a JSON object on one line; @line is its policy text. */
static void jentry(struct hm_sbuf *b, const struct hm_acl_head *e,
		   const char *line)
{
	bool first = true;

	hm_sbuf_addc(b, '{');
	jkey(b, &first, "kind");
	jstr(b, hm_kinds[e->kind].id);
	if (hm_acl_has_perm(e->kind)) {
		jkey(b, &first, "perm");
		jperm(b, e);
	}
	hm_for_each_operand(op, e->kind) {
		jkey(b, &first, op->id);
		joperand(b, e, op);
	}
	jkey(b, &first, "cond");
	jcond(b, e->cond);
	jkey(b, &first, "line");
	jstr(b, line);
	hm_sbuf_addc(b, '}');
}

static void jacl(struct jw *w, const struct hm_model *m,
		 const struct hm_domain *d, const char *indent)
{
	const struct hm_acl_head **v;

	if (!d->n_acl) {
		hm_sbuf_adds(&w->b, "[]");
		return;
	}
	v = hm_domain_sorted_acl(d);
	if (!v) {
		w->err = -ENOMEM;
		return;
	}
	hm_sbuf_addc(&w->b, '[');
	for (size_t i = 0; i < d->n_acl && !w->err; i++) {
		if (v[i]->kind >= HM_ACL_KIND_MAX)
			continue;
		char *line = NULL;

		if (hm_acl_format(m, v[i], m->dialect, &line, NULL)) {
			w->err = -ENOMEM;
			break;
		}
		hm_sbuf_printf(&w->b, "%s\n%s  ", i ? "," : "", indent);
		jentry(&w->b, v[i], line);
		free(line);
		jw_flush(w, false);
	}
	hm_sbuf_printf(&w->b, "\n%s]", indent);
	free(v);
}

static void jflags(struct hm_sbuf *b, unsigned flags)
{
	bool first = true;

	hm_sbuf_addc(b, '[');
	for (unsigned i = 0; i < 8; i++) {
		if (!(flags & (1u << i)))
			continue;
		if (!first)
			hm_sbuf_add(b, ", ", 2);
		first = false;
		jstr(b, hm_domain_flag_ids[i]);
	}
	hm_sbuf_addc(b, ']');
}

static void juse_groups(struct hm_sbuf *b, const struct hm_domain *d)
{
	bool first = true;

	hm_sbuf_addc(b, '[');
	for (unsigned g = 0; g < 256; g++) {
		if (!(d->groups[g / 8] & (1u << (g % 8))))
			continue;
		hm_sbuf_printf(b, "%s%u", first ? "" : ", ", g);
		first = false;
	}
	hm_sbuf_addc(b, ']');
}

static void jdomain(struct jw *w, const struct hm_model *m,
		    const struct hm_domain *d)
{
	struct hm_sbuf *b = &w->b;
	const char *sp = memrchr(d->name->str, ' ', d->name->len);
	char buf[32];

	hm_sbuf_adds(b, "    {\"name\": ");
	jname(b, d->name);
	hm_sbuf_adds(b, ",\n     \"parent\": ");
	jname(b, d->parent ? d->parent->name : NULL);
	hm_sbuf_adds(b, ", \"program\": ");
	if (sp)
		hm_sbuf_add_json_text(b, sp + 1,
				 d->name->len - (size_t)(sp + 1 - d->name->str));
	else
		hm_sbuf_adds(b, "null");
	hm_sbuf_printf(b, ",\n     \"profile\": %u, \"mode\": ", d->profile);
	jstr(b, hm_profile_name(d->profile, buf, sizeof(buf)));
	hm_sbuf_adds(b, ", \"flags\": ");
	jflags(b, d->flags);
	hm_sbuf_adds(b, ", \"use_groups\": ");
	juse_groups(b, d);
	hm_sbuf_printf(b, ",\n     \"events\": %" PRIu64 ", \"first_seen\": %"
		       PRId64 ", \"last_seen\": %" PRId64
		       ", \"acl_count\": %zu,\n     \"acl\": ", d->events,
		       d->first_seen, d->last_seen, d->n_acl);
	jacl(w, m, d, "     ");
	hm_sbuf_addc(b, '}');
}

static void jtransitions(struct hm_sbuf *b, const struct hm_exception *ex)
{
	bool first = true;

	hm_sbuf_adds(b, "    \"transitions\": [");
	for (const struct hm_transition_rule *t = ex->transitions; t;
	     t = t->next) {
		hm_sbuf_adds(b, first ? "\n      {\"type\": " :
					",\n      {\"type\": ");
		first = false;
		jstr(b, t->type < HM_TR_MAX ? hm_transition_names[t->type] :
					      "unknown");
		hm_sbuf_adds(b, ", \"program\": ");
		jname(b, t->program);
		hm_sbuf_adds(b, ", \"from\": ");
		jname(b, t->domain);
		hm_sbuf_addc(b, '}');
	}
	hm_sbuf_adds(b, first ? "],\n" : "\n    ],\n");
}

static void jrenames(struct hm_sbuf *b, const struct hm_exception *ex)
{
	bool first = true;

	hm_sbuf_adds(b, "    \"renames\": [");
	for (const struct hm_rename_rule *r = ex->renames; r; r = r->next) {
		hm_sbuf_adds(b, first ? "\n      {\"type\": " :
					",\n      {\"type\": ");
		first = false;
		jstr(b, r->is_alias ? "alias" : "aggregator");
		hm_sbuf_adds(b, ", \"original\": ");
		jname(b, r->original);
		hm_sbuf_adds(b, ", \"renamed\": ");
		jname(b, r->renamed);
		hm_sbuf_addc(b, '}');
	}
	hm_sbuf_adds(b, first ? "],\n" : "\n    ],\n");
}

static const char *const group_types[HM_GROUP_TYPE_MAX] = {
	[HM_GROUP_PATH] = "path",
	[HM_GROUP_NUMBER] = "number",
	[HM_GROUP_ADDRESS] = "address",
};

static void jgroups(struct hm_sbuf *b, const struct hm_exception *ex)
{
	bool first = true;

	hm_sbuf_adds(b, "    \"groups\": [");
	for (const struct hm_group *g = ex->groups; g; g = g->next) {
		hm_sbuf_adds(b, first ? "\n      {\"type\": " :
					",\n      {\"type\": ");
		first = false;
		jstr(b, g->type < HM_GROUP_TYPE_MAX ? group_types[g->type] :
						      "unknown");
		hm_sbuf_adds(b, ", \"name\": ");
		jname(b, g->name);
		hm_sbuf_adds(b, ", \"members\": [");
		for (const struct hm_group_member *mb = g->members; mb;
		     mb = mb->next) {
			if (mb != g->members)
				hm_sbuf_add(b, ", ", 2);
			if (g->type == HM_GROUP_PATH)
				jname(b, mb->name);
			else if (g->type == HM_GROUP_NUMBER)
				jnumber(b, &mb->number);
			else
				jaddr(b, &mb->addr);
		}
		hm_sbuf_adds(b, "]}");
	}
	hm_sbuf_adds(b, first ? "],\n" : "\n    ],\n");
}

static void jwords(struct hm_sbuf *b, const char *key,
		   const struct hm_word_entry *list)
{
	hm_sbuf_printf(b, "    \"%s\": [", key);
	for (const struct hm_word_entry *e = list; e; e = e->next) {
		if (e != list)
			hm_sbuf_add(b, ", ", 2);
		jname(b, e->word);
	}
	hm_sbuf_adds(b, "],\n");
}

static void jrewrites(struct hm_sbuf *b, const struct hm_exception *ex)
{
	bool first = true;

	hm_sbuf_adds(b, "    \"rewrites\": [");
	for (const struct hm_rewrite_rule *r = ex->rewrites; r; r = r->next) {
		hm_sbuf_adds(b, first ? "\n      {\"regex\": " :
					",\n      {\"regex\": ");
		first = false;
		jstr(b, r->regex_src);
		hm_sbuf_adds(b, ", \"replacement\": ");
		jstr(b, r->replacement);
		hm_sbuf_printf(b, ", \"line\": %lu}", r->line);
	}
	hm_sbuf_adds(b, first ? "],\n" : "\n    ],\n");
}

static void jacl_groups(struct jw *w, const struct hm_model *m)
{
	const struct hm_exception *ex = &m->ex;
	bool first = true;

	hm_sbuf_adds(&w->b, "    \"acl_groups\": [");
	for (unsigned i = 0; i < HM_ARRAY_SIZE(ex->acl_groups); i++) {
		if (!ex->acl_groups[i])
			continue;
		hm_sbuf_printf(&w->b, "%s\n      {\"number\": %u, \"acl\": ",
			       first ? "" : ",", i);
		first = false;
		jacl(w, m, ex->acl_groups[i], "      ");
		hm_sbuf_addc(&w->b, '}');
	}
	hm_sbuf_adds(&w->b, first ? "],\n" : "\n    ],\n");
}

static void jexception(struct jw *w, const struct hm_model *m)
{
	const struct hm_exception *ex = &m->ex;

	hm_sbuf_adds(&w->b, "  \"exception\": {\n");
	jtransitions(&w->b, ex);
	jrenames(&w->b, ex);
	jgroups(&w->b, ex);
	jwords(&w->b, "file_patterns", ex->file_patterns);
	jwords(&w->b, "deny_rewrites", ex->deny_rewrites);
	jrewrites(&w->b, ex);
	jacl_groups(w, m);
	hm_sbuf_adds(&w->b, "    \"deny_autobind\": ");
	if (ex->deny_autobind_max)
		hm_sbuf_printf(&w->b, "{\"min\": %" PRIu64 ", \"max\": %" PRIu64
			       "}", ex->deny_autobind_min,
			       ex->deny_autobind_max);
	else
		hm_sbuf_adds(&w->b, "null");
	hm_sbuf_adds(&w->b, "\n  },\n");
}

static int json_write(const struct hm_model *m, FILE *out,
		      const struct hm_export_opts *o)
{
	struct jw w = { .out = out };
	struct hm_domain **v = hm_model_sorted_domains(m);

	(void)o;
	if (!v)
		return -ENOMEM;
	hm_sbuf_printf(&w.b, "{\n  \"format\": \"histmac-policy\",\n"
		       "  \"version\": 1,\n  \"dialect\": ");
	jstr(&w.b, m->dialect < HM_DIALECT_MAX ?
			   hm_dialect_names[m->dialect] : "tomoyo");
	hm_sbuf_printf(&w.b, ",\n  \"default_profile\": %u,\n"
		       "  \"max_learning_entry\": %" PRIu32 ",\n"
		       "  \"path_note\": ", m->default_profile,
		       m->max_learning_entry);
	jstr(&w.b, m->path_note);
	hm_sbuf_printf(&w.b, ",\n  \"domain_count\": %zu,\n", m->n_domains);
	jexception(&w, m);
	hm_sbuf_adds(&w.b, "  \"domains\": [");
	for (size_t i = 0; i < m->n_domains && !w.err; i++) {
		hm_sbuf_adds(&w.b, i ? ",\n" : "\n");
		jdomain(&w, m, v[i]);
		jw_flush(&w, false);
	}
	hm_sbuf_adds(&w.b, m->n_domains ? "\n  ]\n}\n" : "]\n}\n");
	jw_flush(&w, true);
	free(v);
	hm_sbuf_free(&w.b);
	return w.err ? w.err : hm_export_flush(out);
}

const struct hm_exporter hm_exporter_json = {
	.name = "json",
	.description = "the whole model as JSON (see docs/JSON.md)",
	.write = json_write,
};
