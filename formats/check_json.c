// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_json.c - reads the result of `histmac check --format json` so the
 * tree and the report can mark the domains with violations.
 *
 * The reader is a small strict JSON parser (RFC 8259, nesting limited to
 * HM_JSON_MAX_DEPTH) that keeps nothing of the document but, per domain,
 * a count and a few one-line descriptions.  It does not depend on the
 * checker's exact layout: every object with a string member "domain" is
 * one violation of that domain, or as many as its array member
 * "violations" holds (elements that name their own domain count there).
 * Objects inside a member "attempts" are not violations and not counted.
 * Owns the struct hm_check_result it returns; the tree exporters read it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats_private.h"

#define HM_JSON_MAX_DEPTH 128
#define HM_CHECK_MAX_LINES 200	/* descriptions kept per domain */

struct rec {
	char *name;
	size_t count;
	char **lines;
	size_t n_lines;
};

struct parser {
	const char *s;
	size_t len;
	size_t pos;
	unsigned long line;
	const char *file;
	struct hm_diag *diag;
	int err;			/* first error, sticky */
	unsigned in_attempts;		/* inside an "attempts" member */
	struct rec *recs;
	size_t n_recs;
	size_t cap_recs;
};

/* What a parsed value leaves for its container. */
struct val {
	enum { V_OTHER, V_STRING, V_SCALAR, V_ARRAY, V_OBJECT } type;
	char *str;		/* V_STRING: decoded; V_SCALAR: as written */
	char *desc;		/* V_OBJECT: its description */
	size_t n_own;		/* V_ARRAY: elements not naming a domain */
	char **descs;		/* V_ARRAY: their descriptions */
	size_t n_descs;
	bool named;		/* V_OBJECT: it had a "domain" */
};

static void val_free(struct val *v)
{
	free(v->str);
	free(v->desc);
	for (size_t i = 0; i < v->n_descs; i++)
		free(v->descs[i]);
	free(v->descs);
	memset(v, 0, sizeof(*v));
}

static void fail(struct parser *p, int err, const char *msg)
{
	if (p->err)
		return;
	p->err = err;
	if (err == -ENOMEM)
		return;
	hm_diag_add(p->diag, HM_DIAG_ERROR, p->file, p->line,
		    "check result: %s", msg);
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c == '\n')
			p->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		p->pos++;
	}
}

static bool eat(struct parser *p, char c)
{
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == c) {
		p->pos++;
		return true;
	}
	return false;
}

static bool read_u16(struct parser *p, uint32_t *out)
{
	uint32_t v = 0;

	if (p->len - p->pos < 4)
		return false;
	for (int i = 0; i < 4; i++) {
		int h = hm_hex_digit(p->s[p->pos + i]);

		if (h < 0)
			return false;
		v = v << 4 | (uint32_t)h;
	}
	p->pos += 4;
	*out = v;
	return true;
}

static void add_utf8(struct hm_sbuf *b, uint32_t cp)
{
	char u[4];

	if (cp < 0x80) {
		hm_sbuf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		hm_sbuf_add(b, u, 2);
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		hm_sbuf_add(b, u, 3);
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		hm_sbuf_add(b, u, 4);
	}
}

