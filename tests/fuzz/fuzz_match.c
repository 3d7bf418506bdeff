// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_match.c - word validation and the wildcard matcher (match.c).
 *
 * Input: PATTERN, then NUL or '\n', then NAME (no separator: NAME is
 * empty).  Checks that validation is consistent, that the matcher never
 * crashes on any pattern, and these invariants:
 *  - a valid literal word matches itself and a literal pattern matches
 *    only the identical name;
 *  - hm_decode(hm_encode(x)) == x, and the encoding is a valid literal;
 *  - on small inputs, hm_path_matches() agrees with ref_match() below: a
 *    plain exponential backtracking matcher written straight from
 *    docs/WILDCARDS.md, so a pruning bug in match.c shows up.
 * A broken invariant calls abort(), which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/word.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define check(cond) do { if (!(cond)) abort(); } while (0)

/* ------------------------------------------- reference: no pruning */

static size_t ref_unit(const char *t, const char *te)
{
	if (t >= te)
		return 0;
	if (*t != '\\')
		return 1;
	if (te - t >= 2 && t[1] == '\\')
		return 2;
	if (te - t >= 4 && t[1] >= '0' && t[1] <= '3' && t[2] >= '0' &&
	    t[2] <= '7' && t[3] >= '0' && t[3] <= '7')
		return 4;
	return 0;
}

static bool in_class(char k, char c)
{
	switch (k) {
	case '$': case '+':
		return c >= '0' && c <= '9';
	case 'X': case 'x':
		return strchr("0123456789abcdefABCDEF", c) && c;
	default:
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
	}
}

/* Does the piece [p, pe) match all of [t, te)? */
static bool ref_piece(const char *t, const char *te, const char *p,
		      const char *pe)
{
	size_t u;

	if (p == pe)
		return t == te;
	if (*p != '\\')
		return t < te && *t == *p && ref_piece(t + 1, te, p + 1, pe);
	if (pe - p < 2)
		return false;
	switch (p[1]) {
	case '\\':
		return te - t >= 2 && t[0] == '\\' && t[1] == '\\' &&
		       ref_piece(t + 2, te, p + 2, pe);
	case '0': case '1': case '2': case '3':
		return pe - p >= 4 && te - t >= 4 && t[0] == '\\' &&
		       ref_unit(t, te) == 4 && !memcmp(t + 1, p + 1, 3) &&
		       ref_piece(t + 4, te, p + 4, pe);
	case '?':
		u = ref_unit(t, te);
		return u && ref_piece(t + u, te, p + 2, pe);
	case '+': case 'x': case 'a':
		return t < te && in_class(p[1], *t) &&
		       ref_piece(t + 1, te, p + 2, pe);
	case '*': case '@':
		for (;;) {
			if (ref_piece(t, te, p + 2, pe))
				return true;
			u = ref_unit(t, te);
			if (!u || (p[1] == '@' && *t == '.'))
				return false;
			t += u;
		}
	case '$': case 'X': case 'A':
		while (t < te && in_class(p[1], *t)) {
			t++;
			if (ref_piece(t, te, p + 2, pe))
				return true;
		}
		return false;
	default:
		return false;
	}
}

/* A component: the first \- piece must match, no later one may. */
static bool ref_component(const char *t, const char *te, const char *p,
			  const char *pe)
{
	const char *cut[64];
	size_t n = 0;

	cut[n++] = p;
	for (const char *q = p; pe - q > 1; ) {
		if (q[0] == '\\' && q[1] == '-') {
			if (n == HM_ARRAY_SIZE(cut) - 1)
				return false;
			cut[n++] = q + 2;
		}
		q += q[0] == '\\' ? 2 : 1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *end = i + 1 < n ? cut[i + 1] - 2 : pe;
		bool m = ref_piece(t, te, cut[i], end);

		if (m != (i == 0))
			return false;
	}
	return true;
}

static const char *ref_end(const char *s, const char *e)
{
	const char *slash = memchr(s, '/', (size_t)(e - s));

	return slash ? slash : e;
}

static bool ref_walk(const char *f, const char *fe, const char *p,
		     const char *pe, const char *p0)
{
	while (f < fe && p < pe) {
		const char *fd = ref_end(f, fe);
		const char *pd = ref_end(p, pe);

		if (pd - p >= 2 && p[0] == '\\' && p[1] == '{') {
			if (p == p0 || p[-1] != '/' || pd - p < 4 ||
			    pd == pe || pd[-2] != '\\' || pd[-1] != '}')
				return false;
			/* Try every number of repetitions, one or more. */
			while (ref_component(f, fd, p + 2, pd - 2) &&
			       fd < fe) {
				f = fd + 1;
				if (ref_walk(f, fe, pd + 1, pe, p0))
					return true;
				fd = ref_end(f, fe);
				if (fd == fe)
					return false;
			}
			return false;
		}
		if (!ref_component(f, fd, p, pd))
			return false;
		f = fd < fe ? fd + 1 : fd;
		p = pd < pe ? pd + 1 : pd;
	}
	while (pe - p >= 2 && p[0] == '\\' && (p[1] == '*' || p[1] == '@'))
		p += 2;
	return f == fe && p == pe;
}

