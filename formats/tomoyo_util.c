// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_util.c - the small pieces the TOMOYO policy reader and writer
 * share: a line reader with a length cap, TOMOYO's line normalization, a
 * word cursor, diagnostics with FILE:LINE, and the operands (words,
 * groups, numbers, addresses) parsed into and printed from the model.
 * Owns no state beyond a line buffer; the model owns what is interned.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/word.h"
#include "tomoyo_private.h"

const char *const hm_dialect_titles[HM_DIALECT_MAX] = {
	[HM_DIALECT_26] = "TOMOYO 2.6",
	[HM_DIALECT_21] = "TOMOYO 2.1",
	[HM_DIALECT_18] = "TOMOYO 1.8",
};

/* ---------------------------------------------------------- line reader */

#define CHUNK	(64u << 10)	/* of a FILE read ahead */

int hm_lines_open(struct hm_lines *l, FILE *f, const char *buf, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->f = f;
	l->buf = buf;
	l->len = len;
	l->line = malloc(HM_MAX_LINE + 1);
	l->chunk = f ? malloc(CHUNK) : NULL;
	return l->line && (!f || l->chunk) ? 0 : -ENOMEM;
}

void hm_lines_close(struct hm_lines *l)
{
	free(l->line);
	free(l->chunk);
	l->line = l->chunk = NULL;
}

int hm_lines_rewind(struct hm_lines *l)
{
	l->pos = 0;
	l->lineno = 0;
	l->cpos = l->clen = 0;
	if (l->f && fseeko(l->f, 0, SEEK_SET) < 0)
		return -errno;
	return 0;
}

/* Keep @n bytes at @p of the current line, as many as fit. */
static void keep(struct hm_lines *l, const char *p, size_t n)
{
	size_t room = HM_MAX_LINE - l->n;

	if (memchr(p, '\0', n))
		l->has_nul = true;
	if (n > room) {
		l->too_long = true;
		n = room;
	}
	memcpy(l->line + l->n, p, n);
	l->n += n;
}

/*
 * A line of @f, read a chunk at a time and cut with memchr(): a history
 * of 14 MB read a byte at a time through stdio took 17 instructions a
 * byte.  1: a line, 0: at the end, -EIO.
 */
static int next_from_file(struct hm_lines *l)
{
	bool any = false;

	for (;;) {
		const char *p, *nl;
		size_t n;

		if (l->cpos == l->clen) {
			l->cpos = 0;
			l->clen = fread(l->chunk, 1, CHUNK, l->f);
			if (ferror(l->f))
				return -EIO;
			if (!l->clen)
				return any;
		}
		p = l->chunk + l->cpos;
		nl = memchr(p, '\n', l->clen - l->cpos);
		n = nl ? (size_t)(nl - p) : l->clen - l->cpos;
		keep(l, p, n);
		l->cpos += n + (nl != NULL);
		if (nl)
			return 1;
		any = true;
	}
}

static int next_from_buf(struct hm_lines *l)
{
	const char *p = l->buf + l->pos;
	size_t left = l->len - l->pos;
	const char *nl;
	size_t n;

	if (!left)
		return 0;
	nl = memchr(p, '\n', left);
	n = nl ? (size_t)(nl - p) : left;
	l->pos += n + (nl != NULL);
	l->too_long = n > HM_MAX_LINE;
	if (l->too_long)
		n = HM_MAX_LINE;
	memcpy(l->line, p, n);
	l->n = n;
	l->has_nul = memchr(p, '\0', n) != NULL;
	return 1;
}

int hm_lines_next(struct hm_lines *l)
{
	int r;

	l->n = 0;
	l->too_long = false;
	l->has_nul = false;
	r = l->f ? next_from_file(l) : next_from_buf(l);
	if (r <= 0)
		return r;
	l->line[l->n] = '\0';
	l->lineno++;
	return 1;
}

/* ------------------------------------------------------ normalization */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

size_t hm_tomoyo_normalize(char *s, size_t n, size_t *bad)
{
	size_t o = 0;

	*bad = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (is_blank((char)c)) {
			if (o && s[o - 1] != ' ')
				s[o++] = ' ';
			continue;
		}
		if ((c < 0x21 || c > 0x7e) && *bad == SIZE_MAX)
			*bad = o;
		s[o++] = (char)c;
	}
	if (o && s[o - 1] == ' ')
		o--;
	s[o] = '\0';
	return o;
}

