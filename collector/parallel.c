// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parallel.c - libauparse on several threads, for log files read whole.
 *
 * The stream (stream.c) already cuts the log into whole events, in the
 * order of their first record, interleaved or not.  Each time it would
 * feed auparse, its bytes become one batch here instead; N-1 worker
 * threads take batches in order, each parses its batch with its own
 * auparse instance and copies every event out of it (struct hm_flat:
 * records, their types, fields and the few texts assemble.c reads).  The
 * collector takes the batches back in the order they were cut and
 * assembles their events on its own thread, so everything that depends
 * on the order of events (process table, roots, sockets, the trail's
 * symlinks, the learner) runs as with one thread, and so does the output.
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
 * for one huge release of interleaved events) of input, and its parsed
 * copy, are held at once, whatever the number of threads.
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
 * (glibc allows few namespaces) fewer workers run.  The stream's type
 * cache and everything else the collector owns are touched by its own
 * thread only.
 *
 * Owns: the workers, their auparse instances, the batches.  Next: the
 * collector's queue (collector.c).
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
#define NO_STR		UINTPTR_MAX	/* a NULL string, as an offset */

struct batch {
	struct hm_sbuf in;		/* whole events, as auparse is fed */
	const char *file;		/* the file they came from */
	struct hm_diag staged;		/* the stream's, before they were cut */
	struct hm_flat f;		/* filled by a worker */
	size_t evcap, reccap, fldcap;
	struct hm_sbuf strs;		/* the parsed copy's strings, packed;
					 * offsets until the batch is done */
	int err;
	bool done;
};

/* The libauparse calls a worker makes, from its own copy of the library. */
struct aup {
	void *dl;			/* NULL: the program's own copy */
	__typeof__(auparse_init) *init;
	__typeof__(auparse_destroy) *destroy;
	__typeof__(auparse_add_callback) *add_callback;
	__typeof__(auparse_feed) *feed;
	__typeof__(auparse_get_timestamp) *get_timestamp;
	__typeof__(auparse_get_num_records) *get_num_records;
	__typeof__(auparse_next_record) *next_record;
	__typeof__(auparse_get_type) *get_type;
	__typeof__(auparse_get_record_text) *get_record_text;
	__typeof__(auparse_first_field) *first_field;
	__typeof__(auparse_next_field) *next_field;
	__typeof__(auparse_get_num_fields) *get_num_fields;
	__typeof__(auparse_get_field_name) *get_field_name;
	__typeof__(auparse_get_field_str) *get_field_str;
	void (*ctype_init)(void);	/* its libc's __ctype_init() */
};

