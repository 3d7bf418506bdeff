// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - the small shared pieces of common.h: diagnostics, memory
 * accounting, hashing and atomic file replacement.  Owns no global state.
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

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int fsync_dir_of(const char *path)
{
	char *dir = strdup(path);
	char *slash;
	int fd;
	int r = 0;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		r = -errno;
	else if (fsync(fd) < 0 && errno != EINVAL)
		r = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return r;
}

int hm_atomic_write(const char *path, const void *data, size_t len)
{
	char *tmp = NULL;
	int fd;
	int r;

	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		free(tmp);
		return r;
	}
	r = write_all(fd, data, len);
	if (!r && fchmod(fd, 0600) < 0)
		r = -errno;
	if (!r && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
	else
		r = fsync_dir_of(path);
	free(tmp);
	return r;
}

/* ------------------------------------------------- sets of files */

static char *in_dir(const char *dir, const char *fmt, const char *name)
{
	char *p = NULL;
	char *leaf = NULL;

	if (asprintf(&leaf, fmt, name) < 0)
		return NULL;
	if (asprintf(&p, "%s/%s", dir, leaf) < 0)
		p = NULL;
	free(leaf);
	return p;
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		r = -errno;
	close(fd);
	return r;
}

/* Write and fsync @f as ".NAME.hmnew" (replacing a stale one). */
static int write_new(const char *dir, const struct hm_file_out *f)
{
	char *path = in_dir(dir, ".%s.hmnew", f->name);
	int fd;
	int r;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0) {
		r = -errno;
		free(path);
		return r;
	}
	r = write_all(fd, f->text, f->len);
	if (!r && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (r)
		unlink(path);
	free(path);
	return r;
}

/*
 * Tests make saving slow on purpose (HISTMAC_TEST_SAVE_DELAY_US between
 * the steps of a save), so that a SIGKILL lands inside one.
 */
static void test_delay(void)
{
	static long us = -1;

	if (us < 0) {
		const char *e = getenv("HISTMAC_TEST_SAVE_DELAY_US");

		us = e ? strtol(e, NULL, 10) : 0;
		if (us < 0 || us > 1000000)
			us = 0;
	}
	if (us)
		usleep((useconds_t)us);
}

/* Rename every ".NAME.hmnew" listed in @names (one per line) over NAME. */
static int roll_forward(const char *dir, char *names)
{
	int r = 0;

	for (char *save = NULL, *n = strtok_r(names, "\n", &save); n;
	     n = strtok_r(NULL, "\n", &save)) {
		char *from = in_dir(dir, ".%s.hmnew", n);
		char *to = in_dir(dir, "%s", n);

		if (!from || !to)
			r = -ENOMEM;
		else if (!strchr(n, '/') && rename(from, to) < 0 &&
			 errno != ENOENT && !r)
			r = -errno;	/* ENOENT: renamed before a crash */
		test_delay();
		free(from);
		free(to);
	}
	return r;
}

int hm_atomic_write_set(const char *dir, const struct hm_file_out *f,
			size_t n)
{
	char *journal = in_dir(dir, "%s", HM_COMMIT_JOURNAL);
	char *names = NULL;
	size_t len = 0;
	FILE *list;
	int r = journal ? hm_atomic_recover(dir) : -ENOMEM;

	list = r < 0 ? NULL : open_memstream(&names, &len);
	if (!list)
		r = r < 0 ? r : -ENOMEM;
	for (size_t i = 0; r >= 0 && i < n; i++) {
		if (!f[i].text)
			continue;
		r = write_new(dir, &f[i]);
		fprintf(list, "%s\n", f[i].name);
		test_delay();
	}
	if (list && fclose(list) && r >= 0)
		r = -ENOMEM;
	if (r >= 0)
		r = fsync_dir(dir);
	if (r >= 0)	/* the commit point */
		r = hm_atomic_write(journal, names, len);
	test_delay();
	if (r >= 0)
		r = roll_forward(dir, names);
	test_delay();
	if (r >= 0)
		r = fsync_dir(dir);
	if (r >= 0 && unlink(journal) < 0)
		r = -errno;
	if (r >= 0)
		r = fsync_dir(dir);
	if (r < 0)
		hm_atomic_recover(dir);	/* forget what did not commit */
	free(names);
	free(journal);
	return r < 0 ? r : 0;
}

static int read_small(const char *path, char **out)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return -errno;
	buf = calloc(1, 65537);
	n = buf ? fread(buf, 1, 65536, f) : 0;
	fclose(f);
	if (!buf)
		return -ENOMEM;
	buf[n] = '\0';
	*out = buf;
	return 0;
}

/* No journal: a set that never committed; its ".NAME.hmnew" files go. */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] == '.' && l > 7 &&
		    !strcmp(e->d_name + l - 6, ".hmnew"))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

int hm_atomic_recover(const char *dir)
{
	char *journal = in_dir(dir, "%s", HM_COMMIT_JOURNAL);
	char *names = NULL;
	int r;

	if (!journal)
		return -ENOMEM;
	r = read_small(journal, &names);
	if (r == -ENOENT) {
		remove_stale(dir);
		free(journal);
		return 0;
	}
	if (!r)
		r = roll_forward(dir, names);
	if (!r)
		r = fsync_dir(dir);
	if (!r && unlink(journal) < 0)
		r = -errno;
	if (!r)
		r = fsync_dir(dir);
	free(names);
	free(journal);
	return r < 0 ? r : 1;
}
