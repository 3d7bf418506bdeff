/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the collector's files share; not a public header.
 *
 *   source.c    where bytes come from: files, fd, buffer, follow, plugin;
 *               checkpoints
 *   stream.c    splits bytes into lines, tracks open events by their
 *               msg=audit() stamp, closes finished ones with an EOE line,
 *               feeds auparse
 *   assemble.c  auparse event -> struct hm_event
 *   canon.c     path joining, normalisation, proc:/self, resolution with
 *               a directory cache
 *   socktab.c   socket type per (pid, fd)
 *   decode.c    hex, numbers, quoted values, sockaddr
 *   arena.c     per-batch memory
 *   collector.c the public API
 */
#ifndef HISTMAC_COLLECTOR_INTERNAL_H
#define HISTMAC_COLLECTOR_INTERNAL_H

#include <auparse.h>
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
bool hm_sockaddr_decode(const char *hex, struct hm_ev_sockaddr *sa,
			struct hm_arena *a);

/* ---- canon.c */
struct hm_canon;

struct hm_canon *hm_canon_new(const char *resolve_root, bool resolve,
			      struct hm_collector_stats *st);
void hm_canon_free(struct hm_canon *c);
bool hm_canon_resolving(const struct hm_canon *c);

/* What canonicalising one name needs to know. */
struct hm_canon_req {
	const char *name;		/* as in the PATH record */
	size_t len;
	const char *cwd;		/* absolute, may be NULL */
	size_t cwd_len;
	int64_t pid;			/* for proc:/self */
	bool follow_last;		/* the last symlink is followed */
	bool lexical_only;		/* never resolve (exec program name) */
	bool is_dir;			/* add a trailing '/' */
	const struct hm_ev_path *rec;	/* inode/dev to check, may be NULL */
};

/*
 * hm_canon_path() - join, normalise, resolve when asked, and apply the
 * proc:/self rule.  Result in @a.  Returns 0, -E2BIG (too long) or -ENOMEM.
 */
int hm_canon_path(struct hm_canon *c, struct hm_arena *a,
		  const struct hm_canon_req *r, struct hm_bytes *out);

/* ---- socktab.c */
struct hm_socktab;

struct hm_sock_info {
	int family;
	int type;
	int protocol;
	struct hm_ev_sockaddr bound;	/* from bind(), family 0 if none */
	uint8_t bound_unix[108];	/* storage for bound.unix_path */
};

struct hm_socktab *hm_socktab_new(size_t size);
void hm_socktab_free(struct hm_socktab *t);
struct hm_sock_info *hm_socktab_get(struct hm_socktab *t, int64_t pid, int fd,
				    struct hm_collector_stats *st);
struct hm_sock_info *hm_socktab_put(struct hm_socktab *t, int64_t pid, int fd,
				    struct hm_collector_stats *st);

/* ---- stream.c: open events by stamp, EOE injection */
struct hm_stream;

struct hm_stream *hm_stream_new(auparse_state_t *au);
void hm_stream_free(struct hm_stream *s);

/* Where the current bytes come from, for diagnostics. */
struct hm_stream_pos {
	const char *file;
	unsigned long line;		/* lines seen in this file */
};

/*
 * hm_stream_feed() - split @len bytes into lines and feed the complete
 * ones to auparse, closing finished events.  Keeps an incomplete last line
 * for the next call.  Returns 0 or -ENOMEM; callbacks from auparse run
 * inside.
 */
int hm_stream_feed(struct hm_stream *s, const char *p, size_t len,
		   struct hm_collector *c);
/* hm_stream_end_file() - end of one file: drop (and count) a partial line. */
void hm_stream_end_file(struct hm_stream *s, struct hm_collector *c);
/* hm_stream_close_open() - close every open event (idle timeout). */
int hm_stream_close_open(struct hm_stream *s, struct hm_collector *c);
/* hm_stream_flush() - end of input: auparse_flush_feed(). */
void hm_stream_flush(struct hm_stream *s, struct hm_collector *c);
/* hm_stream_consumed() - bytes of whole lines of this file handled. */
uint64_t hm_stream_consumed(const struct hm_stream *s);
/* hm_stream_open_count() - events auparse holds open. */
size_t hm_stream_open_count(const struct hm_stream *s);

