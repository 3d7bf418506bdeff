// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xml_import.c - reads what xml.c writes back into a new model, with
 * libxml2's xmlTextReader validating against the RELAX NG schema while
 * it streams.  What the schema cannot check is checked here as it is
 * resolved: domain names and words are valid TOMOYO, a domain appears
 * once, a "parent" attribute names the parent the model computes, groups
 * keep one type, address ranges keep one family.
 *
 * Every problem goes into the caller's struct hm_diag as FILE:LINE; the
 * first one makes the whole import fail and the model is freed, so
 * nothing is ever half imported.  No DOCTYPE, entity or network access
 * is accepted.  Owns the reader and the model under construction; hands
 * the model to the caller (cli/cmd_import.c) only when all went well.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/globals.h>
#include <libxml/relaxng.h>
#include <libxml/xmlreader.h>

#include "formats_private.h"
#include "histmac/word.h"
#include "histmac/xml_import.h"
#include "tomoyo_private.h"

#define MAX_COND_ITEMS 64
#define MAX_DEPTH 8

enum ctx {
	C_NONE,
	C_ROOT,
	C_EXCEPTION,
	C_DOMAIN,
	C_ACL_GROUP,
	C_GROUP,
	C_ACL,
	C_COND,
	C_ITEM,
	C_LEAF,
};

/* A "parent" attribute, checked once every domain is in. */
struct parent_ref {
	struct hm_domain *d;
	const struct hm_name *parent;
	unsigned long line;
};

struct imp {
	xmlTextReaderPtr r;
	const char *file;
	struct hm_diag *diag;
	struct hm_model *m;
	int err;
	enum ctx stack[MAX_DEPTH + 1];
	int depth;
	struct hm_domain *dom;		/* C_DOMAIN / C_ACL_GROUP */
	struct hm_group *group;		/* C_GROUP */
	union hm_acl_any entry;
	unsigned opnd_seen;		/* bit per operand of the entry */
	struct hm_cond_item *items;	/* C_COND */
	uint32_t n_items;
	const struct hm_name *cond_text;
	struct parent_ref *parents;
	size_t n_parents;
	size_t cap_parents;
	bool seen_root;
};

static struct hm_acl_head *entry(struct imp *im)
{
	return &im->entry.head;
}

/* The line of the node being handled (the parser may be ahead of it). */
static unsigned long line_no(struct imp *im)
{
	xmlNodePtr n = xmlTextReaderCurrentNode(im->r);
	long l = n ? xmlGetLineNo(n) : -1;

	if (l <= 0)
		l = xmlTextReaderGetParserLineNumber(im->r);
	return l > 0 ? (unsigned long)l : 0;
}

static void fail(struct imp *im, int err, const char *fmt, ...)
	HM_PRINTF(3, 4);

static void fail(struct imp *im, int err, const char *fmt, ...)
{
	va_list ap;

	if (!im->err)
		im->err = err;
	if (err == -ENOMEM && !fmt[0])
		return;
	va_start(ap, fmt);
	hm_diag_vadd(im->diag, HM_DIAG_ERROR, im->file, line_no(im), fmt, ap);
	va_end(ap);
}

static void oom(struct imp *im)
{
	fail(im, -ENOMEM, "out of memory");
}

/* libxml2's parser and schema messages, with their own line numbers. */
static void xml_error(void *arg, xmlErrorPtr e)
{
	struct imp *im = arg;
	size_t len;

	if (!e || e->level == XML_ERR_WARNING || !e->message)
		return;
	len = strlen(e->message);
	while (len && e->message[len - 1] == '\n')
		len--;
	if (!im->err)
		im->err = -EINVAL;
	hm_diag_add(im->diag, HM_DIAG_ERROR, im->file,
		    e->line > 0 ? (unsigned long)e->line : line_no(im),
		    "%s: %.*s",
		    e->domain == XML_FROM_RELAXNGV ? "schema" : "xml",
		    (int)len, e->message);
}

/* ------------------------------------------------------------ attributes */

/*
 * The string attribute @name, or its @name-hex form decoded.
 * Returns: 1 found (*@out malloc()ed, NUL-terminated, *@len its length,
 * which may hold NUL bytes), 0 absent, negative errno.
 */
static int get_str(struct imp *im, const char *name, char **out, size_t *len)
{
	char hexname[64];
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST name);
	size_t n;
	char *s;

	if (v) {
		*out = strdup((const char *)v);
		*len = strlen((const char *)v);
		xmlFree(v);
		return *out ? 1 : -ENOMEM;
	}
	snprintf(hexname, sizeof(hexname), "%s-hex", name);
	v = xmlTextReaderGetAttribute(im->r, BAD_CAST hexname);
	if (!v)
		return 0;
	n = strlen((const char *)v);
	s = malloc(n / 2 + 1);
	if (!s) {
		xmlFree(v);
		return -ENOMEM;
	}
	if (!hm_hex_decode(s, (const char *)v, n)) {
		free(s);
		xmlFree(v);
		return -EINVAL;
	}
	s[n / 2] = '\0';
	*out = s;
	*len = n / 2;
	xmlFree(v);
	return 1;
}

