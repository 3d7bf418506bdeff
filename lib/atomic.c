// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * atomic.c - replacing files so that a crash leaves the old or the new
 * content, never a mix: one file (temp, fsync, rename, fsync of the
 * directory) or a set of files committed through a redo journal that the
 * next load rolls forward.  Owns no global state.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "histmac/common.h"
#include "histmac/sbuf.h"

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

/* Does @path hold exactly @len bytes of @text already?  Then it is left
 * alone: an unchanged policy keeps its files (and their inodes). */
static bool same_content(const char *path, const char *text, size_t len)
{
	char buf[65536];
	size_t off = 0;
	bool same = false;
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size == len) {
		ssize_t got = 1;

		while (off < len && got > 0) {
			got = read(fd, buf, sizeof(buf));
			if (got > 0 && (size_t)got <= len - off &&
			    !memcmp(buf, text + off, (size_t)got))
				off += (size_t)got;
			else
				got = -1;
		}
		same = off == len;
	}
	if (fd >= 0)
		close(fd);
	return same;
}

/* Copy all of @src, from its start, to @fd. */
static int copy_all(int src, int fd)
{
	char buf[65536];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(src, buf, sizeof(buf), off);
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		if ((r = write_all(fd, buf, (size_t)n)))
			return r;
		off += n;
	}
}

/* @path replaced by a temp file holding @len bytes of @data or, when
 * @data is NULL, what @src holds. */
static int replace(const char *path, const void *data, size_t len, int src,
		   mode_t mode)
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
	r = data ? write_all(fd, data, len) : copy_all(src, fd);
	if (!r && fchmod(fd, mode) < 0)
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

int hm_atomic_write(const char *path, const void *data, size_t len)
{
	return hm_atomic_write_mode(path, data, len, 0600);
}

int hm_atomic_write_mode(const char *path, const void *data, size_t len,
			 mode_t mode)
{
	if (same_content(path, data, len))
		return 0;	/* already there: no new inode, no new time */
	return replace(path, data ? data : "", len, -1, mode);
}

int hm_atomic_write_fd(const char *path, int src)
{
	return replace(path, NULL, 0, src, 0600);
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

/* Write and fsync @f as ".NAME.hmnew" (replacing a stale one); @st: the
 * new file's identity. */
static int write_new(const char *dir, const struct hm_file_out *f,
		     struct stat *st)
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
	if (!r && fstat(fd, st) < 0)
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
 * the steps of a save), so that a SIGKILL lands inside one, and edit files
 * at a step (hm_atomic_test_step).  Only in test builds (HISTMAC_TEST_HOOKS).
 */
#ifndef HM_TEST_HOOKS
static void test_delay(void)
{
}

static void test_step(const char *dir, enum hm_atomic_step step)
{
	(void)dir;
	(void)step;
}
#else
void (*hm_atomic_test_step)(const char *dir, enum hm_atomic_step step);

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

static void test_step(const char *dir, enum hm_atomic_step step)
{
	if (hm_atomic_test_step)
		hm_atomic_test_step(dir, step);
}
#endif

/*
 * Rename every ".NAME.hmnew" listed in @names (one per line; NULL for
 * none) over NAME.
 */