/* \uXXXX (and its low surrogate); p->pos is after the 'u'. */
static bool read_uescape(struct parser *p, struct hm_sbuf *b)
{
	uint32_t cp;
	uint32_t lo;

	if (!read_u16(p, &cp))
		return false;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return false;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->len - p->pos < 6 || p->s[p->pos] != '\\' ||
		    p->s[p->pos + 1] != 'u')
			return false;
		p->pos += 2;
		if (!read_u16(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return false;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return false;	/* NUL cannot be kept in a C string */
	add_utf8(b, cp);
	return true;
}

static bool read_escape(struct parser *p, struct hm_sbuf *b)
{
	static const char from[] = "\"\\/bfnrt";
	static const char to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	char c;

	if (p->pos >= p->len)
		return false;
	c = p->s[p->pos++];
	if (c == 'u')
		return read_uescape(p, b);
	k = strchr(from, c);
	if (!k || !c)
		return false;
	hm_sbuf_addc(b, to[k - from]);
	return true;
}

/* A string; p->pos is at the opening quote.  Returns malloc()ed text. */
static char *read_string(struct parser *p)
{
	struct hm_sbuf b = { 0 };

	p->pos++;
	hm_sbuf_add(&b, "", 0);
	while (p->pos < p->len && !p->err) {
		unsigned char c = (unsigned char)p->s[p->pos++];

		if (c == '"') {
			if (b.oom) {
				fail(p, -ENOMEM, "");
				break;
			}
			return b.s;
		}
		if (c == '\\') {
			if (!read_escape(p, &b))
				fail(p, -EINVAL, "bad escape in string");
		} else if (c < 0x20 || c == 0) {
			fail(p, -EINVAL, "control character in string");
		} else {
			hm_sbuf_addc(&b, (char)c);
		}
	}
	fail(p, -EINVAL, "unterminated string");
	hm_sbuf_free(&b);
	return NULL;
}

static char *read_scalar(struct parser *p)
{
	static const char *const words[] = { "true", "false", "null" };
	size_t start = p->pos;
	char *s;

	for (size_t i = 0; i < HM_ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i]);

		if (p->len - p->pos >= n && !memcmp(p->s + p->pos, words[i], n)) {
			p->pos += n;
			goto done;
		}
	}
	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++;
	if (p->pos >= p->len || p->s[p->pos] < '0' || p->s[p->pos] > '9') {
		fail(p, -EINVAL, "expected a value");
		return NULL;
	}
	while (p->pos < p->len && p->s[p->pos] &&
	       strchr("0123456789.eE+-", p->s[p->pos]))
		p->pos++;
done:
	s = strndup(p->s + start, p->pos - start);
	if (!s)
		fail(p, -ENOMEM, "");
	return s;
}

static int add_line(char ***lines, size_t *n, char *line)
{
	char **v;

	if (*n >= HM_CHECK_MAX_LINES) {
		free(line);
		return 0;
	}
	v = realloc(*lines, (*n + 1) * sizeof(*v));
	if (!v) {
		free(line);
		return -ENOMEM;
	}
	v[(*n)++] = line;
	*lines = v;
	return 0;
}

/* Record @count violations of @name with descriptions @lines (taken). */
static void record(struct parser *p, char *name, size_t count, char **lines,
		   size_t n_lines)
{
	struct rec *r;

	if (HM_ARRAY_GROW(&p->recs, &p->cap_recs, p->n_recs + 1)) {
		free(name);
		for (size_t i = 0; i < n_lines; i++)
			free(lines[i]);
		free(lines);
		fail(p, -ENOMEM, "");
		return;
	}
	r = &p->recs[p->n_recs++];
	r->name = name;
	r->count = count;
	r->lines = lines;
	r->n_lines = n_lines;
}

static void parse_value(struct parser *p, unsigned depth, struct val *v);

/* Members that describe a violation best, in order of preference. */
static const char *const desc_keys[] = {
	"acl", "line", "suggestion", "entry", "request", "message",
};

static int desc_rank(const char *key)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(desc_keys); i++)
		if (!strcmp(key, desc_keys[i]))
			return (int)i;
	return (int)HM_ARRAY_SIZE(desc_keys);
}

struct obj {
	char *domain;
	struct val viol;	/* the "violations" array, if any */
	bool has_viol;
	char *best;		/* preferred description */
	int best_rank;
	struct hm_sbuf all;	/* "key: value; ..." of the scalars */
};

static void obj_member(struct parser *p, struct obj *o, char *key,
		       struct val *v)
{
	int rank = desc_rank(key);