/* Intern string attribute @name; *@out NULL when absent. */
static int get_name(struct imp *im, const char *name,
		    const struct hm_name **out)
{
	char *s;
	size_t len;
	int r = get_str(im, name, &s, &len);

	*out = NULL;
	if (r <= 0) {
		if (r == -EINVAL)
			fail(im, r, "%s-hex: not hex", name);
		else if (r)
			oom(im);
		return r;
	}
	r = hm_model_intern(im->m, s, len, out);
	free(s);
	if (r == -EINVAL)
		fail(im, r, "%s: holds a NUL byte", name);
	else if (r)
		oom(im);
	return r;
}

/* A word attribute that must be a valid TOMOYO word. */
static const struct hm_name *get_word(struct imp *im, const char *attr)
{
	const struct hm_name *n;
	char why[128];
	const char *reason;

	if (get_name(im, attr, &n) || !n) {
		if (!n && !im->err)
			fail(im, -EINVAL, "missing attribute '%s'", attr);
		return NULL;
	}
	reason = hm_word_why_invalid(n->str, n->len, why, sizeof(why));
	if (reason) {
		fail(im, -EINVAL, "'%s' is not a valid word: %s", n->str,
		     reason);
		return NULL;
	}
	return n;
}

static const struct hm_name *get_domainname(struct imp *im, const char *attr)
{
	const struct hm_name *n;

	if (get_name(im, attr, &n) || !n) {
		if (!n && !im->err)
			fail(im, -EINVAL, "missing attribute '%s'", attr);
		return NULL;
	}
	if (!hm_domainname_is_valid(n->str, n->len)) {
		fail(im, -EINVAL, "'%s' is not a valid domain name", n->str);
		return NULL;
	}
	return n;
}

/* An unsigned attribute; @def when absent. */
static bool get_u64(struct imp *im, const char *name, uint64_t max,
		    uint64_t def, uint64_t *out)
{
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST name);
	char *end;
	uint64_t x;

	*out = def;
	if (!v)
		return true;
	errno = 0;
	x = strtoull((const char *)v, &end, 10);
	if (errno || end == (char *)v || *end || v[0] == '-' || x > max) {
		fail(im, -EINVAL, "%s: bad number '%s'", name, (char *)v);
		xmlFree(v);
		return false;
	}
	xmlFree(v);
	*out = x;
	return true;
}

static bool get_i64(struct imp *im, const char *name, int64_t *out)
{
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST name);
	char *end;
	long long x;

	*out = 0;
	if (!v)
		return true;
	errno = 0;
	x = strtoll((const char *)v, &end, 10);
	if (errno || end == (char *)v || *end) {
		fail(im, -EINVAL, "%s: bad number '%s'", name, (char *)v);
		xmlFree(v);
		return false;
	}
	xmlFree(v);
	*out = x;
	return true;
}

/* The "logins" attribute of domain @d: "-,1000" (histmac.rng). */
static bool get_logins(struct imp *im, struct hm_domain *d)
{
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST "logins");
	bool ok = !v || !hm_logins_parse(&d->logins, (const char *)v,
						 strlen((const char *)v));

	if (!ok)
		fail(im, -EINVAL, "logins: bad list '%s'", (char *)v);
	xmlFree(v);
	return ok;
}

/*
 * Index of attribute @name's value among @n strings @stride bytes apart
 * from @first, or -1 (absent: -2).
 */
static int get_enum_in(struct imp *im, const char *name, const void *first,
		       size_t stride, size_t n)
{
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST name);
	int r = -1;

	if (!v)
		return -2;
	for (size_t i = 0; i < n; i++) {
		const char *w = *(const char *const *)(const void *)
					((const char *)first + i * stride);

		if (w && !strcmp((const char *)v, w))
			r = (int)i;
	}
	if (r < 0)
		fail(im, -EINVAL, "%s: unknown value '%s'", name, (char *)v);
	xmlFree(v);
	return r;
}

/* Index of attribute @name's value in @table[@n], or -1 (absent: -2). */
static int get_enum(struct imp *im, const char *name,
		    const char *const *table, size_t n)
{
	return get_enum_in(im, name, table, sizeof(*table), n);
}

/*
 * Each space-separated word of attribute @name through @fn.
 * Returns: false after an error.
 */
