// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parallel.c - libauparse on several threads, for log files read whole.
 *
 * The stream (stream.c) already cuts the log into whole events, in the
 * order of their first record, interleaved or not.  Each time it would
 * feed auparse, its bytes become one batch here instead; N-1 worker
 * threads take batches in order, each parses its batch with its own
 * auparse instance and decodes every event straight from auparse's
 * cursor (hm_assemble_decode(): the fields, numbers, strings and argv,
 * what depends on the event alone) into the batch's memory.  The
 * collector takes the batches back in the order they were cut and
 * finishes their events on its own thread (hm_assemble_finish()), so
 * everything that depends on the order of events (process table, roots,
 * sockets, the trail's symlinks, the learner) runs as with one thread,
 * and so does the output.  What decoding counts and tells (skips) goes
 * into the batch and is added, message by message, before the event it
 * came with is finished, where one thread would have told it.
 *
 * The collector's thread is the Nth parser: while the oldest batch is
 * still being parsed, it parses the next batch no worker has taken
 * (hm_par_next()) instead of waiting.  So N threads share N cores without
 * a third thread taking turns with them: with a worker per core beside
 * it, the collector's thread, the one every event waits for, got two
 * thirds of a core (bench/RESULTS.md).
 *
 * Memory: batches are cut only while fewer than HM_PAR_WINDOW bytes of
 * input are in flight and a slot is free (hm_par_room()), so at most
 * HM_PAR_WINDOW plus one read's worth (the stream's own bound, 64 MiB,
 * for one huge release of interleaved events) of input, and its decoded
 * events, are held at once, whatever the number of threads.  A batch's
 * events are handed out pointing into its memory, so it is released
 * when the collector's queue has been drained (hm_par_release()).
 *
 * Thread safety: libauparse 3.0.9 is not safe on several threads even
 * with one instance each.  Its statics are shared by every instance: the
 * interpretation list, and the pointer of audit_strsplit(), which
 * extract_timestamp() uses on every record, so two threads reading
 * stamps at once cut each other's lines (seen: a record now and then
 * lost from a 1 GB log).  Each worker therefore calls a copy of the
 * library of its own, loaded with dlmopen(LM_ID_NEWLM) (its statics, its
 * libaudit); the collector's thread uses the one the program is linked
 * with, which nothing else calls meanwhile.  When a copy cannot be loaded
 * (glibc allows few namespaces) fewer workers run.  Each worker decodes
 * with an assembler of its own (hm_decoder_new(): scratch buffers and a
 * report, no tables); what decoding calls besides is read-only (libaudit's
 * type names), and the syscall table, which fills a cache as it is read,
 * is left to the finish.  The stream's type cache and everything else
 * the collector owns are touched by its own thread only.
 *
 * Owns: the workers, their auparse instances and decoders, the batches.
 * Next: the collector's queue (collector.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define HM_PAR_WINDOW	(1u << 20)	/* bytes of input in flight */
#define SLOTS		16		/* batches in flight; a power of 2 */
#define KEEP_MAX	(1u << 20)	/* a batch's buffers kept over reuse */

struct batch {
	struct hm_sbuf in;		/* whole events, as auparse is fed */
	struct hm_cuts cuts;		/* where they are fed apart */
	const char *file;		/* the file they came from */
	struct hm_diag staged;		/* the stream's, before they were cut */
	/* filled by a worker: */
	struct hm_decoded *ev;		/* the events, decoded */
	size_t nev, evcap;
	struct hm_dec_item *items;	/* their PATH items */
	size_t nitems, itemcap;
	struct hm_arena arena;		/* their strings */
	struct hm_diag msgs;		/* what decoding them told */
	uint64_t records;
	uint64_t records_known;		/* spliced back (memo.c) */
	uint64_t skipped[HM_SKIP_MAX];
	int err;
	bool done;
};

