// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xml.c - the whole model as XML through libxml2's xmlTextWriter:
 * settings, the exception policy (in file order), then every domain in
 * name order with its ACL entries in hm_acl_cmp() order, every field
 * typed.  formats/schema/histmac.rng describes it; xml_import.c reads
 * it back, and export -> import -> export gives the same bytes.
 *
 * Strings go into attributes.  One that XML cannot hold (not UTF-8, or
 * a control character) is written as NAME-hex="..." instead, so the
 * output is always well-formed and nothing is lost.  Reads the model;
 * owns only the writer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "formats_private.h"

struct xw {
	xmlTextWriterPtr w;
	int err;
};

static void chk(struct xw *x, int rc)
{
	if (rc < 0 && !x->err)
		x->err = -EIO;
}

/* Can @len bytes at @s go into an attribute as they are? */
static bool xml_safe(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return false;
		/* U+FFFE and U+FFFF are not XML characters */
		if (c == 0xef && i + 2 < len && (unsigned char)s[i + 1] == 0xbf &&
		    (unsigned char)s[i + 2] >= 0xbe)
			return false;
	}
	return hm_utf8_valid(s, len);
}

static void attr_str(struct xw *x, const char *name, const char *s,
		     size_t len)
{
	char hexname[64];
	char *hex;

	if (xml_safe(s, len)) {
		chk(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST name,
						   BAD_CAST s));
		return;
	}
	hex = malloc(len * 2 + 1);
	if (!hex) {
		x->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)s[i]);
	hex[len * 2] = '\0';
	snprintf(hexname, sizeof(hexname), "%s-hex", name);
	chk(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST hexname,
					   BAD_CAST hex));
	free(hex);
}

static void attr_name(struct xw *x, const char *attr, const struct hm_name *n)
{
	if (n)
		attr_str(x, attr, n->str, n->len);
}

static void attr_fmt(struct xw *x, const char *name, const char *fmt, ...)
	HM_PRINTF(3, 4);

static void attr_fmt(struct xw *x, const char *name, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	chk(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST buf));
}

static void start(struct xw *x, const char *tag)
{
	chk(x, xmlTextWriterStartElement(x->w, BAD_CAST tag));
}

static void end(struct xw *x)
{
	chk(x, xmlTextWriterEndElement(x->w));
}

static void xnumber(struct xw *x, const char *tag, const struct hm_number *n)
{
	start(x, tag);
	if (n->group) {
		attr_name(x, "group", n->group->name);
	} else {
		attr_fmt(x, "min", "%" PRIu64, n->min);
		attr_fmt(x, "max", "%" PRIu64, n->max);
		if (n->radix_min != HM_RADIX_DEC)
			attr_fmt(x, "radix", "%s",
				 hm_radix_names[n->radix_min % 3]);
		if (n->radix_max != n->radix_min)
			attr_fmt(x, "radix-max", "%s",
				 hm_radix_names[n->radix_max % 3]);
	}
	end(x);
}

static void xaddr(struct xw *x, const char *tag, const struct hm_addr *a)
{
	char buf[64];

	start(x, tag);
	if (a->group) {
		attr_name(x, "group", a->group->name);
	} else {
		attr_fmt(x, "min", "%s", hm_addr_format(a, 0, buf));
		attr_fmt(x, "max", "%s", hm_addr_format(a, 1, buf));
	}
	end(x);
}

static void xname_op(struct xw *x, const char *tag,
		     const struct hm_name_op *op)
{
	start(x, tag);
	if (op->group)
		attr_name(x, "group", op->group->name);
	else
		attr_name(x, "word", op->name);
	end(x);
}

static void xoperand(struct xw *x, const struct hm_acl_head *e,
		     const struct hm_operand *op)
{
	const void *p = hm_operand_ptr(e, op);

	switch (op->type) {
	case HM_OT_NAME:
		xname_op(x, op->id, p);
		break;
	case HM_OT_NUMBER:
		xnumber(x, op->id, p);
		break;
	case HM_OT_ADDR:
		xaddr(x, op->id, p);
		break;
	case HM_OT_WORD:
	case HM_OT_DOMAIN:
		start(x, op->id);
		attr_name(x, "word", *(const struct hm_name *const *)p);
		end(x);
		break;
	case HM_OT_PROTO:
		break;		/* an attribute of <acl> */
	}
}

