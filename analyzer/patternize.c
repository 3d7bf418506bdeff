// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patternize.c - finds names in a learned policy that differ only in a
 * run of digits, hex or random letters (temporary files, rotated logs,
 * caches), and services reached along several chains; suggests rewrite
 * rules and initialize_domain entries; applies them on request.  Reads
 * the model; owns its suggestions; changes the model only in apply.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcre2.h>

#include "histmac/word.h"
#include "histmac/patternize.h"
#include "histmac/sbuf.h"
#include "histmac/sensitive.h"
#include "histmac/map.h"
#include "histmac/owners.h"

/* ------------------------------------------------------------- shapes */

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * What a run of a name may become.  A run is generalized when it varies
 * between names of one shape (at least --min names), except the kinds
 * that fewer names show: random and temporary suffixes and long hex of
 * names gone from the disk, timestamps and rotation counters of two
 * names (or one a rotation renamed), a run's letter and number.
 */
enum cand_kind {
	C_DIGITS,	/* \$: a number, or the number of a stem ("r18") */
	C_LETTER,	/* \a: one letter between separators ("up-L-1") */
	C_HEX,		/* \X: 8+ hex digits with letters and digits mixed */
	C_RANDOM,	/* \*: mkstemp()-like (both cases and digits) */
	C_TEMP,		/* \*: "name.XXXXXX" with a digit or capital */
	C_TIME,		/* \+ a digit: a run of a timestamp, or epoch */
	C_ROTATION,	/* \$: logrotate's counter (syslog.1, syslog.2.gz) */
};

static const struct {
	const char *tok;
	const char *re;
} cand_out[] = {
	[C_DIGITS] = { "\\$", "[0-9]+" },
	[C_LETTER] = { "\\a", "[A-Za-z]" },
	[C_HEX] = { "\\X", "[0-9a-fA-F]+" },
	[C_RANDOM] = { "\\*", "[A-Za-z0-9]+" },
	[C_TEMP] = { "\\*", "[A-Za-z0-9]+" },
	[C_TIME] = { "\\+", "[0-9]" },	/* one per digit: see shape_of() */
	[C_ROTATION] = { "\\$", "[0-9]+" },
};

#define MAX_CANDS 16

struct cand {
	uint32_t off, len;	/* in the name */
	uint8_t kind;		/* enum cand_kind */
	bool mid;		/* in a directory, not the last component */
	bool suffix;		/* ends its component after a word and '.',
				 * '-' or '_', as mkstemp()'s XXXXXX does */
	uint8_t stamp;		/* 1 + the index of the first candidate of
				 * the timestamp it is part of; 0: none */
};

static unsigned num(const char *s, size_t n)
{
	unsigned v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	return v;
}

/* Seconds (10 digits) or milliseconds (13) since 1970, between 2001 and
 * 2033: a date and a time of day are stamp_len()'s. */
static bool is_epoch(const char *s, size_t n)
{
	return (n == 10 || n == 13) && s[0] == '1';
}

/* A run of only digits, or else a long hex or random-looking one:
 * its kind, or -1 when it is a word ("apache", "x86_64"'s "x"). */
static int classify(const char *s, size_t n)
{
	bool digit = false, hex = true;
	size_t switches = 0, lower = 0, upper = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		digit |= is_digit(c);
		lower += c >= 'a' && c <= 'z';
		upper += c >= 'A' && c <= 'Z';
		hex &= is_digit(c) || (c >= 'a' && c <= 'f') ||
		       (c >= 'A' && c <= 'F');
		switches += i && is_digit(c) != is_digit(s[i - 1]);
	}
	if (!lower && !upper)
		return is_epoch(s, n) ? C_TIME : C_DIGITS;
	if (n >= 8 && hex && digit && switches >= 2)
		return C_HEX;
	if (n >= 6 && ((lower && upper && (digit || switches)) ||
		       (lower >= 2 && upper >= 2) || switches >= 3))
		return C_RANDOM;
	return -1;
}

/*
 * mkstemp()'s "name.XXXXXX": six or more letters and digits ending the
 * name after '.', '-' or '_', with a digit or a capital (a lower-case
 * word such as "socket" is a name, not a suffix).
 */
static bool is_temp_suffix(const char *s, size_t i, size_t j, size_t end)
{
	bool mark = false;

	if (j != end || j - i < 6 || !i || !strchr(".-_", s[i - 1]))
		return false;
	for (size_t k = i; k < j; k++)
		mark |= is_digit(s[k]) || (s[k] >= 'A' && s[k] <= 'Z');
	return mark;
}

static bool add_cand(struct cand *v, size_t *n, size_t off, size_t len,
		     int kind, bool mid, bool suffix)
{
	if (*n >= MAX_CANDS)
		return false;
	v[(*n)++] = (struct cand){ (uint32_t)off, (uint32_t)len,
				   (uint8_t)kind, mid, suffix, 0 };
	return true;
}

/* A field of a timestamp: so many digits, of a value in lo..hi. */
struct field {
	uint8_t digits;
	uint16_t lo, hi;
};

static bool field_at(const char *s, size_t i, size_t end,
		     const struct field *f)
{
	if (i + f->digits > end)
		return false;
	for (size_t k = 0; k < f->digits; k++)
		if (!is_digit(s[i + k]))
			return false;
	return num(s + i, f->digits) >= f->lo && num(s + i, f->digits) <= f->hi;
}

/*
 * @count fields read from @s[*at] on, with nothing or one of @seps
 * between two of them (the same each time).  Moves *@at past them;
 * false, *@at unchanged, when they are not there.
 */
static bool fields_at(const char *s, size_t *at, size_t end,
		      const struct field *f, size_t count, const char *seps)
{
	size_t i = *at;
	int sep = -1;	/* not met yet; 0: none */

	for (size_t k = 0; k < count; k++) {
		if (k) {
			int c = i < end && s[i] && strchr(seps, s[i]) ? s[i] : 0;

			if (sep >= 0 && c != sep)
				return false;
			sep = c;
			i += c != 0;
		}
		if (!field_at(s, i, end, &f[k]))
			return false;
		i += f[k].digits;
	}
	*at = i;
	return true;
}

/* A time of day hh:mm[:ss] (or with '-' or '.', or nothing between) at
 * @s[*at]: moves *@at past it, no digit right after. */
static bool tod_at(const char *s, size_t *at, size_t end)
{
	static const struct field tod[] = { { 2, 0, 23 }, { 2, 0, 59 },
					    { 2, 0, 60 } };
	size_t t = *at;

	if (!fields_at(s, &t, end, tod, 3, ":-.") &&
	    !fields_at(s, &t, end, tod, 2, ":-."))
		return false;
	if (t < end && is_digit(s[t]))
		return false;
	*at = t;
	return true;
}

/*
 * The length of a timestamp at @s[i] (0: none), in the layouts logrotate,
 * backup scripts and logs write: a date YYYY-MM-DD (or with '_' or '.',
 * or nothing between), then maybe a time of day (tod_at()) after 'T',
 * '-', '_' or '.', or right after YYYYMMDD (20261207084757); no digit
 * right after.
 */
static size_t stamp_len(const char *s, size_t i, size_t end)
{
	static const struct field date[] = { { 4, 1900, 2099 }, { 2, 1, 12 },
					     { 2, 1, 31 } };
	size_t at = i, t;

	if (!fields_at(s, &at, end, date, 3, "-_."))
		return 0;
	t = at + 1;
	if (at < end && s[at] && strchr("T-_.", s[at]) && tod_at(s, &t, end))
		at = t;
	else if (at - i == 8)	/* YYYYMMDDhhmm[ss] */
		tod_at(s, &at, end);
	return at < end && is_digit(s[at]) ? 0 : at - i;
}

/* A timestamp [i, end): its runs of digits, generalized together. */
static void stamp_cands(const char *s, size_t i, size_t end, struct cand *v,
			size_t *n)
{
	uint8_t first = (uint8_t)(*n + 1);

	while (i < end) {
		size_t j = i;

		while (j < end && is_digit(s[j]))
			j++;
		if (j > i && add_cand(v, n, i, j - i, C_TIME, false, false))
			v[*n - 1].stamp = first;
		i = j > i ? j : i + 1;
	}
}

/* Is [@j, @end) of @s a compressor's suffix, as logrotate's compressext
 * and gzip, bzip2, xz, zstd, lz4 write it? */
static bool is_compressed(const char *s, size_t j, size_t end)
{
	static const char *const ext[] = { ".gz", ".bz2", ".xz", ".zst",
					   ".lz4", ".lzma", ".lz", ".Z" };

	for (size_t k = 0; k < HM_ARRAY_SIZE(ext); k++)
		if (end - j == strlen(ext[k]) && !memcmp(s + j, ext[k], end - j))
			return true;
	return false;
}

/* Is the number [i, j) logrotate's counter: ".N" after a name, ending the
 * component or before a compressor's suffix (syslog.1, syslog.2.gz)? */
static bool is_rotation(const char *s, size_t i, size_t j, size_t start,
			size_t end)
{
	return i > start + 1 && s[i - 1] == '.' &&
	       (j == end || is_compressed(s, j, end));
}

/*
 * The candidates of one run [i, j) of a component ending at @end.  In a
 * directory (@mid) only a random or mkstemp() part: a directory made per
 * run (mktemp -d's dl.XXXXXX); its numbers and letters name versions,
 * users and releases (python3.11/, x86_64-linux-gnu/).
 */