bool hm_words_next(struct hm_words *w, const char **s, size_t *n)
{
	const char *sp;

	while (w->p < w->end && *w->p == ' ')
		w->p++;
	if (w->p >= w->end)
		return false;
	sp = memchr(w->p, ' ', (size_t)(w->end - w->p));
	if (!sp)
		sp = w->end;
	*s = w->p;
	*n = (size_t)(sp - w->p);
	w->p = sp;
	return true;
}

void hm_words_rest(struct hm_words *w, const char **s, size_t *n)
{
	while (w->p < w->end && *w->p == ' ')
		w->p++;
	*s = w->p;
	*n = (size_t)(w->end - w->p);
}

bool hm_word_eq(const char *s, size_t n, const char *kw)
{
	return strlen(kw) == n && !memcmp(s, kw, n);
}

/* ---------------------------------------------------------- diagnostics */

void hm_pctx_error(struct hm_pctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hm_diag_vadd(c->diag, HM_DIAG_ERROR, c->file, c->line, fmt, ap);
	va_end(ap);
	c->errors++;
}

void hm_pctx_warn(struct hm_pctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hm_diag_vadd(c->diag, HM_DIAG_WARNING, c->file, c->line, fmt, ap);
	va_end(ap);
}

int hm_pctx_fail(struct hm_pctx *c, int r, const char *what)
{
	if (r == -ENOMEM)
		c->oom = 1;
	else if (r < 0)
		hm_pctx_error(c, "%s: %s", what, strerror(-r));
	return r;
}

/* ------------------------------------------------------------- words */

int hm_tomoyo_word(struct hm_pctx *c, const char *s, size_t n,
		   const char *what, const struct hm_name **out)
{
	char buf[128];
	const char *why;

	if (n > HM_MAX_WORD) {
		hm_pctx_error(c, "%s longer than %d bytes", what, HM_MAX_WORD);
		return -EINVAL;
	}
	why = hm_word_why_invalid(s, n, buf, sizeof(buf));
	if (why) {
		hm_pctx_error(c, "bad %s '%.*s': %s", what, (int)(n > 80 ? 80 : n),
			      s, why);
		return -EINVAL;
	}
	return hm_pctx_fail(c, hm_model_intern(c->m, s, n, out), what);
}

int hm_tomoyo_path(struct hm_pctx *c, const char *s, size_t n,
		   const char *what, const struct hm_name **out)
{
	int r = hm_tomoyo_word(c, s, n, what, out);

	if (r)
		return r;
	if (!hm_path_is_valid(s, n)) {
		hm_pctx_error(c, "bad %s '%.*s': not a path (needs a '/' "
			      "before any '.')", what, (int)(n > 80 ? 80 : n), s);
		return -EINVAL;
	}
	return 0;
}

int hm_tomoyo_domainname(struct hm_pctx *c, const char *s, size_t n,
			 const struct hm_name **out)
{
	if (n > HM_MAX_DOMAIN) {
		hm_pctx_error(c, "domain name longer than %d bytes",
			      HM_MAX_DOMAIN);
		return -EINVAL;
	}
	if (!hm_domainname_is_valid(s, n)) {
		struct hm_words w = { s, s + n };
		const char *ws;
		size_t wn;
		bool first = true;

		/* Name the first bad word, for a useful message. */
		while (hm_words_next(&w, &ws, &wn)) {
			bool ok = first ? wn > 2 && ws[0] == '<' &&
					  ws[wn - 1] == '>' &&
					  hm_word_is_valid(ws, wn) :
					  hm_path_is_valid(ws, wn);

			if (!ok) {
				hm_pctx_error(c, "bad domain name: '%.*s' is "
					      "not a %s", (int)(wn > 80 ? 80 : wn),
					      ws, first ? "<namespace>" :
					      "valid path");
				return -EINVAL;
			}
			first = false;
		}
		hm_pctx_error(c, "bad domain name");
		return -EINVAL;
	}
	return hm_pctx_fail(c, hm_model_intern(c->m, s, n, out),
			    "domain name");
}

