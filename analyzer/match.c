// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * match.c - TOMOYO word validity and wildcard matching, with the kernel's
 * semantics and quirks (docs/WILDCARDS.md, sections 2-4).
 *
 * Owns no state: every function works on the caller's bytes and keeps its
 * scratch on the stack, so the enforcer can call hm_path_matches() on its
 * hot path without allocating.  Names come from name.c (interned or
 * hm_name_fill()ed); literal prefix and flags are computed there.
 *
 * Matching is done in two layers:
 *  - the path layer walks '/'-separated components and handles /\{X\}/;
 *  - the component layer splits a component pattern at \- and matches each
 *    piece, a sequence of tokens, against one component of the name.
 * Both layers are depth-first searches over "variable" tokens (\* \@ \$ \X
 * \A in a piece; \{X\} groups in a path).  A variable token started at
 * position s can end anywhere in the run of units (or components) of its
 * class that follows s.  Starting it later in the same run only offers a
 * subset of those ends, so once a start has failed, every later start in
 * the same run fails too.  Each token remembers the one run it last failed
 * in (struct span); the search visits starts in increasing order, so every
 * run is explored at most once per token.  That bounds a piece to
 * O(name length x piece length) steps (each end tried once per token, then
 * the fixed tokens after it; runs of plain characters go through memcmp),
 * and a path to O(name components x pattern components) component
 * matches, instead of the exponential naive backtracking.  The recursion
 * is at most HM_MAX_WILDCARDS deep in each layer: a piece or a path with
 * more variable tokens than that is not a valid word, and never matches.
 */
#include <stdio.h>
#include <string.h>

#include "histmac/word.h"

/* ------------------------------------------------------------ validity */

enum word_fault {
	WF_NONE,
	WF_EMPTY,
	WF_RAW,			/* raw byte outside 0x21-0x7e */
	WF_LONE_BACKSLASH,	/* '\' as the last character */
	WF_BAD_ESCAPE,		/* \q */
	WF_BAD_OCTAL,		/* \0, \08, \4xx, ... */
	WF_PRINTABLE_OCTAL,	/* \041 .. \176 except \134 */
	WF_BACKSLASH_OCTAL,	/* \134 */
	WF_OPEN_POS,		/* \{ not right after '/' */
	WF_CLOSE_POS,		/* \} not right before '/' */
	WF_CLOSE_UNPAIRED,	/* \} without \{ */
	WF_SLASH_IN_GROUP,	/* '/' between \{ and \} */
	WF_UNCLOSED,		/* \{ without \} */
	WF_TOO_MANY,		/* more than HM_MAX_WILDCARDS tokens */
};

static const char *const fault_text[] = {
	[WF_NONE] = "valid",
	[WF_EMPTY] = "empty word",
	[WF_RAW] = "raw byte that must be written as \\ooo",
	[WF_LONE_BACKSLASH] = "lone '\\' at the end of the word",
	[WF_BAD_ESCAPE] = "bad escape",
	[WF_BAD_OCTAL] = "bad octal escape",
	[WF_PRINTABLE_OCTAL] = "\\ooo for a printable character",
	[WF_BACKSLASH_OCTAL] = "\\134: write a backslash as \\\\",
	[WF_OPEN_POS] = "\\{ must come right after '/'",
	[WF_CLOSE_POS] = "\\} must come right before '/'",
	[WF_CLOSE_UNPAIRED] = "\\} without \\{",
	[WF_SLASH_IN_GROUP] = "'/' inside \\{ \\}",
	[WF_UNCLOSED] = "\\{ without \\}",
	[WF_TOO_MANY] = "more than 20 wildcards (\\* \\@ \\$ \\X \\A \\{ \\})",
};

struct fault {
	enum word_fault code;
	size_t off;
};

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

static bool fail_at(struct fault *f, enum word_fault code, size_t off)
{
	f->code = code;
	f->off = off;
	return false;
}