static int roll_forward(const char *dir, char *names)
{
	int r = 0;

	if (!names)
		return 0;
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

static bool unchanged(const char *dir, const struct hm_file_out *f)
{
	char *path = in_dir(dir, "%s", f->name);
	bool same = path && same_content(path, f->text, f->len);

	free(path);
	return same;
}

/* One file of a set made ready: left alone (unchanged) or written as
 * ".NAME.hmnew" (@st, else zeroed).  @r: 0 or a negative errno. */
struct stage {
	const char *dir;
	const struct hm_file_out *f;
	struct stat *st;
	bool written;
	int r;
};

static void *stage_file(void *arg)
{
	struct stage *s = arg;

	s->written = s->f->text && !unchanged(s->dir, s->f);
	s->r = s->written ? write_new(s->dir, s->f, s->st) : 0;
	return NULL;
}

/*
 * The largest file of a set at least this big is written (and fsynced)
 * on a thread of its own while the others are: after a large log a
 * learner's last save writes two files of 10 and 14 MB, with a core idle.
 * Smaller sets are not worth a thread.
 */
#define STAGE_ALONE_MIN (1u << 20)

static const struct hm_file_out *largest(const struct hm_file_out *f,
					 size_t n)
{
	const struct hm_file_out *big = NULL;

	for (size_t i = 0; i < n; i++)
		if (f[i].text && f[i].len >= STAGE_ALONE_MIN &&
		    (!big || f[i].len > big->len))
			big = &f[i];
	return big;
}

/* Write the ".NAME.hmnew" of each file that changed (its identity in
 * @st[i]) and list them in @names, in @f's order (the order they are
 * renamed in). */
static int stage_all(const char *dir, const struct hm_file_out *f, size_t n,
		     struct stat *st, struct hm_sbuf *names)
{
	struct stage *s = calloc(n + 1, sizeof(*s));
	const struct hm_file_out *big = largest(f, n);
	size_t alone = big ? (size_t)(big - f) : n;
	bool threaded = false;
	int r = s ? 0 : -ENOMEM;
	pthread_t t;

	for (size_t i = 0; s && i < n; i++)
		s[i] = (struct stage){ dir, &f[i], &st[i], false, 0 };
	if (s && big)
		threaded = !pthread_create(&t, NULL, stage_file, &s[alone]);
	for (size_t i = 0; !r && i < n; i++) {
		if (threaded && i == alone)
			continue;
		stage_file(&s[i]);
		r = s[i].r;
		if (s[i].written)
			test_delay();
	}
	if (threaded) {
		pthread_join(t, NULL);
		if (!r)
			r = s[alone].r;
	}
	for (size_t i = 0; !r && i < n; i++)
		if (s[i].written)
			hm_sbuf_printf(names, "%s\n", f[i].name);
	free(s);
	return r;
}

int hm_atomic_write_set(const char *dir, const struct hm_file_out *f,
			size_t n)
{
	return hm_atomic_write_set_guarded(dir, f, n, NULL);
}

int hm_atomic_write_set_guarded(const char *dir, const struct hm_file_out *f,
				size_t n, const struct hm_commit_guard *g)
{
	char *journal = in_dir(dir, "%s", HM_COMMIT_JOURNAL);
	struct stat *st = calloc(n + 1, sizeof(*st));
	struct hm_sbuf names = { 0 };
	int r = journal && st ? hm_atomic_recover(dir) : -ENOMEM;

	if (r >= 0)
		r = stage_all(dir, f, n, st, &names);
	if (names.oom && r >= 0)
		r = -ENOMEM;
	if (r >= 0)
		test_step(dir, HM_ATOMIC_STAGED);
	if (r >= 0 && g)	/* the last word before the commit point */
		r = g->check(g->arg, f, st, n);
	if (r >= 0)
		test_step(dir, HM_ATOMIC_CHECKED);
	if (r >= 0 && !names.len)	/* every file as it was: no commit */
		goto out;
	if (r >= 0)
		r = fsync_dir(dir);
	if (r >= 0)	/* the commit point */
		r = hm_atomic_write(journal, names.s, names.len);
	test_delay();
	if (r >= 0)
		r = roll_forward(dir, names.s);
	test_delay();
	if (r >= 0)
		test_step(dir, HM_ATOMIC_RENAMED);
	if (r >= 0)
		r = fsync_dir(dir);
	if (r >= 0 && unlink(journal) < 0)
		r = -errno;
	if (r >= 0)
		r = fsync_dir(dir);
out:
	if (r < 0 && journal)
		hm_atomic_recover(dir);	/* forget what did not commit */
	hm_sbuf_free(&names);
	free(journal);
	free(st);
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
