// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkpoint.c - where a followed log is resumed, written atomically to a
 * file:
 *
 *	histmac-checkpoint 1
 *	dev D			the file, by device and inode (it may have
 *	ino I			been rotated to PATH.N since)
 *	offset O		a byte offset where no event was open
 *	output S		size of the caller's output (optional)
 *	event SEC.MSEC:SERIAL	each event handed out that lies after O
 *
 * A restart reads from O and drops the events listed, so it repeats
 * nothing and loses nothing; the caller's output is cut back to S, so
 * what it wrote after this checkpoint (and will write again) is not there
 * twice.
 *
 * At each moment the collector's queue is empty, @place is the latest
 * quiet place (no event open) whose events have all been handed out, and
 * @since the events handed out that may lie after it; @batch collects the
 * events handed out since the queue was last empty.
 *
 * Owns: the places, the lists of stamps, the output descriptor's
 * recorded size.  Calls nothing else of the collector.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define CKPT_MAGIC "histmac-checkpoint 1"
#define SINCE_MAX	65536

/* msg=audit(SEC.MSEC:SERIAL): what names an event in a checkpoint. */
struct hm_stamp {
	int64_t sec;
	uint32_t msec;
	uint64_t serial;
};

struct hm_serials {
	struct hm_stamp *v;
	size_t n, cap;
	bool overflow;
};

struct hm_ckpt {
	char *path;
	struct hm_place quiet;		/* latest place with no event open */
	uint64_t quiet_gen, place_gen;
	struct hm_place place;
	struct hm_serials since, batch;
	struct hm_serials skip;		/* from the loaded checkpoint */
	int out_fd;			/* the caller's output, -1 none */
	bool has_out_size;		/* the loaded checkpoint had one */
	uint64_t out_size;
	uint64_t written_ms;		/* last write (monotonic) */
};

int hm_ckpt_new(struct hm_ckpt **out, const char *path)
{
	struct hm_ckpt *k = calloc(1, sizeof(*k));

	if (!k || !(k->path = strdup(path))) {
		free(k);
		return -ENOMEM;
	}
	k->out_fd = -1;
	*out = k;
	return 0;
}

void hm_ckpt_free(struct hm_ckpt *k)
{
	if (!k)
		return;
	free(k->path);
	free(k->since.v);
	free(k->batch.v);
	free(k->skip.v);
	free(k);
}

static bool stamps_add(struct hm_serials *l, int64_t sec, uint32_t msec,
		       uint64_t serial, size_t max)
{
	if (l->overflow)
		return false;
	if (l->n >= max || HM_ARRAY_GROW(&l->v, &l->cap, l->n + 1)) {
		l->overflow = true;
		return false;
	}
	l->v[l->n++] = (struct hm_stamp){ sec, msec, serial };
	return true;
}

/* One line of a checkpoint file; -ENOMEM or 0. */
static int load_line(struct hm_ckpt *k, const char *line, struct hm_place *pl)
{
	unsigned long long v, serial;
	long long sec;
	unsigned int msec;

	if (sscanf(line, "dev %llu", &v) == 1)
		pl->dev = v;
	else if (sscanf(line, "ino %llu", &v) == 1)
		pl->ino = v;
	else if (sscanf(line, "offset %llu", &v) == 1)
		pl->off = v;
	else if (sscanf(line, "output %llu", &v) == 1) {
		k->has_out_size = true;
		k->out_size = v;
	} else if (sscanf(line, "event %lld.%u:%llu", &sec, &msec,
			  &serial) == 3 &&
		   !stamps_add(&k->skip, sec, msec, serial, SIZE_MAX / 2))
		return -ENOMEM;
	return 0;
}

