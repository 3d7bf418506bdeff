// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - where the collector's bytes come from, 64 KiB at a time:
 * a list of files read as one stream, a buffer, a descriptor, auditd's
 * plugin stdin, or a followed log.
 *
 * Following works like `tail -F`: at the end of the live file, if PATH now
 * names another inode, auditd rotated it; the file we hold is complete, so
 * it is read to its end and the next newer one (found by inode among
 * PATH.1 ... PATH.9, else PATH) is opened at offset 0.  A follow can
 * start at a place (device, inode, offset) that a checkpoint gave, even
 * when the file has been rotated since.
 *
 * When a file ends, hm_source_read() says so (HM_SRC_FILE_END) before the
 * next one is opened, so the caller can end the stream's file while the
 * report still names it.
 *
 * Owns: the open descriptor, the read buffer, the file names.  Writes the
 * file name, bytes and files counters into the report it was given.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* Where a file's records begin, to sort files by. */
struct hm_file_key {
	uint64_t sec;
	uint32_t msec;
	uint64_t serial;
	size_t index;
};

struct hm_source {
	enum hm_src_mode mode;
	struct hm_report *rep;
	char **paths;			/* files mode, follow (path) */
	size_t npaths, cur;
	const char *buf;		/* buffer mode */
	size_t buflen, bufoff;
	int fd;				/* current file, -1 none */
	bool own_fd;
	uint64_t cur_dev, cur_ino;
	uint64_t file_base;		/* offset where reading this file began */
	int rot;			/* follow: index of the file read (0 live) */
	int next_rot;			/* follow: the file to open next */
	char *cur_name;			/* follow: name of the file read */
	char *rbuf;
	size_t chunk;			/* bytes a read gives at most */
};

/*
 * HM_READ_CHUNK.  Test builds (HISTMAC_TEST_HOOKS) take a smaller one from
 * HISTMAC_TEST_READ_CHUNK, so that a small log is cut into many reads, and
 * so many batches (tests/fuzz/fuzz_collector.c, tests/golden/t_threads.sh).
 */
#ifndef HM_TEST_HOOKS
static size_t read_chunk(void)
{
	return HM_READ_CHUNK;
}
#else
static size_t read_chunk(void)
{
	const char *e = getenv("HISTMAC_TEST_READ_CHUNK");
	unsigned long n = e ? strtoul(e, NULL, 10) : 0;

	return n && n < HM_READ_CHUNK ? n : HM_READ_CHUNK;
}
#endif

int hm_source_new(struct hm_source **out, enum hm_src_mode mode,
		  struct hm_report *rep)
{
	struct hm_source *s = calloc(1, sizeof(*s));

	if (!s || !(s->rbuf = malloc(HM_READ_CHUNK))) {
		free(s);
		return -ENOMEM;
	}
	s->mode = mode;
	s->rep = rep;
	s->fd = -1;
	s->chunk = read_chunk();
	*out = s;
	return 0;
}

static void close_fd(struct hm_source *s)
{
	if (s->fd >= 0 && s->own_fd)
		close(s->fd);
	s->fd = -1;
	s->own_fd = false;
}

void hm_source_free(struct hm_source *s)
{
	if (!s)
		return;
	close_fd(s);
	for (size_t i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->cur_name);
	free(s->rbuf);
	free(s);
}

/* The first msg=audit(SEC.MSEC:SERIAL) of @path, as one sortable key. */
static bool first_stamp(const char *path, struct hm_file_key *k)
{
	char buf[8192];
	const char *p;
	unsigned long long sec, serial;
	unsigned int msec;
	ssize_t n;
	int fd;

	if (!strcmp(path, "-") || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strstr(buf, "msg=audit(");
	if (!p || sscanf(p, "msg=audit(%llu.%u:%llu)", &sec, &msec,
			 &serial) != 3)
		return false;
	k->sec = sec;
	k->msec = msec;
	k->serial = serial;
	return true;
}

static int key_cmp(const void *a, const void *b)
{
	const struct hm_file_key *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->msec != y->msec)
		return x->msec < y->msec ? -1 : 1;
	if (x->serial != y->serial)
		return x->serial < y->serial ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Logs given in any order are read in record-time order: a rotated set
 * (audit.log.3 ... audit.log, which a shell glob lists newest first) is
 * sorted by the first record of each file.  Only when every file has
 * one: stdin or an unreadable file keeps the order given.
 */
static void sort_by_time(struct hm_source *s)
{
	struct hm_file_key *k = calloc(s->npaths, sizeof(*k));
	char **sorted = calloc(s->npaths, sizeof(*sorted));
	size_t i;

	for (i = 0; k && sorted && i < s->npaths; i++) {
		k[i].index = i;
		if (!first_stamp(s->paths[i], &k[i]))
			break;
	}
	if (k && sorted && i == s->npaths) {
		qsort(k, s->npaths, sizeof(*k), key_cmp);
		for (i = 0; i < s->npaths; i++)
			sorted[i] = s->paths[k[i].index];
		memcpy(s->paths, sorted, s->npaths * sizeof(*sorted));
	}
	free(k);
	free(sorted);
}

int hm_source_set_files(struct hm_source *s, const char *const *paths,
			size_t n)
{
	s->paths = calloc(n, sizeof(*s->paths));
	if (!s->paths)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		s->paths[i] = strdup(paths[i]);
		if (!s->paths[i])
			return -ENOMEM;
		s->npaths = i + 1;
	}
	if (n > 1)
		sort_by_time(s);
	return 0;
}