static void run_cands(const char *s, size_t i, size_t j, size_t start,
		      size_t end, bool mid, struct cand *v, size_t *n)
{
	int kind = classify(s + i, j - i);
	bool suffix = i > start + 1 && j == end && strchr(".-_", s[i - 1]);
	size_t k = i;

	if (kind < 0 && is_temp_suffix(s, i, j, end))
		kind = C_TEMP;
	if (mid) {
		if (kind == C_RANDOM || kind == C_TEMP)
			add_cand(v, n, i, j - i, kind, true, suffix);
		return;
	}
	if (kind == C_DIGITS && is_rotation(s, i, j, start, end))
		kind = C_ROTATION;
	if (kind >= 0) {
		add_cand(v, n, i, j - i, kind, false, suffix);
		return;
	}
	if (j - i == 1 && is_letter(s[i])) {
		add_cand(v, n, i, 1, C_LETTER, false, false);
		return;
	}
	while (k < j && is_letter(s[k]))	/* a stem and its number */
		k++;
	if (k > i && k < j) {
		size_t l = k;

		while (l < j && is_digit(s[l]))
			l++;
		if (l == j)
			add_cand(v, n, k, j - k, C_DIGITS, false, false);
	}
}

/* The candidates of component [i, end) of @s. */
static void comp_cands(const char *s, size_t i, size_t end, bool mid,
		       struct cand *v, size_t *n)
{
	size_t start = i;

	while (i < end) {
		size_t j = i, stamp;

		if (s[i] == '\\') {	/* \\ or \ooo: one literal */
			i += s[i + 1] == '\\' ? 2 : 4;
			continue;
		}
		if (!is_alnum(s[i])) {
			i++;
			continue;
		}
		if (!mid && (stamp = stamp_len(s, i, end))) {
			stamp_cands(s, i, i + stamp, v, n);
			i += stamp;
			continue;
		}
		while (j < end && is_alnum(s[j]))
			j++;
		run_cands(s, i, j, start, end, mid, v, n);
		i = j;
	}
}

/*
 * The candidates of @w: those of its directories first, their count in
 * *@n_mid, then those of its last component; false when none.
 */
static bool cands_of(const struct hm_name *w, struct cand *v, size_t *n,
		     size_t *n_mid)
{
	size_t end = w->is_dir ? w->len - 1 : w->len;
	const char *slash = memrchr(w->str, '/', end);
	size_t last, i = 1;

	*n = *n_mid = 0;
	if (!slash || w->is_patterned)
		return false;
	last = (size_t)(slash - w->str) + 1;
	while (w->str[0] == '/' && i < last) {
		const char *sl = memchr(w->str + i, '/', last - i);
		size_t to = (size_t)(sl - w->str);	/* last - 1 at most */

		comp_cands(w->str, i, to, true, v, n);
		i = to + 1;
	}
	*n_mid = *n;
	comp_cands(w->str, last, end, false, v, n);
	return *n > 0;
}

/* Append @n bytes, each regex metacharacter escaped. */
static void sb_add_re(struct hm_sbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strchr("\\^$.|?*+()[]{}/", s[i]))
			hm_sbuf_add(b, "\\", 1);
		hm_sbuf_add(b, &s[i], 1);
	}
}

/*
 * @w's shape and regex, candidates generalized where @gen says (NULL:
 * all of them: the key that groups names), literal elsewhere; with
 * @groups each generalized part of the regex is a capture group.
 */
static int shape_of(const struct hm_name *w, const struct cand *v, size_t n,
		    const bool *gen, bool groups, struct hm_sbuf *shape,
		    struct hm_sbuf *re)
{
	size_t at = 0;

	hm_sbuf_reset(shape);
	hm_sbuf_reset(re);
	hm_sbuf_adds(re, "^");
	for (size_t k = 0; k < n; k++) {
		if (gen && !gen[k])
			continue;
		hm_sbuf_add(shape, w->str + at, v[k].off - at);
		sb_add_re(re, w->str + at, v[k].off - at);
		hm_sbuf_adds(re, groups ? "(" : "");
		hm_sbuf_adds(re, cand_out[v[k].kind].re);
		if (v[k].kind == C_TIME) {	/* its width: tomorrow's has it */
			for (size_t d = 0; d < v[k].len; d++)
				hm_sbuf_adds(shape, cand_out[C_TIME].tok);
			hm_sbuf_printf(re, "{%u}", v[k].len);
		} else {
			hm_sbuf_adds(shape, cand_out[v[k].kind].tok);
		}
		hm_sbuf_adds(re, groups ? ")" : "");
		at = v[k].off + v[k].len;
	}
	hm_sbuf_add(shape, w->str + at, w->len - at);
	sb_add_re(re, w->str + at, w->len - at);
	hm_sbuf_adds(re, "$");
	return shape->oom || re->oom ? -ENOMEM : 0;
}

/* ---------------------------------------------------------- collecting */

/*
 * Names of one shape (every candidate generalized).  The first name is
 * kept with its candidates; @varied says which of them another name of
 * the group has otherwise.  A name with random directories is in two
 * groups: one with its directories literal (@wide links it to the other)
 * and one with them generalized (its first candidates are @mid).
 */
struct group {
	const struct hm_name *first;
	struct cand c[MAX_CANDS];
	size_t n_c;
	bool varied[MAX_CANDS];
	bool word[MAX_CANDS];	/* a name has one case only there */
	size_t n_names;
	size_t n_domains;
	size_t n_absent;
	size_t n_lived;	/* names the policy both makes and removes */
	size_t n_rotated;	/* names a rotation renamed (LIFE_ROTATED) */
	const char *sensitive;	/* what a sensitive name of it is */
	size_t wide;	/* index + 1 of the group with directories generalized */
	const struct hm_domain *last_domain;
	/* rotated names: the shape without a compressor's suffix, one for
	 * syslog.\$ and syslog.\$.gz; and what all its groups show */
	const struct hm_name *family;
	size_t fam_names, fam_rotated;
};

struct collect {
	const struct hm_patternize_opts *o;
	struct hm_names *shapes;	/* shape text -> interned */
	struct hm_map by_shape;		/* shape name -> group index + 1 */
	struct hm_map seen;		/* literal name -> 1 */
	struct hm_map life;		/* literal name -> LIFE_* bits */
	struct hm_sbuf shape, re;	/* scratch */
	struct group *g;
	size_t n;
	size_t cap;
};

static bool absent(const struct collect *c, const struct hm_name *w)
{
	char raw[HM_MAX_WORD];
	char path[HM_MAX_WORD + 4096];
	size_t len;
	struct stat st;

	if (!c->o->check_fs || w->str[0] != '/' || w->len >= sizeof(raw) ||
	    hm_decode(raw, &len, w->str, w->len) || memchr(raw, 0, len))
		return false;
	raw[len] = '\0';
	snprintf(path, sizeof(path), "%s%s", c->o->fs_root ? c->o->fs_root : "",
		 raw);
	return lstat(path, &st) < 0;
}

/* Does the last candidate of @w end it as a rotation's counter or date
 * does: at the end, or before a compressor's suffix? */
static bool rotation_last(const struct hm_name *w, const struct cand *v,
			  size_t n)
{
	size_t end = w->len - w->is_dir, j;

	if (!n || (v[n - 1].kind != C_ROTATION && v[n - 1].kind != C_TIME))
		return false;
	j = v[n - 1].off + v[n - 1].len;
	return j == end || is_compressed(w->str, j, end);
}

/* The family of @w, whose shape is in c->shape: the shape without a
 * compressor's suffix, interned; NULL when @w is no rotated name. */
static int family_of(struct collect *c, const struct hm_name *w,
		     const struct cand *v, size_t n,
		     const struct hm_name **out)
{
	size_t tail;

	*out = NULL;
	if (!rotation_last(w, v, n))
		return 0;
	tail = w->len - (v[n - 1].off + v[n - 1].len);
	return hm_name_intern(c->shapes, c->shape.s, c->shape.len - tail, out);
}

/* The index of @w's group in *@gi (the array may move). */
static int group_for(struct collect *c, const struct hm_name *w,
		     const struct cand *v, size_t n, size_t *gi)
{
	const struct hm_name *key;
	uintptr_t idx;

	if (shape_of(w, v, n, NULL, false, &c->shape, &c->re) ||
	    hm_name_intern_str(c->shapes, c->shape.s, &key))
		return -ENOMEM;
	idx = (uintptr_t)hm_map_get(&c->by_shape, hm_map_ptr_key(key));
	if (idx) {
		*gi = idx - 1;
		return 0;
	}
	if (HM_ARRAY_GROW(&c->g, &c->cap, c->n + 1))
		return -ENOMEM;
	c->g[c->n] = (struct group){ .first = w, .n_c = n };
	memcpy(c->g[c->n].c, v, n * sizeof(*v));
	if (hm_map_put(&c->by_shape, hm_map_ptr_key(key),
		       (void *)(uintptr_t)(c->n + 1)) ||
	    family_of(c, w, v, n, &c->g[c->n].family))
		return -ENOMEM;
	*gi = c->n++;
	return 0;
}

/* Letters of one case and no digit ("ADDRESS" of LC_ADDRESS): a word,
 * where mkstemp() mixes both cases and digits (all of one kind in about
 * 1 name of 100). */
static bool one_case(const char *s, size_t n)
{
	size_t lower = 0, upper = 0, digit = 0;

	for (size_t i = 0; i < n; i++) {
		lower += s[i] >= 'a' && s[i] <= 'z';
		upper += s[i] >= 'A' && s[i] <= 'Z';
		digit += is_digit(s[i]);
	}
	return !digit && (!lower || !upper);
}

/* Which candidates of @w differ from the group's first name, and which
 * read as words. */
