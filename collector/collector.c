// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * collector.c - the public collector API (include/histmac/collector.h).
 *
 * next() hands out events from a queue; when the queue is empty it resets
 * the arena, has source.c read one chunk, and the chunk goes through
 * stream.c into auparse, whose callback assembles completed events into
 * the queue (assemble.c).  Follow and plugin mode wait here, watching the
 * caller's stop and reload flags, closing events left open when input
 * stops, and writing checkpoints.
 *
 * Owns: auparse, the queue, the arena, the stats, the checkpoint state.
 * Next: the caller (histmac events, the learner).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define IDLE_CLOSE_MS	2000	/* auditd's end_of_event_timeout */
#define WAIT_SLICE_MS	100
#define SINCE_MAX	65536

void hm_collector_opts_init(struct hm_collector_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->resolve = -1;
	o->checkpoint_interval_ms = 5000;
}

void hm_collector_skip(struct hm_collector *c, enum hm_skip_reason why,
		       const char *fmt, ...)
{
	va_list ap;

	c->st.skipped[why]++;
	if (!c->o.verbose || !c->o.diag)
		return;
	va_start(ap, fmt);
	hm_diag_vadd(c->o.diag, HM_DIAG_WARNING, c->pos.file, c->pos.line, fmt,
		     ap);
	va_end(ap);
}

void hm_collector_skip_event(struct hm_collector *c, enum hm_skip_reason why,
			     uint64_t serial, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	c->st.skipped[why]++;
	if (!c->o.verbose || !c->o.diag)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hm_diag_add(c->o.diag, HM_DIAG_WARNING, c->pos.file, 0,
		    "event %llu: %s: %s", (unsigned long long)serial,
		    hm_skip_names[why], msg);
}

struct hm_collector_stats *hm_collector_stats_rw(struct hm_collector *c)
{
	return &c->st;
}

struct hm_stream_pos *hm_collector_pos_rw(struct hm_collector *c)
{
	return &c->pos;
}

const struct hm_collector_stats *hm_collector_stats(const struct hm_collector *c)
{
	return &c->st;
}

void hm_collector_quiet(struct hm_collector *c, uint64_t off)
{
	c->quiet.valid = true;
	c->quiet.dev = c->cur_dev;
	c->quiet.ino = c->cur_ino;
	c->quiet.off = c->file_base + off;
	c->quiet_gen++;
}

static void serials_add(struct hm_serials *l, const struct hm_event *ev)
{
	if (l->overflow)
		return;
	if (l->n >= SINCE_MAX || HM_ARRAY_GROW(&l->v, &l->cap, l->n + 1)) {
		l->overflow = true;
		return;
	}
	l->v[l->n].sec = ev->sec;
	l->v[l->n].msec = ev->msec;
	l->v[l->n++].serial = ev->serial;
}

/*
 * The queue is empty: every event assembled so far has been handed out.
 * Events lying before the latest quiet place were all assembled before
 * the batch just handed out ended, so the place with the serials of that
 * batch (or of every batch since the place last moved) is exact.
 */
static void drained(struct hm_collector *c)
{
	if (!c->o.checkpoint)
		return;
	if (c->place_gen != c->quiet_gen) {
		struct hm_serials t = c->since;

		c->place = c->quiet;
		c->place_gen = c->quiet_gen;
		c->since = c->batch;
		c->batch = t;
	} else {
		for (size_t i = 0; i < c->batch.n; i++) {
			struct hm_event e = { .sec = c->batch.v[i].sec,
					      .msec = c->batch.v[i].msec,
					      .serial = c->batch.v[i].serial };

			serials_add(&c->since, &e);
		}
		c->since.overflow |= c->batch.overflow;
	}
	c->batch.n = 0;
	c->batch.overflow = false;
}