static bool get_list(struct imp *im, const char *name,
		     bool (*fn)(struct imp *, const char *, void *), void *arg)
{
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST name);
	char *save = NULL;
	bool ok = true;

	if (!v)
		return true;
	for (char *w = strtok_r((char *)v, " \t\r\n", &save); w && ok;
	     w = strtok_r(NULL, " \t\r\n", &save))
		ok = fn(im, w, arg);
	xmlFree(v);
	return ok;
}

/* -------------------------------------------------------------- operands */

static bool parse_radix(struct imp *im, const char *attr, uint8_t *out,
			uint8_t def)
{
	int r = get_enum(im, attr, hm_radix_names, 3);

	if (r == -1)
		return false;
	*out = r == -2 ? def : (uint8_t)r;
	return true;
}

static struct hm_group *find_group(struct imp *im, enum hm_group_type type)
{
	const struct hm_name *n;
	struct hm_group *g;
	int r;

	if (get_name(im, "group", &n) || !n)
		return NULL;
	r = hm_model_group(im->m, type, n->str, n->len, &g);
	if (r == -EEXIST)
		fail(im, -EINVAL, "group '%s' is used as another type",
		     n->str);
	else if (r)
		oom(im);
	return r ? NULL : g;
}

static bool has_group(struct imp *im)
{
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST "group");

	if (!v)
		v = xmlTextReaderGetAttribute(im->r, BAD_CAST "group-hex");
	if (!v)
		return false;
	xmlFree(v);
	return true;
}

static void parse_number(struct imp *im, struct hm_number *n, bool group_ok)
{
	memset(n, 0, sizeof(*n));
	if (group_ok && has_group(im)) {
		n->group = find_group(im, HM_GROUP_NUMBER);
		return;
	}
	if (!get_u64(im, "min", UINT64_MAX, 0, &n->min) ||
	    !get_u64(im, "max", UINT64_MAX, n->min, &n->max) ||
	    !parse_radix(im, "radix", &n->radix_min, HM_RADIX_DEC) ||
	    !parse_radix(im, "radix-max", &n->radix_max, n->radix_min))
		return;
	if (n->min > n->max)
		fail(im, -EINVAL, "number range %" PRIu64 "-%" PRIu64
		     " is reversed", n->min, n->max);
}

static bool parse_ip(struct imp *im, const char *attr, uint8_t out[16],
		     int *family)
{
	xmlChar *v = xmlTextReaderGetAttribute(im->r, BAD_CAST attr);
	int fam;
	bool ok;

	if (!v) {
		fail(im, -EINVAL, "missing attribute '%s'", attr);
		return false;
	}
	fam = strchr((const char *)v, ':') ? AF_INET6 : AF_INET;
	memset(out, 0, 16);
	ok = inet_pton(fam, (const char *)v, out) == 1;
	if (!ok)
		fail(im, -EINVAL, "%s: bad address '%s'", attr, (char *)v);
	xmlFree(v);
	*family = fam;
	return ok;
}

static void parse_addr(struct imp *im, struct hm_addr *a, bool group_ok)
{
	int f1;
	int f2;

	memset(a, 0, sizeof(*a));
	if (group_ok && has_group(im)) {
		a->group = find_group(im, HM_GROUP_ADDRESS);
		return;
	}
	if (!parse_ip(im, "min", a->min, &f1) ||
	    !parse_ip(im, "max", a->max, &f2))
		return;
	if (f1 != f2) {
		fail(im, -EINVAL, "address range mixes IPv4 and IPv6");
		return;
	}
	a->is_ipv6 = f1 == AF_INET6;
	if (memcmp(a->min, a->max, a->is_ipv6 ? 16 : 4) > 0)
		fail(im, -EINVAL, "address range is reversed");
}

static void parse_name_op(struct imp *im, struct hm_name_op *op)
{
	memset(op, 0, sizeof(*op));
	if (has_group(im))
		op->group = find_group(im, HM_GROUP_PATH);
	else
		op->name = get_word(im, "word");
}

/* An operand element inside <acl>. */
static void acl_operand(struct imp *im, const char *tag)
{
	struct hm_acl_head *e = entry(im);
	const struct hm_operand *ops = hm_kinds[e->kind].opnd;
	void *p;

	for (unsigned i = 0; ops[i].id; i++) {
		if (strcmp(ops[i].id, tag) || ops[i].type == HM_OT_PROTO)
			continue;
		if (im->opnd_seen & (1u << i)) {
			fail(im, -EINVAL, "<%s> given twice", tag);
			return;
		}
		im->opnd_seen |= 1u << i;
		p = hm_operand_ptr(&im->entry, &ops[i]);
		switch (ops[i].type) {
		case HM_OT_NAME:
			parse_name_op(im, p);
			break;
		case HM_OT_NUMBER:
			parse_number(im, p, true);
			break;
		case HM_OT_ADDR:
			parse_addr(im, p, true);
			break;
		case HM_OT_WORD:
			*(const struct hm_name **)p = get_word(im, "word");
			break;
		case HM_OT_DOMAIN:
			*(const struct hm_name **)p =
				get_domainname(im, "word");
			break;
		}
		return;
	}
	fail(im, -EINVAL, "<%s> is not an operand of a %s entry", tag,
	     hm_kinds[e->kind].id);
}