static void note_variation(struct group *g, const struct hm_name *w,
			   const struct cand *v, size_t n)
{
	for (size_t k = 0; k < n && k < g->n_c; k++) {
		g->varied[k] |= v[k].len != g->c[k].len ||
				memcmp(w->str + v[k].off,
				       g->first->str + g->c[k].off, v[k].len);
		g->word[k] |= one_case(w->str + v[k].off, v[k].len);
	}
}

/*
 * What the policy shows of a name's life: made (create, mkdir, mkfifo,
 * mksock, mkblock, mkchar, the new name of a link or rename) and removed
 * (unlink, rmdir, the old name of a rename).  A name both made and
 * removed lived in the trail: evidence of a temporary file that absence
 * from the disk alone is not (a failed connect() learns a name that never
 * existed).
 */
enum { LIFE_MADE = 1, LIFE_REMOVED = 2, LIFE_BOTH = 3, LIFE_ROTATED = 4 };

/* The LIFE_* bits entry @e gives its @nth name. */
static uintptr_t life_of(const struct hm_acl_head *e, unsigned nth)
{
	const uint32_t made = (1u << HM_FILE_CREATE) | (1u << HM_FILE_MKDIR) |
			      (1u << HM_FILE_MKFIFO) | (1u << HM_FILE_MKSOCK);
	const uint32_t removed = (1u << HM_FILE_UNLINK) | (1u << HM_FILE_RMDIR);
	const uint32_t renamed = 1u << HM_FILE_RENAME;

	switch (e->kind) {
	case HM_ACL_PATH:
		return e->perm & removed ? LIFE_REMOVED : 0;
	case HM_ACL_PATH_NUMBER:
		return e->perm & made ? LIFE_MADE : 0;
	case HM_ACL_MKDEV:
		return LIFE_MADE;
	case HM_ACL_PATH2:
		if (nth)
			return e->perm & (renamed | (1u << HM_FILE_LINK)) ?
			       LIFE_MADE : 0;
		return e->perm & renamed ? LIFE_REMOVED : 0;
	default:
		return 0;
	}
}

/*
 * The length of @w without its rotation's suffix: ".N" or "-YYYYMMDD"
 * (a date and time stamp_len() reads, after '-', '_' or '.'), then
 * maybe a compressor's; 0 when it has none.
 */
static size_t rotation_base(const struct hm_name *w)
{
	const char *s = w->str, *slash = memrchr(s, '/', w->len);
	size_t start = slash ? (size_t)(slash - s) + 1 : 0, end = w->len;
	size_t i;

	for (i = start; i < end && !is_compressed(s, i, end); i++)
		;
	end = i;	/* the compressor's suffix, if any, left out */
	for (i = end; i > start && is_digit(s[i - 1]); i--)
		;
	if (i < end && is_rotation(s, i, end, start, end))
		return i - 1;
	for (i = start + 1; i < end; i++)
		if (strchr("-_.", s[i - 1]) && stamp_len(s, i, end) == end - i)
			return i - 1;
	return 0;
}

/* Is the rename of @from to @to a rotation: syslog to syslog.1, syslog.1
 * to syslog.2, access.log to access.log-20261207? */
static bool rotates(const struct hm_name *from, const struct hm_name *to)
{
	size_t b = rotation_base(to);

	return b && (from->len == b || rotation_base(from) == b) &&
	       from->len >= b && !memcmp(from->str, to->str, b);
}

/* LIFE_ROTATED for both names of entry @e, when it renames as logrotate
 * and savelog do. */
static int collect_rotation(struct collect *c, const struct hm_acl_head *e)
{
	const struct hm_acl_path2 *p = (const void *)e;
	const struct hm_name *v[2];

	/* only a two-name entry has a second name to read */
	if (e->kind != HM_ACL_PATH2 || !(e->perm & 1u << HM_FILE_RENAME))
		return 0;
	v[0] = p->name1.name;
	v[1] = p->name2.name;
	if (!v[0] || !v[1] || v[0]->is_patterned || v[1]->is_patterned ||
	    !rotates(v[0], v[1]))
		return 0;
	for (size_t i = 0; i < 2; i++) {
		uint64_t key = hm_map_ptr_key(v[i]);
		uintptr_t bits = (uintptr_t)hm_map_get(&c->life, key);

		if (hm_map_put(&c->life, key, (void *)(bits | LIFE_ROTATED)))
			return -ENOMEM;
	}
	return 0;
}

static int collect_life(struct collect *c, const struct hm_acl_head *e)
{
	unsigned nth = 0;

	hm_for_each_operand(o, e->kind) {
		const struct hm_name_op *op;
		uintptr_t bits;
		uint64_t key;

		if (o->type != HM_OT_NAME)
			continue;
		op = hm_operand_ptr(e, o);
		bits = life_of(e, nth++);
		if (!op->name || !bits)
			continue;
		key = hm_map_ptr_key(op->name);
		bits |= (uintptr_t)hm_map_get(&c->life, key);
		if (hm_map_put(&c->life, key, (void *)bits))
			return -ENOMEM;
	}
	return collect_rotation(c, e);
}

/* Count @w (in domain @d) in group @g; @gone: absent, -1 seen before;
 * @life: its LIFE_* bits. */
static void count_name(struct group *g, const struct hm_domain *d,
		       const struct hm_name *w, const struct cand *v, size_t n,
		       int gone, uintptr_t life)
{
	if (g->last_domain != d) {
		g->last_domain = d;
		g->n_domains++;
	}
	if (gone < 0)
		return;
	note_variation(g, w, v, n);
	g->n_names++;
	g->n_absent += (size_t)gone;
	g->n_lived += (life & LIFE_BOTH) == LIFE_BOTH;
	g->n_rotated += !!(life & LIFE_ROTATED);
	if (!g->sensitive)
		g->sensitive = hm_sensitive_why(w->str);
}

/* @w in the group of its last component's shape and, when a directory
 * has a random part, in the group with that generalized too. */
static int collect_name(struct collect *c, const struct hm_domain *d,
			const struct hm_name *w)
{
	struct cand v[MAX_CANDS];
	size_t n, n_mid, last = 0, wide = 0;
	int gone = -1;
	uintptr_t life;

	if (!w || !cands_of(w, v, &n, &n_mid))
		return 0;
	if ((n > n_mid && group_for(c, w, v + n_mid, n - n_mid, &last)) ||
	    (n_mid && group_for(c, w, v, n, &wide)))
		return -ENOMEM;
	if (!hm_map_get(&c->seen, hm_map_ptr_key(w))) {
		if (hm_map_put(&c->seen, hm_map_ptr_key(w), (void *)1))
			return -ENOMEM;
		gone = absent(c, w);
	}
	life = (uintptr_t)hm_map_get(&c->life, hm_map_ptr_key(w));
	if (n > n_mid) {
		c->g[last].wide = n_mid ? wide + 1 : 0;
		count_name(&c->g[last], d, w, v + n_mid, n - n_mid, gone,
			   life);
	}
	if (n_mid)
		count_name(&c->g[wide], d, w, v, n, gone, life);
	return 0;
}

static int collect_entry(struct collect *c, const struct hm_domain *d,
			 const struct hm_acl_head *e)
{
	hm_for_each_operand(o, e->kind) {
		const struct hm_name_op *op;
		int r;

		if (o->type != HM_OT_NAME)
			continue;
		op = hm_operand_ptr(e, o);
		r = collect_name(c, d, op->name);
		if (r)
			return r;
	}
	return 0;
}

/* --------------------------------------------------------- initialize */

/* An init script: what it runs through helpers is its service. */
static bool is_script(const char *p, size_t len)
{
	return len > 12 && !strncmp(p, "/etc/init.d/", 12);
}

static bool is_service(const char *p, size_t len)
{
	return memmem(p, len, "/sbin/", 6) || is_script(p, len);
}

static bool is_init(const char *p, size_t len)
{
	static const char *const init[] = {
		"/sbin/init", "/usr/sbin/init", "/lib/systemd/systemd",
		"/usr/lib/systemd/systemd",
	};

	for (size_t i = 0; i < HM_ARRAY_SIZE(init); i++)
		if (len == strlen(init[i]) && !memcmp(p, init[i], len))
			return true;
	return false;
}

/* The last component of @p (@len bytes), its length in *@bl. */
static const char *base_of(const char *p, size_t len, size_t *bl)
{
	const char *sl = memrchr(p, '/', len);
	const char *b = sl ? sl + 1 : p;

	*bl = len - (size_t)(b - p);
	return b;
}

/*
 * Programs that are never a service's root, whatever the policy shows:
 * helpers that execute another program at once or on others' behalf
 * (an initialize_domain on one would put all it starts under one
 * domain), shells and interpreters (a script's domain is its own name),
 * and tools services share (sendmail is cron's and everyone's mail).
 * A name matches with a version after it: python3.11, perl5.36.
 */
static bool is_never_root(const char *p, size_t len)
{
	static const char *const never[] = {
		"start-stop-daemon", "env", "setsid", "nohup", "spawn-fcgi",
		"daemon", "chpst", "runuser", "su", "sudo", "setpriv", "nice",
		"ionice", "taskset", "chrt", "timeout", "stdbuf", "unshare",
		"chroot", "capsh", "flock", "xargs", "run-parts", "service",
		"invoke-rc.d", "systemctl", "systemd-run", "sendmail",
		"sh", "bash", "dash", "ksh", "mksh", "zsh", "busybox",
		"python", "perl", "ruby", "php", "lua", "tclsh", "node",
	};
	size_t bl;
	const char *b = base_of(p, len, &bl);

	for (size_t i = 0; i < HM_ARRAY_SIZE(never); i++) {
		size_t nl = strlen(never[i]);

		if (bl < nl || memcmp(b, never[i], nl))
			continue;
		while (nl < bl && (is_digit(b[nl]) || b[nl] == '.'))
			nl++;
		if (nl == bl)
			return true;
	}
	return false;
}

