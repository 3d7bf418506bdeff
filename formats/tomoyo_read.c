// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_read.c - reading a policy: the line loop shared by every file
 * (length cap, NUL bytes, raw bytes, comments, CRLF), dialect detection,
 * the domain policy (headers, use_profile, use_group, flags, histmac's
 * "# histmac:" annotations, ACL lines), rewrite.conf, and loading a whole
 * policy directory.  Exception lines are in tomoyo_read_exc.c, ACL lines
 * in tomoyo_acl_read.c.  Everything read goes into the caller's model;
 * every problem into the caller's struct hm_diag.
 */
#include <errno.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "histmac/history.h"
#include "tomoyo_private.h"

#define ANNOTATION "# histmac:"

/* ------------------------------------------------------------ the loop */

static bool is_annotation(const char *s, size_t n)
{
	return n >= sizeof(ANNOTATION) - 1 &&
	       !memcmp(s, ANNOTATION, sizeof(ANNOTATION) - 1);
}

/* Skip leading blanks; is the line a comment? */
static bool is_comment(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < n && s[i] == '#';
}

/*
 * "# not in TOMOYO 2.6 (why): LINE" is what our writer makes of an entry
 * the dialect cannot say (accept, recv, signals, deny_autobind; alias,
 * file_pattern, deny_rewrite); LINE is in TOMOYO 1.8 or 2.1 words.
 * TOMOYO skips the comment; we read LINE back, so a 2.6 or 1.8 policy
 * saved and loaded again (histmac learn, run after run) keeps every
 * entry.  A comment that does not parse stays a comment.  (2.1's
 * comments are in the 2007 words plus what 2.1 lacked; they are for
 * people, and not read back.)
 */
#define NOT_IN "# not in TOMOYO "

static void not_in_comment(struct hm_pctx *c, const char *s, size_t n,
			   int (*fn)(struct hm_pctx *, const char *, size_t))
{
	const char *body = memmem(s, n, "): ", 3);
	struct hm_pctx quiet = *c;
	size_t len = sizeof(NOT_IN) - 1;

	if (c->dialect == HM_DIALECT_21 || n < len || memcmp(s, NOT_IN, len) ||
	    !body)
		return;
	body += 3;
	quiet.diag = NULL;
	quiet.dialect = HM_DIALECT_18;
	quiet.errors = 0;
	fn(&quiet, body, (size_t)(s + n - body));
	if (quiet.errors) {	/* alias, file_pattern, deny_rewrite */
		quiet.dialect = HM_DIALECT_21;
		fn(&quiet, body, (size_t)(s + n - body));
	}
	c->oom |= quiet.oom;
}

/*
 * A domain policy line skipped unread that was a domain header: the ACL
 * lines after it belong to that domain, not to the one before it, so
 * they are skipped too ("its domain header is bad").
 */
static void skipped_header(struct hm_pctx *c, const struct hm_lines *l,
			   int (*fn)(struct hm_pctx *, const char *, size_t))
{
	size_t i = 0;

	while (i < l->n && (l->line[i] == ' ' || l->line[i] == '\t'))
		i++;
	if (fn == hm_tomoyo_parse_domain_line && i < l->n &&
	    l->line[i] == '<') {
		c->dom = NULL;
		c->dom_bad = true;
	}
}

static int one_line(struct hm_pctx *c, struct hm_lines *l,
		    int (*fn)(struct hm_pctx *, const char *, size_t))
{
	size_t bad;
	size_t n;
	bool comment = is_comment(l->line, l->n);

	if (l->too_long) {
		hm_pctx_error(c, "line longer than %d bytes; skipped",
			      HM_MAX_LINE);
		skipped_header(c, l, fn);
		return 0;
	}
	if (comment && l->has_nul)
		return 0;
	if (l->has_nul) {
		hm_pctx_error(c, "NUL byte in line; skipped");
		skipped_header(c, l, fn);
		return 0;
	}
	n = hm_tomoyo_normalize(l->line, l->n, &bad);
	if (comment && n && bad == SIZE_MAX)
		not_in_comment(c, l->line, n, fn);
	if (!n || (comment && !is_annotation(l->line, n)))
		return 0;
	if (bad != SIZE_MAX) {
		hm_pctx_error(c, "raw byte 0x%02x at column %zu (write it as "
			      "\\%03o)", (unsigned char)l->line[bad], bad + 1,
			      (unsigned char)l->line[bad]);
		skipped_header(c, l, fn);
		return 0;
	}
	return fn(c, l->line, n);
}