/* ---------------------------------------------------------------- entries */

static bool add_perm(struct imp *im, const char *word, void *arg)
{
	struct hm_acl_head *e = arg;

	for (unsigned op = 0; op < 32; op++) {
		const char *name = hm_acl_op_name(e->kind, op);

		if (name && !strcmp(name, word)) {
			e->perm |= 1u << op;
			return true;
		}
	}
	fail(im, -EINVAL, "'%s' is not an operation of a %s entry", word,
	     hm_kinds[e->kind].id);
	return false;
}

static void acl_start(struct imp *im)
{
	struct hm_acl_head *e = entry(im);
	int kind = get_enum_in(im, "kind", &hm_kinds[0].id, sizeof(hm_kinds[0]),
			       HM_ACL_KIND_MAX);
	int proto;

	memset(&im->entry, 0, sizeof(im->entry));
	im->opnd_seen = 0;
	im->n_items = 0;
	im->cond_text = NULL;
	if (kind < 0) {
		if (kind == -2)
			fail(im, -EINVAL, "<acl> without a kind");
		return;
	}
	e->kind = (uint8_t)kind;
	if (!hm_acl_has_perm(e->kind)) {
		e->perm = 1;
	} else if (!get_list(im, "perm", add_perm, e)) {
		return;
	} else if (!e->perm) {
		fail(im, -EINVAL, "<acl> without operations");
		return;
	}
	hm_for_each_operand(op, kind) {
		if (op->type != HM_OT_PROTO)
			continue;
		proto = get_enum(im, "protocol", hm_net_proto_names,
				 HM_PROTO_MAX);
		if (proto == -2)
			fail(im, -EINVAL, "<acl> without a protocol");
		if (proto >= 0)
			*(uint8_t *)hm_operand_ptr(&im->entry, op) =
				(uint8_t)proto;
	}
}

static void acl_end(struct imp *im)
{
	struct hm_acl_head *e = entry(im);
	const struct hm_operand *ops = hm_kinds[e->kind].opnd;
	int r;

	if (im->err)
		return;
	for (unsigned i = 0; ops[i].id; i++) {
		if (ops[i].type != HM_OT_PROTO &&
		    !(im->opnd_seen & (1u << i))) {
			fail(im, -EINVAL, "%s entry without <%s>",
			     hm_kinds[e->kind].id, ops[i].id);
			return;
		}
	}
	r = hm_domain_add(im->m, im->dom, e, NULL);
	if (r == -ENOMEM)
		oom(im);
	else if (r < 0)
		fail(im, r, "entry rejected by the model");
}

/* ------------------------------------------------------------- conditions */

static void cond_start(struct imp *im)
{
	if (get_name(im, "text", &im->cond_text))
		return;
	if (!im->cond_text)
		fail(im, -EINVAL, "<cond> without text");
	im->n_items = 0;
}

static void item_start(struct imp *im)
{
	struct hm_cond_item *it;
	uint64_t index;
	int var;
	xmlChar *neg;

	if (im->n_items >= MAX_COND_ITEMS) {
		fail(im, -EINVAL, "more than %d condition items",
		     MAX_COND_ITEMS);
		return;
	}
	if (!im->items) {
		im->items = calloc(MAX_COND_ITEMS, sizeof(*im->items));
		if (!im->items) {
			oom(im);
			return;
		}
	}
	it = &im->items[im->n_items++];
	memset(it, 0, sizeof(*it));
	var = get_enum(im, "var", hm_cond_var_names, HM_COND_VAR_MAX);
	if (var < 0) {
		if (var == -2)
			fail(im, -EINVAL, "<item> without var");
		return;
	}
	it->var = (uint8_t)var;
	neg = xmlTextReaderGetAttribute(im->r, BAD_CAST "negate");
	if (neg) {
		it->negate = !strcmp((char *)neg, "true") ||
			     !strcmp((char *)neg, "1");
		xmlFree(neg);
	}
	if (!get_u64(im, "index", UINT32_MAX, 0, &index))
		return;
	it->index = (uint32_t)index;
	if (get_name(im, "text", &it->text))
		return;
	if (!it->text) {
		fail(im, -EINVAL, "<item> without text");
		return;
	}
	get_name(im, "string", &it->str);
	/* what the evaluator reads is not in the XML: from the text */
	if (hm_tomoyo_cond_item_eval(im->m, it))
		oom(im);
}