static bool has_initialize(const struct hm_model *m, const struct hm_name *p)
{
	for (const struct hm_transition_rule *r = m->ex.transitions; r;
	     r = r->next)
		if (r->type == HM_TR_INITIALIZE && r->program == p && !r->domain)
			return true;
	return false;
}

static int add_suggestion(struct hm_suggestion **v, size_t *n, size_t *cap,
			  const struct hm_suggestion *s)
{
	if (HM_ARRAY_GROW(v, cap, *n + 1))
		return -ENOMEM;
	(*v)[(*n)++] = *s;
	return 0;
}

/* The programs domain @d executes (its "file execute" entries with a
 * literal name), at most @max of them. */
#define MAX_EXECS 64
static size_t execs_of(const struct hm_domain *d, const struct hm_name **v,
		       size_t max)
{
	size_t n = 0;

	for (const struct hm_acl_head *e = d ? d->acl : NULL; e && n < max;
	     e = e->next) {
		const struct hm_acl_path *p = (const void *)e;

		if (e->kind == HM_ACL_PATH && e->perm & 1u << HM_FILE_EXECUTE &&
		    p->name.name && !p->name.name->is_patterned)
			v[n++] = p->name.name;
	}
	return n;
}

/* The domain called @len bytes of @s, or NULL. */
static const struct hm_domain *domain_at(const struct hm_model *m,
					 const char *s, size_t len)
{
	const struct hm_name *n = hm_name_lookup(m->names, s, len);

	return n ? hm_model_find_domain(m, n) : NULL;
}

/* The last word of @s (@len bytes) and where it starts. */
static const char *last_word(const char *s, size_t len, size_t *wlen)
{
	const char *sp = memrchr(s, ' ', len);

	if (!sp)
		return NULL;
	*wlen = len - (size_t)(sp + 1 - s);
	return sp + 1;
}

static bool disjoint(const struct hm_name *const *a, size_t na,
		     const struct hm_name *const *b, size_t nb)
{
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (a[i] == b[j])
				return false;
	return true;
}

static bool runs_init_script(const struct hm_model *m,
			     const struct hm_domain *d, int depth);

/* Is @d a domain of @prog?  Then what it executes besides @prog itself
 * (its own re-execution) in @v, their count in *@n. */
static bool runs_of(const struct hm_domain *d, const struct hm_name *prog,
		    const struct hm_name **v, size_t *n)
{
	size_t wl, k = 0;
	const char *w = last_word(d->name->str, d->name->len, &wl);

	if (!w || wl != prog->len || memcmp(w, prog->str, wl))
		return false;
	*n = execs_of(d, v, MAX_EXECS);
	for (size_t i = 0; i < *n; i++)
		if (v[i] != prog)
			v[k++] = v[i];
	*n = k;
	return true;
}

/*
 * Is @prog a helper rather than a service root?  A helper hands control
 * on: what it executes depends on who ran it (two of its domains execute
 * disjoint sets of other programs: start-stop-daemon starting sshd for
 * one script and cron for another, env, sh -c, sudo, run-parts), or it
 * starts init scripts (service, invoke-rc.d, directly or through env).
 * initialize_domain on a helper would put every service it starts under
 * one domain, with the union of their rights to execute.
 */
static bool find_helper(const struct hm_model *m, const struct hm_name *prog)
{
	const struct hm_name *a[MAX_EXECS], *b[MAX_EXECS];
	size_t na, nb;

	for (size_t i = 0; i < m->n_domains; i++) {
		if (!runs_of(m->domains[i], prog, a, &na))
			continue;
		if (runs_init_script(m, m->domains[i], 0))
			return true;
		for (size_t j = 0; na && j < i; j++)
			if (runs_of(m->domains[j], prog, b, &nb) && nb &&
			    disjoint(a, na, b, nb))
				return true;
	}
	return false;
}

/* Does @d execute an init script, directly or through a program that
 * executes nothing else (service's env -i)? */
static bool runs_init_script(const struct hm_model *m,
			     const struct hm_domain *d, int depth)
{
	const struct hm_name *v[MAX_EXECS];
	size_t n = execs_of(d, v, MAX_EXECS);
	struct hm_sbuf b = { 0 };
	bool yes = false;

	for (size_t i = 0; !yes && i < n; i++) {
		const struct hm_domain *c;
		const struct hm_name *cv[2];

		if (is_script(v[i]->str, v[i]->len))
			return true;
		if (depth)
			continue;
		hm_sbuf_reset(&b);
		hm_sbuf_printf(&b, "%s %s", d->name->str, v[i]->str);
		c = b.oom ? NULL : domain_at(m, b.s, b.len);
		yes = c && execs_of(c, cv, 2) == 1 &&
		      runs_init_script(m, c, depth + 1);
	}
	hm_sbuf_free(&b);
	return yes;
}

/* is_helper()'s answers, by program: a model has few programs and many
 * domains of each. */
struct helpers {
	const struct hm_model *m;
	struct hm_map known;	/* program -> 1 helper, 2 not */
};

static bool is_helper(struct helpers *h, const struct hm_name *prog)
{
	uintptr_t v = (uintptr_t)hm_map_get(&h->known, hm_map_ptr_key(prog));

	if (!v) {
		v = find_helper(h->m, prog) ? 1 : 2;
		/* out of memory: asked again next time, same answer */
		(void)hm_map_put(&h->known, hm_map_ptr_key(prog), (void *)v);
	}
	return v == 1;
}

/*
 * Was @prog started as services are, from parent domain @par (@len
 * bytes): by a process older than the log (the parent is a bare
 * "<kernel>"), by init, an init script, a helper, by itself (sshd
 * re-executing at a reload), or through a program that executes only
 * it (env, or start-stop-daemon starting one service) started so.  Not
 * counted: a program that runs it as one of its jobs (cron mailing
 * through sendmail).
 */
static bool started_as_service(struct helpers *h, const char *par,
			       size_t len, const struct hm_name *prog,
			       int depth)
{
	const struct hm_model *m = h->m;
	const struct hm_name *v[2];
	const struct hm_name *pw;
	struct hm_name prev;
	const char *w;
	size_t wl;

	w = last_word(par, len, &wl);
	if (!w)
		return true;
	if ((wl == prog->len && !memcmp(w, prog->str, wl)) || is_init(w, wl) ||
	    is_script(w, wl))
		return true;
	/* a name no entry holds (no domain executed it) is no helper */
	pw = hm_name_lookup(m->names, w, wl);
	if (pw && is_helper(h, pw))
		return true;
	if (depth > 4 || execs_of(domain_at(m, par, len), v, 2) != 1)
		return false;
	prev = (struct hm_name){ .str = w, .len = (uint32_t)wl };
	hm_name_fill(&prev);
	return started_as_service(h, par, (size_t)(w - 1 - par), pw ? pw : &prev,
				  depth + 1);
}

/* Does domain @d execute one program besides itself, @w (@wl bytes)? */
static bool executes_only(const struct hm_domain *d, const char *w, size_t wl)
{
	const struct hm_name *v[MAX_EXECS];
	size_t n, self = 0, own;
	const char *dw = last_word(d->name->str, d->name->len, &own);

	n = execs_of(d, v, MAX_EXECS);
	for (size_t i = 0; i < n; i++)
		self += dw && v[i]->len == own && !memcmp(v[i]->str, dw, own);
	for (size_t i = 0; n - self == 1 && i < n; i++)
		if (v[i]->len == wl && !memcmp(v[i]->str, w, wl))
			return true;
	return false;
}

/*
 * Is @d the domain of a daemon its init script (or init) starts through
 * helpers that execute at once: the programs between the script and
 * the domain's own, one at least, each in a domain that executes only
 * the next one (/etc/init.d/nginx start-stop-daemon nginx; fcgiwrap's
 * env -i spawn-fcgi fcgiwrap)?  What the script runs itself (nginx -t,
 * postconf, cat) is a tool of the script, not its daemon.
 */
static bool started_by_script(const struct hm_model *m,
			      const struct hm_domain *d)
{
	const char *s = d->name->str;
	size_t wl, end;
	const char *w = last_word(s, d->name->len, &wl);
	size_t helpers = 0;

	if (!w)
		return false;
	end = (size_t)(w - 1 - s);
	for (;;) {
		const char *pw;
		size_t pl;
		const struct hm_domain *par;

		pw = last_word(s, end, &pl);
		if (!pw)
			return false;
		if (is_init(pw, pl) || is_script(pw, pl))
			return helpers > 0;
		par = domain_at(m, s, end);
		if (!par || !executes_only(par, w, wl))
			return false;
		helpers++;
		w = pw;
		wl = pl;
		end = (size_t)(pw - 1 - s);
	}
}

/* One program's domains: the distinct parents that started it as a
 * service, and whether one of them was running before the log began. */
struct root {
	const struct hm_name *prog;
	bool running;
	bool by_script;	/* started_by_script() */
	struct parent {
		const char *s;	/* a prefix of a domain name */
		size_t len;
	} *par;
	size_t starters;
	size_t cap;
};