/* One parser: a worker thread, or (w[0]) the collector's own thread. */
struct worker {
	struct hm_par *p;
	pthread_t tid;
	struct aup api;
	auparse_state_t *au;
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

/*
 * A copy of @s in the batch's strings, its offset in *@out for now (the
 * buffer may move while the batch is parsed): see resolve().
 */
static int keep(struct batch *b, const char *s, const char **out)
{
	size_t off = b->strs.len;

	*out = (const char *)NO_STR;
	if (!s)
		return 0;
	if (hm_sbuf_add(&b->strs, s, strlen(s) + 1) < 0)
		return -ENOMEM;
	*out = (const char *)off;
	return 0;
}

static void resolve_one(const struct batch *b, const char **p)
{
	uintptr_t off = (uintptr_t)*p;

	*p = off == NO_STR ? NULL : b->strs.s + off;
}

/* The batch is parsed: its strings stay where they are, offsets become
 * pointers. */
static void resolve(struct batch *b)
{
	for (size_t i = 0; i < b->f.nev; i++)
		resolve_one(b, &b->f.ev[i].host);
	for (size_t i = 0; i < b->f.nrec; i++)
		resolve_one(b, &b->f.rec[i].text);
	for (size_t i = 0; i < b->f.nfld; i++) {
		resolve_one(b, &b->f.fld[i].name);
		resolve_one(b, &b->f.fld[i].value);
	}
}

/* keep() of @x and @y (either may be NULL), side by side. */
static int keep2(struct batch *b, const char *x, const char *y,
		 const char **ox, const char **oy)
{
	size_t nx = x ? strlen(x) + 1 : 0, ny = y ? strlen(y) + 1 : 0;
	size_t off = b->strs.len;
	char *d;

	if (hm_sbuf_reserve(&b->strs, nx + ny) < 0)
		return -ENOMEM;
	d = b->strs.s + off;
	if (nx)
		memcpy(d, x, nx);
	if (ny)
		memcpy(d + nx, y, ny);
	b->strs.len += nx + ny;
	*ox = x ? (const char *)off : (const char *)NO_STR;
	*oy = y ? (const char *)(off + nx) : (const char *)NO_STR;
	return 0;
}

/*
 * The record's fields, name and value each: the hottest loop of a
 * worker, so the arrays grow once per record and each field is one
 * reservation.
 */
static int copy_fields(struct batch *b, const struct aup *A,
		       auparse_state_t *au, struct hm_flat_rec *r)
{
	unsigned int n = A->get_num_fields(au);

	if (!A->first_field(au))
		return 0;
	if (HM_ARRAY_GROW(&b->f.fld, &b->fldcap, b->f.nfld + n + 1))
		return -ENOMEM;
	do {
		struct hm_flat_field *fl;

		/* never more than auparse counted; checked all the same */
		if (b->f.nfld == b->fldcap &&
		    HM_ARRAY_GROW(&b->f.fld, &b->fldcap, b->f.nfld + 1))
			return -ENOMEM;
		fl = &b->f.fld[b->f.nfld++];
		r->nfield++;
		if (keep2(b, A->get_field_name(au), A->get_field_str(au),
			  &fl->name, &fl->value) < 0)
			return -ENOMEM;
	} while (A->next_field(au) > 0);
	return 0;
}

static int copy_record(struct batch *b, const struct aup *A,
		       auparse_state_t *au)
{
	struct hm_flat_rec *r;

	if (HM_ARRAY_GROW(&b->f.rec, &b->reccap, b->f.nrec + 1))
		return -ENOMEM;
	r = &b->f.rec[b->f.nrec++];
	memset(r, 0, sizeof(*r));
	r->type = A->get_type(au);
	r->field = (uint32_t)b->f.nfld;
	r->text = (const char *)NO_STR;
	if (hm_record_text_read(r->type) &&
	    keep(b, A->get_record_text(au), &r->text) < 0)
		return -ENOMEM;
	return copy_fields(b, A, au, r);
}

/* auparse's current event, copied as assemble.c will read it. */
static int copy_event(struct batch *b, const struct aup *A,
		      auparse_state_t *au)
{
	const au_event_t *ts = A->get_timestamp(au);
	struct hm_flat_ev *e;
	size_t i;

	if (HM_ARRAY_GROW(&b->f.ev, &b->evcap, b->f.nev + 1))
		return -ENOMEM;
	i = b->f.nev++;
	e = &b->f.ev[i];
	memset(e, 0, sizeof(*e));
	e->host = (const char *)NO_STR;
	if (ts) {
		e->sec = ts->sec;
		e->msec = ts->milli;
		e->serial = ts->serial;
		if (keep(b, ts->host, &e->host) < 0)
			return -ENOMEM;
	}
	e->rec = (uint32_t)b->f.nrec;
	if (!A->get_num_records(au))
		return 0;
	do {
		if (copy_record(b, A, au) < 0)
			return -ENOMEM;
		b->f.ev[i].nrec++;	/* the array may have moved */
	} while (A->next_record(au) > 0);
	return 0;
}

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *user)
{
	struct worker *w = user;
	struct batch *b = w->cur;

	if (type == AUPARSE_CB_EVENT_READY && !b->err &&
	    copy_event(b, &w->api, au) < 0)
		b->err = -ENOMEM;
}

