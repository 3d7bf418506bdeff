// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - where the collector's bytes come from, 64 KiB at a time:
 * a list of files read as one stream, a buffer, a descriptor, auditd's
 * plugin stdin, or a followed log.
 *
 * Following works like `tail -F`: at the end of the live file, if PATH now
 * names another inode, auditd rotated it; the file we hold is complete, so
 * it is read to its end and the next newer one (found by inode among
 * PATH.1 ... PATH.9, else PATH) is opened at offset 0.  A checkpoint names
 * a file by device and inode, a byte offset where no event was open, and
 * the serials handed out after it, so a restart repeats nothing and loses
 * nothing even when the log was rotated meanwhile.
 *
 * Owns: the open descriptor and the read buffer (in struct hm_collector).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define CKPT_MAGIC "histmac-checkpoint 1"

uint64_t hm_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

bool hm_src_live(const struct hm_collector *c)
{
	return c->mode == HM_SRC_FOLLOW || c->mode == HM_SRC_PLUGIN;
}

static void close_fd(struct hm_collector *c)
{
	if (c->fd >= 0 && c->own_fd)
		close(c->fd);
	c->fd = -1;
	c->own_fd = false;
}

void hm_src_close(struct hm_collector *c)
{
	close_fd(c);
}

static int feed(struct hm_collector *c, size_t n)
{
	c->st.bytes += n;
	return hm_stream_feed(c->stream, c->rbuf, n, c);
}

/* Start reading @fd as a new file named @name (borrowed). */
static void start_file(struct hm_collector *c, int fd, bool own,
		       const char *name, uint64_t base)
{
	struct stat st;

	c->fd = fd;
	c->own_fd = own;
	c->file_base = base;
	c->pos.file = name;
	c->pos.line = 0;
	c->cur_dev = c->cur_ino = 0;
	if (fstat(fd, &st) == 0) {
		c->cur_dev = st.st_dev;
		c->cur_ino = st.st_ino;
	}
	c->st.files++;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

/* Read one chunk of @c->fd; >0 fed, 0 end of file, -EAGAIN, -errno. */
static int read_fd(struct hm_collector *c)
{
	ssize_t n = read(c->fd, c->rbuf, HM_READ_CHUNK);
	int rc;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? -EAGAIN : -errno;
	if (n == 0)
		return 0;
	rc = feed(c, (size_t)n);
	return rc < 0 ? rc : (int)n;
}

static int read_files(struct hm_collector *c)
{
	for (;;) {
		int rc;

		if (c->fd < 0) {
			const char *p;
			int fd;

			if (c->cur >= c->npaths) {
				c->ended = true;
				return 0;
			}
			p = c->paths[c->cur];
			if (!strcmp(p, "-")) {
				start_file(c, STDIN_FILENO, false, "(stdin)", 0);
			} else {
				fd = open(p, O_RDONLY | O_CLOEXEC);
				if (fd < 0) {
					rc = -errno;
					c->cur++;
					return rc;
				}
				start_file(c, fd, true, p, 0);
			}
		}
		rc = read_fd(c);
		if (rc != 0)
			return rc == -EAGAIN ? 1 : rc;
		hm_stream_end_file(c->stream, c);
		close_fd(c);
		c->cur++;
	}
}

static int read_buffer(struct hm_collector *c)
{
	size_t n = c->buflen - c->bufoff;
	int rc;

	if (!n) {
		c->ended = true;
		return 0;
	}
	if (n > HM_READ_CHUNK)
		n = HM_READ_CHUNK;
	c->st.bytes += n;
	rc = hm_stream_feed(c->stream, c->buf + c->bufoff, n, c);
	c->bufoff += n;
	return rc < 0 ? rc : (int)n;
}

static int read_stream_fd(struct hm_collector *c)
{
	int rc;

	if (c->mode == HM_SRC_PLUGIN) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };

		rc = poll(&p, 1, 0);
		if (rc == 0)
			return -EAGAIN;
		if (rc < 0)
			return errno == EINTR ? -EAGAIN : -errno;
	}
	rc = read_fd(c);
	if (rc == 0)
		c->ended = true;
	return rc;
}

/* ---- follow */

static char *rotated_name(const char *path, int k)
{
	char *s;

	if (k == 0)
		return strdup(path);
	if (asprintf(&s, "%s.%d", path, k) < 0)
		return NULL;
	return s;
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

static int open_rotated(struct hm_collector *c, int k, uint64_t off)
{
	char *n = rotated_name(c->paths[0], k);
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
	free(c->cur_name);
	c->cur_name = n;
	start_file(c, fd, true, n, off);
	c->rot = k;
	return 0;
}

static int load_checkpoint(struct hm_collector *c, struct hm_place *pl)
{
	FILE *f = fopen(c->o.checkpoint, "re");
	char line[256];
	int rc = -EINVAL;

	memset(pl, 0, sizeof(*pl));
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f) || strncmp(line, CKPT_MAGIC, 20))
		goto out;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v, serial;
		long long sec;
		unsigned int msec;

		if (sscanf(line, "dev %llu", &v) == 1) {
			pl->dev = v;
		} else if (sscanf(line, "ino %llu", &v) == 1) {
			pl->ino = v;
		} else if (sscanf(line, "offset %llu", &v) == 1) {
			pl->off = v;
		} else if (sscanf(line, "event %lld.%u:%llu", &sec, &msec,
				  &serial) == 3) {
			struct hm_stamp *n = realloc(c->skip,
				(c->nskip + 1) * sizeof(*n));

			if (!n) {
				rc = -ENOMEM;
				goto out;
			}
			c->skip = n;
			c->skip[c->nskip].sec = sec;
			c->skip[c->nskip].msec = msec;
			c->skip[c->nskip++].serial = serial;
		}
	}
	pl->valid = pl->ino != 0;
	rc = pl->valid ? 0 : -EINVAL;