/* One escape at s[i] == '\\' with s[i + 1] present; *i moves past it. */
static bool check_escape(const char *s, size_t len, size_t *i,
			 unsigned int *budget, size_t *open, struct fault *f)
{
	size_t at = *i;
	char c = s[at + 1];
	unsigned int v;

	switch (c) {
	case '\\': case '+': case '?': case 'x': case 'a': case '-':
		*i += 2;
		return true;
	case '0': case '1': case '2': case '3':
		if (len - at < 4 || !is_octal(s[at + 2]) ||
		    !is_octal(s[at + 3]))
			return fail_at(f, WF_BAD_OCTAL, at);
		v = (unsigned int)(c - '0') << 6 |
		    (unsigned int)(s[at + 2] - '0') << 3 |
		    (unsigned int)(s[at + 3] - '0');
		if (v == '\\')
			return fail_at(f, WF_BACKSLASH_OCTAL, at);
		if (v > 0x20 && v < 0x7f)
			return fail_at(f, WF_PRINTABLE_OCTAL, at);
		*i += 4;
		return true;
	case '*': case '@': case '$': case 'X': case 'A': case '{': case '}':
		break;
	default:
		return fail_at(f, WF_BAD_ESCAPE, at);
	}
	if (!*budget)
		return fail_at(f, WF_TOO_MANY, at);
	(*budget)--;
	if (c == '{') {
		/* Nesting needs a '/' inside the group: refused below. */
		if (!at || s[at - 1] != '/')
			return fail_at(f, WF_OPEN_POS, at);
		*open = at;
	} else if (c == '}') {
		if (len - at < 3 || s[at + 2] != '/')
			return fail_at(f, WF_CLOSE_POS, at);
		if (*open == SIZE_MAX)
			return fail_at(f, WF_CLOSE_UNPAIRED, at);
		*open = SIZE_MAX;
	}
	*i += 2;
	return true;
}

/* The one validity walk behind every hm_*_is_valid() and the reasons. */
static bool check_word(const char *s, size_t len, struct fault *f)
{
	unsigned int budget = HM_MAX_WILDCARDS;
	size_t open = SIZE_MAX;	/* offset of the unclosed \{, if any */
	size_t i = 0;

	if (!len)
		return fail_at(f, WF_EMPTY, 0);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\') {
			if (i + 1 == len)
				return fail_at(f, WF_LONE_BACKSLASH, i);
			if (!check_escape(s, len, &i, &budget, &open, f))
				return false;
			continue;
		}
		if (c <= 0x20 || c >= 0x7f)
			return fail_at(f, WF_RAW, i);
		if (c == '/' && open != SIZE_MAX)
			return fail_at(f, WF_SLASH_IN_GROUP, i);
		i++;
	}
	if (open != SIZE_MAX)
		return fail_at(f, WF_UNCLOSED, open);
	return true;
}

/**
 * hm_word_is_valid() - would TOMOYO accept @s as a word?
 * @s: the word (need not be NUL-terminated).
 * @len: its length.
 *
 * Checks characters, escapes, \{ \} placement and pairing, and the limit
 * of HM_MAX_WILDCARDS tokens.
 *
 * Returns: true if valid.
 */
bool hm_word_is_valid(const char *s, size_t len)
{
	struct fault f;

	return check_word(s, len, &f);
}

/**
 * hm_path_is_valid() - is @s a valid path word?
 * @s: the word (need not be NUL-terminated).
 * @len: its length.
 *
 * A path is a valid word that holds a '/', and whose first '/' comes
 * before its first '.', if any ("proc:/self/exe" is one, "a.b/c" not).
 *
 * Returns: true if valid.
 */
bool hm_path_is_valid(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);
	const char *dot = memchr(s, '.', len);

	if (!slash || (dot && dot < slash))
		return false;
	return hm_word_is_valid(s, len);
}

/**
 * hm_domainname_is_valid() - is @s a valid domain name?
 * @s: the domain name (need not be NUL-terminated).
 * @len: its length.
 *
 * "<word>" followed by zero or more valid paths, each after exactly one
 * space; a leading, trailing or doubled space makes it invalid.
 *
 * Returns: true if valid.
 */
bool hm_domainname_is_valid(const char *s, size_t len)
{
	const char *end = s + len;
	const char *sp = memchr(s, ' ', len);
	size_t first = sp ? (size_t)(sp - s) : len;

	if (first < 2 || s[0] != '<' || s[first - 1] != '>' ||
	    !hm_word_is_valid(s + 1, first - 2))
		return false;
	while (sp) {
		const char *w = sp + 1;

		sp = memchr(w, ' ', (size_t)(end - w));
		if (!hm_path_is_valid(w, (size_t)((sp ? sp : end) - w)))
			return false;
	}
	return true;
}