/* Was @ev handed out before the checkpoint we resumed from? */
static bool already_seen(struct hm_collector *c, const struct hm_event *ev)
{
	for (size_t i = 0; i < c->nskip; i++) {
		if (c->skip[i].serial == ev->serial &&
		    c->skip[i].sec == ev->sec && c->skip[i].msec == ev->msec) {
			c->skip[i] = c->skip[--c->nskip];
			return true;
		}
	}
	return false;
}

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *user)
{
	struct hm_collector *c = user;
	struct hm_event *ev;
	int rc;

	if (type != AUPARSE_CB_EVENT_READY || c->err)
		return;
	if (HM_ARRAY_GROW(&c->q, &c->qcap, c->qn + 1)) {
		c->err = -ENOMEM;
		return;
	}
	ev = &c->q[c->qn];
	rc = hm_assemble(c->as, au, ev, &c->arena);
	if (rc < 0) {
		c->err = rc;
		return;
	}
	if (rc == 0)
		return;
	if (c->nskip && already_seen(c, ev)) {
		hm_collector_skip_event(c, HM_SKIP_DUPLICATE, ev->serial,
					"handed out before the checkpoint");
		return;
	}
	c->qn++;
}

static bool resolve_default(enum hm_src_mode mode, const struct hm_collector_opts *o)
{
	if (o->resolve_root)
		return true;
	if (o->resolve >= 0)
		return o->resolve;
	return mode == HM_SRC_FOLLOW || mode == HM_SRC_PLUGIN;
}

static int collector_new(struct hm_collector **out, enum hm_src_mode mode,
			 const struct hm_collector_opts *o)
{
	struct hm_collector *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	if (o)
		c->o = *o;
	else
		hm_collector_opts_init(&c->o);
	c->mode = mode;
	c->fd = -1;
	c->au = auparse_init(AUSOURCE_FEED, NULL);
	c->stream = c->au ? hm_stream_new(c->au) : NULL;
	c->as = hm_assembler_new(c, &c->o, resolve_default(mode, &c->o));
	c->rbuf = malloc(HM_READ_CHUNK);
	if (!c->au || !c->stream || !c->as || !c->rbuf) {
		hm_collector_free(c);
		return -ENOMEM;
	}
	auparse_add_callback(c->au, on_event, c, NULL);
	*out = c;
	return 0;
}

