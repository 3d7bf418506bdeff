// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - the small shared pieces of common.h: diagnostics, memory
 * accounting, growable arrays, hex decoding and hashing.  Owns no global
 * state.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "histmac/common.h"

const char *const hm_mem_cat_names[HM_MEM_CAT_MAX] = {
	[HM_MEM_NAMES] = "names",
	[HM_MEM_DOMAINS] = "domains",
	[HM_MEM_ACL] = "acl",
	[HM_MEM_INDEX] = "index",
	[HM_MEM_EXCEPTION] = "exception",
	[HM_MEM_TRACKER] = "tracker",
	[HM_MEM_OTHER] = "other",
};

static const char *const level_names[] = {
	[HM_DIAG_NOTE] = "note",
	[HM_DIAG_WARNING] = "warning",
	[HM_DIAG_ERROR] = "error",
};

static void count_level(struct hm_diag *d, enum hm_diag_level level)
{
	if (level == HM_DIAG_ERROR)
		d->n_errors++;
	else if (level == HM_DIAG_WARNING)
		d->n_warnings++;
	else
		d->n_notes++;
}

int hm_array_grow(void *arrayp, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *v;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (!size || n > SIZE_MAX / size)
		return -ENOMEM;
	/* *arrayp is some T *: copied, not cast, so no aliasing rule is bent */
	memcpy(&v, arrayp, sizeof(v));
	v = realloc(v, n * size);
	if (!v)
		return -ENOMEM;
	memcpy(arrayp, &v, sizeof(v));
	*cap = n;
	return 0;
}

const signed char hm_hex_table[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

bool hm_hex_decode(void *out, const char *s, size_t n)
{
	unsigned char *o = out;

	if (n % 2)
		return false;
	for (size_t i = 0; i < n; i += 2) {
		int hi = hm_hex_digit(s[i]);
		int lo = hm_hex_digit(s[i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		*o++ = (unsigned char)(hi << 4 | lo);
	}
	return true;
}

void hm_diag_vadd(struct hm_diag *d, enum hm_diag_level level,
		  const char *file, unsigned long line, const char *fmt,
		  va_list ap)
{
	size_t max = d && d->max_kept ? d->max_kept : 1000;
	struct hm_diag_msg *m;

	if (!d)
		return;
	count_level(d, level);
	if (d->n_msgs >= max)
		goto dropped;
	if (HM_ARRAY_GROW(&d->msgs, &d->cap, d->n_msgs + 1))
		goto dropped;
	m = &d->msgs[d->n_msgs];
	m->level = level;
	m->line = line;
	m->file = file ? strdup(file) : NULL;
	if (vasprintf(&m->text, fmt, ap) < 0 || (file && !m->file)) {
		free(m->file);
		goto dropped;
	}
	d->n_msgs++;
	return;
dropped:
	d->n_dropped++;
}

void hm_diag_add(struct hm_diag *d, enum hm_diag_level level, const char *file,
		 unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hm_diag_vadd(d, level, file, line, fmt, ap);
	va_end(ap);
}

char *hm_diag_format(const struct hm_diag_msg *m)
{
	char *s = NULL;
	int r;

	if (m->file && m->line)
		r = asprintf(&s, "%s:%lu: %s: %s", m->file, m->line,
			     level_names[m->level], m->text);
	else if (m->file)
		r = asprintf(&s, "%s: %s: %s", m->file, level_names[m->level],
			     m->text);
	else
		r = asprintf(&s, "%s: %s", level_names[m->level], m->text);
	return r < 0 ? NULL : s;
}

void hm_diag_free(struct hm_diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		free(d->msgs[i].file);
		free(d->msgs[i].text);
	}
	free(d->msgs);
	d->msgs = NULL;
	d->n_msgs = d->cap = 0;
	d->n_dropped = 0;
}

void *hm_mem_alloc(struct hm_mem *mem, enum hm_mem_cat cat, size_t size)
{
	void *p;

	if (!size)
		return NULL;
	p = calloc(1, size);
	if (p && mem) {
		mem->bytes[cat] += size;
		mem->count[cat]++;
	}
	return p;
}

void hm_mem_free(struct hm_mem *mem, enum hm_mem_cat cat, void *p,
		 size_t size)
{
	if (!p)
		return;
	if (mem) {
		mem->bytes[cat] -= size;
		mem->count[cat]--;
	}
	free(p);
}

/*
 * Sixteen bytes a step (GCC's vector extension: SSE2 on x86-64, NEON on
 * arm64, plain words elsewhere): each lane counts its matches up to 255
 * steps, then the lanes are added up.  The stream counts a line's quotes
 * with it, on every line.
 */
typedef unsigned char hm_v16 __attribute__((vector_size(16)));

static size_t lanes_sum(hm_v16 acc)
{
	size_t n = 0;

	for (int i = 0; i < 16; i++)
		n += acc[i];
	return n;
}

size_t hm_memcount(const void *p, size_t n, unsigned char c)
{
	const unsigned char *s = p;
	hm_v16 want, acc, v;
	size_t total = 0;

	for (int i = 0; i < 16; i++)
		want[i] = c;
	while (n >= 16) {
		size_t steps = n / 16 < 255 ? n / 16 : 255;

		acc = (hm_v16){ 0 };
		for (size_t i = 0; i < steps; i++, s += 16) {
			memcpy(&v, s, 16);
			acc -= (hm_v16)(v == want);	/* a match is -1 */
		}
		total += lanes_sum(acc);
		n -= steps * 16;
	}
	for (size_t i = 0; i < n; i++)
		total += s[i] == c;
	return total;
}

/*
 * Eight bytes a step: names, paths and package list lines are hashed on
 * every event, and FNV-1a's multiply per byte cost 3 % of a learn.
 */
static inline uint64_t hash_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xFF51AFD7ED558CCDull;
	return h ^ (h >> 32);
}

uint32_t hm_hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0x9E3779B97F4A7C15ull ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = hash_mix(h, w);
	}
	if (len) {
		w = 0;
		memcpy(&w, s, len);
		h = hash_mix(h, w);
	}
	h *= 0xC4CEB9FE1A85EC53ull;
	return (uint32_t)(h >> 32);
}

uint32_t hm_hash_fnv(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint32_t h = HM_FNV_BASIS;

	for (size_t i = 0; i < len; i++)
		h = hm_fnv_step(h, s[i]);
	return h;
}