	if (!strcmp(key, "domain") && v->type == V_STRING && !o->domain) {
		o->domain = v->str;
		v->str = NULL;
	} else if (!strcmp(key, "violations") && v->type == V_ARRAY &&
		   !o->has_viol) {
		o->viol = *v;
		o->has_viol = true;
		memset(v, 0, sizeof(*v));
	} else if ((v->type == V_STRING || v->type == V_SCALAR)) {
		if (rank < o->best_rank && v->type == V_STRING) {
			free(o->best);
			o->best = strdup(v->str);
			o->best_rank = rank;
			if (!o->best)
				fail(p, -ENOMEM, "");
		}
		hm_sbuf_printf(&o->all, "%s%s: %s", o->all.len ? "; " : "",
			       key, v->str);
	}
}

static void parse_object(struct parser *p, unsigned depth, struct val *out)
{
	struct obj o = { .best_rank = (int)HM_ARRAY_SIZE(desc_keys) };

	p->pos++;
	if (!eat(p, '}')) {
		do {
			struct val v = { 0 };
			char *key;

			skip_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != '"') {
				fail(p, -EINVAL, "expected a member name");
				break;
			}
			key = read_string(p);
			if (!key)
				break;
			if (!eat(p, ':')) {
				free(key);
				fail(p, -EINVAL, "expected ':'");
				break;
			}
			/* attempts name domains but are not violations */
			p->in_attempts += !strcmp(key, "attempts");
			parse_value(p, depth + 1, &v);
			p->in_attempts -= !strcmp(key, "attempts");
			if (!p->err)
				obj_member(p, &o, key, &v);
			free(key);
			val_free(&v);
		} while (!p->err && eat(p, ','));
		if (!p->err && !eat(p, '}'))
			fail(p, -EINVAL, "expected ',' or '}'");
	}
	out->type = V_OBJECT;
	if (o.best) {
		out->desc = o.best;
		o.best = NULL;
	} else if (o.all.len) {
		out->desc = strdup(hm_sbuf_str(&o.all));
	}
	if (o.all.oom || (o.all.len && !o.best && !out->desc))
		fail(p, -ENOMEM, "");
	if (o.domain && !p->err && !p->in_attempts) {
		char **lines = NULL;
		size_t n = 0;
		size_t count = 1;

		if (o.has_viol) {
			count = o.viol.n_own;
			lines = o.viol.descs;
			n = o.viol.n_descs;
			o.viol.descs = NULL;
			o.viol.n_descs = 0;
		} else if (out->desc) {
			char *d = strdup(out->desc);

			if (!d || add_line(&lines, &n, d))
				fail(p, -ENOMEM, "");
		}
		out->named = true;
		record(p, o.domain, count, lines, n);
		o.domain = NULL;
	}
	free(o.domain);
	free(o.best);
	val_free(&o.viol);
	hm_sbuf_free(&o.all);
}

static void parse_array(struct parser *p, unsigned depth, struct val *out)
{
	out->type = V_ARRAY;
	p->pos++;
	if (eat(p, ']'))
		return;
	do {
		struct val v = { 0 };
		char *d = NULL;

		parse_value(p, depth + 1, &v);
		if (p->err) {
			val_free(&v);
			break;
		}
		if (v.type == V_OBJECT && !v.named) {
			out->n_own++;
			d = v.desc;
			v.desc = NULL;
		} else if (v.type == V_STRING || v.type == V_SCALAR) {
			out->n_own++;
			d = v.str;
			v.str = NULL;
		}
		if (d && add_line(&out->descs, &out->n_descs, d))
			fail(p, -ENOMEM, "");
		val_free(&v);
	} while (eat(p, ','));
	if (!p->err && !eat(p, ']'))
		fail(p, -EINVAL, "expected ',' or ']'");
}