int hm_tomoyo_parse_text(struct hm_pctx *c, struct hm_lines *l,
			 int (*fn)(struct hm_pctx *, const char *, size_t))
{
	int r;

	while ((r = hm_lines_next(l)) > 0) {
		c->line = l->lineno;
		one_line(c, l, fn);
		if (c->oom)
			return -ENOMEM;
	}
	c->line = 0;
	return r;
}

/* ------------------------------------------------------------ detection */

enum { SEEN_21 = 1, SEEN_MODERN = 2, SEEN_18 = 4 };

static const char *const words21[] = {
	"file_pattern", "deny_rewrite", "alias", "ignore_global_allow_read",
};
static const char *const words_modern[] = {
	"file", "network", "misc", "ipc", "use_group", "acl_group",
	"number_group", "reset_domain", "no_reset_domain", "quota_exceeded",
	"transition_failed", "deny_autobind",
};
static const char *const words18[] = {
	"ipc", "deny_autobind",
};
static const char *const conds18[] = {
	" task.type=", " task.domain=", " task.exe=",
	" auto_domain_transition=",
};

static bool word_in(const char *s, size_t n, const char *const *list,
		    size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (hm_word_eq(s, n, list[i]))
			return true;
	return false;
}

/* "network inet stream accept/bind ..." holds accept or recv? */
static bool net18(const char *s, size_t n)
{
	struct hm_words w = { s, s + n };
	const char *ws = NULL;
	size_t wn = 0;

	for (int i = 0; i < 4; i++)
		if (!hm_words_next(&w, &ws, &wn))
			return false;
	return memmem(ws, wn, "accept", 6) || memmem(ws, wn, "recv", 4);
}

static unsigned classify(const char *s, size_t n)
{
	struct hm_words w = { s, s + n };
	const char *ws = s;
	size_t wn = 0;
	unsigned seen = 0;

	if (hm_words_next(&w, &ws, &wn) && ws[0] == '<' &&
	    memmem(s, n, "> acl_group ", 12))
		hm_words_next(&w, &ws, &wn);	/* "<kernel> acl_group" */
	if (ws[0] == '<')
		return 0;
	if ((wn == 1 && ws[0] >= '1' && ws[0] <= '7') ||
	    (wn > 6 && !memcmp(ws, "allow_", 6)) ||
	    word_in(ws, wn, words21, HM_ARRAY_SIZE(words21)))
		seen |= SEEN_21;
	if (word_in(ws, wn, words_modern, HM_ARRAY_SIZE(words_modern)))
		seen |= SEEN_MODERN;
	if (word_in(ws, wn, words18, HM_ARRAY_SIZE(words18)) ||
	    (hm_word_eq(ws, wn, "network") && net18(s, n)))
		seen |= SEEN_18;
	for (size_t i = 0; i < HM_ARRAY_SIZE(conds18); i++)
		if (memmem(s, n, conds18[i], strlen(conds18[i])))
			seen |= SEEN_18 | SEEN_MODERN;
	return seen;
}

/* "# histmac 0.1.0 tomoyo-2.1": the dialect a histmac header names. */
static int header_dialect(const char *s, size_t n)
{
	const char *sp;
	char name[16];

	if (n < 11 || memcmp(s, "# histmac ", 10))
		return HM_DIALECT_AUTO;
	sp = memrchr(s, ' ', n);
	n -= (size_t)(sp + 1 - s);
	if (!n || n >= sizeof(name))
		return HM_DIALECT_AUTO;
	memcpy(name, sp + 1, n);
	name[n] = '\0';
	return hm_dialect_parse(name) < 0 ? HM_DIALECT_AUTO :
					    hm_dialect_parse(name);
}