static void cond_end(struct imp *im)
{
	struct hm_cond *c;
	const struct hm_cond *out;
	size_t size;
	int r;

	if (im->err)
		return;
	size = sizeof(*c) + im->n_items * sizeof(c->items[0]);
	c = calloc(1, size);
	if (!c) {
		oom(im);
		return;
	}
	c->text = im->cond_text;
	c->n_items = im->n_items;
	if (im->n_items)
		memcpy(c->items, im->items, im->n_items * sizeof(c->items[0]));
	r = hm_model_cond(im->m, c, &out);
	free(c);
	if (r) {
		oom(im);
		return;
	}
	entry(im)->cond = out;
}

/* ---------------------------------------------------------------- domains */

static bool add_flag(struct imp *im, const char *word, void *arg)
{
	struct hm_domain *d = arg;

	for (unsigned i = 0; i < 8; i++) {
		if (!strcmp(word, hm_domain_flag_ids[i])) {
			d->flags |= (uint8_t)(1u << i);
			return true;
		}
	}
	fail(im, -EINVAL, "unknown flag '%s'", word);
	return false;
}

static bool add_use_group(struct imp *im, const char *word, void *arg)
{
	struct hm_domain *d = arg;
	char *end;
	unsigned long g;

	errno = 0;
	g = strtoul(word, &end, 10);
	if (errno || *end || end == word || g > 255 || word[0] == '-') {
		fail(im, -EINVAL, "bad use_group '%s'", word);
		return false;
	}
	d->groups[g / 8] |= (uint8_t)(1u << (g % 8));
	return true;
}

static void remember_parent(struct imp *im, struct hm_domain *d)
{
	const struct hm_name *p;

	if (get_name(im, "parent", &p) || !p)
		return;
	if (HM_ARRAY_GROW(&im->parents, &im->cap_parents, im->n_parents + 1)) {
		oom(im);
		return;
	}
	im->parents[im->n_parents++] = (struct parent_ref){
		.d = d, .parent = p, .line = line_no(im),
	};
}

static void domain_start(struct imp *im)
{
	const struct hm_name *n = get_domainname(im, "name");
	struct hm_domain *d;
	uint64_t v;
	int r;

	im->dom = NULL;
	if (!n)
		return;
	r = hm_model_domain(im->m, n->str, n->len, true, &d);
	if (r < 0) {
		oom(im);
		return;
	}
	if (r == 0) {
		fail(im, -EINVAL, "domain '%s' appears twice", n->str);
		return;
	}
	im->dom = d;
	if (!get_u64(im, "profile", 255, im->m->default_profile, &v))
		return;
	d->profile = (uint8_t)v;
	if (!get_list(im, "flags", add_flag, d) ||
	    !get_list(im, "use-groups", add_use_group, d) ||
	    !get_u64(im, "events", UINT64_MAX, 0, &d->events) ||
	    !get_i64(im, "first-seen", &d->first_seen) ||
	    !get_i64(im, "last-seen", &d->last_seen) || !get_logins(im, d))
		return;
	remember_parent(im, d);
}

static void check_parents(struct imp *im)
{
	hm_model_relink(im->m);
	for (size_t i = 0; i < im->n_parents && !im->err; i++) {
		const struct parent_ref *p = &im->parents[i];
		const struct hm_name *have = p->d->parent ? p->d->parent->name :
							    NULL;

		if (have == p->parent)
			continue;
		if (!im->err)
			im->err = -EINVAL;
		hm_diag_add(im->diag, HM_DIAG_ERROR, im->file, p->line,
			    "domain '%s': parent '%s' is not %s",
			    p->d->name->str, p->parent->str,
			    have ? have->str : "in the policy");
	}
}

/* -------------------------------------------------------- exception policy */

static void transition(struct imp *im)
{
	struct hm_transition_rule t = { 0 };
	int type = get_enum(im, "type", hm_transition_names, HM_TR_MAX);

	if (type < 0) {
		if (type == -2)
			fail(im, -EINVAL, "<transition> without a type");
		return;
	}
	t.type = (uint8_t)type;
	if (get_name(im, "program", &t.program) ||
	    get_name(im, "from", &t.domain))
		return;
	if (hm_model_add_transition(im->m, &t) < 0)
		oom(im);
}

static void rename_rule(struct imp *im, bool is_alias)
{
	struct hm_rename_rule r = { .is_alias = is_alias };

	r.original = get_word(im, "original");
	r.renamed = r.original ? get_word(im, "renamed") : NULL;
	if (!r.renamed)
		return;
	if (hm_model_add_rename(im->m, &r) < 0)
		oom(im);
}