static void parse_value(struct parser *p, unsigned depth, struct val *v)
{
	if (depth > HM_JSON_MAX_DEPTH) {
		fail(p, -EINVAL, "nested too deeply");
		return;
	}
	skip_ws(p);
	if (p->pos >= p->len) {
		fail(p, -EINVAL, "unexpected end of input");
		return;
	}
	switch (p->s[p->pos]) {
	case '{':
		parse_object(p, depth, v);
		break;
	case '[':
		parse_array(p, depth, v);
		break;
	case '"':
		v->type = V_STRING;
		v->str = read_string(p);
		break;
	default:
		v->type = V_SCALAR;
		v->str = read_scalar(p);
		break;
	}
}

static int cmp_rec(const void *a, const void *b)
{
	return strcmp(((const struct rec *)a)->name,
		      ((const struct rec *)b)->name);
}

static void free_recs(struct rec *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		for (size_t k = 0; k < v[i].n_lines; k++)
			free(v[i].lines[k]);
		free(v[i].lines);
	}
	free(v);
}

/* Sort the records and fold those of one domain together. */
static int fold(struct parser *p, struct hm_check_result *r)
{
	size_t n = 0;

	if (p->n_recs)
		qsort(p->recs, p->n_recs, sizeof(*p->recs), cmp_rec);
	for (size_t i = 0; i < p->n_recs; i++) {
		struct rec *s = &p->recs[i];
		struct rec *d = n ? &p->recs[n - 1] : NULL;

		if (!d || strcmp(d->name, s->name)) {
			p->recs[n++] = *s;
			continue;
		}
		d->count += s->count;
		for (size_t k = 0; k < s->n_lines; k++)
			if (add_line(&d->lines, &d->n_lines, s->lines[k]))
				p->err = -ENOMEM;
		free(s->lines);
		free(s->name);
	}
	p->n_recs = n;
	r->domains = calloc(n + 1, sizeof(*r->domains));
	if (!r->domains || p->err)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r->domains[i].name = p->recs[i].name;
		r->domains[i].count = p->recs[i].count;
		r->domains[i].lines = p->recs[i].lines;
		r->domains[i].n_lines = p->recs[i].n_lines;
		r->total += p->recs[i].count;
	}
	r->n_domains = n;
	free(p->recs);
	p->recs = NULL;
	p->n_recs = 0;
	return 0;
}

int hm_check_result_parse(const char *buf, size_t len, const char *name,
			  struct hm_diag *diag, struct hm_check_result **out)
{
	struct parser p = {
		.s = buf, .len = len, .line = 1, .file = name, .diag = diag,
	};
	struct hm_check_result *r;
	struct val v = { 0 };

	parse_value(&p, 0, &v);
	val_free(&v);
	skip_ws(&p);
	if (!p.err && p.pos < p.len)
		fail(&p, -EINVAL, "text after the JSON value");
	r = p.err ? NULL : calloc(1, sizeof(*r));
	if (!p.err && !r)
		p.err = -ENOMEM;
	if (!p.err && fold(&p, r))
		p.err = -ENOMEM;
	if (p.err) {
		free_recs(p.recs, p.n_recs);
		hm_check_result_free(r);
		return p.err;
	}
	*out = r;
	return 0;
}

void hm_check_result_free(struct hm_check_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_domains; i++) {
		free(r->domains[i].name);
		for (size_t k = 0; k < r->domains[i].n_lines; k++)
			free(r->domains[i].lines[k]);
		free(r->domains[i].lines);
	}
	free(r->domains);
	free(r);
}

const struct hm_check_domain *
hm_check_result_find(const struct hm_check_result *r, const char *name,
		     size_t len)
{
	size_t lo = 0;
	size_t hi;

	if (!r)
		return NULL;
	hi = r->n_domains;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *s = r->domains[mid].name;
		int c = strncmp(s, name, len);

		if (!c && s[len])
			c = 1;
		if (!c)
			return &r->domains[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