int hm_tomoyo_detect_lines(struct hm_lines *l)
{
	int family = 0;
	bool any18 = false;
	int hint = HM_DIALECT_AUTO;
	size_t bad;

	while (hm_lines_next(l) > 0) {
		size_t n;
		unsigned seen;

		if (l->too_long || l->has_nul)
			continue;
		n = hm_tomoyo_normalize(l->line, l->n, &bad);
		if (!n)
			continue;
		if (l->line[0] == '#') {
			if (hint == HM_DIALECT_AUTO)
				hint = header_dialect(l->line, n);
			continue;
		}
		seen = classify(l->line, n);
		if (!family && (seen & (SEEN_21 | SEEN_MODERN)))
			family = seen & SEEN_21 ? SEEN_21 : SEEN_MODERN;
		any18 |= (seen & SEEN_18) != 0;
	}
	if (family == SEEN_21)
		return HM_DIALECT_21;
	if (family == SEEN_MODERN)	/* 2.6 lines are 1.8 lines too */
		return any18 || hint == HM_DIALECT_18 ? HM_DIALECT_18 :
							HM_DIALECT_26;
	if (any18)
		return HM_DIALECT_18;
	return hint;
}

int hm_policy_detect(const char *buf, size_t len)
{
	struct hm_lines l;
	int r = hm_lines_open(&l, NULL, buf, len);

	if (!r)
		r = hm_tomoyo_detect_lines(&l);
	else
		r = HM_DIALECT_AUTO;
	hm_lines_close(&l);
	return r;
}

/* -------------------------------------------------------- domain policy */