static const char *const group_kw[HM_GROUP_TYPE_MAX] = {
	[HM_GROUP_PATH] = "path_group",
	[HM_GROUP_NUMBER] = "number_group",
	[HM_GROUP_ADDRESS] = "address_group",
};

int hm_tomoyo_group(struct hm_pctx *c, const char *s, size_t n,
		    enum hm_group_type type, const struct hm_group **out)
{
	const struct hm_name *name;
	struct hm_group *g;
	int r = hm_tomoyo_word(c, s, n, "group name", &name);

	if (r)
		return r;
	r = hm_model_group(c->m, type, s, n, &g);
	if (r == -EEXIST) {
		for (g = c->m->ex.groups; g && g->name != name; g = g->next)
			;
		hm_pctx_error(c, "group '%.*s' is a %s, not a %s", (int)n, s,
			      g ? group_kw[g->type] : "group", group_kw[type]);
		return -EINVAL;
	}
	if (r)
		return hm_pctx_fail(c, r, "group");
	*out = g;
	return 0;
}

int hm_tomoyo_name_op(struct hm_pctx *c, const char *s, size_t n,
		      struct hm_name_op *out)
{
	memset(out, 0, sizeof(*out));
	if (n && s[0] == '@')
		return hm_tomoyo_group(c, s + 1, n - 1, HM_GROUP_PATH,
				       &out->group);
	return hm_tomoyo_word(c, s, n, "name", &out->name);
}

/* ------------------------------------------------------------ numbers */

