// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * collector.c - the public collector API (include/histmac/collector.h).
 *
 * next() hands out events from a queue; when the queue is empty it resets
 * the arena, asks the source for one chunk, and the chunk goes through
 * the stream into auparse, whose callback assembles completed events into
 * the queue (assemble.c).  After each chunk it asks the stream for the
 * latest quiet place and tells the checkpoint.  Follow and plugin mode
 * wait here, watching the caller's stop and reload flags, closing events
 * left open when input stops, and writing checkpoints.
 *
 * Reading files, the stream hands its whole events to the parsers instead
 * (parallel.c: opts.threads - 1 worker threads and this one) and next()
 * assembles the parsed batches in the order they were cut: the same
 * events, in the same order, with the same diagnostics.  On one thread
 * too: a parser does not parse again the records it has decoded before
 * (memo.c), which a file read whole pays for.  A source read as it comes
 * (follow, plugin) is fed to auparse straight, for its latency.
 *
 * Owns: the parts (source, stream, auparse, assembler, checkpoint,
 * report, workers), the queue, the arena.  The only file that calls the others;
 * none calls back.  Next: the caller (histmac events, the learner).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define IDLE_CLOSE_MS	2000	/* auditd's end_of_event_timeout */
#define WAIT_SLICE_MS	100

struct hm_collector {
	struct hm_collector_opts o;
	struct hm_report rep;
	struct hm_source *src;
	auparse_state_t *au;
	struct hm_stream *stream;
	struct hm_assembler *as;
	struct hm_ckpt *ckpt;		/* follow with a checkpoint, else NULL */
	struct hm_par *par;		/* files on several threads, else NULL */
	struct hm_tracer *tr;		/* a traced command, else NULL: the
					 * only part of such a collector */
	bool held;			/* its oldest batch holds the queue's
					 * memory: released once drained */
	int read_err;			/* told once the batches before it are */
	struct hm_arena arena;
	uint64_t quiet_gen;		/* the stream's, last looked at */

	/* events assembled, not yet handed out */
	struct hm_event *q;
	size_t qn, qhead, qcap;
	int err;			/* from a callback, returned by next() */
	bool ended;			/* no more input; queue may hold some */
	bool done;			/* flushed: queue is all that is left */
	bool said_end;			/* next() returned 0 once */
	bool whole;			/* files, fd, buffer: read to the end */
	uint64_t idle_since_ms;		/* follow/plugin: when data stopped */
};

void hm_collector_opts_init(struct hm_collector_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->resolve = -1;
	o->checkpoint_interval_ms = 5000;
}

const struct hm_collector_stats *hm_collector_stats(const struct hm_collector *c)
{
	return &c->rep.st;
}

/* No event is open before @off of the file read now. */
static void quiet_at(struct hm_collector *c, uint64_t off)
{
	struct hm_place pl;

	if (!c->ckpt)
		return;
	hm_source_where(c->src, &pl);
	pl.off += off;
	hm_ckpt_quiet(c->ckpt, &pl);
}

/* After a feed: did the stream pass a quiet place? */
static void note_quiet(struct hm_collector *c)
{
	uint64_t off;
	uint64_t gen = hm_stream_quiet(c->stream, &off);

	if (gen != c->quiet_gen) {
		c->quiet_gen = gen;
		quiet_at(c, off);
	}
}

/* @ev into the queue, as hm_assemble() or hm_assemble_finish() left it
 * (@rc). */
static void queue(struct hm_collector *c, struct hm_event *ev, int rc)
{
	if (rc < 0) {
		c->err = rc;
		return;
	}
	if (rc == 0)
		return;
	if (c->ckpt && hm_ckpt_seen(c->ckpt, ev)) {
		hm_report_skip_event(&c->rep, HM_SKIP_DUPLICATE, ev->serial,
				     "handed out before the checkpoint");
		return;
	}
	c->qn++;
}