/**
 * hm_word_why_invalid() - why @s is not a valid word.
 * @s: the word (need not be NUL-terminated).
 * @len: its length.
 * @buf: where to format the reason with its offset; may be NULL.
 * @bufsz: size of @buf.
 *
 * Returns: NULL when the word is valid, else a short English reason such
 * as "bad escape \q at offset 4": in @buf when it is given, else a static
 * string without the offset.  Borrowed: valid until @buf is reused.
 */
const char *hm_word_why_invalid(const char *s, size_t len, char *buf,
				size_t bufsz)
{
	struct fault f;
	const char *what;
	unsigned char c;

	if (check_word(s, len, &f))
		return NULL;
	what = fault_text[f.code];
	if (!buf || !bufsz)
		return what;
	switch (f.code) {
	case WF_EMPTY:
		return what;
	case WF_RAW:
		c = (unsigned char)s[f.off];
		snprintf(buf, bufsz,
			 "raw byte 0x%02x at offset %zu (write it as \\%03o)",
			 c, f.off, c);
		break;
	case WF_BAD_ESCAPE:
		c = (unsigned char)s[f.off + 1];
		if (c > 0x20 && c < 0x7f)
			snprintf(buf, bufsz, "bad escape \\%c at offset %zu",
				 c, f.off);
		else
			snprintf(buf, bufsz,
				 "bad escape \\ + byte 0x%02x at offset %zu",
				 c, f.off);
		break;
	case WF_PRINTABLE_OCTAL:
		snprintf(buf, bufsz,
			 "\\%.3s at offset %zu is '%c': write it as itself",
			 s + f.off + 1, f.off,
			 (s[f.off + 1] - '0') << 6 | (s[f.off + 2] - '0') << 3 |
			 (s[f.off + 3] - '0'));
		break;
	default:
		snprintf(buf, bufsz, "%s at offset %zu", what, f.off);
		break;
	}
	return buf;
}

/* ------------------------------------------------------------- matching */

/* Tokens of a component pattern. */
enum tok_kind {
	TK_BAD,		/* unknown escape: the piece never matches */
	TK_CHAR,	/* a plain character */
	TK_BACKSLASH,	/* \\ */
	TK_OCTAL,	/* \ooo */
	TK_ANY,		/* \? */
	TK_DIGIT,	/* \+ */
	TK_HEX,		/* \x */
	TK_ALPHA,	/* \a */
	/* variable tokens from here on */
	TK_STAR,	/* \* */
	TK_NODOT,	/* \@ */
	TK_DIGITS,	/* \$ */
	TK_HEXES,	/* \X */
	TK_ALPHAS,	/* \A */
};

/*
 * Starts of a variable token (or group) known to fail: [lo, hi] lies in a
 * single run of its class.  lo == NULL: nothing known yet.
 */
struct span {
	const char *lo;
	const char *hi;
};

/* The search state for one piece against one component. */
struct piece {
	const char *te;			/* end of the component */
	const char *pe;			/* end of the piece */
	unsigned int n_init;		/* spans initialised so far */
	struct span seen[HM_MAX_WILDCARDS];
};