int hm_collector_open_files(struct hm_collector **out,
			    const char *const *paths, size_t n,
			    const struct hm_collector_opts *o)
{
	struct hm_collector *c;
	int rc;

	if (!paths || !n)
		return -EINVAL;
	rc = collector_new(&c, HM_SRC_FILES, o);
	if (rc < 0)
		return rc;
	c->paths = calloc(n, sizeof(*c->paths));
	if (!c->paths) {
		hm_collector_free(c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		c->paths[i] = strdup(paths[i]);
		if (!c->paths[i]) {
			c->npaths = i;
			hm_collector_free(c);
			return -ENOMEM;
		}
	}
	c->npaths = n;
	*out = c;
	return 0;
}

int hm_collector_open_buffer(struct hm_collector **out, const void *buf,
			     size_t len, const char *name,
			     const struct hm_collector_opts *o)
{
	struct hm_collector *c;
	int rc = collector_new(&c, HM_SRC_BUFFER, o);

	if (rc < 0)
		return rc;
	c->buf = buf;
	c->buflen = len;
	c->pos.file = name;
	*out = c;
	return 0;
}

int hm_collector_open_fd(struct hm_collector **out, int fd, const char *name,
			 const struct hm_collector_opts *o)
{
	struct hm_collector *c;
	int rc = collector_new(&c, HM_SRC_FD, o);

	if (rc < 0)
		return rc;
	c->fd = fd;
	c->pos.file = name;
	*out = c;
	return 0;
}

int hm_collector_open_plugin(struct hm_collector **out,
			     const struct hm_collector_opts *o)
{
	struct hm_collector *c;
	int rc = collector_new(&c, HM_SRC_PLUGIN, o);

	if (rc < 0)
		return rc;
	c->fd = STDIN_FILENO;
	c->pos.file = "(plugin)";
	*out = c;
	return 0;
}

int hm_collector_open_follow(struct hm_collector **out, const char *path,
			     const struct hm_collector_opts *o)
{
	struct hm_collector *c;
	int rc = collector_new(&c, HM_SRC_FOLLOW, o);

	if (rc < 0)
		return rc;
	rc = hm_src_open_follow(c, path);
	if (rc < 0) {
		hm_collector_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

/*
 * End of all input, or stop: close what auparse holds and hand it out.
 * A followed log with a checkpoint is left as it is instead: the events
 * still open lie after the checkpoint's place and are read again, whole,
 * by the next run.
 */
static void finish(struct hm_collector *c)
{
	uint64_t off = hm_stream_consumed(c->stream);

	c->ended = true;
	c->done = true;
	if (c->mode == HM_SRC_FOLLOW && c->o.checkpoint)
		return;
	hm_stream_end_file(c->stream, c);
	hm_stream_flush(c->stream, c);
	hm_collector_quiet(c, off);
}

int hm_collector_checkpoint(struct hm_collector *c)
{
	if (!c->o.checkpoint || c->mode != HM_SRC_FOLLOW)
		return 0;
	return hm_src_checkpoint_write(c);
}

/* Follow/plugin: nothing to read right now.  0 go on, or -EAGAIN. */
static int idle(struct hm_collector *c, uint64_t deadline)
{
	uint64_t now = hm_now_ms();
	int rc;

	if (!c->idle_since_ms)
		c->idle_since_ms = now;
	if (hm_stream_open_count(c->stream) &&
	    now - c->idle_since_ms >= IDLE_CLOSE_MS) {
		/* input stopped: what is open will not grow any more */
		rc = hm_stream_close_open(c->stream, c);
		if (rc < 0)
			return rc;
		hm_collector_quiet(c, hm_stream_consumed(c->stream));
		return 0;
	}
	if (c->o.checkpoint && c->o.checkpoint_interval_ms &&
	    now - c->last_ckpt_ms >= c->o.checkpoint_interval_ms)
		hm_src_checkpoint_write(c);
	if (deadline && now >= deadline)
		return -EAGAIN;
	return hm_src_wait(c, WAIT_SLICE_MS);
}

int hm_collector_next(struct hm_collector *c, const struct hm_event **out)
{
	uint64_t deadline = 0;
	int rc;

	if (c->o.timeout_ms && hm_src_live(c))
		deadline = hm_now_ms() + c->o.timeout_ms;
	for (;;) {
		if (c->qhead < c->qn) {
			*out = &c->q[c->qhead++];
			c->st.events++;
			if (c->o.checkpoint)
				serials_add(&c->batch, *out);
			return 1;
		}
		if (c->err) {
			rc = c->err;
			c->err = 0;
			return rc;
		}
		drained(c);
		c->qhead = c->qn = 0;
		hm_arena_reset(&c->arena);
		if (c->done) {
			if (c->o.checkpoint && c->mode == HM_SRC_FOLLOW)
				hm_src_checkpoint_write(c);
			c->o.checkpoint = NULL;	/* written once */
			return 0;
		}
		if (c->o.stop && *c->o.stop && hm_src_live(c)) {
			finish(c);
			continue;
		}
		if (c->o.reload && *c->o.reload) {
			*c->o.reload = 0;
			return -EINTR;
		}
		rc = hm_src_read(c);
		if (rc > 0) {
			c->idle_since_ms = 0;
			continue;
		}
		if (rc < 0 && rc != -EAGAIN)
			return rc;
		if (rc == 0 && c->ended) {
			finish(c);
			continue;
		}
		rc = idle(c, deadline);
		if (rc < 0 && rc != -EINTR)
			return rc;
	}
}

void hm_collector_free(struct hm_collector *c)
{
	if (!c)
		return;
	hm_src_close(c);
	hm_stream_free(c->stream);
	if (c->au)
		auparse_destroy(c->au);
	hm_assembler_free(c->as);
	hm_arena_free(&c->arena);
	for (size_t i = 0; i < c->npaths; i++)
		free(c->paths[i]);
	free(c->paths);
	free(c->cur_name);
	free(c->q);
	free(c->rbuf);
	free(c->since.v);
	free(c->batch.v);
	free(c->skip);
	free(c);
}