static void word_entry(struct imp *im, struct hm_word_entry **list)
{
	const struct hm_name *w = get_word(im, "word");

	if (w && hm_model_add_word(im->m, list, w) < 0)
		oom(im);
}

static void rewrite(struct imp *im)
{
	char *re = NULL;
	char *rep = NULL;
	size_t l1;
	size_t l2;
	uint64_t line;
	int r1 = get_str(im, "regex", &re, &l1);
	int r2 = r1 > 0 ? get_str(im, "replacement", &rep, &l2) : 0;

	if (r1 <= 0 || r2 <= 0) {
		fail(im, r1 == -ENOMEM || r2 == -ENOMEM ? -ENOMEM : -EINVAL,
		     "<rewrite> needs regex and replacement");
	} else if (strlen(re) != l1 || strlen(rep) != l2) {
		fail(im, -EINVAL, "<rewrite> holds a NUL byte");
	} else if (get_u64(im, "line", ULONG_MAX, 0, &line) &&
		   hm_model_add_rewrite(im->m, re, rep,
					(unsigned long)line) < 0) {
		oom(im);
	}
	free(re);
	free(rep);
}

static void group_start(struct imp *im, enum hm_group_type type)
{
	const struct hm_name *n = get_word(im, "name");
	int r;

	im->group = NULL;
	if (!n)
		return;
	r = hm_model_group(im->m, type, n->str, n->len, &im->group);
	if (r == -EEXIST)
		fail(im, -EINVAL, "group '%s' is used as another type",
		     n->str);
	else if (r)
		oom(im);
}

static void import_member(struct imp *im)
{
	struct hm_group_member mb = { 0 };

	if (!im->group)
		return;
	if (im->group->type == HM_GROUP_PATH) {
		mb.name = get_word(im, "word");
		if (!mb.name)
			return;
	} else if (im->group->type == HM_GROUP_NUMBER) {
		parse_number(im, &mb.number, false);
	} else {
		parse_addr(im, &mb.addr, false);
	}
	if (!im->err && hm_group_add(im->m, im->group, &mb) < 0)
		oom(im);
}

static void acl_group_start(struct imp *im)
{
	uint64_t no;

	im->dom = NULL;
	if (!get_u64(im, "number", 255, 256, &no))
		return;
	if (no > 255) {
		fail(im, -EINVAL, "<acl-group> without a number");
		return;
	}
	if (hm_model_acl_group(im->m, (unsigned)no, &im->dom))
		oom(im);
}

static void deny_autobind(struct imp *im)
{
	struct hm_exception *ex = &im->m->ex;

	if (get_u64(im, "min", 65535, 0, &ex->deny_autobind_min) &&
	    get_u64(im, "max", 65535, 0, &ex->deny_autobind_max) &&
	    ex->deny_autobind_min > ex->deny_autobind_max)
		fail(im, -EINVAL, "deny-autobind range is reversed");
}

static void root_start(struct imp *im)
{
	int d = get_enum(im, "dialect", hm_dialect_names, HM_DIALECT_MAX);
	uint64_t v;
	char *note;
	size_t len;
	int r;

	im->seen_root = true;
	if (d >= 0)
		im->m->dialect = (enum hm_dialect)d;
	if (get_u64(im, "default-profile", 255, HM_PROFILE_LEARNING, &v))
		im->m->default_profile = (uint8_t)v;
	if (get_u64(im, "max-learning-entry", UINT32_MAX, 2048, &v))
		im->m->max_learning_entry = (uint32_t)v;
	r = get_str(im, "path-note", &note, &len);
	if (r < 0)
		fail(im, r, "path-note: bad value");
	if (r > 0)
		im->m->path_note = note;
}

/* --------------------------------------------------------------- dispatch */

/* Handle the start of element @tag inside context @parent. */
static enum ctx element_start(struct imp *im, enum ctx parent, const char *tag)
{
	static const struct {
		enum ctx parent;
		const char *tag;
		enum ctx ctx;
	} leaf[] = {
		{ C_EXCEPTION, "transition", C_LEAF },
		{ C_EXCEPTION, "aggregator", C_LEAF },
		{ C_EXCEPTION, "alias", C_LEAF },
		{ C_EXCEPTION, "file-pattern", C_LEAF },
		{ C_EXCEPTION, "deny-rewrite", C_LEAF },
		{ C_EXCEPTION, "rewrite", C_LEAF },
		{ C_EXCEPTION, "deny-autobind", C_LEAF },
	};