static int count_root(struct helpers *h, struct root *rt,
		      const struct hm_domain *d)
{
	size_t plen = d->name->len - rt->prog->len - 1;

	rt->running |= !!(d->flags & HM_DOMAIN_HISTORY_UNOBSERVED);
	rt->by_script |= started_by_script(h->m, d);
	if (!started_as_service(h, d->name->str, plen, rt->prog, 0))
		return 0;
	for (size_t i = 0; i < rt->starters; i++)
		if (rt->par[i].len == plen &&
		    !memcmp(rt->par[i].s, d->name->str, plen))
			return 0;
	if (HM_ARRAY_GROW(&rt->par, &rt->cap, rt->starters + 1))
		return -ENOMEM;
	rt->par[rt->starters++] = (struct parent){ d->name->str, plen };
	return 0;
}

/*
 * initialize_domain for a service program (sbin, init.d) that is not a
 * helper, started as a service from two or more parent domains, already
 * running when the log began, or the daemon its init script starts
 * through helpers that execute at once: its domain then has one name
 * however it is started, its re-executions (sshd at every reload) do not
 * make a deeper domain each, and the enforcer need not name the helpers
 * above it (an exec outside the marks has no name).  One suggestion per
 * program.
 */
static int suggest_initialize(const struct hm_model *m,
			      struct hm_suggestion **v, size_t *n, size_t *cap)
{
	struct helpers h = { .m = m };
	struct hm_map idx = { 0 };
	struct root *roots = NULL;
	size_t n_roots = 0, cap_roots = 0;
	int r = 0;

	hm_map_init(&idx, NULL, HM_MEM_OTHER);
	hm_map_init(&h.known, NULL, HM_MEM_OTHER);
	for (size_t i = 0; !r && i < m->n_domains; i++) {
		const struct hm_domain *d = m->domains[i];
		size_t wl;
		const char *w = last_word(d->name->str, d->name->len, &wl);
		const struct hm_name *prog;
		uintptr_t k;

		if (!w || !is_service(w, wl) || is_never_root(w, wl))
			continue;
		prog = hm_name_lookup(m->names, w, wl);
		if (!prog || has_initialize(m, prog))
			continue;
		k = (uintptr_t)hm_map_get(&idx, hm_map_ptr_key(prog));
		if (!k) {
			r = HM_ARRAY_GROW(&roots, &cap_roots, n_roots + 1);
			if (r)
				break;
			roots[n_roots] = (struct root){ .prog = prog };
			k = ++n_roots;
			r = hm_map_put(&idx, hm_map_ptr_key(prog), (void *)k);
		}
		if (!r)
			r = count_root(&h, &roots[k - 1], d);
	}
	for (size_t i = 0; i < n_roots; i++) {
		struct root *rt = &roots[i];
		struct hm_suggestion s = {
			.type = HM_SUGGEST_INITIALIZE, .program = rt->prog,
			.n_names = rt->starters,
		};

		if (!r && (rt->starters >= 2 ||
			   ((rt->running || rt->by_script) && rt->starters)) &&
		    !is_helper(&h, rt->prog)) {
			s.by_script = rt->by_script;
			s.example = strndup(rt->par[0].s, rt->par[0].len);
			r = s.example ? add_suggestion(v, n, cap, &s) : -ENOMEM;
			if (r)
				free(s.example);
		}
		free(rt->par);
	}
	free(roots);
	hm_map_fini(&idx);
	hm_map_fini(&h.known);
	return r;
}

static int cmp_suggestion(const void *a, const void *b)
{
	const struct hm_suggestion *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->n_names != y->n_names)
		return x->n_names > y->n_names ? -1 : 1;
	return strcmp(x->example ? x->example : "", y->example ? y->example : "");
}

/* Is candidate @k of @g the number right after one that varies among
 * --min names or more, one separator between (USEC.PID)? */
static bool follows_varied(const struct group *g, size_t k, size_t min)
{
	return k && g->n_names >= min && g->varied[k - 1] &&
	       !g->c[k - 1].mid &&
	       g->c[k].off == g->c[k - 1].off + g->c[k - 1].len + 1;
}

/* A log's name: under a log or logs directory, or ending in "log" before
 * its rotation's suffix (syslog, dpkg.log, error_log). */
static bool log_name(const struct hm_name *w)
{
	size_t b = rotation_base(w);

	return memmem(w->str, w->len, "/log/", 5) ||
	       memmem(w->str, w->len, "/logs/", 6) ||
	       (b >= 3 && !memcmp(w->str + b - 3, "log", 3));
}

/* Is candidate @k of @g a run's letter: one letter after a word and a
 * separator (up-L-1; not e-1796500000's name "e")? */
static bool run_letter(const struct group *g, size_t k)
{
	const struct cand *c = &g->c[k];

	return c->kind == C_LETTER && !c->mid && c->off > 1 &&
	       strchr("-_.", g->first->str[c->off - 1]) &&
	       g->first->str[c->off - 2] != '/';
}

/* Is candidate @k of @g a run's number: right after a run's letter, one
 * separator between (up-L-1)? */
static bool after_letter(const struct group *g, size_t k)
{
	return k && run_letter(g, k - 1) &&
	       g->c[k].off == g->c[k - 1].off + 2;
}

/* What generalize() says of a candidate: keep it, generalize it, or
 * generalize it only in a suggestion held for review (not proven). */
enum gen_how { GEN_NO, GEN_YES, GEN_REVIEW };

/*
 * Should candidate @k of group @g be generalized?  What varies, among
 * --min names or more; a timestamp of two names or more (two rotations,
 * or two runs of a day), of one a rotation renamed, or whose names are
 * all gone (one); a rotation's counter of a log's two names (syslog.1,
 * syslog.2.gz: one family) or of one a rotation renamed; a run's letter
 * and its number that vary between two names (up-L-1, up-M-1); random
 * and temporary suffixes of names all gone from the disk
 * (tomoyo-findtemp), hex also then, or that vary and mix cases or digits
 * in every name (a mail filter's mkstemp() copies, kept; not LC_ADDRESS,
 * LC_CTYPE, ... of a locale).  A number that stays right after one that
 * varies, in names all gone, is one run's (postfix's queue file
 * incoming/USEC.PID of one cleanup process): temporary names carry the
 * pid of the process that made them.  A timestamp or a log's rotation
 * counter that one name on disk shows is not proven to change: held.
 */
static enum gen_how generalize(const struct group *g, size_t k, size_t min)
{
	bool gone = g->n_absent == g->n_names;
	bool many = g->varied[k] && g->n_names >= min;
	/* absence is a temporary life only for mkstemp()'s shape or a
	 * name made and removed: a whole component of random letters that
	 * is gone may never have existed */
	bool temp = gone && (g->c[k].suffix || g->n_lived);
	bool yes;

	if (g->c[k].mid)	/* a directory: only seen varying, never gone */
		return many && !g->word[k] ? GEN_YES : GEN_NO;
	switch (g->c[k].kind) {
	case C_TIME:	/* tomorrow's differs: two samples show the shape */
		yes = g->varied[k] || gone || g->n_names >= 2 ||
		      g->fam_names >= 2 || g->fam_rotated;
		return yes ? GEN_YES : GEN_REVIEW;
	case C_ROTATION:	/* a number too (incoming/USEC.PID) */
		if (many || (gone && follows_varied(g, k, min)) ||
		    g->fam_rotated || (g->fam_names >= 2 && log_name(g->first)))
			return GEN_YES;
		return log_name(g->first) ? GEN_REVIEW : GEN_NO;
	case C_RANDOM:
	case C_TEMP:
		yes = (many && !g->word[k]) || temp;
		break;
	case C_HEX:
		yes = many || temp;
		break;
	case C_DIGITS:
		yes = many || (gone && follows_varied(g, k, min)) ||
		      (g->varied[k] && after_letter(g, k));
		break;
	case C_LETTER:	/* a run's or a period's, before its number */
		yes = many || (g->varied[k] && k + 1 < g->n_c &&
			       after_letter(g, k + 1));
		break;
	default:
		yes = many;
	}
	return yes ? GEN_YES : GEN_NO;
}

/* A timestamp is generalized whole: a date that changes takes its time
 * of day along, whether or not the samples' times differed. */
static void stamps_whole(const struct group *g, bool *gen)
{
	for (size_t k = 0; k < g->n_c; k++)
		if (gen[k] && g->c[k].stamp)
			for (size_t j = 0; j < g->n_c; j++)
				gen[j] |= g->c[j].stamp == g->c[k].stamp;
}

/* A run's letter goes with the number, date or counter of its name that
 * changes: up-L-1.dat, up-L-2.dat are this period's; the next period's
 * are up-M-1.dat.  And a letter that changes takes the number after it. */
static void runs_whole(const struct group *g, bool *gen)
{
	bool counted = false;

	for (size_t k = 0; k < g->n_c; k++)
		counted |= gen[k] && !g->c[k].mid &&
			   (g->c[k].kind == C_DIGITS || g->c[k].kind == C_TIME ||
			    g->c[k].kind == C_ROTATION);
	for (size_t k = 0; k < g->n_c; k++) {
		if (!run_letter(g, k))
			continue;
		gen[k] |= counted;
		if (gen[k] && k + 1 < g->n_c && after_letter(g, k + 1) &&
		    g->c[k + 1].kind == C_DIGITS)
			gen[k + 1] = true;
	}
}

/* Does @g generalize a directory of its names, and every directory part
 * that varies (else its suggestion, made from its first name, would
 * leave the names of the other directories out)? */
static bool widens_dir(const struct group *g, size_t min)
{
	bool any = false;

	for (size_t k = 0; k < g->n_c && g->c[k].mid; k++) {
		if (generalize(g, k, min) == GEN_YES)
			any = true;
		else if (g->varied[k])
			return false;
	}
	return any;
}

/* ------------------------------------------------------------ refusing */

/* Directory entries looked at for one rule, at most. */
#define MAX_DIR_ENTRIES 65536