/* ---- collector.c and source.c */
enum hm_src_mode {
	HM_SRC_FILES,
	HM_SRC_BUFFER,
	HM_SRC_FD,
	HM_SRC_FOLLOW,
	HM_SRC_PLUGIN,
};

#define HM_READ_CHUNK	(64u << 10)
#define HM_ROTATE_MAX	9

/* msg=audit(SEC.MSEC:SERIAL): what names an event in a checkpoint. */
struct hm_stamp {
	int64_t sec;
	uint32_t msec;
	uint64_t serial;
};

/* Where a checkpoint says to resume: a file, an offset, serials to skip. */
struct hm_place {
	bool valid;
	uint64_t dev;
	uint64_t ino;
	uint64_t off;
};

struct hm_collector {
	struct hm_collector_opts o;
	enum hm_src_mode mode;
	auparse_state_t *au;
	struct hm_stream *stream;
	struct hm_assembler *as;
	struct hm_arena arena;
	struct hm_collector_stats st;
	struct hm_stream_pos pos;

	/* events assembled, not yet handed out */
	struct hm_event *q;
	size_t qn, qhead, qcap;
	int err;			/* from a callback, returned by next() */
	bool ended;			/* no more input; queue may hold some */
	bool done;			/* flushed: queue is all that is left */

	/* the source */
	char **paths;			/* files mode, follow (path) */
	size_t npaths, cur;
	const char *buf;		/* buffer mode */
	size_t buflen, bufoff;
	int fd;				/* current file, -1 none */
	bool own_fd;
	uint64_t cur_dev, cur_ino;
	uint64_t file_base;		/* offset where reading this file began */
	int rot;			/* follow: index of the file read (0 live) */
	char *cur_name;			/* follow: name of the file read */
	char *rbuf;
	uint64_t idle_since_ms;		/* follow/plugin: when data stopped */

	/*
	 * Checkpoint: at each moment the queue is empty, @place is the last
	 * place with no event open and @since the serials handed out that
	 * may lie after it; @batch collects serials handed out since.
	 */
	struct hm_place quiet;		/* latest place with no event open */
	uint64_t quiet_gen, place_gen;
	struct hm_place place;
	struct hm_serials {
		struct hm_stamp *v;
		size_t n, cap;
		bool overflow;
	} since, batch;
	struct hm_stamp *skip;		/* from the loaded checkpoint */
	size_t nskip;
	uint64_t last_ckpt_ms;
};

/* source.c */
int hm_src_open_follow(struct hm_collector *c, const char *path);
int hm_src_read(struct hm_collector *c);	/* >0 fed, 0 none now / end */
bool hm_src_live(const struct hm_collector *c);
int hm_src_wait(struct hm_collector *c, unsigned int ms);
int hm_src_checkpoint_write(struct hm_collector *c);
void hm_src_close(struct hm_collector *c);
uint64_t hm_now_ms(void);

/* ---- collector.c: shared by the parts above */
void hm_collector_skip(struct hm_collector *c, enum hm_skip_reason why,
		       const char *fmt, ...) HM_PRINTF(3, 4);
/* hm_collector_skip_event() - the same, about one event (no line number). */
void hm_collector_skip_event(struct hm_collector *c, enum hm_skip_reason why,
			     uint64_t serial, const char *fmt, ...)
	HM_PRINTF(4, 5);
struct hm_collector_stats *hm_collector_stats_rw(struct hm_collector *c);
struct hm_stream_pos *hm_collector_pos_rw(struct hm_collector *c);
/*
 * hm_collector_quiet() - every event whose records lie before byte @off of
 * the current file is closed: a safe place for a checkpoint.
 */
void hm_collector_quiet(struct hm_collector *c, uint64_t off);

/* ---- assemble.c */
struct hm_assembler;

struct hm_assembler *hm_assembler_new(struct hm_collector *c,
				      const struct hm_collector_opts *o,
				      bool resolve);
void hm_assembler_free(struct hm_assembler *as);
/* Build one event from auparse's current event into @ev (memory in @a). */
int hm_assemble(struct hm_assembler *as, auparse_state_t *au,
		struct hm_event *ev, struct hm_arena *a);

/* ---- event.c: syscall tables */
struct hm_syscall_info {
	const char *name;
	enum hm_event_kind kind;
};

const struct hm_syscall_info *hm_syscall_lookup(int arch, int nr);

#endif /* HISTMAC_COLLECTOR_INTERNAL_H */