static bool ref_match(const char *n, size_t nlen, const char *p, size_t plen)
{
	uint32_t cl;

	if (!hm_word_is_patterned(p, plen, &cl))
		return nlen == plen && !memcmp(n, p, nlen);
	if ((nlen && n[nlen - 1] == '/') != (plen && p[plen - 1] == '/'))
		return false;
	if (nlen < cl || memcmp(n, p, cl))
		return false;
	return ref_walk(n + cl, n + nlen, p + cl, p + plen, p);
}

/* Variable tokens; the reference is exponential in them. */
static unsigned int n_vars(const char *p, size_t len)
{
	unsigned int n = 0;

	for (size_t i = 0; i + 1 < len; i++) {
		if (p[i] != '\\')
			continue;
		if (strchr("*@$XA{", p[i + 1]) && p[i + 1])
			n++;
		i++;
	}
	return n;
}

/* ------------------------------------------------------------- checks */

static void check_validity(const char *s, size_t len)
{
	char buf[64];
	bool word = hm_word_is_valid(s, len);
	bool path = hm_path_is_valid(s, len);
	const char *why = hm_word_why_invalid(s, len, buf, sizeof(buf));
	uint32_t cl = 0;
	bool pat = hm_word_is_patterned(s, len, &cl);

	check(!path || word);
	check((why == NULL) == word);
	check(!why || strlen(why) < sizeof(buf));
	check(cl <= len);
	check(pat || cl == len);
	check(!hm_domainname_is_valid(s, len) || (len >= 3 && s[0] == '<'));
	if (word && len + 2 < 256 && !memchr(s, ' ', len)) {
		char dom[256] = "<";

		memcpy(dom + 1, s, len);
		dom[len + 1] = '>';
		check(hm_domainname_is_valid(dom, len + 2));
	}
}

static void check_roundtrip(const char *raw, size_t len)
{
	char *enc = malloc(hm_encode_len(raw, len) + 1);
	char *back = malloc(hm_encode_len(raw, len) + 1);
	size_t n;
	size_t back_len = 0;
	struct hm_name e;

	if (!enc || !back)
		goto out;
	n = hm_encode(enc, raw, len);
	check(n == hm_encode_len(raw, len) && enc[n] == '\0');
	check(!hm_decode(back, &back_len, enc, n));
	check(back_len == len && !memcmp(back, raw, len));
	check(!hm_word_is_patterned(enc, n, NULL));
	check(!len || hm_word_is_valid(enc, n));
	e.str = enc;
	e.len = (uint32_t)n;
	hm_name_fill(&e);
	check(hm_path_matches(&e, &e));
out:
	free(enc);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	size_t plen = 0;
	char *pat;
	char *name;
	size_t nlen;
	struct hm_name p;
	struct hm_name n;
	bool m;

	if (size > HM_MAX_WORD * 2)
		return 0;
	while (plen < size && in[plen] != '\0' && in[plen] != '\n')
		plen++;
	nlen = plen < size ? size - plen - 1 : 0;
	pat = malloc(plen + 1);
	name = malloc(nlen + 1);
	if (!pat || !name)
		goto out;
	memcpy(pat, in, plen);
	pat[plen] = '\0';
	memcpy(name, in + size - nlen, nlen);
	name[nlen] = '\0';

	check_validity(pat, plen);
	check_validity(name, nlen);
	check_roundtrip(in, size);

	p.str = pat;
	p.len = (uint32_t)plen;
	hm_name_fill(&p);
	n.str = name;
	n.len = (uint32_t)nlen;
	hm_name_fill(&n);
	/* Any pattern, valid or not, must be safe to try. */
	m = hm_path_matches(&n, &p);
	if (hm_word_is_valid(name, nlen) && !n.is_patterned)
		check(hm_path_matches(&n, &n));
	if (!hm_word_is_valid(pat, plen))
		goto out;
	if (!p.is_patterned)
		check(m == (nlen == plen && !memcmp(name, pat, plen)));
	if (nlen <= 40 && n_vars(pat, plen) <= 4)
		check(m == ref_match(name, nlen, pat, plen));
out:
	free(pat);
	free(name);
	return 0;
}