/* One parser: a worker thread, or (w[0]) the collector's own thread. */
struct worker {
	struct hm_par *p;
	pthread_t tid;
	struct hm_aup api;
	auparse_state_t *au;
	struct hm_assembler *dec;	/* hm_assemble_decode() only */
	struct hm_report rep;		/* the decoder's: into the batch */
	struct hm_memo *memo;		/* records it decoded before */
	struct hm_memo_refs refs;	/* lines cut from the batch */
	struct hm_sbuf cut;		/* the batch without them */
	struct batch *cur;
	bool started;
};

struct hm_par {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a batch was cut, or stop */
	pthread_cond_t done;		/* a batch was parsed */
	struct batch b[SLOTS];
	uint64_t cut, taken, next;	/* seqs: cut, given to a worker,
					 * next to hand back */
	size_t bytes;			/* input of batches cut, not released */
	bool stop;
	unsigned int n;			/* parsers: w[0] the caller, then
					 * the worker threads */
	struct worker *w;
	struct hm_diag stage;		/* the stream's until the next cut */
	const char *const *file;	/* the name being read, live */
};

static struct batch *slot(struct hm_par *p, uint64_t seq)
{
	return &p->b[seq & (SLOTS - 1)];
}

/* auparse's current event, decoded into the batch. */
static int decode_event(struct worker *w, struct batch *b,
			auparse_state_t *au)
{
	struct hm_evread x = { .au = au, .api = &w->api };
	const struct hm_dec_item *items;
	struct hm_decoded *d;
	int rc;

	if (HM_ARRAY_GROW(&b->ev, &b->evcap, b->nev + 1))
		return -ENOMEM;
	d = &b->ev[b->nev];
	rc = hm_assemble_decode(w->dec, &x, &d->ev, &b->arena);
	if (rc <= 0)
		return rc;	/* no event: what it told goes with the next */
	d->rc = rc;
	items = hm_assemble_save(w->dec, d);
	d->item = (uint32_t)b->nitems;
	if (d->nitems) {
		if (HM_ARRAY_GROW(&b->items, &b->itemcap,
				  b->nitems + d->nitems))
			return -ENOMEM;
		memcpy(b->items + b->nitems, items,
		       d->nitems * sizeof(*items));
		b->nitems += d->nitems;
	}
	d->msgs = b->msgs.n_msgs;
	b->nev++;
	return 0;
}

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *user)
{
	struct worker *w = user;
	struct batch *b = w->cur;

	if (type == AUPARSE_CB_EVENT_READY && !b->err &&
	    decode_event(w, b, au) < 0)
		b->err = -ENOMEM;
}

/* What a batch's parse counts starts at nothing (again when it is parsed
 * again whole). */
static void count_afresh(struct worker *w)
{
	w->rep.st.records = 0;
	memset(w->rep.st.skipped, 0, sizeof(w->rep.st.skipped));
}

/* Forget what decoding @b gave, to decode it again. */
static void unparse(struct batch *b)
{
	b->nev = b->nitems = 0;
	hm_arena_reset(&b->arena);
	hm_diag_free(&b->msgs);
	b->msgs = (struct hm_diag){ .max_kept = SIZE_MAX };
	b->err = 0;
	b->records_known = 0;
}

/*
 * @b piece by piece (struct hm_cuts), each without the lines the memo
 * knows (memo.c), the decoder putting back what they gave.  Returns
 * whether every piece came back in step; if not (or the memo refused
 * one), what it decoded is to be forgotten.
 */
static bool parse_known(struct worker *w, struct batch *b)
{
	static const struct hm_cuts whole;
	size_t from = 0;

	for (size_t i = 0; i <= b->cuts.n; i++) {
		size_t to = i < b->cuts.n ? b->cuts.at[i] : b->in.len;

		if (hm_memo_cut(w->memo, b->in.s + from, to - from, &w->cut,
				&w->refs, &b->arena))
			return false;
		hm_decoder_memo(w->dec, w->memo, &w->refs);
		if (hm_feed_pieces(w->api.feed, w->au, &w->cut, &whole) < 0)
			b->err = -ENOMEM;
		hm_decoder_memo(w->dec, w->memo, NULL);
		b->records_known += w->refs.n;
		if (w->refs.bad || w->refs.next != w->refs.n)
			return false;
		from = to;
	}
	return true;
}