	switch (parent) {
	case C_NONE:
		if (strcmp(tag, "histmac-policy"))
			break;
		root_start(im);
		return C_ROOT;
	case C_ROOT:
		if (!strcmp(tag, "exception"))
			return C_EXCEPTION;
		if (strcmp(tag, "domain"))
			break;
		domain_start(im);
		return C_DOMAIN;
	case C_EXCEPTION:
		for (size_t i = 0; i < HM_ARRAY_SIZE(leaf); i++) {
			if (strcmp(tag, leaf[i].tag))
				continue;
			if (!strcmp(tag, "transition"))
				transition(im);
			else if (!strcmp(tag, "aggregator"))
				rename_rule(im, false);
			else if (!strcmp(tag, "alias"))
				rename_rule(im, true);
			else if (!strcmp(tag, "file-pattern"))
				word_entry(im, &im->m->ex.file_patterns);
			else if (!strcmp(tag, "deny-rewrite"))
				word_entry(im, &im->m->ex.deny_rewrites);
			else if (!strcmp(tag, "rewrite"))
				rewrite(im);
			else
				deny_autobind(im);
			return leaf[i].ctx;
		}
		if (!strcmp(tag, "path-group")) {
			group_start(im, HM_GROUP_PATH);
			return C_GROUP;
		}
		if (!strcmp(tag, "number-group")) {
			group_start(im, HM_GROUP_NUMBER);
			return C_GROUP;
		}
		if (!strcmp(tag, "address-group")) {
			group_start(im, HM_GROUP_ADDRESS);
			return C_GROUP;
		}
		if (strcmp(tag, "acl-group"))
			break;
		acl_group_start(im);
		return C_ACL_GROUP;
	case C_GROUP:
		if (strcmp(tag, "member"))
			break;
		import_member(im);
		return C_LEAF;
	case C_DOMAIN:
	case C_ACL_GROUP:
		if (strcmp(tag, "acl") || !im->dom)
			break;
		acl_start(im);
		return C_ACL;
	case C_ACL:
		if (!strcmp(tag, "cond")) {
			cond_start(im);
			return C_COND;
		}
		acl_operand(im, tag);
		return C_LEAF;
	case C_COND:
		if (strcmp(tag, "item"))
			break;
		item_start(im);
		return C_ITEM;
	case C_ITEM:
		if (strcmp(tag, "number") || !im->n_items)
			break;
		parse_number(im, &im->items[im->n_items - 1].num, true);
		return C_LEAF;
	default:
		break;
	}
	fail(im, -EINVAL, "unexpected element <%s>", tag);
	return C_NONE;
}

static void element_end(struct imp *im, enum ctx ctx)
{
	if (im->err)
		return;
	if (ctx == C_ACL)
		acl_end(im);
	else if (ctx == C_COND)
		cond_end(im);
	else if (ctx == C_DOMAIN || ctx == C_ACL_GROUP)
		im->dom = NULL;
	else if (ctx == C_GROUP)
		im->group = NULL;
}

static void on_element(struct imp *im)
{
	const char *tag = (const char *)xmlTextReaderConstLocalName(im->r);
	bool empty = xmlTextReaderIsEmptyElement(im->r) == 1;
	enum ctx ctx;

	if (im->depth >= MAX_DEPTH) {
		fail(im, -EINVAL, "elements nested too deeply");
		return;
	}
	if (xmlTextReaderConstNamespaceUri(im->r)) {
		fail(im, -EINVAL, "unexpected namespace on <%s>", tag);
		return;
	}
	ctx = element_start(im, im->stack[im->depth], tag ? tag : "");
	if (im->err)
		return;
	if (empty) {
		element_end(im, ctx);
		return;
	}
	im->stack[++im->depth] = ctx;
}

static void on_node(struct imp *im)
{
	int type = xmlTextReaderNodeType(im->r);

	switch (type) {
	case XML_READER_TYPE_ELEMENT:
		on_element(im);
		break;
	case XML_READER_TYPE_END_ELEMENT:
		if (im->depth > 0)
			element_end(im, im->stack[im->depth--]);
		break;
	case XML_READER_TYPE_DOCUMENT_TYPE:
		fail(im, -EINVAL, "a DOCTYPE is not allowed");
		break;
	case XML_READER_TYPE_ENTITY_REFERENCE:
	case XML_READER_TYPE_ENTITY:
		fail(im, -EINVAL, "entities are not allowed");
		break;
	case XML_READER_TYPE_TEXT:
	case XML_READER_TYPE_CDATA:
		fail(im, -EINVAL, "unexpected text");
		break;
	default:
		break;		/* whitespace, comments, PIs */
	}
}

/* ------------------------------------------------------------------ entry */

static const char *exe_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *sl;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	sl = strrchr(buf, '/');
	if (!sl)
		return NULL;
	*sl = '\0';
	return buf;
}