static void xcond(struct xw *x, const struct hm_cond *c)
{
	start(x, "cond");
	attr_name(x, "text", c->text);
	for (uint32_t i = 0; i < c->n_items; i++) {
		const struct hm_cond_item *it = &c->items[i];

		start(x, "item");
		attr_fmt(x, "var", "%s", it->var < HM_COND_VAR_MAX ?
			 hm_cond_var_names[it->var] : "other");
		if (it->negate)
			attr_fmt(x, "negate", "true");
		if (it->index)
			attr_fmt(x, "index", "%" PRIu32, it->index);
		attr_name(x, "text", it->text);
		attr_name(x, "string", it->str);
		if (!it->str)
			xnumber(x, "number", &it->num);
		end(x);
	}
	end(x);
}

static void xperm(struct xw *x, const struct hm_acl_head *e)
{
	struct hm_sbuf b = { 0 };

	for (unsigned op = 0; op < 32; op++) {
		const char *name = hm_acl_op_name(e->kind, op);

		if (!(e->perm & (1u << op)) || !name)
			continue;
		if (b.len)
			hm_sbuf_addc(&b, ' ');
		hm_sbuf_adds(&b, name);
	}
	if (b.oom)
		x->err = -ENOMEM;
	attr_fmt(x, "perm", "%s", hm_sbuf_str(&b));
	hm_sbuf_free(&b);
}

static void xentry(struct xw *x, const struct hm_acl_head *e)
{
	start(x, "acl");
	attr_fmt(x, "kind", "%s", hm_kinds[e->kind].id);
	if (hm_acl_has_perm(e->kind))
		xperm(x, e);
	hm_for_each_operand(op, e->kind) {
		uint8_t proto = *(const uint8_t *)hm_operand_ptr(e, op);

		if (op->type != HM_OT_PROTO)
			continue;
		attr_fmt(x, "protocol", "%s", proto < HM_PROTO_MAX ?
			 hm_net_proto_names[proto] : "stream");
	}
	hm_for_each_operand(op, e->kind)
		xoperand(x, e, op);
	if (e->cond)
		xcond(x, e->cond);
	end(x);
}

static void xacl(struct xw *x, const struct hm_domain *d)
{
	const struct hm_acl_head **v;

	if (!d->n_acl)
		return;
	v = hm_domain_sorted_acl(d);
	if (!v) {
		x->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < d->n_acl && !x->err; i++)
		if (v[i]->kind < HM_ACL_KIND_MAX)
			xentry(x, v[i]);
	free(v);
}

static void xdomain(struct xw *x, const struct hm_domain *d)
{
	struct hm_sbuf b = { 0 };

	start(x, "domain");
	attr_name(x, "name", d->name);
	if (d->parent)
		attr_name(x, "parent", d->parent->name);
	attr_fmt(x, "profile", "%u", d->profile);
	if (hm_domain_flag_names(&b, d->flags, " "))
		attr_fmt(x, "flags", "%s", hm_sbuf_str(&b));
	b.len = 0;
	for (unsigned g = 0; g < 256; g++)
		if (d->groups[g / 8] & (1u << (g % 8)))
			hm_sbuf_printf(&b, "%s%u", b.len ? " " : "", g);
	if (b.len)
		attr_fmt(x, "use-groups", "%s", hm_sbuf_str(&b));
	if (b.oom)
		x->err = -ENOMEM;
	hm_sbuf_free(&b);
	if (d->events)
		attr_fmt(x, "events", "%" PRIu64, d->events);
	if (d->first_seen)
		attr_fmt(x, "first-seen", "%" PRId64, d->first_seen);
	if (d->last_seen)
		attr_fmt(x, "last-seen", "%" PRId64, d->last_seen);
	if (d->logins.n) {
		hm_logins_text(&d->logins, &b);
		attr_fmt(x, "logins", "%s", hm_sbuf_str(&b));
		if (b.oom)
			x->err = -ENOMEM;
		hm_sbuf_free(&b);
	}
	xacl(x, d);
	end(x);
}

static const char *const group_tags[HM_GROUP_TYPE_MAX] = {
	[HM_GROUP_PATH] = "path-group",
	[HM_GROUP_NUMBER] = "number-group",
	[HM_GROUP_ADDRESS] = "address-group",
};

static void xgroup(struct xw *x, const struct hm_group *g)
{
	if (g->type >= HM_GROUP_TYPE_MAX)
		return;
	start(x, group_tags[g->type]);
	attr_name(x, "name", g->name);
	for (const struct hm_group_member *mb = g->members; mb; mb = mb->next) {
		if (g->type == HM_GROUP_PATH) {
			start(x, "member");
			attr_name(x, "word", mb->name);
			end(x);
		} else if (g->type == HM_GROUP_NUMBER) {
			xnumber(x, "member", &mb->number);
		} else {
			xaddr(x, "member", &mb->addr);
		}
	}
	end(x);
}