/*
 * One batch: whole events in, so nothing stays open in auparse after.
 * The decoder tells into the batch, counts and messages, for the
 * collector's thread to add where one thread would have told them.
 * Without the lines its memo knows; should they not all go back in step,
 * the batch is parsed again whole.
 */
static void parse(struct worker *w, struct batch *b)
{
	w->cur = b;
	w->rep.file = b->file;
	w->rep.diag = &b->msgs;
	count_afresh(w);
	b->records_known = 0;
	if (!w->memo || !parse_known(w, b)) {
		unparse(b);
		count_afresh(w);
		if (hm_feed_pieces(w->api.feed, w->au, &b->in, &b->cuts) < 0)
			b->err = -ENOMEM;
	}
	b->records = w->rep.st.records;
	memcpy(b->skipped, w->rep.st.skipped, sizeof(b->skipped));
	w->rep.diag = NULL;
	w->cur = NULL;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct hm_par *p = w->p;

	/*
	 * The private copy's libc sets up a thread's ctype tables (isdigit,
	 * tolower...) only in threads it made itself: this one it did not.
	 */
	if (w->api.ctype_init)
		w->api.ctype_init();

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct batch *b;

		while (!p->stop && p->taken == p->cut)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->stop)
			break;
		b = slot(p, p->taken++);
		pthread_mutex_unlock(&p->lock);
		parse(w, b);
		pthread_mutex_lock(&p->lock);
		b->done = true;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The program's own libauparse. */
const struct hm_aup hm_aup_linked = {
	.init = auparse_init, .destroy = auparse_destroy,
	.add_callback = auparse_add_callback, .feed = auparse_feed,
	.get_timestamp = auparse_get_timestamp,
	.get_num_records = auparse_get_num_records,
	.next_record = auparse_next_record,
	.get_type = auparse_get_type,
	.get_record_text = auparse_get_record_text,
	.first_field = auparse_first_field,
	.next_field = auparse_next_field,
	.get_field_name = auparse_get_field_name,
	.get_field_str = auparse_get_field_str,
};