const char *hm_xml_schema_path(void)
{
	static char path[PATH_MAX + 64];
	char dir[PATH_MAX];
	const char *env = getenv("HISTMAC_SCHEMA");
	const char *const rel[] = {
		"schema/histmac.rng", "../share/histmac/histmac.rng",
	};

	if (env && *env)
		return env;
	if (exe_dir(dir, sizeof(dir))) {
		for (size_t i = 0; i < HM_ARRAY_SIZE(rel); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, rel[i]);
			if (!access(path, R_OK))
				return path;
		}
	}
	return HM_SCHEMA_FILE;
}

static xmlRelaxNGPtr load_schema(struct imp *im, const char *path)
{
	xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewParserCtxt(path);
	xmlRelaxNGPtr s = NULL;

	if (pc) {
		xmlRelaxNGSetParserStructuredErrors(pc, xml_error, im);
		s = xmlRelaxNGParse(pc);
		xmlRelaxNGFreeParserCtxt(pc);
	}
	if (!s)
		hm_diag_add(im->diag, HM_DIAG_ERROR, path, 0,
			    "cannot load the RELAX NG schema");
	return s;
}

static int import_reader(struct imp *im, const char *schema)
{
	const char *path = schema ? schema : hm_xml_schema_path();
	xmlRelaxNGPtr rng;
	int rc;

	if (access(path, R_OK)) {
		hm_diag_add(im->diag, HM_DIAG_ERROR, path, 0,
			    "cannot read the RELAX NG schema");
		return -ENOENT;
	}
	rng = load_schema(im, path);
	if (!rng)
		return -ENOENT;
	im->err = 0;
	xmlTextReaderSetStructuredErrorHandler(im->r, xml_error, im);
	if (xmlTextReaderRelaxNGSetSchema(im->r, rng) != 0) {
		xmlRelaxNGFree(rng);
		return -EIO;
	}
	im->m = hm_model_new();
	if (!im->m) {
		xmlRelaxNGFree(rng);
		return -ENOMEM;
	}
	while (!im->err && (rc = xmlTextReaderRead(im->r)) == 1 && !im->err)
		on_node(im);
	if (!im->err && rc < 0)
		fail(im, -EINVAL, "the document is not well-formed");
	if (!im->err && xmlTextReaderIsValid(im->r) != 1)
		fail(im, -EINVAL, "the document does not match the schema");
	if (!im->err && !im->seen_root)
		fail(im, -EINVAL, "no <histmac-policy> element");
	if (!im->err)
		check_parents(im);
	xmlFreeTextReader(im->r);
	im->r = NULL;
	xmlRelaxNGFree(rng);
	return im->err;
}

static int finish(struct imp *im, int r, struct hm_model **out)
{
	free(im->items);
	free(im->parents);
	if (r) {
		hm_model_free(im->m);
		/* anything but a resource problem is the input's fault */
		return r == -ENOMEM || r == -EIO || r == -ENOENT ? r : -EINVAL;
	}
	*out = im->m;
	return 0;
}

/* Parser options: no network, no entity expansion, no DTD loading. */
#define HM_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOCDATA)

/*
 * Run the import with libxml2's per-thread error handler pointed at @im,
 * so messages that bypass the reader's handler (I/O warnings, schema
 * loading) are not printed either; the caller's handler is restored.
 */
static int run_import(struct imp *im, const char *schema, struct hm_model **out)
{
	xmlStructuredErrorFunc saved = xmlStructuredError;
	void *saved_ctx = xmlStructuredErrorContext;
	int r;

	xmlSetStructuredErrorFunc(im, xml_error);
	r = import_reader(im, schema);
	if (im->r)
		xmlFreeTextReader(im->r);
	xmlSetStructuredErrorFunc(saved_ctx, saved);
	return finish(im, r, out);
}

int hm_xml_import(const char *path, const char *schema, struct hm_diag *diag,
		  struct hm_model **out)
{
	struct imp im = { .file = path, .diag = diag };

	if (access(path, R_OK)) {
		hm_diag_add(diag, HM_DIAG_ERROR, path, 0, "cannot read: %s",
			    strerror(errno));
		return -EIO;
	}
	im.r = xmlReaderForFile(path, NULL, HM_XML_OPTIONS);
	if (!im.r) {
		hm_diag_add(diag, HM_DIAG_ERROR, path, 0, "cannot open");
		return -EIO;
	}
	return run_import(&im, schema, out);
}

int hm_xml_import_mem(const char *buf, size_t len, const char *name,
		      const char *schema, struct hm_diag *diag,
		      struct hm_model **out)
{
	struct imp im = { .file = name, .diag = diag };

	if (len > INT_MAX)
		return -EINVAL;
	im.r = xmlReaderForMemory(buf, (int)len, name, NULL, HM_XML_OPTIONS);
	if (!im.r)
		return -ENOMEM;
	return run_import(&im, schema, out);
}