static void xwords(struct xw *x, const char *tag,
		   const struct hm_word_entry *e)
{
	for (; e; e = e->next) {
		start(x, tag);
		attr_name(x, "word", e->word);
		end(x);
	}
}

static void xexception(struct xw *x, const struct hm_exception *ex)
{
	start(x, "exception");
	for (const struct hm_transition_rule *t = ex->transitions; t;
	     t = t->next) {
		if (t->type >= HM_TR_MAX)
			continue;
		start(x, "transition");
		attr_fmt(x, "type", "%s", hm_transition_names[t->type]);
		attr_name(x, "program", t->program);
		attr_name(x, "from", t->domain);
		end(x);
	}
	for (const struct hm_rename_rule *r = ex->renames; r; r = r->next) {
		start(x, r->is_alias ? "alias" : "aggregator");
		attr_name(x, "original", r->original);
		attr_name(x, "renamed", r->renamed);
		end(x);
	}
	for (const struct hm_group *g = ex->groups; g; g = g->next)
		xgroup(x, g);
	xwords(x, "file-pattern", ex->file_patterns);
	xwords(x, "deny-rewrite", ex->deny_rewrites);
	for (const struct hm_rewrite_rule *r = ex->rewrites; r; r = r->next) {
		start(x, "rewrite");
		attr_str(x, "regex", r->regex_src, strlen(r->regex_src));
		attr_str(x, "replacement", r->replacement,
			 strlen(r->replacement));
		if (r->line)
			attr_fmt(x, "line", "%lu", r->line);
		end(x);
	}
	for (unsigned i = 0; i < HM_ARRAY_SIZE(ex->acl_groups); i++) {
		if (!ex->acl_groups[i])
			continue;
		start(x, "acl-group");
		attr_fmt(x, "number", "%u", i);
		xacl(x, ex->acl_groups[i]);
		end(x);
	}
	if (ex->deny_autobind_max) {
		start(x, "deny-autobind");
		attr_fmt(x, "min", "%" PRIu64, ex->deny_autobind_min);
		attr_fmt(x, "max", "%" PRIu64, ex->deny_autobind_max);
		end(x);
	}
	end(x);
}

static void xmodel(struct xw *x, const struct hm_model *m)
{
	struct hm_domain **v = hm_model_sorted_domains(m);

	if (!v) {
		x->err = -ENOMEM;
		return;
	}
	chk(x, xmlTextWriterStartDocument(x->w, NULL, "UTF-8", NULL));
	start(x, "histmac-policy");
	attr_fmt(x, "version", "1");
	attr_fmt(x, "dialect", "%s", m->dialect < HM_DIALECT_MAX ?
		 hm_dialect_names[m->dialect] : "tomoyo");
	attr_fmt(x, "default-profile", "%u", m->default_profile);
	attr_fmt(x, "max-learning-entry", "%" PRIu32, m->max_learning_entry);
	if (m->path_note)
		attr_str(x, "path-note", m->path_note, strlen(m->path_note));
	xexception(x, &m->ex);
	for (size_t i = 0; i < m->n_domains && !x->err; i++)
		xdomain(x, v[i]);
	end(x);
	chk(x, xmlTextWriterEndDocument(x->w));
	free(v);
}

static int xml_write(const struct hm_model *m, FILE *out,
		     const struct hm_export_opts *o)
{
	xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
	struct xw x = { 0 };

	(void)o;
	if (!buf)
		return -ENOMEM;
	x.w = xmlNewTextWriter(buf);
	if (!x.w) {
		xmlOutputBufferClose(buf);
		return -ENOMEM;
	}
	chk(&x, xmlTextWriterSetIndent(x.w, 1));
	chk(&x, xmlTextWriterSetIndentString(x.w, BAD_CAST "  "));
	xmodel(&x, m);
	chk(&x, xmlTextWriterFlush(x.w));
	xmlFreeTextWriter(x.w);	/* closes @buf, not @out */
	return x.err ? x.err : hm_export_flush(out);
}

const struct hm_exporter hm_exporter_xml = {
	.name = "xml",
	.description = "the whole model as XML (schema: histmac.rng)",
	.write = xml_write,
};