/* auparse's current event into the queue (one thread). */
static void assemble_one(struct hm_collector *c, struct hm_evread *x)
{
	if (HM_ARRAY_GROW(&c->q, &c->qcap, c->qn + 1)) {
		c->err = -ENOMEM;
		return;
	}
	queue(c, &c->q[c->qn], hm_assemble(c->as, x, &c->q[c->qn],
					   &c->arena));
}

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *user)
{
	struct hm_collector *c = user;
	struct hm_evread x = { .au = au, .api = &hm_aup_linked };

	if (type == AUPARSE_CB_EVENT_READY && !c->err)
		assemble_one(c, &x);
}

/*
 * Several threads (files only): the stream cuts batches of whole events
 * for the workers (parallel.c) and the stream's own diagnostics wait
 * with them, to be told in the order one thread tells them.
 */
static int start_threads(struct hm_collector *c)
{
	c->par = hm_par_new(c->o.threads ? c->o.threads : 1, &c->rep.file,
			    &c->o);
	if (!c->par)
		return -ENOMEM;
	hm_stream_set_sink(c->stream, hm_par_sink, c->par);
	if (c->o.diag)
		c->rep.diag = hm_par_stage(c->par);
	return 0;
}

/*
 * Files in batches (start_threads()).  Test builds (HISTMAC_TEST_HOOKS)
 * can feed them to auparse straight instead, as a followed log is, so
 * that tests/golden/t_threads.sh compares both ways on every log.
 */
#ifndef HM_TEST_HOOKS
static bool in_batches(enum hm_src_mode mode)
{
	return mode == HM_SRC_FILES;
}
#else
static bool in_batches(enum hm_src_mode mode)
{
	return mode == HM_SRC_FILES && !getenv("HISTMAC_TEST_STRAIGHT");
}
#endif

/* One path rule for every source (pathrule.h): resolving, unless told. */
static bool resolve_default(const struct hm_collector_opts *o)
{
	return o->resolve_root || o->resolve != 0;
}

/* A collector with its options and report, and no parts yet. */
static struct hm_collector *collector_alloc(const struct hm_collector_opts *o)
{
	struct hm_collector *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (o)
		c->o = *o;
	else
		hm_collector_opts_init(&c->o);
	c->rep.verbose = c->o.verbose;
	c->rep.diag = c->o.diag;
	return c;
}

static int collector_new(struct hm_collector **out, enum hm_src_mode mode,
			 const struct hm_collector_opts *o)
{
	struct hm_collector *c = collector_alloc(o);

	if (!c)
		return -ENOMEM;
	c->au = auparse_init(AUSOURCE_FEED, NULL);
	c->stream = c->au ? hm_stream_new(c->au, &c->rep, c->o.proctitle) : NULL;
	c->as = hm_assembler_new(&c->rep, &c->o, resolve_default(&c->o));
	c->whole = mode == HM_SRC_FILES || mode == HM_SRC_FD ||
		   mode == HM_SRC_BUFFER;
	if (hm_source_new(&c->src, mode, &c->rep) < 0 || !c->au ||
	    !c->stream || !c->as ||
	    (in_batches(mode) && start_threads(c))) {
		hm_collector_free(c);
		return -ENOMEM;
	}
	hm_assembler_set_live(c->as, !c->whole);
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
	rc = hm_source_set_files(c->src, paths, n);
	if (rc < 0) {
		hm_collector_free(c);
		return rc;
	}
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
	hm_source_set_buffer(c->src, buf, len, name);
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
	hm_source_set_fd(c->src, fd, name);
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
	hm_source_set_fd(c->src, STDIN_FILENO, "(plugin)");
	*out = c;
	return 0;
}

/* Follow from the checkpoint's place, or from the end of the log. */
static int start_follow(struct hm_collector *c, const char *path)
{
	struct hm_place from = { 0 };
	int rc;

	if (c->o.checkpoint) {
		rc = hm_ckpt_new(&c->ckpt, c->o.checkpoint);
		if (rc == 0)
			rc = hm_ckpt_load(c->ckpt, &from);
		if (rc < 0)
			return rc;
	}
	rc = hm_source_follow(c->src, path, &from, c->o.from_start,
			      c->o.diag);
	if (rc < 0)
		return rc;
	quiet_at(c, 0);
	return 0;
}