void hm_source_set_buffer(struct hm_source *s, const char *buf, size_t len,
			  const char *name)
{
	s->buf = buf;
	s->buflen = len;
	s->rep->file = name;
}

void hm_source_set_fd(struct hm_source *s, int fd, const char *name)
{
	s->fd = fd;
	s->rep->file = name;
}

bool hm_source_live(const struct hm_source *s)
{
	return s->mode == HM_SRC_FOLLOW || s->mode == HM_SRC_PLUGIN;
}

void hm_source_where(const struct hm_source *s, struct hm_place *out)
{
	out->valid = true;
	out->dev = s->cur_dev;
	out->ino = s->cur_ino;
	out->off = s->file_base;
}

/* Start reading @fd as a new file named @name (borrowed). */
static void start_file(struct hm_source *s, int fd, bool own,
		       const char *name, uint64_t base)
{
	struct stat st;

	s->fd = fd;
	s->own_fd = own;
	s->file_base = base;
	s->rep->file = name;
	s->rep->line = 0;
	s->rep->stamped = 0;
	s->rep->file_ended = false;
	s->cur_dev = s->cur_ino = 0;
	if (fstat(fd, &st) == 0) {
		s->cur_dev = st.st_dev;
		s->cur_ino = st.st_ino;
	}
	s->rep->st.files++;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

/* Read one chunk of @s->fd: HM_SRC_DATA, 0 end of file, -EAGAIN, -errno. */
static int read_fd(struct hm_source *s, struct hm_chunk *out)
{
	ssize_t n = read(s->fd, s->rbuf, s->chunk);

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? -EAGAIN : -errno;
	if (n == 0)
		return 0;
	s->rep->st.bytes += (uint64_t)n;
	out->p = s->rbuf;
	out->len = (size_t)n;
	return HM_SRC_DATA;
}

static int open_next_file(struct hm_source *s)
{
	const char *p = s->paths[s->cur];
	int fd;

	if (!strcmp(p, "-")) {
		start_file(s, STDIN_FILENO, false, "(stdin)", 0);
		return 0;
	}
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	start_file(s, fd, true, p, 0);
	return 0;
}

static int read_files(struct hm_source *s, struct hm_chunk *out)
{
	int rc;

	if (s->fd < 0) {
		if (s->cur >= s->npaths)
			return 0;
		rc = open_next_file(s);
		if (rc < 0) {
			s->cur++;
			return rc;
		}
	}
	do
		rc = read_fd(s, out);
	while (rc == -EAGAIN);	/* a signal (stdin) */
	if (rc <= 0) {
		/* the end of this file, or it cannot be read: go on */
		close_fd(s);
		s->cur++;
		return rc < 0 ? rc : HM_SRC_FILE_END;
	}
	return rc;
}

static int read_buffer(struct hm_source *s, struct hm_chunk *out)
{
	size_t n = s->buflen - s->bufoff;

	if (!n)
		return 0;
	if (n > s->chunk)
		n = s->chunk;
	s->rep->st.bytes += n;
	out->p = s->buf + s->bufoff;
	out->len = n;
	s->bufoff += n;
	return HM_SRC_DATA;
}

static int read_stream_fd(struct hm_source *s, struct hm_chunk *out)
{
	int rc;

	if (s->mode == HM_SRC_PLUGIN) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };

		rc = poll(&p, 1, 0);
		if (rc == 0)
			return -EAGAIN;
		if (rc < 0)
			return errno == EINTR ? -EAGAIN : -errno;
	}
	return read_fd(s, out);
}

/* ---- follow */

static char *rotated_name(const char *path, int k)
{
	char *n;

	if (k == 0)
		return strdup(path);
	if (asprintf(&n, "%s.%d", path, k) < 0)
		return NULL;
	return n;
}