/* One batch: whole events in, so nothing stays open in auparse after. */
static void parse(struct worker *w, struct batch *b)
{
	w->cur = b;
	if (w->api.feed(w->au, b->in.s, b->in.len) < 0 ||
	    w->api.feed(w->au, "", 0) < 0)
		b->err = -ENOMEM;
	w->cur = NULL;
	resolve(b);
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
static void aup_linked(struct aup *A)
{
	*A = (struct aup){
		.init = auparse_init, .destroy = auparse_destroy,
		.add_callback = auparse_add_callback, .feed = auparse_feed,
		.get_timestamp = auparse_get_timestamp,
		.get_num_records = auparse_get_num_records,
		.next_record = auparse_next_record,
		.get_type = auparse_get_type,
		.get_record_text = auparse_get_record_text,
		.first_field = auparse_first_field,
		.next_field = auparse_next_field,
		.get_num_fields = auparse_get_num_fields,
		.get_field_name = auparse_get_field_name,
		.get_field_str = auparse_get_field_str,
	};
}

#define AUP_SYM(A, name) \
	(*(void **)&(A)->name = dlsym((A)->dl, "auparse_" #name))

/* A private copy of the library the program is linked with: 0 or -1. */
static int aup_private(struct aup *A)
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
	    !AUP_SYM(A, next_field) || !AUP_SYM(A, get_num_fields) ||
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

/* Parser @i's library and instance (0: the caller's): 0, or -1 (no more
 * parsers). */
static int worker_init(struct hm_par *p, unsigned int i)
{
	struct worker *w = &p->w[i];

	w->p = p;
	if (i == 0 && linked_first())
		aup_linked(&w->api);
	else if (aup_private(&w->api) < 0)
		return -1;
	w->au = w->api.init(AUSOURCE_FEED, NULL);
	if (!w->au) {
		if (w->api.dl)
			dlclose(w->api.dl);
		return -1;
	}
	w->api.add_callback(w->au, on_event, w, NULL);
	return 0;
}

struct hm_par *hm_par_new(unsigned int n, const char *const *file)
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
	for (size_t i = 0; i < SLOTS; i++)
		p->b[i].staged.max_kept = SIZE_MAX;
	/* every copy loaded here, before any worker runs */
	for (p->n = 0; p->n < n; p->n++)
		if (worker_init(p, p->n) < 0)
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
	hm_diag_free(&b->staged);
	free(b->f.ev);
	free(b->f.rec);
	free(b->f.fld);
	hm_sbuf_free(&b->strs);
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

int hm_par_sink(void *user, struct hm_sbuf *out)
{
	struct hm_par *p = user;
	struct batch *b = slot(p, p->cut);
	struct hm_sbuf t;

	/* the slot is free (hm_par_room()); its buffers are reused */
	t = b->in;
	b->in = *out;
	*out = t;
	hm_sbuf_reset(out);
	b->file = p->file ? *p->file : NULL;
	b->f.nev = b->f.nrec = b->f.nfld = 0;
	b->err = 0;
	b->done = false;
	hm_sbuf_reset(&b->strs);
	diag_move(&b->staged, &p->stage);
	pthread_mutex_lock(&p->lock);
	p->bytes += b->in.len;
	p->cut++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

int hm_par_next(struct hm_par *p, const struct hm_flat **f,
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
	*f = &b->f;
	*file = b->file;
	return b->err;
}

void hm_par_release(struct hm_par *p)
{
	struct batch *b = slot(p, p->next);

	pthread_mutex_lock(&p->lock);
	p->bytes -= b->in.len;
	p->next++;
	pthread_mutex_unlock(&p->lock);
	/* one huge release of interleaved events is not kept for ever */
	if (b->in.len > KEEP_MAX || b->strs.len > KEEP_MAX) {
		batch_free(b);
		memset(&b->f, 0, sizeof(b->f));
		b->evcap = b->reccap = b->fldcap = 0;
		b->staged = (struct hm_diag){ .max_kept = SIZE_MAX };
	}
}

/* The stream's diagnostics after the last batch, told to @to. */
void hm_par_unstage(struct hm_par *p, struct hm_diag *to)
{
	diag_move(to, &p->stage);
}