int hm_collector_open_follow(struct hm_collector **out, const char *path,
			     const struct hm_collector_opts *o)
{
	struct hm_collector *c;
	int rc = collector_new(&c, HM_SRC_FOLLOW, o);

	if (rc < 0)
		return rc;
	rc = start_follow(c, path);
	if (rc < 0) {
		hm_collector_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int hm_collector_open_trace(struct hm_collector **out, char *const argv[],
			    const struct hm_collector_opts *o)
{
	struct hm_collector *c;
	int rc;

	if (!argv || !argv[0])
		return -EINVAL;
	c = collector_alloc(o);
	if (!c)
		return -ENOMEM;
	rc = hm_tracer_new(argv, &c->o, &c->rep, &c->tr);
	if (rc) {
		free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int hm_collector_trace_status(const struct hm_collector *c, int *exec_err)
{
	*exec_err = c->tr ? hm_tracer_exec_errno(c->tr) : 0;
	return c->tr ? hm_tracer_status(c->tr) : -1;
}

pid_t hm_collector_trace_pid(const struct hm_collector *c)
{
	return c->tr ? hm_tracer_pid(c->tr) : 0;
}

int hm_collector_set_output(struct hm_collector *c, int fd)
{
	return c->ckpt ? hm_ckpt_output(c->ckpt, fd) : 0;
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
	int rc;

	c->ended = true;
	c->done = true;
	if (c->ckpt)
		return;
	rc = hm_stream_end_file(c->stream, c->whole);
	if (rc < 0 && !c->err)
		c->err = rc;
	hm_stream_flush(c->stream);
	quiet_at(c, off);
}

static int write_checkpoint(struct hm_collector *c)
{
	int rc = hm_ckpt_write(c->ckpt, hm_now_ms());

	if (rc > 0)
		c->rep.st.checkpoints++;
	return rc < 0 ? rc : 0;
}

int hm_collector_checkpoint(struct hm_collector *c)
{
	return c->ckpt ? write_checkpoint(c) : 0;
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
		rc = hm_stream_close_open(c->stream);
		if (rc < 0)
			return rc;
		quiet_at(c, hm_stream_consumed(c->stream));
		return 0;
	}
	if (c->ckpt && hm_ckpt_due(c->ckpt, now, c->o.checkpoint_interval_ms))
		write_checkpoint(c);
	if (deadline && now >= deadline)
		return -EAGAIN;
	return hm_source_wait(c->src, WAIT_SLICE_MS);
}

/* One chunk from the source into the stream: >0 go on, 0 none, -errno. */
static int read_more(struct hm_collector *c)
{
	struct hm_chunk ch;
	int rc = hm_source_read(c->src, &ch);

	if (rc == HM_SRC_FILE_END) {
		rc = hm_stream_end_file(c->stream, c->whole);
		return rc < 0 ? rc : 1;
	}
	if (rc != HM_SRC_DATA)
		return rc;
	c->idle_since_ms = 0;
	rc = hm_stream_feed(c->stream, ch.p, ch.len);
	note_quiet(c);
	return rc < 0 ? rc : 1;
}

/* Several threads: tell @b's messages from *@msg up to @end. */
static void tell_msgs(struct hm_collector *c, const struct hm_dec_batch *b,
		      size_t end, size_t *msg)
{
	for (; *msg < end; (*msg)++) {
		const struct hm_diag_msg *m = &b->msgs->msgs[*msg];

		if (c->rep.diag)
			hm_diag_add(c->rep.diag, m->level, m->file, m->line,
				    "%s", m->text);
	}
}

/*
 * Several threads: one event a worker decoded, finished into the queue
 * after what decoding it told (@b's messages up to its own).
 */
static void finish_one(struct hm_collector *c, const struct hm_dec_batch *b,
		       const struct hm_decoded *d, size_t *msg)
{
	struct hm_event *ev;

	tell_msgs(c, b, d->msgs, msg);
	if (HM_ARRAY_GROW(&c->q, &c->qcap, c->qn + 1)) {
		c->err = -ENOMEM;
		return;
	}
	ev = &c->q[c->qn];
	*ev = d->ev;
	/* a batch without a PATH item has no items array */
	queue(c, ev, hm_assemble_finish(c->as, ev, &c->arena, d,
					d->nitems ? b->items + d->item : NULL));
}

/*
 * Several threads: finish the oldest batch's events, in order, as one
 * thread would have assembled the events of one feed, with the file and
 * the diagnostics of when it was cut.  The events keep pointing into the
 * batch: it is released when the queue has been drained.
 */
static int take_batch(struct hm_collector *c)
{
	struct hm_diag *stage = c->rep.diag;
	const char *file = c->rep.file;
	struct hm_dec_batch b;
	size_t msg = 0;
	int rc = hm_par_next(c->par, &b, &c->rep.file, c->o.diag);

	c->held = true;
	c->rep.diag = c->o.diag;
	if (rc == 0) {
		c->rep.st.records += b.records;
		c->rep.st.records_known += b.records_known;
		for (size_t i = 0; i < HM_SKIP_MAX; i++)
			c->rep.st.skipped[i] += b.skipped[i];
	}
	for (size_t i = 0; rc == 0 && i < b.nev && !c->err; i++)
		finish_one(c, &b, &b.ev[i], &msg);
	if (rc == 0)	/* what the batch's last events told, without one */
		tell_msgs(c, &b, b.msgs->n_msgs, &msg);
	c->rep.diag = stage;
	c->rep.file = file;
	return rc < 0 ? rc : 1;
}

/*
 * Several threads: read ahead while the window has room, else take the
 * oldest batch.  >0 go on, 0 all input assembled, -errno.  A file that
 * cannot be read is told after the events before it, as one thread would.
 */
static int par_more(struct hm_collector *c)
{
	int rc;

	if (!c->ended && !c->read_err && hm_par_room(c->par)) {
		rc = read_more(c);
		if (rc == 0)
			finish(c);
		else if (rc < 0)
			c->read_err = rc;
		return 1;
	}
	if (hm_par_pending(c->par))
		return take_batch(c);
	if (c->read_err) {
		rc = c->read_err;
		c->read_err = 0;
		return rc;
	}
	hm_par_unstage(c->par, c->o.diag);
	return 0;
}

/* The queue is empty and there is no more: 0, after the last checkpoint. */
static int end(struct hm_collector *c)
{
	/* a caller that saves its own output first writes it itself */
	if (c->ckpt && c->o.checkpoint_interval_ms && !c->said_end)
		write_checkpoint(c);
	c->said_end = true;
	return 0;
}

int hm_collector_next(struct hm_collector *c, const struct hm_event **out)
{
	bool live;
	uint64_t deadline = 0;
	int rc;

	if (c->tr) {	/* one event at a time: the last one is consumed */
		hm_arena_reset(&c->arena);
		return hm_tracer_next(c->tr, &c->arena, out);
	}
	live = hm_source_live(c->src);
	if (c->o.timeout_ms && live)
		deadline = hm_now_ms() + c->o.timeout_ms;
	for (;;) {
		if (c->qhead < c->qn) {
			*out = &c->q[c->qhead++];
			c->rep.st.events++;
			if (c->ckpt)
				hm_ckpt_handed(c->ckpt, *out);
			return 1;
		}
		if (c->err) {
			rc = c->err;
			c->err = 0;
			return rc;
		}
		if (c->ckpt)
			hm_ckpt_drained(c->ckpt);
		c->qhead = c->qn = 0;
		hm_arena_reset(&c->arena);
		if (c->held) {
			hm_par_release(c->par);
			c->held = false;
		}
		if (c->done && !c->par)
			return end(c);
		if (c->o.stop && *c->o.stop && live) {
			finish(c);
			continue;
		}
		if (c->o.reload && *c->o.reload) {
			*c->o.reload = 0;
			return -EINTR;
		}
		if (c->par) {
			rc = par_more(c);
			if (rc > 0)
				continue;
			return rc < 0 ? rc : end(c);
		}
		rc = read_more(c);
		if (rc > 0)
			continue;
		if (rc < 0 && rc != -EAGAIN)
			return rc;
		if (rc == 0) {
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
	hm_tracer_free(c->tr);
	hm_par_free(c->par);
	hm_source_free(c->src);
	hm_stream_free(c->stream);
	if (c->au)
		auparse_destroy(c->au);
	hm_assembler_free(c->as);
	hm_ckpt_free(c->ckpt);
	hm_arena_free(&c->arena);
	free(c->q);
	free(c);
}
