/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the collector's files share; not a public header.
 *
 *   source.c    where bytes come from: files, fd, buffer, follow, plugin
 *   checkpoint.c where a followed log is resumed (and the output's size)
 *   stream.c    splits bytes into lines, tracks open events by their
 *               msg=audit() stamp, closes finished ones with an EOE line,
 *               feeds auparse
 *   report.c    counters, the file and line read, skipped input
 *   assemble.c  auparse event -> struct hm_event
 *   canon.c     path joining, normalisation, proc:/self, resolution with
 *               a directory cache
 *   socktab.c   socket type per (pid, fd)
 *   proctab.c   root per chrooted pid, file per writable (pid, fd)
 *   decode.c    hex, numbers, quoted values, sockaddr
 *   arena.c     per-batch memory
 *   memo.c      records decoded before, not parsed again
 *   trace.c     the tracing source: a command under ptrace and seccomp
 *   trace_calls.c  the calls it stops for, and the filter
 *   trace_read.c   what a call shows at its stop (names, argv)
 *   trace_event.c  a finished call -> struct hm_event (via canon.c)
 *   collector.c the public API; the only file that calls the others
 *
 * Each part is handed what it needs when it is built (the report, the
 * options, auparse) and calls only downwards: collector.c -> source,
 * stream, checkpoint, assemble, trace -> canon, socktab, decode, event,
 * arena; trace -> trace_calls, trace_read, trace_event -> canon;
 * every part -> report.  None calls back into collector.c.
 */
#ifndef HISTMAC_COLLECTOR_INTERNAL_H
#define HISTMAC_COLLECTOR_INTERNAL_H

#include <stddef.h>
#include <auparse.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "histmac/collector.h"
#include "histmac/sbuf.h"

/* ---- arena.c: bump allocator reset once every queued event is consumed */
struct hm_arena_chunk;

struct hm_arena {
	struct hm_arena_chunk *head;	/* current chunk */
	struct hm_arena_chunk *full;	/* chunks filled since the reset */
	size_t retained;		/* bytes kept over a reset */
};

void *hm_arena_alloc(struct hm_arena *a, size_t size);
char *hm_arena_strndup(struct hm_arena *a, const char *s, size_t len);
void hm_arena_reset(struct hm_arena *a);
void hm_arena_free(struct hm_arena *a);

/* ---- decode.c */
bool hm_parse_u64(const char *s, int base, uint64_t *out);
bool hm_parse_i64(const char *s, int64_t *out);
/*
 * hm_field_bytes() - decode an audit string value: "quoted" as is, (null)
 * as absent, otherwise hex.  Appends to @b (NUL-terminated, not counted).
 * Returns 1 decoded, 0 absent ((null) or empty), -EINVAL bad hex,
 * -E2BIG over @max bytes in @b, -ENOMEM.
 */
int hm_field_bytes(struct hm_sbuf *b, const char *v, size_t max);
/* hm_sockaddr_decode() - saddr= in the byte order of @arch (AUDIT_ARCH_*,
 * 0 unknown) into @sa: 0, -EINVAL (not a sockaddr), -ENOMEM (arena). */
int hm_sockaddr_decode(const char *hex, int arch, struct hm_ev_sockaddr *sa,
		       struct hm_arena *a);
/* hm_sockaddr_raw() - the same from @len raw bytes (the tracer's). */
int hm_sockaddr_raw(const unsigned char *raw, size_t len, int arch,
		    struct hm_ev_sockaddr *sa, struct hm_arena *a);

/* ---- canon.c */
struct hm_canon;

struct hm_canon *hm_canon_new(const char *resolve_root, bool resolve,
			      struct hm_collector_stats *st);
void hm_canon_free(struct hm_canon *c);
bool hm_canon_resolving(const struct hm_canon *c);

/*
 * Following a live log, a cached resolution is trusted for this many
 * names, then checked (a directory: one stat()); and none is trusted
 * after hm_canon_trail_changed().  A log of the past is resolved against
 * the files as they are now, which do not change with its records.
 */
#define HM_CANON_RECHECK	4096
/* The bounds: resolved directories and whole names (sets of two). */
#define HM_CANON_DIR_SLOTS	4096
#define HM_CANON_NAME_SLOTS	8192
void hm_canon_set_live(struct hm_canon *c, bool live);
/* The trail renamed, (un)linked a symlink, or (un)mounted something. */
void hm_canon_trail_changed(struct hm_canon *c);
bool hm_canon_acl_less(struct hm_canon *c, const struct hm_ev_path *p);

/* What canonicalising one name needs to know. */
struct hm_canon_req {
	const char *name;		/* as in the PATH record */
	size_t len;
	const char *cwd;		/* absolute, may be NULL */
	size_t cwd_len;
	int64_t pid;			/* for proc:/self */
	bool follow_last;		/* the last symlink is followed */
	bool program;			/* an exec's program: its last
					 * component is kept as passed */
	bool is_dir;			/* add a trailing '/' */
	const struct hm_ev_path *rec;	/* inode/dev to check, may be NULL */
};

/*
 * A symlink the trail created at @path (canonical) to @target, and its
 * removal: a name through it that no longer exists on disk resolves as
 * it did when the trail was written.
 */
void hm_canon_link_created(struct hm_canon *c, const char *path, size_t len,
			   const char *target, size_t target_len);
void hm_canon_link_removed(struct hm_canon *c, const char *path, size_t len);

/*
 * hm_canon_path() - join, normalise, resolve when asked, and apply the
 * proc:/self rule.  Result in @a; in @proof (enum hm_proof) how it
 * stands for @r->rec's object.  Returns 0, -E2BIG (too long) or -ENOMEM.
 */
int hm_canon_path(struct hm_canon *c, struct hm_arena *a,
		  const struct hm_canon_req *r, struct hm_bytes *out,
		  uint8_t *proof);

/*
 * hm_canon_magic() - is @name (as hm_canon_path() names it) a link of a
 * process in proc: its fd/N, cwd, root, exe or map_files/X, of self,
 * thread-self, a pid or one of its tasks?  Opening one opens whatever it
 * points to, which is no name: the object is named by its inode.
 */
bool hm_canon_magic(const char *name, size_t len);

/* ---- socktab.c */
struct hm_socktab;

/* The 64-bit key of a node= name (0 for none), shared with proctab.c. */
uint64_t hm_node_key(struct hm_bytes node);

struct hm_sock_info {
	int family;
	int type;
	int protocol;
	struct hm_ev_sockaddr bound;	/* from bind(), family 0 if none */
	uint8_t bound_unix[108];	/* storage for bound.unix_path */
};

struct hm_socktab *hm_socktab_new(size_t size);
void hm_socktab_free(struct hm_socktab *t);
struct hm_sock_info *hm_socktab_get(struct hm_socktab *t, struct hm_bytes node,
				    int64_t pid, int fd,
				    struct hm_collector_stats *st);
struct hm_sock_info *hm_socktab_put(struct hm_socktab *t, struct hm_bytes node,
				    int64_t pid, int fd,
				    struct hm_collector_stats *st);

/* ---- proctab.c: a string and a number per (node, pid, slot): the
 * roots of chrooted processes (slot -1), the files of writable
 * descriptors (slot fd) */
struct hm_proctab;

struct hm_proctab *hm_proctab_new(void);
void hm_proctab_free(struct hm_proctab *t);
/* 0 or -ENOMEM; replaces what the key had. */
int hm_proctab_put(struct hm_proctab *t, struct hm_bytes node, int64_t pid,
		   int fd, int64_t num, const char *s, size_t len);
/* The key's number (writable), its string in @s (borrowed until the table
 * changes); NULL: none. */
int64_t *hm_proctab_get(struct hm_proctab *t, struct hm_bytes node,
			int64_t pid, int fd, struct hm_bytes *s);
void hm_proctab_drop(struct hm_proctab *t, struct hm_bytes node, int64_t pid,
		     int fd);

/* ---- report.c: counters, the position read, skipped input */
struct hm_report {
	struct hm_collector_stats st;
	const char *file;		/* being read, for diagnostics */
	unsigned long line;		/* lines seen in this file */
	unsigned long stamped;		/* its lines with an audit stamp */
	bool file_ended;		/* its end was handled */
	bool verbose;
	struct hm_diag *diag;		/* may be NULL */
	uint64_t told;			/* skips counted, for memo.c */
};

/* hm_report_skip() - count a skip; with @verbose, FILE:LINE: message. */
void hm_report_skip(struct hm_report *r, enum hm_skip_reason why,
		    const char *fmt, ...) HM_PRINTF(3, 4);
/* hm_report_skip_event() - the same, about one event (no line number). */
void hm_report_skip_event(struct hm_report *r, enum hm_skip_reason why,
			  uint64_t serial, const char *fmt, ...)
	HM_PRINTF(4, 5);

/*
 * What stream.c puts in place of a value whose quotes do not pair; the
 * assembler counts it as a bad value where the event needs the field.
 */
#define HM_MALFORMED_VALUE	"%malformed%"
/* hm_report_warn() - FILE:LINE: message, verbose or not. */
void hm_report_warn(struct hm_report *r, const char *fmt, ...)
	HM_PRINTF(2, 3);

/* ---- stream.c: open events by stamp, EOE injection */
struct hm_stream;

/* @proctitle: PROCTITLE records are decoded (hm_record_use()). */
struct hm_stream *hm_stream_new(auparse_state_t *au, struct hm_report *rep,
				bool proctitle);
void hm_stream_free(struct hm_stream *s);
/*
 * Where, in whole events fed to auparse, an event starts that is older
 * (its stamp: auparse_timestamp_compare()) than the one before it:
 * offsets of the text.  auparse hands back first the oldest event it
 * holds, so an older event fed with the ones before it would come back
 * before them, and how a log is cut into reads would change the order of
 * its events.  Each piece is fed apart, auparse emptied in between
 * (hm_feed_pieces()): events come back in the order of their first
 * record, however the log was read.
 */
struct hm_cuts {
	size_t *at;
	size_t n, cap;
};

/*
 * hm_feed_pieces() - @text fed to @au through @feed (auparse_feed(), or a
 * private copy's) piece by piece at @cuts, each followed by an empty feed,
 * which makes auparse hand back the events it completed.
 * Returns 0 or -ENOMEM.
 */
int hm_feed_pieces(__typeof__(auparse_feed) *feed, auparse_state_t *au,
		   const struct hm_sbuf *text, const struct hm_cuts *cuts);

/*
 * Whole events as auparse would be fed them, in log order, with where
 * they are to be fed apart: the sink takes @out's bytes and @cuts (it may
 * swap the buffers) and leaves both empty.  Returns 0 or -errno.
 */
typedef int (*hm_stream_sink_fn)(void *user, struct hm_sbuf *out,
				 struct hm_cuts *cuts);
/* hm_stream_set_sink() - feed @fn instead of auparse (parallel.c). */
void hm_stream_set_sink(struct hm_stream *s, hm_stream_sink_fn fn,
			void *user);

/*
 * hm_stream_feed() - split @len bytes into lines and feed the complete
 * ones to auparse, closing finished events.  Keeps an incomplete last line
 * for the next call.  Returns 0 or -ENOMEM; callbacks from auparse run
 * inside.
 */
int hm_stream_feed(struct hm_stream *s, const char *p, size_t len);
/*
 * hm_stream_end_file() - end of one file: a partial last line is read when
 * the file was read @whole (-i, fd, buffer), else dropped and counted.
 * Returns 0 or -ENOMEM.
 */
int hm_stream_end_file(struct hm_stream *s, bool whole);
/* hm_stream_close_open() - close every open event (idle timeout). */
int hm_stream_close_open(struct hm_stream *s);
/* hm_stream_flush() - end of input: auparse_flush_feed(). */
void hm_stream_flush(struct hm_stream *s);
/* hm_stream_consumed() - bytes of whole lines of this file handled. */
uint64_t hm_stream_consumed(const struct hm_stream *s);
/*
 * hm_stream_quiet() - the latest line end of this file after which no
 * event was open (@off, bytes from where the file's reading began).
 * Returns a count that changes whenever that place moves.
 */
uint64_t hm_stream_quiet(const struct hm_stream *s, uint64_t *off);
/* hm_stream_open_count() - events auparse holds open. */
size_t hm_stream_open_count(const struct hm_stream *s);

/* ---- source.c: files, buffer, descriptor, plugin stdin, follow */
enum hm_src_mode {
	HM_SRC_FILES,
	HM_SRC_BUFFER,
	HM_SRC_FD,
	HM_SRC_FOLLOW,
	HM_SRC_PLUGIN,
};

#define HM_READ_CHUNK	(64u << 10)
#define HM_ROTATE_MAX	9

/* A place in a log: a file by device and inode, a byte offset. */
struct hm_place {
	bool valid;
	uint64_t dev;
	uint64_t ino;
	uint64_t off;
};

/* Bytes read, borrowed until the next read. */
struct hm_chunk {
	const char *p;
	size_t len;
};

/* What hm_source_read() got, besides 0 (end of input) and -errno. */
enum {
	HM_SRC_DATA = 1,	/* bytes in the chunk */
	HM_SRC_FILE_END = 2,	/* a file ended; the next read goes on */
};

struct hm_source;

int hm_source_new(struct hm_source **out, enum hm_src_mode mode,
		  struct hm_report *rep);
void hm_source_free(struct hm_source *s);
int hm_source_set_files(struct hm_source *s, const char *const *paths,
			size_t n);
void hm_source_set_buffer(struct hm_source *s, const char *buf, size_t len,
			  const char *name);
void hm_source_set_fd(struct hm_source *s, int fd, const char *name);
/* hm_source_follow() - follow @path from @from (may be NULL: its end, or
 * its beginning with @from_start). */
int hm_source_follow(struct hm_source *s, const char *path,
		     const struct hm_place *from, bool from_start,
		     struct hm_diag *diag);
/*
 * hm_source_read() - the next chunk: HM_SRC_DATA, HM_SRC_FILE_END, 0 at
 * the end of all input, -EAGAIN nothing now (follow, plugin), or -errno
 * (a file that cannot be read is passed over; call again).
 */
int hm_source_read(struct hm_source *s, struct hm_chunk *out);
bool hm_source_live(const struct hm_source *s);
/* hm_source_wait() - wait up to @ms for input; -EINTR on a signal. */
int hm_source_wait(struct hm_source *s, unsigned int ms);
/* hm_source_where() - the file read and the offset its reading began at. */
void hm_source_where(const struct hm_source *s, struct hm_place *out);

/* ---- checkpoint.c: where a followed log is resumed */
struct hm_ckpt;

int hm_ckpt_new(struct hm_ckpt **out, const char *path);
void hm_ckpt_free(struct hm_ckpt *k);
/* hm_ckpt_load() - read the file: @pl invalid when there is none. */
int hm_ckpt_load(struct hm_ckpt *k, struct hm_place *pl);
/* hm_ckpt_quiet() - no event is open before @pl. */
void hm_ckpt_quiet(struct hm_ckpt *k, const struct hm_place *pl);
/* hm_ckpt_handed() - @ev was handed out. */
void hm_ckpt_handed(struct hm_ckpt *k, const struct hm_event *ev);
/* hm_ckpt_drained() - every event assembled has been handed out. */
void hm_ckpt_drained(struct hm_ckpt *k);
/* hm_ckpt_seen() - was @ev handed out before the loaded checkpoint? */
bool hm_ckpt_seen(struct hm_ckpt *k, const struct hm_event *ev);
/* hm_ckpt_output() - @fd's size goes into each checkpoint; cut back now
 * to the loaded checkpoint's size.  0 or -errno. */
int hm_ckpt_output(struct hm_ckpt *k, int fd);
/* hm_ckpt_write() - 1 written, 0 nothing to say yet, -errno. */
int hm_ckpt_write(struct hm_ckpt *k, uint64_t now_ms);
/* hm_ckpt_due() - @interval_ms passed since the last write? */
bool hm_ckpt_due(const struct hm_ckpt *k, uint64_t now_ms,
		 unsigned int interval_ms);

/* Landlock's audit records (landlock.c), not named by libaudit */
#define HM_AUDIT_LANDLOCK_ACCESS	1423
#define HM_AUDIT_LANDLOCK_DOMAIN	1424

/* ---- parallel.c: events parsed and decoded on worker threads, finished
 * in log order */

/*
 * The libauparse calls the collector makes, from one copy of the library:
 * the one the program is linked with (hm_aup_linked), or a worker's
 * private one (parallel.c).
 */
struct hm_aup {
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
	__typeof__(auparse_get_field_name) *get_field_name;
	__typeof__(auparse_get_field_str) *get_field_str;
	void (*ctype_init)(void);	/* its libc's __ctype_init() */
};

extern const struct hm_aup hm_aup_linked;

/* Does assemble.c read this record's text (histmac's decisions, Landlock)?
 * (assemble.c) */
bool hm_record_text_read(int type);

/*
 * What assemble.c reads of a record of a type (hm_record_use()): its
 * fields, its text, its fields only to see whether stream.c marked one
 * HM_MALFORMED_VALUE (PROCTITLE, when its title is not asked for), or
 * nothing but its type and stamp.  The stream hands auparse only the
 * stamp of a record whose content is not read (HM_REC_TYPE; and
 * HM_REC_CHECKED without a '%'): the same events come out, with less to
 * parse.
 */
enum hm_rec_use {
	HM_REC_FIELDS,
	HM_REC_TEXT,
	HM_REC_CHECKED,
	HM_REC_TYPE,
};

enum hm_rec_use hm_record_use(int type, bool proctitle);

/*
 * The event assemble.c reads: auparse's current one, through the copy of
 * the library that parsed it (the program's own on one thread, a
 * worker's private one on several).
 */
struct hm_evread {
	auparse_state_t *au;
	const struct hm_aup *api;
};

static inline int hm_er_type(const struct hm_evread *x)
{
	return x->api->get_type(x->au);
}

static inline const char *hm_er_text(const struct hm_evread *x)
{
	return x->api->get_record_text(x->au);
}

static inline bool hm_er_first_field(struct hm_evread *x)
{
	return x->api->first_field(x->au) != 0;
}

static inline bool hm_er_next_field(struct hm_evread *x)
{
	return x->api->next_field(x->au) > 0;
}

static inline const char *hm_er_name(const struct hm_evread *x)
{
	return x->api->get_field_name(x->au);
}

static inline const char *hm_er_value(const struct hm_evread *x)
{
	return x->api->get_field_str(x->au);
}

static inline bool hm_er_next_record(struct hm_evread *x)
{
	return x->api->next_record(x->au) > 0;
}

static inline unsigned int hm_er_num_records(const struct hm_evread *x)
{
	return x->api->get_num_records(x->au);
}

/* A PATH record as decoded, before its name is canonicalised. */
struct hm_dec_item {
	int item;
	bool has_name;
	const char *name;	/* raw bytes in the event's arena */
	size_t len;
	struct hm_ev_path rec;
};

/*
 * One event decoded on a worker (hm_assemble_decode()), to be finished in the
 * log's order (hm_assemble_finish()): its fields, its PATH items
 * [item, item + nitems) of the batch's, and the end of its messages in
 * the batch's diagnostics.
 */
struct hm_decoded {
	struct hm_event ev;
	int rc;				/* hm_assemble_decode()'s */
	int err;			/* -ENOMEM while decoding */
	uint32_t item, nitems;
	size_t msgs;
	bool has_openat2;		/* OPENAT2's, for the arguments */
	uint32_t openat2_flags;
	uint32_t openat2_mode;
};

/* ---- memo.c: SYSCALL, PATH and CWD records decoded before, not parsed
 * again */

/*
 * What a SYSCALL record sets in a new event: struct hm_event from
 * has_syscall up to cwd, copied as one block (its strings comm, exe and
 * key, then in hm_memo_rec.s).
 */
#define HM_SC_FIRST	offsetof(struct hm_event, has_syscall)
#define HM_SC_END	offsetof(struct hm_event, cwd)

/* What decoding one record gave. */
struct hm_memo_rec {
	int type;			/* AUDIT_SYSCALL, _PATH or _CWD */
	bool cwd_seen;			/* CWD: it had a cwd= */
	struct hm_bytes s[3];		/* its strings: PATH's name, CWD's
					 * cwd, SYSCALL's comm, exe, key */
	union {				/* (memo.c keeps only its type's) */
		struct hm_dec_item item;	/* PATH (its name in s[0]) */
		unsigned char sc[HM_SC_END - HM_SC_FIRST];	/* SYSCALL */
	} u;
};

/* A line hm_memo_cut() took out: it goes back before fed record @line. */
struct hm_memo_ref {
	uint64_t line;			/* of the batch's lines fed */
	uint64_t serial;		/* its event's, checked */
	struct hm_memo_rec rec;		/* strings in the batch's arena */
};

/* A line fed to auparse that memo.c looked up: its hash, and its length
 * (the record's text is checked against it before the hash is used). */
struct hm_memo_fed {
	uint64_t hash;			/* 0: not looked up */
	size_t len;
};

/* The lines taken out of one batch, in order; the decoder's place. */
struct hm_memo_refs {
	struct hm_memo_ref *v;
	size_t n, cap;
	size_t next;			/* the next to splice */
	uint64_t fed;			/* records handed back so far */
	bool bad;			/* out of step: parse it again whole */
	struct hm_memo_fed *lines;	/* by line fed */
	size_t nlines, lines_cap;
};

struct hm_memo;

struct hm_memo *hm_memo_new(void);
void hm_memo_free(struct hm_memo *m);
/*
 * hm_memo_cut() - @len bytes of whole events into @out without the lines
 * @m knows, which go to @refs (their strings into @a).  0, 1 (nothing
 * cut: feed @in whole) or -ENOMEM.
 */
int hm_memo_cut(struct hm_memo *m, const char *in, size_t len,
		struct hm_sbuf *out, struct hm_memo_refs *refs,
		struct hm_arena *a);
/* hm_memo_put() - keep what a record of @type whose text (as auparse
 * gives it) is @text decoded to; @h: its hash if hm_memo_cut() had it
 * (hm_memo_fed_hash()), else 0.  0 or -ENOMEM. */
int hm_memo_put(struct hm_memo *m, int type, const char *text,
		const struct hm_memo_rec *r, uint64_t h);
/* hm_memo_fed_hash() - the hash of the record auparse handed back last
 * (@refs->fed of them so far) whose text is @text, or 0 (also when
 * @refs is NULL: a batch fed whole). */
uint64_t hm_memo_fed_hash(const struct hm_memo_refs *refs, const char *text);

/* A batch's events, decoded (hm_par_next()). */
struct hm_dec_batch {
	const struct hm_decoded *ev;
	size_t nev;
	const struct hm_dec_item *items;
	struct hm_diag *msgs;		/* what decoding told, in order */
	uint64_t records;		/* counted while decoding */
	uint64_t records_known;		/* of which memo.c had */
	uint64_t skipped[HM_SKIP_MAX];
};

struct hm_par;

/*
 * hm_par_new() - @n parsers, each with its own auparse, parsing and
 * decoding (hm_assemble_decode()) the batches of whole events the stream hands
 * hm_par_sink(): @n - 1 worker threads, and the caller's thread while it
 * waits in hm_par_next().  @file: the name of the file read, looked at
 * when a batch is cut.  @o: the collector's options (proctitle,
 * verbose).  Returns NULL on failure (no thread left running).
 */
struct hm_par *hm_par_new(unsigned int n, const char *const *file,
			  const struct hm_collector_opts *o);
void hm_par_free(struct hm_par *p);
/* The stream's sink (@user: the hm_par).  Never blocks; call only when
 * hm_par_room(). */
int hm_par_sink(void *user, struct hm_sbuf *out, struct hm_cuts *cuts);
/* May the reader cut more batches (the window in bytes and slots)? */
bool hm_par_room(const struct hm_par *p);
/* Batches cut and not yet released. */
bool hm_par_pending(const struct hm_par *p);
/*
 * hm_par_next() - the oldest batch, decoded (meanwhile the caller parses
 * batches no worker has taken, the oldest among them); its events in
 * @out, @file the file it came from.  The diagnostics the stream made
 * before cutting it are told to @diag (may be NULL) now, first, as one
 * thread would have.  Returns 0 or the batch's -errno.  The batch, and
 * the memory of its events, stay until hm_par_release().
 */
int hm_par_next(struct hm_par *p, struct hm_dec_batch *out,
		const char **file, struct hm_diag *diag);
void hm_par_release(struct hm_par *p);
/* Where the stream's diagnostics go until the next batch is cut. */
struct hm_diag *hm_par_stage(struct hm_par *p);
/* The stream's diagnostics after the last batch, told to @to. */
void hm_par_unstage(struct hm_par *p, struct hm_diag *to);

/* ---- assemble.c */
struct hm_assembler;

struct hm_assembler *hm_assembler_new(struct hm_report *rep,
				      const struct hm_collector_opts *o,
				      bool resolve);
void hm_assembler_free(struct hm_assembler *as);
/* The log is followed as it is written (canon.c's caches recheck). */
void hm_assembler_set_live(struct hm_assembler *as, bool live);
/* Build one event from @x (its cursor on the first record) into @ev
 * (memory in @a): hm_assemble_decode() then hm_assemble_finish(). */
int hm_assemble(struct hm_assembler *as, struct hm_evread *x,
		struct hm_event *ev, struct hm_arena *a);
/*
 * hm_decoder_new() - an assembler that only decodes (a worker's): no
 * tables; it counts and tells into @rep.
 * hm_assemble_decode() - the part of assembling that depends on the event
 * alone: its records' fields, argv.  Returns 1 (finish it), 0 (no event:
 * no records, or only an EOE) or -ENOMEM.
 * hm_assemble_save() - what hm_assemble_finish() needs besides the event,
 * into @d; returns its PATH items (@d->nitems), valid until the next
 * hm_assemble_decode().
 * hm_assemble_finish() - the rest, in the log's order (sockets, paths,
 * roots, descriptors): @d decoded by another assembler (NULL: by @as just
 * now).  Returns 1 or -ENOMEM.
 */
struct hm_assembler *hm_decoder_new(struct hm_report *rep,
				    const struct hm_collector_opts *o);
/*
 * hm_decoder_memo() - a decoder's records decoded before (@m, filled as it
 * decodes) and the lines taken out of the batch being parsed (@refs),
 * spliced back as its records are walked.  NULL, NULL: none.
 */
void hm_decoder_memo(struct hm_assembler *as, struct hm_memo *m,
		     struct hm_memo_refs *refs);
int hm_assemble_decode(struct hm_assembler *as, struct hm_evread *x,
		       struct hm_event *ev, struct hm_arena *a);
const struct hm_dec_item *hm_assemble_save(const struct hm_assembler *as,
					   struct hm_decoded *d);
int hm_assemble_finish(struct hm_assembler *as, struct hm_event *ev,
		       struct hm_arena *a, const struct hm_decoded *d,
		       const struct hm_dec_item *items);

/* ---- landlock.c: Landlock's audit records (not named by libaudit;
 * their numbers are above, with the parallel part) */

/**
 * hm_landlock_record() - if auparse's current record (of @type) is a
 * Landlock one, add what it says to @ev: the blockers of an ACCESS record
 * (joined with ',' when the event has several) and the Landlock domain id.
 * @a: where the strings go (the event's arena).
 * Returns: true when the record was Landlock's (the caller skips it).
 */
bool hm_landlock_record(const struct hm_evread *x, int type,
			struct hm_event *ev, struct hm_arena *a);

/* ---- event.c: syscall tables */
struct hm_syscall_info {
	const char *name;
	enum hm_event_kind kind;
};

const struct hm_syscall_info *hm_syscall_lookup(int arch, int nr);

/* ---- assemble.c: what an event's arguments mean, for audit and tracer */
struct hm_socktab;

/* openat2()'s struct open_how, as far as an event needs it. */
struct hm_open_how {
	uint32_t flags;
	uint32_t mode;
};

/*
 * hm_event_arguments() - from @ev's kind, syscall_name and a[]: the open
 * flags and mode (@how for openat2, NULL when unknown), modes, devices,
 * owners, unlinkat(AT_REMOVEDIR) as rmdir, the signal and its target.
 */
void hm_event_arguments(struct hm_event *ev, const struct hm_open_how *how);
/*
 * hm_event_network() - a network call's socket: socket() remembers its
 * family, type and protocol per (pid, fd) in @socks, later calls on the
 * fd read them, bind() its address (for listen), accept() the new fd.
 * @direct: the arguments are the call's (not socketcall's pointer).
 */
void hm_event_network(struct hm_socktab *socks, struct hm_collector_stats *st,
		      struct hm_event *ev, bool direct);
/* hm_event_umask() - a create's mode as TOMOYO checks it (the umask the
 * created inode shows, on a file system without POSIX ACLs). */
void hm_event_umask(struct hm_canon *canon, struct hm_event *ev);

/* ---- trace_calls.c, trace_read.c, trace_event.c, trace.c: the tracer */

/* How a traced call's arguments are laid out: argument indexes, -1 none. */
struct hm_tcall {
	const char *name;
	int8_t dfd, path;		/* the object's name (and its dirfd) */
	int8_t dfd2, path2;		/* the second: rename, link's new */
	int8_t target;			/* symlink: the target string */
	int8_t fd;			/* an object named by a descriptor */
	int8_t argv;			/* exec: the argument vector */
	int8_t flags;			/* open flags, or *at() flags */
	int8_t how;			/* openat2: struct open_how */
	int8_t addr, addrlen;		/* a sockaddr the call is given */
	int8_t peer, peerlen;		/* one it fills in (accept, recvfrom),
					 * its length behind a pointer */
};

/* hm_tcall_find() - the layout of the call @name; NULL: not traced. */
const struct hm_tcall *hm_tcall_find(const char *name);

/*
 * hm_tcall_filter() - the seccomp program that stops (SECCOMP_RET_TRACE)
 * only the calls of the table, of this machine's ABIs, and calls of any
 * other ABI (counted, not learned); the rest run untouched.
 * @out: filled; free out->filter with free().
 * Returns: 0, -ENOMEM, or -ENOSYS (libaudit knows no call of this arch).
 */
struct sock_fprog;
int hm_tcall_filter(struct sock_fprog *out);

/* Is @arch (AUDIT_ARCH_*) one whose calls the tracer reads? */
bool hm_tcall_arch_known(unsigned int arch);

/*
 * What a call showed at its seccomp stop, kept until its exit: the names
 * as the program passed them, the directory each is relative to, the
 * exec's arguments.  Buffers are reused call after call.
 */
struct hm_tentry {
	bool on;			/* a call is between its stops */
	int arch;
	int nr;
	const struct hm_syscall_info *si;
	const struct hm_tcall *tc;
	uint64_t a[6];
	struct hm_sbuf name[2];		/* as passed; len 0: none */
	struct hm_sbuf base[2];		/* the cwd, or the dirfd's dir */
	struct hm_sbuf probe[2];	/* where the tracer reaches it:
					 * /proc/TID/{root,cwd,fd/N}/NAME */
	bool cut[2];			/* longer than HM_COLLECTOR_MAX_PATH */
	struct stat before[2];		/* lstat (stat: exec) at entry */
	bool existed[2];
	struct hm_sbuf target;		/* symlink */
	struct hm_sbuf argv;		/* exec: NUL-separated words */
	uint32_t argc;
	bool argv_cut;
	bool has_how;
	struct hm_open_how how;
	unsigned char sa[128];		/* a sockaddr, given or filled in */
	size_t sa_len;			/* 0: none */
};

/*
 * hm_tentry_read() - read what @e->tc's arguments point to in thread
 * @tid (stopped at its seccomp stop).  A name that cannot be read is
 * left empty (the call will fail on it the same way).
 * Returns: 0 or -ENOMEM.
 */
int hm_tentry_read(struct hm_tentry *e, pid_t tid);
/* hm_tentry_peer() - at the exit of a call that filled in a sockaddr
 * (accept, recvfrom), read it into @e->sa. */
void hm_tentry_peer(struct hm_tentry *e, pid_t tid);
void hm_tentry_free(struct hm_tentry *e);

/* What the tracer knows of one process (thread group). */
struct hm_tproc {
	struct hm_sbuf exe;		/* /proc/PID/exe */
	uint32_t auid, ses;
};

/* hm_tproc_read() - @p from /proc/@tgid (at start and after an exec). */
int hm_tproc_read(struct hm_tproc *p, pid_t tgid);

/*
 * hm_trace_event() - the event of the call @e of thread @tid, finished
 * with @rval (a negative errno when @failed), built into @ev with
 * everything it points to in @x->a; names by the kernel where it has one
 * (docs/PATHS.md), through @x->canon; sockets known by @x->socks.  An
 * exec that succeeded is made at PTRACE_EVENT_EXEC, with @rval 0 and
 * @p read anew.
 * Returns: 1 an event, 0 none (a call that is not one: prctl other than
 * PR_SET_MM), -ESRCH (the thread is gone), -ENOMEM.
 */
struct hm_trace_ctx {
	struct hm_canon *canon;
	struct hm_socktab *socks;	/* socket types per (pid, fd) */
	struct hm_collector_stats *st;
	struct hm_arena *a;
};

int hm_trace_event(const struct hm_trace_ctx *x, const struct hm_tentry *e,
		   const struct hm_tproc *p, pid_t tid, int64_t rval,
		   bool failed, struct hm_event *ev);

/*
 * hm_trace_fork_event() - parent @tid made process @child (a fork, a
 * vfork, a clone of a new thread group), as audit's clone record says.
 * Returns: 1, -ESRCH or -ENOMEM.
 */
int hm_trace_fork_event(struct hm_arena *a, const struct hm_tproc *p,
			pid_t tid, pid_t child, struct hm_event *ev);

struct hm_tracer;

/*
 * hm_tracer_new() - run @argv (argv[0] searched in PATH) under ptrace
 * with the filter of hm_tcall_filter(), every descendant too.
 * Returns: 0, -EPERM (ptrace refused), or another negative errno.
 */
int hm_tracer_new(char *const argv[], const struct hm_collector_opts *o,
		  struct hm_report *rep, struct hm_tracer **out);
/* hm_tracer_next() - the next event (1), 0 when every traced task has
 * ended, or a negative errno. */
int hm_tracer_next(struct hm_tracer *t, struct hm_arena *a,
		   const struct hm_event **out);
/* The command's wait status (-1 while it runs); its pid; the errno of
 * its exec when that failed (0 else). */
int hm_tracer_status(const struct hm_tracer *t);
pid_t hm_tracer_pid(const struct hm_tracer *t);
int hm_tracer_exec_errno(const struct hm_tracer *t);
void hm_tracer_free(struct hm_tracer *t);

#endif /* HISTMAC_COLLECTOR_INTERNAL_H */