static int parse_small(struct hm_pctx *c, const char *s, size_t n,
		       const char *what, unsigned *out)
{
	uint64_t v;
	uint8_t radix;

	if (!hm_tomoyo_ulong(s, n, &v, &radix) || radix != HM_RADIX_DEC ||
	    v > 255) {
		hm_pctx_error(c, "%s: '%.*s' is not a number from 0 to 255",
			      what, (int)(n > 40 ? 40 : n), s);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

static int domain_header(struct hm_pctx *c, const char *s, size_t n)
{
	const struct hm_name *name;
	struct hm_domain *d;
	int r;

	c->dom = NULL;
	c->dom_bad = true;
	if (hm_tomoyo_domainname(c, s, n, &name))
		return -EINVAL;
	c->dom_bad = false;
	r = hm_model_domain(c->m, s, n, true, &d);
	if (r < 0)
		return hm_pctx_fail(c, r, "domain");
	if (r == 1)
		d->profile = 0;	/* TOMOYO's default for a loaded domain */
	if (c->dialect == HM_DIALECT_21)
		d->groups[0] |= 1;	/* 2.1's allow_read is global */
	c->dom = d;
	return 0;
}

static int set_flag(struct hm_pctx *c, unsigned flag)
{
	c->dom->flags |= (uint8_t)flag;
	return 0;
}

/* "# histmac: learned NODE SEC.MSEC:SERIAL" ("-" for no node): how far
 * the policy has learned from that node's log (learned.h). */
static int learned_mark(struct hm_pctx *c, const char *s, size_t n)
{
	char node[256];
	long long sec;
	unsigned msec;
	unsigned long long serial;
	int used = 0;
	char line[512];
	struct hm_stamp at;

	if (n >= sizeof(line))
		return 0;
	memcpy(line, s, n);
	line[n] = '\0';
	if (sscanf(line, "%255s %lld.%u:%llu%n", node, &sec, &msec, &serial,
		   &used) != 4 || (size_t)used != n || msec > 999)
		return 0;	/* a damaged mark: counters may count again */
	at = (struct hm_stamp){ sec, msec, serial };
	if (hm_learned_set(c->m, strcmp(node, "-") ? node : NULL,
			   strcmp(node, "-") ? strlen(node) : 0, &at) < 0)
		c->oom = 1;
	return 0;
}

/* A histmac annotation: "# histmac: path_note TEXT" before any domain,
 * "# histmac: history_unobserved events=N ..." inside one. */
static int annotation(struct hm_pctx *c, const char *s, size_t n)
{
	struct hm_words w = { s + sizeof(ANNOTATION) - 1, s + n };
	const char *ws;
	size_t wn;

	if (!hm_words_next(&w, &ws, &wn))
		return 0;
	if (hm_word_eq(ws, wn, "learned")) {
		hm_words_rest(&w, &ws, &wn);
		return learned_mark(c, ws, wn);
	}
	if (hm_word_eq(ws, wn, "path_note")) {
		hm_words_rest(&w, &ws, &wn);
		free(c->m->path_note);
		c->m->path_note = strndup(ws, wn);
		if (!c->m->path_note)
			c->oom = 1;
		return 0;
	}
	do {
		struct hm_domain *d = c->dom;
		long long v;
		int used = 0;

		if (d && hm_word_eq(ws, wn, "history_unobserved"))
			d->flags |= HM_DOMAIN_HISTORY_UNOBSERVED;
		else if (d && hm_word_eq(ws, wn, "parent_unobserved"))
			d->flags |= HM_DOMAIN_PARENT_UNOBSERVED;
		else if (d && sscanf(ws, "events=%llu%n",
				     (unsigned long long *)&v, &used) == 1 &&
			 (size_t)used == wn)
			d->events = (uint64_t)v;
		else if (d && sscanf(ws, "first_seen=%lld%n", &v, &used) == 1 &&
			 (size_t)used == wn)
			d->first_seen = v;
		else if (d && sscanf(ws, "last_seen=%lld%n", &v, &used) == 1 &&
			 (size_t)used == wn)
			d->last_seen = v;
		else if (d && wn > 7 && !memcmp(ws, "logins=", 7) &&
			 !hm_logins_parse(&d->logins, ws + 7, wn - 7))
			;
		else
			hm_pctx_warn(c, "unknown histmac annotation '%.*s'",
				     (int)(wn > 40 ? 40 : wn), ws);
	} while (hm_words_next(&w, &ws, &wn));
	return 0;
}

static int domain_attribute(struct hm_pctx *c, const char *s, size_t n,
			    bool *done)
{
	struct hm_words w = { s, s + n };
	const char *ws;
	size_t wn;
	const char *arg;
	size_t an = 0;
	unsigned v;
	bool d21 = c->dialect == HM_DIALECT_21;

	*done = true;
	hm_words_next(&w, &ws, &wn);
	hm_words_rest(&w, &arg, &an);
	if (hm_word_eq(ws, wn, "use_profile")) {
		if (parse_small(c, arg, an, "use_profile", &v))
			return -EINVAL;
		c->dom->profile = (uint8_t)v;
		return 0;
	}
	if (an) {
		if (hm_word_eq(ws, wn, "use_group") && !d21) {
			if (parse_small(c, arg, an, "use_group", &v))
				return -EINVAL;
			c->dom->groups[v / 8] |= (uint8_t)(1u << (v % 8));
			return 0;
		}
	} else if (hm_word_eq(ws, wn, "quota_exceeded") && !d21) {
		return set_flag(c, HM_DOMAIN_QUOTA_EXCEEDED);
	} else if (hm_word_eq(ws, wn, "transition_failed") && !d21) {
		return set_flag(c, HM_DOMAIN_TRANSITION_FAILED);
	} else if (hm_word_eq(ws, wn, "ignore_global_allow_read") && d21) {
		c->dom->groups[0] &= (uint8_t)~1u;
		return 0;
	}
	*done = false;
	return 0;
}

int hm_tomoyo_parse_domain_line(struct hm_pctx *c, const char *s, size_t n)
{
	bool done;
	int r;

	if (s[0] == '#')
		return annotation(c, s, n);
	if (s[0] == '<')
		return domain_header(c, s, n);
	if (!c->dom) {
		hm_pctx_error(c, c->dom_bad ? "'%.*s' skipped: its domain "
			      "header is bad" : "'%.*s' before any domain (a "
			      "line starting with <kernel>)",
			      (int)(n > 40 ? 40 : n), s);
		return -EINVAL;
	}
	r = domain_attribute(c, s, n, &done);
	if (done)
		return r;
	return hm_tomoyo_parse_acl(c, c->dom, s, n) < 0 ? -EINVAL : 0;
}

/* --------------------------------------------------------- rewrite.conf */

static int rewrite_line(struct hm_pctx *c, char *s, size_t n)
{
	char *tab;
	int code;
	PCRE2_SIZE off;
	pcre2_code *re;
	PCRE2_UCHAR msg[160];
	int r;

	if (n && s[n - 1] == '\r')
		s[--n] = '\0';
	if (!n || is_comment(s, n) || strspn(s, " \t") == n)
		return 0;
	tab = memchr(s, '\t', n);
	if (!tab || tab == s) {
		hm_pctx_error(c, "expected REGEX<TAB>REPLACEMENT");
		return -EINVAL;
	}
	*tab = '\0';
	re = pcre2_compile((PCRE2_SPTR)s, (size_t)(tab - s), 0, &code, &off,
			   NULL);
	if (!re) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		hm_pctx_error(c, "bad regex at offset %zu: %s", (size_t)off,
			      (char *)msg);
		return -EINVAL;
	}
	pcre2_code_free(re);
	r = hm_model_add_rewrite(c->m, s, tab + 1, c->line);
	return r < 0 ? hm_pctx_fail(c, r, "rewrite rule") : 0;
}

int hm_tomoyo_parse_rewrite_lines(struct hm_pctx *c, struct hm_lines *l)
{
	int r;

	while ((r = hm_lines_next(l)) > 0) {
		c->line = l->lineno;
		if (l->too_long)
			hm_pctx_error(c, "line longer than %d bytes; skipped",
				      HM_MAX_LINE);
		else if (l->has_nul)
			hm_pctx_error(c, "NUL byte in line; skipped");
		else
			rewrite_line(c, l->line, l->n);
		if (c->oom)
			return -ENOMEM;
	}
	return r;
}

/* ------------------------------------------------------- buffer entries */

static int resolve_dialect(struct hm_model *m, struct hm_lines *l,
			   int dialect)
{
	if (dialect >= 0 && dialect < HM_DIALECT_MAX)
		return dialect;
	dialect = hm_tomoyo_detect_lines(l);
	hm_lines_rewind(l);
	/* A 2.6-looking exception policy after a 1.8 domain policy. */
	if (dialect < 0 || (dialect == HM_DIALECT_26 &&
			    m->dialect == HM_DIALECT_18))
		return (int)m->dialect;
	return dialect;
}

static int parse_buf(struct hm_model *m, const char *buf, size_t len,
		     int dialect, const char *file, struct hm_diag *diag,
		     int (*fn)(struct hm_pctx *, const char *, size_t))
{
	struct hm_pctx c = { .m = m, .diag = diag, .file = file };
	struct hm_lines l;
	int r = hm_lines_open(&l, NULL, buf, len);

	if (!r) {
		c.dialect = (enum hm_dialect)resolve_dialect(m, &l, dialect);
		m->dialect = c.dialect;
		r = fn ? hm_tomoyo_parse_text(&c, &l, fn) :
			 hm_tomoyo_parse_rewrite_lines(&c, &l);
	}
	hm_lines_close(&l);
	if (fn == hm_tomoyo_parse_domain_line)
		hm_model_relink(m);
	if (r < 0 || c.oom)
		return r < 0 ? r : -ENOMEM;
	return (int)(c.errors > INT32_MAX ? INT32_MAX : c.errors);
}

int hm_policy_parse_domain(struct hm_model *m, const char *buf, size_t len,
			   int dialect, const char *file, struct hm_diag *diag)
{
	return parse_buf(m, buf, len, dialect, file, diag,
			 hm_tomoyo_parse_domain_line);
}

int hm_policy_parse_exception(struct hm_model *m, const char *buf,
			      size_t len, int dialect, const char *file,
			      struct hm_diag *diag)
{
	return parse_buf(m, buf, len, dialect, file, diag,
			 hm_tomoyo_parse_exception_line);
}

int hm_policy_parse_rewrite(struct hm_model *m, const char *buf, size_t len,
			    const char *file, struct hm_diag *diag)
{
	return parse_buf(m, buf, len, (int)m->dialect, file, diag, NULL);
}

/* ------------------------------------------------------------ directory */

/* One file of a policy directory, open for reading (or absent). */
struct pfile {
	char *path;
	FILE *f;
	struct hm_lines l;
};

static int pfile_open(struct pfile *p, const char *dir, const char *name)
{
	memset(p, 0, sizeof(*p));
	if (asprintf(&p->path, "%s/%s", dir, name) < 0) {
		p->path = NULL;
		return -ENOMEM;
	}
	p->f = fopen(p->path, "re");
	if (!p->f && errno != ENOENT)
		return -errno;
	return p->f ? hm_lines_open(&p->l, p->f, NULL, 0) : 0;
}

static void pfile_close(struct pfile *p)
{
	hm_lines_close(&p->l);
	if (p->f)
		fclose(p->f);
	free(p->path);
}

static int detect_file(struct pfile *p)
{
	int d;

	if (!p->f)
		return HM_DIALECT_AUTO;
	d = hm_tomoyo_detect_lines(&p->l);
	return hm_lines_rewind(&p->l) < 0 ? HM_DIALECT_AUTO : d;
}

static int parse_file(struct hm_pctx *c, struct pfile *p,
		      int (*fn)(struct hm_pctx *, const char *, size_t))
{
	if (!p->f)
		return 0;
	c->file = p->path;
	c->dom = NULL;
	c->dom_bad = false;
	return fn ? hm_tomoyo_parse_text(c, &p->l, fn) :
		    hm_tomoyo_parse_rewrite_lines(c, &p->l);
}

/* max_learning_entry=N from the first N-PREFERENCE line of profile.conf. */
static void read_profile(struct hm_pctx *c, struct pfile *p)
{
	static const char key[] = "max_learning_entry=";

	if (!p->f)
		return;
	c->file = p->path;
	while (hm_lines_next(&p->l) > 0) {
		const char *k = strstr(p->l.line, key);
		unsigned long long v;

		c->line = p->l.lineno;
		if (!strstr(p->l.line, "-PREFERENCE=") || !k)
			continue;
		/* The largest value is how "no limit" (0) is saved. */
		if (sscanf(k + sizeof(key) - 1, "%llu", &v) == 1 &&
		    v <= UINT32_MAX)
			c->m->max_learning_entry =
				v == UINT32_MAX ? 0 : (uint32_t)v;
		else
			hm_pctx_warn(c, "bad max_learning_entry");
		return;
	}
}

/*
 * The dialect of a directory from those of its domain (@d) and exception
 * (@e) policy: the domain policy's family first; 1.8 when either file
 * needs it (2.6 lines are 1.8 lines too); else @fallback.
 */
static int combine(int d, int e, int fallback)
{
	if (d == HM_DIALECT_21 || (d < 0 && e == HM_DIALECT_21))
		return HM_DIALECT_21;
	if (d == HM_DIALECT_18 || e == HM_DIALECT_18)
		return HM_DIALECT_18;
	if (d == HM_DIALECT_26 || e == HM_DIALECT_26)
		return HM_DIALECT_26;
	return fallback;
}

/*
 * TOMOYO creates a group on first use, empty: an entry naming a group
 * that is never defined matches nothing, and use_group of an acl_group
 * that has no entries adds nothing.  Legal, but almost always a mistake.
 */
static void warn_undefined(struct hm_pctx *c, const char *exc_file)
{
	static const char *const kinds[HM_GROUP_TYPE_MAX] = {
		[HM_GROUP_PATH] = "path_group",
		[HM_GROUP_NUMBER] = "number_group",
		[HM_GROUP_ADDRESS] = "address_group",
	};
	bool used[256] = { false };

	for (const struct hm_group *g = c->m->ex.groups; g; g = g->next)
		if (!g->n_members)
			hm_diag_add(c->diag, HM_DIAG_WARNING, exc_file, 0,
				    "%s %s is used but never defined: it "
				    "matches nothing", kinds[g->type],
				    g->name->str);
	for (size_t i = 0; i < c->m->n_domains; i++)
		for (unsigned g = 0; g < 256; g++)
			used[g] |= (c->m->domains[i]->groups[g / 8] >> (g % 8)) & 1;
	/* 2.1 domains all use group 0: its allow_read list may be empty */
	if (c->dialect == HM_DIALECT_21)
		used[0] = false;
	for (unsigned g = 0; g < 256; g++)
		if (used[g] && !c->m->ex.acl_groups[g])
			hm_diag_add(c->diag, HM_DIAG_WARNING, exc_file, 0,
				    "use_group %u, but acl_group %u has no "
				    "entries", g, g);
}

static int load_files(struct hm_pctx *c, struct pfile *f, int dialect)
{
	int r;

	if (dialect < 0 || dialect >= HM_DIALECT_MAX)
		dialect = combine(detect_file(&f[0]), detect_file(&f[1]),
				  (int)c->m->dialect);
	c->dialect = (enum hm_dialect)dialect;
	c->m->dialect = c->dialect;
	r = parse_file(c, &f[0], hm_tomoyo_parse_domain_line);
	if (!r)
		r = parse_file(c, &f[1], hm_tomoyo_parse_exception_line);
	if (!r)
		r = parse_file(c, &f[2], NULL);
	if (!r)
		read_profile(c, &f[3]);
	if (!r)
		warn_undefined(c, f[1].path);
	hm_model_relink(c->m);
	return r;
}

int hm_policy_load_dir(struct hm_model *m, const char *dir, int dialect,
		       struct hm_diag *diag)
{
	static const char *const names[] = {
		HM_DOMAIN_POLICY, HM_EXCEPTION_POLICY, HM_REWRITE_CONF,
		HM_PROFILE_CONF,
	};
	struct pfile f[HM_ARRAY_SIZE(names)];
	struct hm_pctx c = { .m = m, .diag = diag };
	struct stat st;
	size_t opened = 0;
	int r = 0;

	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	/* A save that a crash interrupted after its commit point is
	 * finished first, so what loads is one whole policy. */
	r = hm_atomic_recover(dir);
	if (r == 1)
		hm_diag_add(diag, HM_DIAG_NOTE, dir, 0, "finished an interrupted "
			    "save (%s)", HM_COMMIT_JOURNAL);
	if (r < 0)
		return r;
	r = 0;
	for (; opened < HM_ARRAY_SIZE(names) && !r; opened++)
		r = pfile_open(&f[opened], dir, names[opened]);
	if (!r)
		r = load_files(&c, f, dialect);
	if (!r && !c.oom)	/* the stamps of what loaded */
		r = hm_history_read(m, dir, diag);
	if (!r && !c.oom)
		r = hm_saves_read(m, dir, diag);
	for (size_t i = 0; i < opened; i++)
		pfile_close(&f[i]);
	if (r < 0 || c.oom)
		return r < 0 ? r : -ENOMEM;
	return (int)(c.errors > INT32_MAX ? INT32_MAX : c.errors);
}

/* -------------------------------------------------------------- counts */

static size_t list_len(const void *head)
{
	size_t n = 0;

	for (const void *p = head; p; p = *(void *const *)p)
		n++;
	return n;
}

void hm_policy_count(const struct hm_model *m, struct hm_policy_counts *out)
{
	memset(out, 0, sizeof(*out));
	out->domains = m->n_domains;
	for (size_t i = 0; i < m->n_domains; i++)
		out->entries += m->domains[i]->n_acl;
	out->exception = list_len(m->ex.transitions) +
			 list_len(m->ex.renames) +
			 list_len(m->ex.file_patterns) +
			 list_len(m->ex.deny_rewrites) +
			 (m->ex.deny_autobind_max != 0);
	for (const struct hm_group *g = m->ex.groups; g; g = g->next)
		out->exception += g->n_members;
	for (size_t i = 0; i < HM_ARRAY_SIZE(m->ex.acl_groups); i++)
		if (m->ex.acl_groups[i])
			out->exception += m->ex.acl_groups[i]->n_acl;
	out->rewrites = list_len(m->ex.rewrites);
}