#define AUP_SYM(A, name) \
	(*(void **)&(A)->name = dlsym((A)->dl, "auparse_" #name))

/* A private copy of the library the program is linked with: 0 or -1. */
static int aup_private(struct hm_aup *A)
{
	Dl_info info;

	if (!dladdr((void *)auparse_init, &info) || !info.dli_fname)
		return -1;
	A->dl = dlmopen(LM_ID_NEWLM, info.dli_fname, RTLD_NOW | RTLD_LOCAL);
	if (!A->dl)
		return -1;
	if (!AUP_SYM(A, init) || !AUP_SYM(A, destroy) ||
	    !AUP_SYM(A, add_callback) || !AUP_SYM(A, feed) ||
	    !AUP_SYM(A, get_timestamp) || !AUP_SYM(A, get_num_records) ||
	    !AUP_SYM(A, next_record) || !AUP_SYM(A, get_type) ||
	    !AUP_SYM(A, get_record_text) || !AUP_SYM(A, first_field) ||
	    !AUP_SYM(A, next_field) ||
	    !AUP_SYM(A, get_field_name) ||
	    !AUP_SYM(A, get_field_str) ||
	    !(*(void **)&A->ctype_init = dlsym(A->dl, "__ctype_init"))) {
		dlclose(A->dl);
		A->dl = NULL;
		return -1;
	}
	return 0;
}

/*
 * Does the collector's thread parse with the program's copy?  Test builds
 * (HISTMAC_TEST_HOOKS) can give it a private one too, so that a test of a
 * one-batch log runs a private copy every time (tests/golden/t_threads.sh).
 */
#ifndef HM_TEST_HOOKS
static bool linked_first(void)
{
	return true;
}
#else
static bool linked_first(void)
{
	return !getenv("HISTMAC_TEST_PRIVATE_AUPARSE");
}
#endif

/* Parser @i's library, instance and decoder (0: the caller's): 0, or -1
 * (no more parsers: the library could not be loaded again). */
static int worker_init(struct hm_par *p, unsigned int i,
		       const struct hm_collector_opts *o)
{
	struct worker *w = &p->w[i];

	w->p = p;
	w->rep.verbose = o->verbose;
	w->dec = hm_decoder_new(&w->rep, o);
	w->memo = hm_memo_new();
	if (!w->dec || !w->memo) {
		hm_assembler_free(w->dec);
		hm_memo_free(w->memo);
		return -1;
	}
	if (i == 0 && linked_first())
		w->api = hm_aup_linked;
	else if (aup_private(&w->api) < 0)
		goto fail;
	w->au = w->api.init(AUSOURCE_FEED, NULL);
	if (!w->au) {
		if (w->api.dl)
			dlclose(w->api.dl);
		goto fail;
	}
	w->api.add_callback(w->au, on_event, w, NULL);
	return 0;
fail:
	hm_assembler_free(w->dec);
	hm_memo_free(w->memo);
	w->dec = NULL;
	w->memo = NULL;
	return -1;
}

struct hm_par *hm_par_new(unsigned int n, const char *const *file,
			  const struct hm_collector_opts *o)
{
	struct hm_par *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->file = file;
	p->stage.max_kept = SIZE_MAX;	/* each is told once, in order */
	p->w = calloc(n, sizeof(*p->w));
	if (!p->w || pthread_mutex_init(&p->lock, NULL)) {
		free(p->w);
		free(p);
		return NULL;
	}
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	for (size_t i = 0; i < SLOTS; i++) {
		p->b[i].staged.max_kept = SIZE_MAX;
		p->b[i].msgs.max_kept = SIZE_MAX;
	}
	/* every copy loaded here, before any worker runs */
	for (p->n = 0; p->n < n; p->n++)
		if (worker_init(p, p->n, o) < 0)
			break;
	if (!p->n) {
		hm_par_free(p);
		return NULL;
	}
	for (unsigned int i = 1; i < p->n; i++) {
		p->w[i].started = !pthread_create(&p->w[i].tid, NULL, work,
						  &p->w[i]);
		if (!p->w[i].started) {
			hm_par_free(p);
			return NULL;
		}
		pthread_setname_np(p->w[i].tid, "hm-parse");	/* top, perf */
	}
	return p;
}

static void batch_free(struct batch *b)
{
	hm_sbuf_free(&b->in);
	free(b->cuts.at);
	hm_diag_free(&b->staged);
	hm_diag_free(&b->msgs);
	free(b->ev);
	free(b->items);
	hm_arena_free(&b->arena);
}

void hm_par_free(struct hm_par *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned int i = 0; i < p->n; i++) {
		if (p->w[i].started)
			pthread_join(p->w[i].tid, NULL);
	}
	for (unsigned int i = 0; i < p->n; i++) {
		p->w[i].api.destroy(p->w[i].au);
		if (p->w[i].api.dl)
			dlclose(p->w[i].api.dl);
		hm_assembler_free(p->w[i].dec);
		hm_memo_free(p->w[i].memo);
		free(p->w[i].refs.v);
		free(p->w[i].refs.lines);
		hm_sbuf_free(&p->w[i].cut);
	}
	for (size_t i = 0; i < SLOTS; i++)
		batch_free(&p->b[i]);
	hm_diag_free(&p->stage);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p->w);
	free(p);
}