bool hm_tomoyo_ulong(const char *s, size_t n, uint64_t *v, uint8_t *radix)
{
	unsigned base = 10;
	uint64_t x = 0;
	size_t i = 0;

	*radix = HM_RADIX_DEC;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
		*radix = HM_RADIX_HEX;
	} else if (n >= 2 && s[0] == '0') {
		base = 8;
		i = 1;
		*radix = HM_RADIX_OCT;
	}
	if (i >= n)
		return false;
	for (; i < n; i++) {
		char ch = s[i];
		unsigned d;

		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (unsigned)(ch - 'A' + 10);
		else
			return false;
		if (d >= base || x > (UINT64_MAX - d) / base)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

int hm_tomoyo_number(struct hm_pctx *c, const char *s, size_t n, bool groups,
		     struct hm_number *out)
{
	const char *dash = memchr(s, '-', n);
	size_t n1 = dash ? (size_t)(dash - s) : n;

	memset(out, 0, sizeof(*out));
	if (n && s[0] == '@') {
		if (groups)
			return hm_tomoyo_group(c, s + 1, n - 1, HM_GROUP_NUMBER,
					       &out->group);
		hm_pctx_error(c, "number groups ('%.*s') are not %s syntax",
			      (int)n, s, hm_dialect_titles[c->dialect]);
		return -EINVAL;
	}
	if (!hm_tomoyo_ulong(s, n1, &out->min, &out->radix_min))
		goto bad;
	out->max = out->min;
	out->radix_max = out->radix_min;
	if (dash && !hm_tomoyo_ulong(dash + 1, n - n1 - 1, &out->max,
				     &out->radix_max))
		goto bad;
	if (out->min > out->max) {
		hm_pctx_error(c, "bad range '%.*s': minimum above maximum",
			      (int)n, s);
		return -EINVAL;
	}
	return 0;
bad:
	hm_pctx_error(c, "bad number '%.*s'", (int)(n > 80 ? 80 : n), s);
	return -EINVAL;
}

void hm_tomoyo_put_u64(struct hm_sbuf *b, uint64_t v)
{
	char buf[20];	/* UINT64_MAX has 20 digits */
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	hm_sbuf_add(b, buf + i, sizeof(buf) - i);
}

void hm_tomoyo_put_i64(struct hm_sbuf *b, int64_t v)
{
	if (v < 0) {
		hm_sbuf_addc(b, '-');
		hm_tomoyo_put_u64(b, -(uint64_t)v);	/* INT64_MIN too */
		return;
	}
	hm_tomoyo_put_u64(b, (uint64_t)v);
}

static void put_ulong(struct hm_sbuf *b, uint64_t v, uint8_t radix)
{
	if (radix == HM_RADIX_OCT)
		hm_sbuf_printf(b, "0%llo", (unsigned long long)v);
	else if (radix == HM_RADIX_HEX)
		hm_sbuf_printf(b, "0x%llX", (unsigned long long)v);
	else
		hm_tomoyo_put_u64(b, v);
}

void hm_tomoyo_put_number(struct hm_sbuf *b, const struct hm_number *n)
{
	if (n->group) {
		hm_sbuf_addc(b, '@');
		hm_sbuf_add(b, n->group->name->str, n->group->name->len);
		return;
	}
	put_ulong(b, n->min, n->radix_min);
	if (n->min != n->max) {
		hm_sbuf_addc(b, '-');
		put_ulong(b, n->max, n->radix_max);
	}
}

bool hm_tomoyo_is_widest(const struct hm_number *n, const struct hm_number *w)
{
	return !n->group && n->min == w->min && n->max == w->max;
}

/* ---------------------------------------------------------- addresses */

static bool parse_ip(const char *s, size_t n, bool *is_ipv6, uint8_t out[16])
{
	char tmp[INET6_ADDRSTRLEN + 1];

	if (!n || n >= sizeof(tmp))
		return false;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	memset(out, 0, 16);
	*is_ipv6 = memchr(s, ':', n) != NULL;
	return inet_pton(*is_ipv6 ? AF_INET6 : AF_INET, tmp, out) == 1;
}

int hm_tomoyo_addr(struct hm_pctx *c, const char *s, size_t n,
		   struct hm_addr *out)
{
	const char *dash = memchr(s, '-', n);
	size_t n1 = dash ? (size_t)(dash - s) : n;
	bool v6_max;

	memset(out, 0, sizeof(*out));
	if (n && s[0] == '@')
		return hm_tomoyo_group(c, s + 1, n - 1, HM_GROUP_ADDRESS,
				       &out->group);
	if (!parse_ip(s, n1, &out->is_ipv6, out->min))
		goto bad;
	memcpy(out->max, out->min, 16);
	if (dash && (!parse_ip(dash + 1, n - n1 - 1, &v6_max, out->max) ||
		     v6_max != out->is_ipv6))
		goto bad;
	if (memcmp(out->min, out->max, 16) > 0) {
		hm_pctx_error(c, "bad address range '%.*s': minimum above "
			      "maximum", (int)n, s);
		return -EINVAL;
	}
	return 0;
bad:
	hm_pctx_error(c, "bad address '%.*s'", (int)(n > 80 ? 80 : n), s);
	return -EINVAL;
}

static void put_ip(struct hm_sbuf *b, bool is_ipv6, const uint8_t ip[16])
{
	char tmp[INET6_ADDRSTRLEN];

	if (inet_ntop(is_ipv6 ? AF_INET6 : AF_INET, ip, tmp, sizeof(tmp)))
		hm_sbuf_adds(b, tmp);
}

void hm_tomoyo_put_addr(struct hm_sbuf *b, const struct hm_addr *a)
{
	if (a->group) {
		hm_sbuf_addc(b, '@');
		hm_sbuf_add(b, a->group->name->str, a->group->name->len);
		return;
	}
	put_ip(b, a->is_ipv6, a->min);
	if (memcmp(a->min, a->max, 16)) {
		hm_sbuf_addc(b, '-');
		put_ip(b, a->is_ipv6, a->max);
	}
}

void hm_tomoyo_put_name_op(struct hm_sbuf *b, const struct hm_name_op *op)
{
	const struct hm_name *n = op->group ? op->group->name : op->name;

	if (op->group)
		hm_sbuf_addc(b, '@');
	if (n)
		hm_sbuf_add(b, n->str, n->len);
}

int hm_dialect_parse(const char *s)
{
	static const struct {
		const char *name;
		enum hm_dialect d;
	} names[] = {
		{ "tomoyo", HM_DIALECT_26 },	 { "tomoyo-2.6", HM_DIALECT_26 },
		{ "2.6", HM_DIALECT_26 },	 { "tomoyo-2.1", HM_DIALECT_21 },
		{ "2.1", HM_DIALECT_21 },	 { "tomoyo-1.8", HM_DIALECT_18 },
		{ "1.8", HM_DIALECT_18 },
	};

	for (size_t i = 0; s && i < HM_ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].name))
			return (int)names[i].d;
	return -EINVAL;
}