struct refusal {
	pcre2_code *re;			/* the rule, its parts in groups */
	pcre2_match_data *md;
	uint8_t kinds[MAX_CANDS];	/* of each group */
	size_t n_kinds;
	const char *why;
	char *by;
	int err;
};

static bool re_matches(struct refusal *f, const char *s, size_t len)
{
	return pcre2_match(f->re, (PCRE2_SPTR)s, len, 0, 0, f->md, NULL) >= 0;
}

static void refuse_as(struct refusal *f, const char *why, const char *by,
		      size_t len)
{
	f->why = why;
	f->by = strndup(by, len);
	if (!f->by)
		f->err = -ENOMEM;
}

static int covers_sensitive(const char *example, const char *why, void *arg)
{
	struct refusal *f = arg;

	(void)why;
	if (!re_matches(f, example, strlen(example)))
		return 0;
	refuse_as(f, "it would cover a sensitive name", example,
		  strlen(example));
	return 1;
}

/*
 * Does @s (matched by f->re) read as a word where the rule generalizes a
 * random or mkstemp() part: letters of one case and no digit (passwd,
 * conf), where such names mix them?  Hex and numbers are what their
 * parts say whatever their letters (item-fd757664).
 */
static bool word_where_random(struct refusal *f, const char *s)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(f->md);

	for (size_t i = 0; i < f->n_kinds; i++) {
		size_t from = ov[2 * (i + 1)], to = ov[2 * (i + 1) + 1];

		if ((f->kinds[i] == C_RANDOM || f->kinds[i] == C_TEMP) &&
		    from != PCRE2_UNSET && one_case(s + from, to - from))
			return true;
	}
	return false;
}

/* A file in the directory of @g's names that the rule covers, on disk
 * under --root, but of another shape: /etc/passwd for /etc/\*. */
static void covers_other_files(struct collect *c, const struct group *g,
			       struct refusal *f)
{
	const struct hm_name *w = g->first;
	size_t dl = (size_t)((const char *)memrchr(w->str, '/', w->len -
						   w->is_dir) - w->str) + 1;
	char raw[HM_MAX_WORD], path[HM_MAX_WORD + 4096];
	struct hm_sbuf b = { 0 };
	struct dirent *de;
	size_t len, seen = 0;
	DIR *dir;

	if (dl >= sizeof(raw) || hm_decode(raw, &len, w->str, dl) ||
	    memchr(raw, 0, len))
		return;
	snprintf(path, sizeof(path), "%s%.*s", c->o->fs_root ?
		 c->o->fs_root : "", (int)len, raw);
	dir = opendir(path);
	while (dir && !f->why && !f->err && (de = readdir(dir)) &&
	       seen++ < MAX_DIR_ENTRIES) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		hm_sbuf_reset(&b);
		hm_sbuf_add(&b, w->str, dl);
		if (hm_sbuf_reserve(&b, hm_encode_len(de->d_name,
						      strlen(de->d_name)) + 2))
			break;
		b.len += hm_encode(b.s + b.len, de->d_name, strlen(de->d_name));
		if (de->d_type == DT_DIR)
			hm_sbuf_addc(&b, '/');
		if (re_matches(f, b.s, b.len) && word_where_random(f, b.s))
			refuse_as(f, "it would cover a file of another shape",
				  b.s, b.len);
	}
	if (b.oom)
		f->err = -ENOMEM;
	hm_sbuf_free(&b);
	if (dir)
		closedir(dir);
}

/*
 * Would @s, group @g's rule, cover more than the names that motivated
 * it?  A rewrite rule holds for every domain, and for whatever is learned
 * from then on: one it would widen over a sensitive name (/etc/\* over
 * /etc/shadow), or over a file on disk beside its names that is of
 * another shape (/etc/[A-Za-z0-9]+ over /etc/passwd), is refused; so is
 * one that a sensitive name of the group motivated.
 */
static int refuse(struct collect *c, const struct group *g, const bool *gen,
		  struct hm_suggestion *s)
{
	struct refusal f = { 0 };
	bool dirs = false;
	int code;
	PCRE2_SIZE off;

	if (g->sensitive) {
		refuse_as(&f, "a sensitive name motivated it", g->first->str,
			  g->first->len);
		goto out;
	}
	for (size_t k = 0; k < g->n_c; k++)
		if (gen[k])
			f.kinds[f.n_kinds++] = g->c[k].kind;
	if (shape_of(g->first, g->c, g->n_c, gen, true, &c->shape, &c->re)) {
		f.err = -ENOMEM;
		goto out;
	}
	f.re = pcre2_compile((PCRE2_SPTR)c->re.s, PCRE2_ZERO_TERMINATED, 0,
			     &code, &off, NULL);
	f.md = f.re ? pcre2_match_data_create_from_pattern(f.re, NULL) : NULL;
	if (!f.md) {
		f.err = -ENOMEM;
		goto out;
	}
	hm_sensitive_each(covers_sensitive, &f);
	for (size_t k = 0; k < g->n_c; k++)
		dirs |= g->c[k].mid && gen[k];
	/* (a rule that widens a directory is seen varying among --min
	 * names of one shape, never made from absence) */
	if (!f.why && !f.err && c->o->check_fs && !dirs)
		covers_other_files(c, g, &f);
out:
	pcre2_match_data_free(f.md);
	pcre2_code_free(f.re);
	s->refused = f.why;
	s->refused_by = f.by;
	return f.err;
}

/*
 * One suggestion per group: a group with directories generalized speaks
 * for its names only when one of them varies among --min names; then
 * the groups of its names' last components (with the directories
 * literal) are silent.
 */
/*
 * Which candidates of @g to generalize, in @gen: GEN_YES when one is
 * proven to vary; GEN_REVIEW when none is but a timestamp or a log's
 * counter would be (all those in @gen then); GEN_NO.
 */
static enum gen_how gen_of(const struct group *g, size_t min, bool *gen)
{
	enum gen_how how[MAX_CANDS], all = GEN_NO;

	for (size_t k = 0; k < g->n_c; k++) {
		how[k] = generalize(g, k, min);
		all = how[k] == GEN_YES || all == GEN_YES ? GEN_YES :
		      how[k] == GEN_REVIEW ? GEN_REVIEW : all;
	}
	for (size_t k = 0; k < g->n_c; k++)
		gen[k] = how[k] == GEN_YES ||
			 (all == GEN_REVIEW && how[k] == GEN_REVIEW);
	stamps_whole(g, gen);
	runs_whole(g, gen);
	return all;
}

/* Why a suggestion is held: what one name cannot show. */
static const char unproven[] =
	"one name, and no rotation renamed it: a second one shows it changes";

/* The totals of each family of rotated names (syslog.\$ and
 * syslog.\$.gz), in each of its groups. */
static int count_families(struct collect *c)
{
	struct hm_map first;	/* family -> its first group's index + 1 */
	int r = 0;

	hm_map_init(&first, NULL, HM_MEM_OTHER);
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; !r && i < c->n; i++) {
			struct group *g = &c->g[i], *f;
			uint64_t key = hm_map_ptr_key(g->family);
			uintptr_t at;

			if (!g->family)
				continue;
			at = (uintptr_t)hm_map_get(&first, key);
			if (!at) {
				r = hm_map_put(&first, key, (void *)(i + 1));
				at = i + 1;
			}
			f = &c->g[at - 1];
			if (pass) {
				g->fam_names = f->fam_names;
				g->fam_rotated = f->fam_rotated;
			} else {
				f->fam_names += g->n_names;
				f->fam_rotated += g->n_rotated;
			}
		}
	hm_map_fini(&first);
	return r;
}

static void suggestion_free(struct hm_suggestion *s)
{
	free(s->regex);
	free(s->replacement);
	free(s->example);
	free(s->refused_by);
}

/*
 * One suggestion per group: a group with directories generalized speaks
 * for its names only when one of them varies among --min names; then
 * the groups of its names' last components (with the directories
 * literal) are silent.
 */
static int rewrite_suggestions(struct collect *c, struct hm_suggestion **v,
			       size_t *n, size_t *cap)
{
	size_t min = c->o->min_names ? c->o->min_names : 3;

	if (count_families(c))
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		struct group *g = &c->g[i];
		bool gen[MAX_CANDS];
		enum gen_how how;
		struct hm_suggestion s = {
			.type = HM_SUGGEST_REWRITE, .n_names = g->n_names,
			.n_domains = g->n_domains, .n_absent = g->n_absent,
		};

		if (g->n_c && g->c[0].mid ? !widens_dir(g, min) :
		    g->wide && widens_dir(&c->g[g->wide - 1], min))
			continue;
		how = gen_of(g, min, gen);
		if (how == GEN_NO)
			continue;
		if (shape_of(g->first, g->c, g->n_c, gen, false, &c->shape,
			     &c->re))
			return -ENOMEM;
		s.regex = strdup(c->re.s);
		s.replacement = strdup(c->shape.s);
		s.example = strdup(g->first->str);
		if (!s.regex || !s.replacement || !s.example ||
		    refuse(c, g, gen, &s))
			goto oom;
		if (how == GEN_REVIEW && !s.refused) {
			s.refused = unproven;
			s.review = true;
			s.refused_by = strdup(s.example);
		}
		if ((s.refused && !s.refused_by) ||
		    add_suggestion(v, n, cap, &s))
			goto oom;
		continue;
oom:
		suggestion_free(&s);
		return -ENOMEM;
	}
	return 0;
}

/* --------------------------------------------------- names users choose */