int hm_ckpt_load(struct hm_ckpt *k, struct hm_place *pl)
{
	FILE *f = fopen(k->path, "re");
	char line[256];
	int rc = -EINVAL;

	memset(pl, 0, sizeof(*pl));
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	if (!fgets(line, sizeof(line), f) ||
	    strncmp(line, CKPT_MAGIC, strlen(CKPT_MAGIC)))
		goto out;
	while (fgets(line, sizeof(line), f))
		if ((rc = load_line(k, line, pl)) < 0)
			goto out;
	pl->valid = pl->ino != 0;
	rc = pl->valid ? 0 : -EINVAL;
out:
	fclose(f);
	return rc;
}

void hm_ckpt_quiet(struct hm_ckpt *k, const struct hm_place *pl)
{
	k->quiet = *pl;
	k->quiet.valid = true;
	k->quiet_gen++;
}

void hm_ckpt_handed(struct hm_ckpt *k, const struct hm_event *ev)
{
	stamps_add(&k->batch, ev->sec, ev->msec, ev->serial, SINCE_MAX);
}

/*
 * The queue is empty: every event assembled so far has been handed out.
 * Events lying before the latest quiet place were all assembled before
 * the batch just handed out ended, so the place with the serials of that
 * batch (or of every batch since the place last moved) is exact.
 */
void hm_ckpt_drained(struct hm_ckpt *k)
{
	if (k->place_gen != k->quiet_gen) {
		struct hm_serials t = k->since;

		k->place = k->quiet;
		k->place_gen = k->quiet_gen;
		k->since = k->batch;
		k->batch = t;
	} else {
		for (size_t i = 0; i < k->batch.n; i++)
			stamps_add(&k->since, k->batch.v[i].sec,
				   k->batch.v[i].msec, k->batch.v[i].serial,
				   SINCE_MAX);
		k->since.overflow |= k->batch.overflow;
	}
	k->batch.n = 0;
	k->batch.overflow = false;
}

bool hm_ckpt_seen(struct hm_ckpt *k, const struct hm_event *ev)
{
	struct hm_serials *l = &k->skip;

	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].serial == ev->serial && l->v[i].sec == ev->sec &&
		    l->v[i].msec == ev->msec) {
			l->v[i] = l->v[--l->n];
			return true;
		}
	}
	return false;
}

/* Size of @fd if it is a regular file. */
static bool out_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	*size = (uint64_t)st.st_size;
	return true;
}

int hm_ckpt_output(struct hm_ckpt *k, int fd)
{
	uint64_t size;

	k->out_fd = fd;
	if (!k->has_out_size || !out_size(fd, &size))
		return 0;
	k->has_out_size = false;	/* once, for the run it resumes */
	if (size > k->out_size && ftruncate(fd, (off_t)k->out_size) < 0)
		return -errno;
	return 0;
}

static void write_stamps(struct hm_sbuf *b, const struct hm_serials *l)
{
	for (size_t i = 0; i < l->n; i++)
		hm_sbuf_printf(b, "event %" PRId64 ".%03u:%" PRIu64 "\n",
			       l->v[i].sec, l->v[i].msec, l->v[i].serial);
}

int hm_ckpt_write(struct hm_ckpt *k, uint64_t now_ms)
{
	struct hm_sbuf b = { 0 };
	uint64_t size;
	int rc;

	k->written_ms = now_ms;
	if (!k->place.valid || k->since.overflow || k->batch.overflow)
		return 0;
	hm_sbuf_printf(&b, "%s\ndev %" PRIu64 "\nino %" PRIu64
		       "\noffset %" PRIu64 "\n", CKPT_MAGIC, k->place.dev,
		       k->place.ino, k->place.off);
	if (out_size(k->out_fd, &size))
		hm_sbuf_printf(&b, "output %" PRIu64 "\n", size);
	write_stamps(&b, &k->since);
	write_stamps(&b, &k->batch);
	if (b.oom) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	rc = hm_atomic_write(k->path, b.s, b.len);
	hm_sbuf_free(&b);
	return rc < 0 ? rc : 1;
}

bool hm_ckpt_due(const struct hm_ckpt *k, uint64_t now_ms,
		 unsigned int interval_ms)
{
	return interval_ms && now_ms - k->written_ms >= interval_ms;
}