/* Index (0 live, 1..9 rotated) of the file with @dev/@ino, or -1. */
static int find_rotated(const char *path, uint64_t dev, uint64_t ino)
{
	for (int k = 0; k <= HM_ROTATE_MAX; k++) {
		char *n = rotated_name(path, k);
		struct stat st;
		bool hit;

		if (!n)
			return -1;
		hit = stat(n, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
		free(n);
		if (hit)
			return k;
	}
	return -1;
}

static int open_rotated(struct hm_source *s, int k, uint64_t off)
{
	char *n = rotated_name(s->paths[0], k);
	int fd;

	if (!n)
		return -ENOMEM;
	fd = open(n, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (off && lseek(fd, (off_t)off, SEEK_SET) < 0)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		free(n);
		return -e;
	}
	free(s->cur_name);
	s->cur_name = n;
	start_file(s, fd, true, n, off);
	s->rot = k;
	return 0;
}

/* Rotated out of reach: everything left is newer; read it all. */
static int open_oldest(struct hm_source *s, struct hm_diag *diag)
{
	if (diag)
		hm_diag_add(diag, HM_DIAG_WARNING, s->paths[0], 0,
			    "checkpointed file is gone; reading every rotated "
			    "file");
	for (int k = HM_ROTATE_MAX; k > 0; k--)
		if (open_rotated(s, k, 0) == 0)
			return 0;
	return open_rotated(s, 0, 0);
}

/* No place to resume at: start at the end of the live file, as tail -F. */
static int open_at_end(struct hm_source *s)
{
	struct stat st;
	int rc = open_rotated(s, 0, 0);

	if (rc == 0 && fstat(s->fd, &st) == 0 && st.st_size > 0) {
		if (lseek(s->fd, st.st_size, SEEK_SET) < 0)
			return -errno;
		s->file_base = (uint64_t)st.st_size;
	}
	return rc;
}

int hm_source_follow(struct hm_source *s, const char *path,
		     const struct hm_place *from, bool from_start,
		     struct hm_diag *diag)
{
	int k;

	s->paths = calloc(1, sizeof(*s->paths));
	if (!s->paths || !(s->paths[0] = strdup(path)))
		return -ENOMEM;
	s->npaths = 1;
	if (!from || !from->valid)
		return from_start ? open_rotated(s, 0, 0) : open_at_end(s);
	k = find_rotated(path, from->dev, from->ino);
	if (k < 0)
		return open_oldest(s, diag);
	return open_rotated(s, k, from->off);
}

/* The file we read is complete: close it; the next newer one is next. */
static int end_rotated(struct hm_source *s)
{
	/* it may have moved further down since (several rotations) */
	int now = find_rotated(s->paths[0], s->cur_dev, s->cur_ino);

	s->next_rot = (now > 0 ? now : s->rot) - 1;
	close_fd(s);
	return HM_SRC_FILE_END;
}

static int open_next_rotated(struct hm_source *s)
{
	for (int k = s->next_rot; k > 0; k--)
		if (open_rotated(s, k, 0) == 0)
			return 0;
	return open_rotated(s, 0, 0);
}

static int read_follow(struct hm_source *s, struct hm_chunk *out)
{
	struct stat st;
	off_t pos;
	int rc;

	if (s->fd < 0 && open_next_rotated(s) < 0)
		return -EAGAIN;
	s->next_rot = 0;
	rc = read_fd(s, out);
	if (rc != 0)
		return rc;
	if (s->rot > 0)
		return end_rotated(s);
	if (stat(s->paths[0], &st) < 0 || st.st_ino != s->cur_ino ||
	    st.st_dev != s->cur_dev) {
		/* rotated: what we hold is complete; read it out */
		rc = read_fd(s, out);
		return rc != 0 ? rc : end_rotated(s);
	}
	pos = lseek(s->fd, 0, SEEK_CUR);
	if (pos >= 0 && st.st_size < pos) {
		/* truncated in place: start over */
		if (lseek(s->fd, 0, SEEK_SET) < 0)
			return -errno;
		s->file_base = 0;
		return HM_SRC_FILE_END;
	}
	return -EAGAIN;
}

int hm_source_read(struct hm_source *s, struct hm_chunk *out)
{
	switch (s->mode) {
	case HM_SRC_FILES:
		return read_files(s, out);
	case HM_SRC_BUFFER:
		return read_buffer(s, out);
	case HM_SRC_FD:
	case HM_SRC_PLUGIN:
		return read_stream_fd(s, out);
	case HM_SRC_FOLLOW:
		return read_follow(s, out);
	}
	return -EINVAL;
}

int hm_source_wait(struct hm_source *s, unsigned int ms)
{
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	int rc;

	if (s->mode == HM_SRC_PLUGIN && s->fd >= 0)
		rc = poll(&p, 1, (int)ms);
	else
		rc = poll(NULL, 0, (int)ms);
	return rc < 0 && errno == EINTR ? -EINTR : 0;
}