/* Places whose names are other users' or everyone's: never widened. */
static bool shared_place(const char *s, size_t len)
{
	static const char *const dirs[] = {
		"/home/", "/root/", "/run/user/", "/tmp/", "/var/tmp/",
		"/dev/", "/var/mail/", "/var/spool/mail/", "/proc/", "/sys/",
	};

	for (size_t i = 0; i < HM_ARRAY_SIZE(dirs); i++)
		if (len >= strlen(dirs[i]) && !memcmp(s, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

/* The literal file names one domain holds in one directory. */
struct chosen {
	const struct hm_name *dir;	/* interned in c->shapes, with '/' */
	const struct hm_name **names;
	size_t n, cap;
	bool made;	/* the domain made a name there: it writes there */
	bool barred;	/* a sensitive name, or one a package owns */
	int64_t first, last;	/* learned, of the first and last entry */
};

struct chooser {
	struct collect *c;
	const struct hm_model *m;
	struct hm_map by_dir;	/* dir -> index + 1 in v */
	struct hm_map seen;	/* name -> 1, in this domain */
	struct chosen *v;
	size_t n, cap;
	pcre2_code **rules;	/* the rewrite rules suggested, not held */
	size_t n_rules;
	pcre2_match_data *md;
};

static int chosen_name(struct chooser *ch, const struct hm_acl_head *e,
		       const struct hm_name *w, unsigned nth)
{
	const char *sl = w && !w->is_patterned && !w->is_dir && w->str[0] == '/' ?
			 memrchr(w->str, '/', w->len) : NULL;
	size_t dl = sl ? (size_t)(sl - w->str) + 1 : 0;
	const struct hm_name *dir;
	struct chosen *x;
	uintptr_t at;

	if (!sl || shared_place(w->str, dl))
		return 0;
	if (hm_name_intern(ch->c->shapes, w->str, dl, &dir))
		return -ENOMEM;
	at = (uintptr_t)hm_map_get(&ch->by_dir, hm_map_ptr_key(dir));
	if (!at) {
		if (HM_ARRAY_GROW(&ch->v, &ch->cap, ch->n + 1))
			return -ENOMEM;
		ch->v[ch->n] = (struct chosen){ .dir = dir };
		at = ++ch->n;
		if (hm_map_put(&ch->by_dir, hm_map_ptr_key(dir), (void *)at))
			return -ENOMEM;
	}
	x = &ch->v[at - 1];
	x->made |= !!(life_of(e, nth) & LIFE_MADE);
	x->barred |= hm_sensitive_why(w->str) || hm_owner_of(ch->m, w);
	if (e->hist.learned) {
		x->first = x->first && x->first < e->hist.learned ?
			   x->first : e->hist.learned;
		x->last = x->last > e->hist.learned ? x->last : e->hist.learned;
	}
	if (hm_map_get(&ch->seen, hm_map_ptr_key(w)))
		return 0;
	if (hm_map_put(&ch->seen, hm_map_ptr_key(w), (void *)1) ||
	    HM_ARRAY_GROW(&x->names, &x->cap, x->n + 1))
		return -ENOMEM;
	x->names[x->n++] = w;
	return 0;
}

/* Is @w covered by a rewrite rule suggested (a counter, a date): then
 * it is no name a user chose. */
static bool suggested(struct chooser *ch, const struct hm_name *w)
{
	for (size_t i = 0; i < ch->n_rules; i++)
		if (pcre2_match(ch->rules[i], (PCRE2_SPTR)w->str, w->len, 0, 0,
				ch->md, NULL) >= 0)
			return true;
	return false;
}

/* The last component of @w, its length in *@len. */
static const char *last_of(const struct hm_name *w, size_t *len)
{
	const char *b = (const char *)memrchr(w->str, '/', w->len) + 1;

	*len = w->len - (size_t)(b - w->str);
	return b;
}

/*
 * What names @v[0..n) share: a prefix up to a separator (note-) in
 * *@pre, an extension from its first '.' (.txt, .tar.gz) in *@suf;
 * what is between is a user's choice.
 */
static void affixes(const struct hm_name **v, size_t n, size_t *pre,
		    size_t *suf)
{
	size_t l0, shortest;
	const char *b0 = last_of(v[0], &l0);

	*pre = *suf = shortest = l0;
	for (size_t i = 1; i < n; i++) {
		size_t l, k = 0;
		const char *b = last_of(v[i], &l);

		while (k < *pre && k < l && b[k] == b0[k])
			k++;
		*pre = k;
		for (k = 0; k < *suf && k < l && b[l - 1 - k] == b0[l0 - 1 - k];)
			k++;
		*suf = k;
		shortest = l < shortest ? l : shortest;
	}
	while (*pre && !strchr("-_.", b0[*pre - 1]))
		(*pre)--;
	while (*suf && b0[l0 - *suf] != '.')
		(*suf)--;
	if (*pre + *suf > shortest)
		*suf = 0;
}

/* Why a widening is held: names users chose are no counter. */
static const char widening[] =
	"a widening over the names one domain chose in a directory it writes";

/* The rule over @x's names, in c->re and c->shape: the directory, their
 * common prefix and extension, \* between. */
static int chosen_rule(struct collect *c, const struct chosen *x, size_t k)
{
	size_t pre, suf, l0;
	const char *b0 = last_of(x->names[0], &l0);

	affixes(x->names, k, &pre, &suf);
	hm_sbuf_reset(&c->shape);
	hm_sbuf_reset(&c->re);
	hm_sbuf_adds(&c->re, "^");
	sb_add_re(&c->re, x->dir->str, x->dir->len);
	sb_add_re(&c->re, b0, pre);
	hm_sbuf_adds(&c->re, "[^/]*");
	sb_add_re(&c->re, b0 + l0 - suf, suf);
	hm_sbuf_adds(&c->re, "$");
	hm_sbuf_add(&c->shape, x->dir->str, x->dir->len);
	hm_sbuf_add(&c->shape, b0, pre);
	hm_sbuf_adds(&c->shape, "\\*");
	hm_sbuf_add(&c->shape, b0 + l0 - suf, suf);
	return c->shape.oom || c->re.oom ? -ENOMEM : 0;
}

/* Refuse @s when its rule covers a sensitive name; else hold it. */
static int hold_widening(struct hm_suggestion *s)
{
	struct refusal f = { 0 };
	int code;
	PCRE2_SIZE off;

	f.re = pcre2_compile((PCRE2_SPTR)s->regex, PCRE2_ZERO_TERMINATED, 0,
			     &code, &off, NULL);
	f.md = f.re ? pcre2_match_data_create_from_pattern(f.re, NULL) : NULL;
	if (f.md)
		hm_sensitive_each(covers_sensitive, &f);
	pcre2_match_data_free(f.md);
	pcre2_code_free(f.re);
	if (!f.md || f.err)
		return -ENOMEM;
	s->review = !f.why;
	s->refused = f.why ? f.why : widening;
	s->refused_by = f.why ? f.by : strdup(s->example);
	return s->refused_by ? 0 : -ENOMEM;
}

/*
 * A widening for review over @x, the names domain @d holds in one
 * directory: where it made a name (it writes there), none sensitive nor
 * a package's, at least @want of them besides those a rule suggested
 * covers.
 */
static int chosen_suggest(struct chooser *ch, const struct hm_domain *d,
			  struct chosen *x, size_t want,
			  struct hm_suggestion **v, size_t *n, size_t *cap)
{
	struct collect *c = ch->c;
	struct hm_suggestion s = {
		.type = HM_SUGGEST_REWRITE, .n_domains = 1,
		.domain = d->name, .first = x->first, .last = x->last,
	};
	size_t k = 0;

	if (!x->made || x->barred)
		return 0;
	for (size_t i = 0; i < x->n; i++)
		if (!suggested(ch, x->names[i]))
			x->names[k++] = x->names[i];
	if (k < want)
		return 0;
	for (size_t i = 0; i < k; i++)
		s.n_absent += absent(c, x->names[i]);
	s.n_names = k;
	if (chosen_rule(c, x, k))
		return -ENOMEM;
	s.regex = strdup(c->re.s);
	s.replacement = strdup(c->shape.s);
	s.example = strdup(x->names[0]->str);
	if (!s.regex || !s.replacement || !s.example || hold_widening(&s) ||
	    add_suggestion(v, n, cap, &s)) {
		suggestion_free(&s);
		return -ENOMEM;
	}
	return 0;
}

/* The names domain @d holds, by directory, into ch->v. */
static int chosen_collect(struct chooser *ch, const struct hm_domain *d)
{
	int r = 0;

	for (const struct hm_acl_head *e = d->acl; !r && e; e = e->next) {
		unsigned nth = 0;

		hm_for_each_operand(o, e->kind) {
			const struct hm_name_op *op;

			if (o->type != HM_OT_NAME || r)
				continue;
			op = hm_operand_ptr(e, o);
			r = chosen_name(ch, e, op->name, nth++);
		}
	}
	return r;
}

/* The rewrite rules of @v[0..n) that are suggested, not held, compiled
 * into ch->rules. */
static int chosen_rules(struct chooser *ch, const struct hm_suggestion *v,
			size_t n)
{
	ch->rules = calloc(n + 1, sizeof(*ch->rules));
	ch->md = pcre2_match_data_create(1, NULL);
	if (!ch->rules || !ch->md)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int code;
		PCRE2_SIZE off;

		if (v[i].type != HM_SUGGEST_REWRITE || v[i].refused)
			continue;
		ch->rules[ch->n_rules] = pcre2_compile((PCRE2_SPTR)v[i].regex,
						       PCRE2_ZERO_TERMINATED, 0,
						       &code, &off, NULL);
		if (!ch->rules[ch->n_rules++])
			return -ENOMEM;
	}
	return 0;
}

/*
 * Names users choose (notes, uploads): where one domain holds twice
 * --min names or more in a directory it writes, a rule over that
 * directory, held for review with its evidence; never in users' or
 * shared places (shared_place()), over a sensitive name or a package's.
 */
static int chosen_suggestions(struct collect *c, const struct hm_model *m,
			      struct hm_suggestion **v, size_t *n,
			      size_t *cap)
{
	struct chooser ch = { .c = c, .m = m };
	size_t want = 2 * (c->o->min_names ? c->o->min_names : 3);
	int r = chosen_rules(&ch, *v, *n);

	for (size_t i = 0; !r && i < m->n_domains; i++) {
		hm_map_init(&ch.by_dir, NULL, HM_MEM_OTHER);
		hm_map_init(&ch.seen, NULL, HM_MEM_OTHER);
		r = chosen_collect(&ch, m->domains[i]);
		for (size_t j = 0; j < ch.n; j++) {
			if (!r)
				r = chosen_suggest(&ch, m->domains[i], &ch.v[j],
						   want, v, n, cap);
			free(ch.v[j].names);
		}
		ch.n = 0;
		hm_map_fini(&ch.by_dir);
		hm_map_fini(&ch.seen);
	}
	for (size_t i = 0; i < ch.n_rules; i++)
		pcre2_code_free(ch.rules[i]);
	free(ch.rules);
	free(ch.v);
	pcre2_match_data_free(ch.md);
	return r;
}

static void collect_free(struct collect *c)
{
	free(c->g);
	hm_sbuf_free(&c->shape);
	hm_sbuf_free(&c->re);
	hm_map_fini(&c->by_shape);
	hm_map_fini(&c->seen);
	hm_map_fini(&c->life);
	hm_names_free(c->shapes);
}

static bool same_suggestion(const struct hm_suggestion *a,
			    const struct hm_suggestion *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == HM_SUGGEST_INITIALIZE)
		return a->program == b->program;
	return !strcmp(a->regex, b->regex) &&
	       !strcmp(a->replacement, b->replacement);
}

/* One suggestion is printed and applied once, however it was reached. */
static size_t drop_repeats(struct hm_suggestion *v, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; !seen && j < out; j++)
			seen = same_suggestion(&v[j], &v[i]);
		if (seen) {
			suggestion_free(&v[i]);
			continue;
		}
		v[out++] = v[i];
	}
	return out;
}

