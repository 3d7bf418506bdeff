// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - the small shared pieces of common.h: diagnostics, memory
 * accounting and hashing.  Owns no global state.
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
	if (d->n_msgs == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct hm_diag_msg *n = realloc(d->msgs, cap * sizeof(*n));

		if (!n)
			goto dropped;
		d->msgs = n;
		d->cap = cap;
	}
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

uint32_t hm_hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= s[i];
		h *= 16777619u;
	}
	return h;
}