/* The search state for one pattern against one name. */
struct walk {
	const char *fe;			/* end of the name */
	const char *p0;			/* start of the pattern */
	const char *pe;			/* end of the pattern */
	unsigned int n_init;
	struct span seen[HM_MAX_WILDCARDS];	/* one per \{ \} group */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Length of the unit of a name at t: 1, 2 (\\), 4 (\ooo), 0 bad or end. */
static size_t unit_len(const char *t, const char *te)
{
	if (t >= te)
		return 0;
	if (*t != '\\')
		return 1;
	if (te - t >= 2 && t[1] == '\\')
		return 2;
	if (te - t >= 4 && t[1] >= '0' && t[1] <= '3' && is_octal(t[2]) &&
	    is_octal(t[3]))
		return 4;
	return 0;
}

/* The token at p (p < pe); *len gets its length in pattern bytes. */
static enum tok_kind tok_at(const char *p, const char *pe, size_t *len)
{
	*len = 2;
	if (*p != '\\') {
		*len = 1;
		return TK_CHAR;
	}
	if (pe - p < 2)
		return TK_BAD;
	switch (p[1]) {
	case '\\': return TK_BACKSLASH;
	case '?': return TK_ANY;
	case '+': return TK_DIGIT;
	case 'x': return TK_HEX;
	case 'a': return TK_ALPHA;
	case '*': return TK_STAR;
	case '@': return TK_NODOT;
	case '$': return TK_DIGITS;
	case 'X': return TK_HEXES;
	case 'A': return TK_ALPHAS;
	case '0': case '1': case '2': case '3':
		if (pe - p < 4 || !is_octal(p[2]) || !is_octal(p[3]))
			return TK_BAD;
		*len = 4;
		return TK_OCTAL;
	default:
		return TK_BAD;
	}
}

/* Bytes of the name a fixed token takes at t, or 0 when it does not match. */
static size_t fixed_len(enum tok_kind k, const char *p, const char *t,
			const char *te)
{
	if (t >= te)
		return 0;
	switch (k) {
	case TK_BACKSLASH:
		return te - t >= 2 && t[0] == '\\' && t[1] == '\\' ? 2 : 0;
	case TK_OCTAL:
		return te - t >= 4 && t[0] == '\\' && !memcmp(t + 1, p + 1, 3) ?
		       4 : 0;
	case TK_ANY:
		return unit_len(t, te);
	case TK_DIGIT:
		return is_digit(*t);
	case TK_HEX:
		return is_hex(*t);
	case TK_ALPHA:
		return is_alpha(*t);
	default:
		return 0;
	}
}

/* Bytes of the name one more unit of variable token k takes at t, or 0. */
static size_t class_len(enum tok_kind k, const char *t, const char *te)
{
	if (t >= te)
		return 0;
	switch (k) {
	case TK_STAR:
		return unit_len(t, te);
	case TK_NODOT:
		return *t == '.' ? 0 : unit_len(t, te);
	case TK_DIGITS:
		return is_digit(*t);
	case TK_HEXES:
		return is_hex(*t);
	default:
		return is_alpha(*t);
	}
}

static bool piece_from(struct piece *c, const char *p, const char *t,
		       unsigned int v);

/*
 * Variable token number v (kind k) starts at t; the rest of the piece
 * starts at p.  Tries every end in the run of k's class after t.
 */
static bool piece_var(struct piece *c, enum tok_kind k, const char *p,
		      const char *t, unsigned int v)
{
	const char *start = t;
	struct span *s;
	size_t n;

	if (v >= HM_MAX_WILDCARDS)
		return false;		/* not a valid word */
	if (v == c->n_init) {
		c->seen[v].lo = NULL;
		c->n_init++;
	}
	s = &c->seen[v];
	if (s->lo && t >= s->lo && t <= s->hi)
		return false;
	if (k != TK_STAR && k != TK_NODOT) {	/* one or more */
		n = class_len(k, t, c->te);
		if (!n)
			goto failed;
		t += n;
	}
	for (;;) {
		if (piece_from(c, p, t, v + 1))
			return true;
		n = class_len(k, t, c->te);
		if (!n)
			break;
		t += n;
	}
failed:
	s->lo = start;
	s->hi = t;
	return false;
}

/* Does the piece from p match the component from t to its end? */
static bool piece_from(struct piece *c, const char *p, const char *t,
		       unsigned int v)
{
	while (p < c->pe) {
		size_t plen;
		enum tok_kind k = tok_at(p, c->pe, &plen);
		size_t n;

		if (k == TK_CHAR) {
			if (t == c->te || *t != *p)
				return false;
			n = 1;
			if (c->pe - p > 1 && p[1] != '\\') {
				/* A run of plain characters: one memcmp. */
				const char *q = memchr(p + 1, '\\',
						       (size_t)(c->pe - p - 1));

				n = (size_t)((q ? q : c->pe) - p);
				if ((size_t)(c->te - t) < n ||
				    memcmp(t + 1, p + 1, n - 1))
					return false;
			}
			t += n;
			p += n;
			continue;
		}
		if (k >= TK_STAR)
			return piece_var(c, k, p + plen, t, v);
		n = fixed_len(k, p, t, c->te);
		if (!n)
			return false;
		t += n;
		p += plen;
	}
	return t == c->te;
}

static bool piece_matches(const char *t, const char *te, const char *p,
			  const char *pe)
{
	struct piece c;

	c.te = te;
	c.pe = pe;
	c.n_init = 0;
	return piece_from(&c, p, t, 0);
}

/*
 * One component of the name [t, te) against one component of the pattern
 * [p, pe): "A\-B\-C" matches what A matches unless B or C matches too.
 */
static bool component_matches(const char *t, const char *te, const char *p,
			      const char *pe)
{
	const char *piece = p;
	bool first = true;

	while (pe - p > 1) {
		if (p[0] != '\\') {
			p++;
			continue;
		}
		if (p[1] != '-') {
			p += 2;
			continue;
		}
		if (piece_matches(t, te, piece, p) != first)
			return false;
		first = false;
		p += 2;
		piece = p;
	}
	return piece_matches(t, te, piece, pe) == first;
}

static const char *component_end(const char *s, const char *end)
{
	const char *slash = memchr(s, '/', (size_t)(end - s));

	return slash ? slash : end;
}

static bool walk_from(struct walk *w, const char *f, const char *p,
		      unsigned int g);

/*
 * Group number g "/\{X\}/" is the pattern component [p, pd); the name's
 * component [f, fd) is the first candidate repetition.  Each repetition
 * must match X and be followed by '/'.
 */
static bool walk_group(struct walk *w, const char *f, const char *fd,
		       const char *p, const char *pd, unsigned int g)
{
	const char *start = f;
	struct span *s;

	if (p == w->p0 || p[-1] != '/' || pd - p < 4 || pd == w->pe ||
	    pd[-1] != '}' || pd[-2] != '\\')
		return false;		/* not a valid word */
	if (g >= HM_MAX_WILDCARDS)
		return false;
	if (g == w->n_init) {
		w->seen[g].lo = NULL;
		w->n_init++;
	}
	s = &w->seen[g];
	if (s->lo && f >= s->lo && f <= s->hi)
		return false;
	for (;;) {
		if (!component_matches(f, fd, p + 2, pd - 2) || fd == w->fe)
			break;
		f = fd + 1;
		if (walk_from(w, f, pd + 1, g + 1))
			return true;
		fd = memchr(f, '/', (size_t)(w->fe - f));
		if (!fd)
			break;
	}
	s->lo = start;
	s->hi = f;
	return false;
}

/* Does the pattern from p match the name from f to its end? */
static bool walk_from(struct walk *w, const char *f, const char *p,
		      unsigned int g)
{
	while (f < w->fe && p < w->pe) {
		const char *fd = component_end(f, w->fe);
		const char *pd = component_end(p, w->pe);

		if (p[0] == '\\' && pd - p > 1 && p[1] == '{')
			return walk_group(w, f, fd, p, pd, g);
		if (!component_matches(f, fd, p, pd))
			return false;
		f = fd < w->fe ? fd + 1 : fd;
		p = pd < w->pe ? pd + 1 : pd;
	}
	/* The name ran out: a last component of \* and \@ may vanish. */
	while (w->pe - p > 1 && p[0] == '\\' && (p[1] == '*' || p[1] == '@'))
		p += 2;
	return f == w->fe && p == w->pe;
}

/**
 * hm_path_matches() - does @name match @pattern?
 * @name: a literal encoded name, interned or hm_name_fill()ed.
 * @pattern: a valid word, interned or hm_name_fill()ed.
 *
 * A pattern without wildcards matches only the identical name.  Otherwise
 * both must be directories or both not, the literal prefix must match,
 * and the rest is matched component by component.  Allocates nothing;
 * the work is bounded as described at the top of this file.  A pattern
 * that is not a valid word gives an unspecified (but safe) answer.
 *
 * Returns: true on a match.
 */
bool hm_path_matches(const struct hm_name *name, const struct hm_name *pattern)
{
	struct walk w;

	if (!pattern->is_patterned)
		return name == pattern || (name->len == pattern->len &&
			!memcmp(name->str, pattern->str, name->len));
	if (name->is_dir != pattern->is_dir ||
	    name->len < pattern->const_len ||
	    memcmp(name->str, pattern->str, pattern->const_len))
		return false;
	w.fe = name->str + name->len;
	w.p0 = pattern->str;
	w.pe = pattern->str + pattern->len;
	w.n_init = 0;
	return walk_from(&w, name->str + pattern->const_len,
			 pattern->str + pattern->const_len, 0);
}

/**
 * hm_path_matches_str() - hm_path_matches() on plain C strings.
 * @name: a literal encoded name.
 * @pattern: a valid word.
 *
 * Returns: true on a match.
 */
bool hm_path_matches_str(const char *name, const char *pattern)
{
	struct hm_name n = { .str = name, .len = (uint32_t)strlen(name) };
	struct hm_name p = { .str = pattern, .len = (uint32_t)strlen(pattern) };

	hm_name_fill(&n);
	hm_name_fill(&p);
	return hm_path_matches(&n, &p);
}