out:
	fclose(f);
	return rc;
}

int hm_src_open_follow(struct hm_collector *c, const char *path)
{
	struct hm_place pl = { 0 };
	int rc, k;

	c->paths = calloc(1, sizeof(*c->paths));
	if (!c->paths || !(c->paths[0] = strdup(path)))
		return -ENOMEM;
	c->npaths = 1;
	if (c->o.checkpoint) {
		rc = load_checkpoint(c, &pl);
		if (rc < 0)
			return rc;
	}
	if (pl.valid) {
		k = find_rotated(path, pl.dev, pl.ino);
		if (k >= 0) {
			rc = open_rotated(c, k, pl.off);
		} else {
			/* rotated out of reach: everything left is newer */
			if (c->o.diag)
				hm_diag_add(c->o.diag, HM_DIAG_WARNING, path, 0,
					    "checkpointed file is gone; "
					    "reading every rotated file");
			for (k = HM_ROTATE_MAX; k > 0; k--)
				if (open_rotated(c, k, 0) == 0)
					break;
			rc = k > 0 ? 0 : open_rotated(c, 0, 0);
		}
	} else {
		struct stat st;

		rc = open_rotated(c, 0, 0);
		if (rc == 0 && fstat(c->fd, &st) == 0 && st.st_size > 0) {
			/* no checkpoint: start at the end, like tail -F */
			if (lseek(c->fd, st.st_size, SEEK_SET) < 0)
				return -errno;
			c->file_base = (uint64_t)st.st_size;
		}
	}
	if (rc < 0)
		return rc;
	hm_collector_quiet(c, 0);
	return 0;
}

/* The file we read is complete: go on with the next newer one. */
static int next_newer(struct hm_collector *c)
{
	/* it may have moved further down since (several rotations) */
	int now = find_rotated(c->paths[0], c->cur_dev, c->cur_ino);
	int k = now > 0 ? now : c->rot;

	hm_stream_end_file(c->stream, c);
	close_fd(c);
	for (k = k - 1; k > 0; k--)
		if (open_rotated(c, k, 0) == 0)
			return 0;
	return open_rotated(c, 0, 0) == 0 ? 0 : -EAGAIN;
}

static int read_follow(struct hm_collector *c)
{
	for (int tries = 0; tries < HM_ROTATE_MAX + 2; tries++) {
		struct stat st;
		int rc;

		if (c->fd < 0 && open_rotated(c, 0, 0) < 0)
			return -EAGAIN;
		rc = read_fd(c);
		if (rc != 0)
			return rc;
		if (c->rot > 0) {
			if ((rc = next_newer(c)) < 0)
				return rc;
			continue;
		}
		if (stat(c->paths[0], &st) < 0 || st.st_ino != c->cur_ino ||
		    st.st_dev != c->cur_dev) {
			/* rotated: what we hold is complete; read it out */
			rc = read_fd(c);
			if (rc != 0)
				return rc;
			if ((rc = next_newer(c)) < 0)
				return rc;
			continue;
		}
		if ((uint64_t)st.st_size < c->file_base +
					       hm_stream_consumed(c->stream)) {
			/* truncated in place: start over */
			hm_stream_end_file(c->stream, c);
			if (lseek(c->fd, 0, SEEK_SET) < 0)
				return -errno;
			c->file_base = 0;
			continue;
		}
		return -EAGAIN;
	}
	return -EAGAIN;
}

int hm_src_read(struct hm_collector *c)
{
	switch (c->mode) {
	case HM_SRC_FILES:
		return read_files(c);
	case HM_SRC_BUFFER:
		return read_buffer(c);
	case HM_SRC_FD:
	case HM_SRC_PLUGIN:
		return read_stream_fd(c);
	case HM_SRC_FOLLOW:
		return read_follow(c);
	}
	return -EINVAL;
}

int hm_src_wait(struct hm_collector *c, unsigned int ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int rc;

	if (c->mode == HM_SRC_PLUGIN && c->fd >= 0)
		rc = poll(&p, 1, (int)ms);
	else
		rc = poll(NULL, 0, (int)ms);
	return rc < 0 && errno == EINTR ? -EINTR : 0;
}

int hm_src_checkpoint_write(struct hm_collector *c)
{
	const struct hm_serials *lists[2] = { &c->since, &c->batch };
	struct hm_sbuf b = { 0 };
	int rc;

	if (!c->o.checkpoint || !c->place.valid || c->since.overflow ||
	    c->batch.overflow)
		return 0;
	hm_sbuf_printf(&b, "%s\ndev %" PRIu64 "\nino %" PRIu64
		       "\noffset %" PRIu64 "\n", CKPT_MAGIC, c->place.dev,
		       c->place.ino, c->place.off);
	for (int i = 0; i < 2; i++)
		for (size_t k = 0; k < lists[i]->n; k++)
			hm_sbuf_printf(&b, "event %" PRId64 ".%03u:%" PRIu64 "\n",
				       lists[i]->v[k].sec, lists[i]->v[k].msec,
				       lists[i]->v[k].serial);
	if (b.oom) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	rc = hm_atomic_write(c->o.checkpoint, b.s, b.len);
	hm_sbuf_free(&b);
	c->last_ckpt_ms = hm_now_ms();
	if (rc == 0)
		c->st.checkpoints++;
	return rc;
}