bool hm_par_room(const struct hm_par *p)
{
	/* a read may cut two batches (a file's last line, then its end) */
	return p->cut - p->next + 2 <= SLOTS && p->bytes < HM_PAR_WINDOW;
}

bool hm_par_pending(const struct hm_par *p)
{
	return p->next != p->cut;
}

struct hm_diag *hm_par_stage(struct hm_par *p)
{
	return &p->stage;
}

/* Move @from's messages after @to's, as if told to @to in the first place. */
static void diag_move(struct hm_diag *to, struct hm_diag *from)
{
	for (size_t i = 0; i < from->n_msgs; i++) {
		const struct hm_diag_msg *m = &from->msgs[i];

		if (to)
			hm_diag_add(to, m->level, m->file, m->line, "%s",
				    m->text);
	}
	hm_diag_free(from);
	*from = (struct hm_diag){ .max_kept = SIZE_MAX };
}

int hm_par_sink(void *user, struct hm_sbuf *out, struct hm_cuts *cuts)
{
	struct hm_par *p = user;
	struct batch *b = slot(p, p->cut);
	struct hm_sbuf t;
	struct hm_cuts c;

	/* the slot is free (hm_par_room()); its buffers are reused */
	t = b->in;
	b->in = *out;
	*out = t;
	hm_sbuf_reset(out);
	c = b->cuts;
	b->cuts = *cuts;
	*cuts = c;
	cuts->n = 0;
	b->file = p->file ? *p->file : NULL;
	b->nev = b->nitems = 0;
	hm_arena_reset(&b->arena);
	b->err = 0;
	b->done = false;
	diag_move(&b->staged, &p->stage);
	pthread_mutex_lock(&p->lock);
	p->bytes += b->in.len;
	p->cut++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

int hm_par_next(struct hm_par *p, struct hm_dec_batch *out,
		const char **file, struct hm_diag *diag)
{
	struct batch *b = slot(p, p->next);

	pthread_mutex_lock(&p->lock);
	while (!b->done) {
		struct batch *o;

		if (p->taken == p->cut) {
			pthread_cond_wait(&p->done, &p->lock);
			continue;
		}
		/* a batch no worker took yet (maybe this one): parse it here
		 * rather than wait; only this thread waits on done */
		o = slot(p, p->taken++);
		pthread_mutex_unlock(&p->lock);
		parse(&p->w[0], o);
		pthread_mutex_lock(&p->lock);
		o->done = true;
	}
	pthread_mutex_unlock(&p->lock);
	diag_move(diag, &b->staged);
	out->ev = b->ev;
	out->nev = b->nev;
	out->items = b->items;
	out->msgs = &b->msgs;
	out->records = b->records;
	out->records_known = b->records_known;
	memcpy(out->skipped, b->skipped, sizeof(out->skipped));
	*file = b->file;
	return b->err;
}

void hm_par_release(struct hm_par *p)
{
	struct batch *b = slot(p, p->next);

	hm_heap_huge();		/* what the events just finished grew */
	pthread_mutex_lock(&p->lock);
	p->bytes -= b->in.len;
	p->next++;
	pthread_mutex_unlock(&p->lock);
	hm_diag_free(&b->msgs);
	b->msgs = (struct hm_diag){ .max_kept = SIZE_MAX };
	/* one huge release of interleaved events is not kept for ever */
	if (b->in.len > KEEP_MAX || b->nitems * sizeof(*b->items) > KEEP_MAX ||
	    b->nev * sizeof(*b->ev) > KEEP_MAX) {
		batch_free(b);
		*b = (struct batch){
			.staged = { .max_kept = SIZE_MAX },
			.msgs = { .max_kept = SIZE_MAX },
		};
	}
}

/* The stream's diagnostics after the last batch, told to @to. */
void hm_par_unstage(struct hm_par *p, struct hm_diag *to)
{
	diag_move(to, &p->stage);
}