int hm_patternize_suggest(const struct hm_model *m,
			  const struct hm_patternize_opts *o,
			  struct hm_suggestion **out, size_t *n)
{
	struct collect c = { .o = o };
	struct hm_suggestion *v = NULL;
	size_t cap = 0;
	int r = 0;

	*n = 0;
	c.shapes = hm_names_new(NULL);
	hm_map_init(&c.by_shape, NULL, HM_MEM_OTHER);
	hm_map_init(&c.seen, NULL, HM_MEM_OTHER);
	hm_map_init(&c.life, NULL, HM_MEM_OTHER);
	if (!c.shapes)
		r = -ENOMEM;
	for (size_t i = 0; !r && i < m->n_domains; i++)
		for (const struct hm_acl_head *e = m->domains[i]->acl; !r && e;
		     e = e->next)
			r = collect_life(&c, e);
	for (size_t i = 0; !r && i < m->n_domains; i++)
		for (const struct hm_acl_head *e = m->domains[i]->acl; !r && e;
		     e = e->next)
			r = collect_entry(&c, m->domains[i], e);
	if (!r)
		r = rewrite_suggestions(&c, &v, n, &cap);
	if (!r)
		r = chosen_suggestions(&c, m, &v, n, &cap);
	if (!r)
		r = suggest_initialize(m, &v, n, &cap);
	collect_free(&c);
	if (r) {
		hm_suggestions_free(v, *n);
		*n = 0;
		return r;
	}
	if (*n) {	/* v is NULL when nothing was suggested */
		qsort(v, *n, sizeof(*v), cmp_suggestion);
		*n = drop_repeats(v, *n);
	}
	*out = v;
	return 0;
}

void hm_suggestions_free(struct hm_suggestion *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		suggestion_free(&s[i]);
	free(s);
}

/* ------------------------------------------------------------- apply */

/* A literal name of @e that @re covers, or NULL. */
static const struct hm_name *covered(const struct hm_acl_head *e,
				     const pcre2_code *re,
				     pcre2_match_data *md)
{
	hm_for_each_operand(o, e->kind) {
		const struct hm_name_op *op;

		if (o->type != HM_OT_NAME)
			continue;
		op = hm_operand_ptr(e, o);
		if (op->name && !op->name->is_patterned &&
		    pcre2_match(re, (PCRE2_SPTR)op->name->str, op->name->len,
				0, 0, md, NULL) >= 0)
			return op->name;
	}
	return NULL;
}

static int widens_one(const struct hm_model *m, const struct hm_suggestion *s,
		      const pcre2_code *re, pcre2_match_data *md,
		      int (*fn)(const struct hm_suggestion *,
				const struct hm_domain *, size_t,
				const struct hm_name *, void *), void *arg)
{
	int r = 0;

	for (size_t i = 0; !r && i < m->n_domains; i++) {
		const struct hm_name *example = NULL, *w;
		size_t entries = 0;

		for (const struct hm_acl_head *e = m->domains[i]->acl; e;
		     e = e->next) {
			if (!(w = covered(e, re, md)))
				continue;
			example = example ? example : w;
			entries++;
		}
		if (entries)
			r = fn(s, m->domains[i], entries, example, arg);
	}
	return r;
}

int hm_patternize_widens(const struct hm_model *m,
			 const struct hm_suggestion *s, size_t n,
			 int (*fn)(const struct hm_suggestion *s,
				   const struct hm_domain *d, size_t entries,
				   const struct hm_name *example, void *arg),
			 void *arg)
{
	int r = 0;

	for (size_t i = 0; !r && i < n; i++) {
		pcre2_code *re;
		pcre2_match_data *md;
		int code;
		PCRE2_SIZE off;

		if (s[i].type != HM_SUGGEST_REWRITE || s[i].refused)
			continue;
		re = pcre2_compile((PCRE2_SPTR)s[i].regex,
				   PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
		md = re ? pcre2_match_data_create_from_pattern(re, NULL) : NULL;
		r = md ? widens_one(m, &s[i], re, md, fn, arg) : -ENOMEM;
		pcre2_match_data_free(md);
		pcre2_code_free(re);
	}
	return r;
}

/* Rewrite the literal names of one entry; 1 when it changed. */
static int regeneralize(struct hm_model *m, struct hm_generalizer *g,
			struct hm_domain *d, const struct hm_acl_head *e)
{
	union hm_acl_any copy;
	union hm_acl_any old;
	bool changed = false;
	int r;

	memcpy(&copy, e, hm_acl_size(e->kind));
	memcpy(&old, e, hm_acl_size(e->kind));
	hm_for_each_operand(o, e->kind) {
		struct hm_name_op *op;
		const struct hm_name *nw;

		if (o->type != HM_OT_NAME)
			continue;
		op = hm_operand_ptr(&copy, o);
		if (!op->name || op->name->is_patterned)
			continue;
		r = hm_generalize_word(g, m, op->name, &nw);
		if (r)
			return r;
		changed |= nw != op->name;
		op->name = nw;
	}
	if (!changed)
		return 0;
	r = hm_domain_remove(m, d, &old.head);
	if (r >= 0)
		r = hm_domain_add(m, d, &copy.head, NULL);
	return r < 0 ? r : 1;
}

static int regeneralize_domain(struct hm_model *m, struct hm_generalizer *g,
			       struct hm_domain *d, size_t *changed)
{
	const struct hm_acl_head **v = hm_domain_sorted_acl(d);
	size_t n = d->n_acl;
	int r = v ? 0 : -ENOMEM;

	/* Walk a snapshot: the list changes under us. */
	for (size_t i = 0; !r && i < n; i++) {
		union hm_acl_any copy;

		memcpy(&copy, v[i], hm_acl_size(v[i]->kind));
		r = regeneralize(m, g, d, &copy.head);
		if (r > 0) {
			(*changed)++;
			r = 0;
		}
	}
	free(v);
	return r;
}

static int add_rules(struct hm_model *m, const struct hm_suggestion *s,
		     size_t n)
{
	int r = 0;

	for (size_t i = 0; !r && i < n; i++) {
		struct hm_transition_rule tr = { .type = HM_TR_INITIALIZE,
						 .program = s[i].program };

		if (s[i].refused)
			continue;
		if (s[i].type == HM_SUGGEST_REWRITE)
			r = hm_model_add_rewrite(m, s[i].regex,
						 s[i].replacement, 0);
		else
			r = hm_model_add_transition(m, &tr);
		r = r < 0 ? r : 0;
	}
	return r;
}

int hm_patternize_apply(struct hm_model *m, const struct hm_suggestion *s,
			size_t n, struct hm_diag *d,
			struct hm_patternize_result *res)
{
	struct hm_generalizer *g;
	int r = add_rules(m, s, n);

	memset(res, 0, sizeof(*res));
	/* the domains the new controls make unreachable, under their new
	 * names, before names are rewritten: merged domains fold too */
	if (!r)
		r = hm_patternize_reroot(m, d, &res->reroot);
	if (r)
		return r;
	r = hm_generalizer_new(m, NULL, d, &g);
	if (r)
		return r;
	for (size_t i = 0; !r && i < m->n_domains; i++)
		r = regeneralize_domain(m, g, m->domains[i], &res->rewritten);
	hm_generalizer_free(g);
	return r;
}
