/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * collector.h (collector) - read auditd output and hand out normalised
 * events.
 *
 * A collector is opened on one source: log files read in order (a rotated
 * set, "-" for stdin), a buffer, a descriptor, a log followed like
 * `tail -F` (with a checkpoint), or the stdin of an auditd plugin.  Every
 * record is parsed by libauparse (feed mode); the collector assembles each
 * audit event (one serial) into a struct hm_event and hands them out one at
 * a time with hm_collector_next(), in the order of their first record in
 * the log.
 *
 *	struct hm_collector_opts o;
 *	struct hm_collector *c;
 *	const struct hm_event *ev;
 *
 *	hm_collector_opts_init(&o);
 *	if (hm_collector_open_files(&c, paths, n, &o) < 0) ...
 *	while ((rc = hm_collector_next(c, &ev)) > 0)
 *		use(ev);		// borrowed until the next call
 *	hm_collector_free(c);
 *
 * Bad input never stops the collector: it is skipped, counted per reason
 * (struct hm_collector_stats) and, with opts.verbose, reported line by line
 * into opts.diag.
 */
#ifndef HISTMAC_COLLECTOR_H
#define HISTMAC_COLLECTOR_H

#include <signal.h>
#include <sys/types.h>

#include "event.h"

struct hm_collector;

/* Limits on what one event may hold; beyond them data is dropped and counted. */
#define HM_COLLECTOR_MAX_ARGV	  (1u << 20) /* decoded argv bytes        */
#define HM_COLLECTOR_MAX_ARGC	  65536	     /* argv entries              */
#define HM_COLLECTOR_MAX_PATH	  8192	     /* one path, raw bytes       */
#define HM_COLLECTOR_MAX_PATHS	  16	     /* PATH items kept per event */
#define HM_COLLECTOR_MAX_LINE	  (256u << 10) /* one record line         */
#define HM_COLLECTOR_MAX_RECORDS  4096	     /* records in one event      */

/* X(enum suffix, name): why input was skipped or cut. */
#define HM_SKIP_REASONS(X)						\
	X(NO_STAMP, "line-without-audit-stamp")				\
	X(GARBAGE, "line-with-nul-byte")				\
	X(LONG_LINE, "line-too-long")					\
	X(TRUNCATED, "truncated-last-line")				\
	X(UNKNOWN_RECORD, "unknown-record-type")			\
	X(MISSING_FIELD, "missing-field")				\
	X(BAD_VALUE, "bad-field-value")					\
	X(STRAY_QUOTE, "field-with-unpaired-quote")			\
	X(QUOTED_VALUE, "quoted-number-read")				\
	X(ARGV_CUT, "argv-truncated")					\
	X(PATH_CUT, "path-too-long")					\
	X(PATHS_CUT, "too-many-path-records")				\
	X(EVENT_SPLIT, "event-with-too-many-records")			\
	X(DUPLICATE, "event-before-checkpoint")				\
	X(EMPTY_EVENT, "event-without-records")

enum hm_skip_reason {
#define X(e, s) HM_SKIP_##e,
	HM_SKIP_REASONS(X)
#undef X
	HM_SKIP_MAX
};

extern const char *const hm_skip_names[HM_SKIP_MAX];

/* Counters; all monotonic from open. */
struct hm_collector_stats {
	uint64_t bytes;			/* bytes read from the source */
	uint64_t lines;			/* complete lines seen */
	uint64_t records;		/* records auparse handed back */
	uint64_t records_known;		/* of which a parser had decoded
					 * before: not parsed again (files;
					 * depends on the threads) */
	uint64_t events;		/* events delivered by next() */
	uint64_t eoe_injected;		/* EOE lines fed to auparse */
	uint64_t eoe_window;		/* of which for events left open */
	uint64_t files;			/* files opened (rotations included) */
	uint64_t skipped[HM_SKIP_MAX];	/* by enum hm_skip_reason */
	uint64_t dirfd_relative;	/* *at() names relative to a dirfd */
	uint64_t chrooted;		/* names inside a process's root */
	uint64_t resolved;		/* paths resolved through the fs */
	uint64_t resolve_mismatch;	/* resolved inode != record's */
	uint64_t resolve_overlay;	/* the record's inode, on the
					 * overlay resolved to */
	uint64_t resolve_unproven;	/* names not proven (HM_PROOF_NONE) */
	uint64_t magic_links;		/* opened through /proc's fd, cwd,
					 * root, exe, map_files links */
	uint64_t dircache_hits;		/* directories resolved from cache */
	uint64_t dircache_misses;
	uint64_t dircache_evictions;
	uint64_t dircache_rechecks;	/* live: cached directory stat()ed */
	uint64_t namecache_hits;	/* whole names resolved from cache */
	uint64_t namecache_misses;
	uint64_t namecache_evictions;
	uint64_t sock_hits;		/* socket type found for pid+fd */
	uint64_t sock_misses;
	uint64_t sock_evictions;
	uint64_t checkpoints;		/* checkpoint files written */
	uint64_t traced_other_abi;	/* traced: calls of an ABI the
					 * tracer does not read (x32) */
	uint64_t traced_unread;		/* traced: calls whose task could
					 * not be read (gone at its exit) */
};

/*
 * struct hm_collector_opts - how to open a collector; hm_collector_opts_init()
 * sets the defaults.  Pointers are borrowed until hm_collector_free().
 * @resolve: canonicalise object paths through the filesystem (symlinks,
 *	checked against the record's inode): -1 default (on, for every
 *	source: the path rule of pathrule.h), 0 off, 1 on.
 * @resolve_root: resolve against this directory instead of / (a mounted
 *	image of the host that wrote the log); implies resolve.  May be NULL.
 * @proctitle: decode PROCTITLE into hm_event.proctitle (off by default:
 *	the analyzer does not read it, and it costs ~3% of the rate).
 * @verbose: report every skipped line or field into @diag.
 * @diag: where messages go; may be NULL.
 * @checkpoint: follow mode: file holding inode + offset + serials, read at
 *	open and written atomically (periodically, on stop, and by
 *	hm_collector_checkpoint()).  May be NULL.
 * @checkpoint_interval_ms: follow mode: write the checkpoint at most this
 *	often while running, and at the end (default 5000).  0: only when
 *	the caller calls hm_collector_checkpoint(), after it has saved what
 *	it made of the events (the learner saves its policy first).
 * @from_start: follow mode without a checkpoint to resume from: read the
 *	log from its beginning (default: from its current end, as tail -F).
 * @timeout_ms: follow and plugin mode: hm_collector_next() returns -EAGAIN
 *	after waiting this long for an event, so the caller can do periodic
 *	work.  0 (default) waits for ever.
 * @stop: follow and plugin mode: when the caller sets *@stop (e.g. from a
 *	SIGTERM handler), next() delivers what is complete (closing every
 *	open event, except when following with a checkpoint: those are read
 *	again, whole, next time), writes the checkpoint (see
 *	@checkpoint_interval_ms) and then returns 0.  May be NULL.
 * @reload: when the caller sets *@reload (e.g. from a SIGHUP handler),
 *	next() clears it and returns -EINTR once; call it again to go on.
 *	May be NULL.
 * @threads: files (hm_collector_open_files()): parse with libauparse on
 *	this many threads: @threads - 1 workers, and the caller's thread,
 *	which also reads, groups and assembles events in the log's order
 *	(and parses a batch while it would wait for one); the events,
 *	their order, the counters and the diagnostics are the same on any
 *	number.  0 or 1 (default): one thread, which parses files in the
 *	same batches.  Other sources keep one thread and are fed to
 *	auparse as they come (latency).  Input in flight is bounded by
 *	bytes (1 MiB), not by threads.
 */
struct hm_collector_opts {
	int resolve;
	const char *resolve_root;
	bool proctitle;
	bool verbose;
	struct hm_diag *diag;
	const char *checkpoint;
	unsigned int checkpoint_interval_ms;
	bool from_start;
	unsigned int timeout_ms;
	volatile sig_atomic_t *stop;
	volatile sig_atomic_t *reload;
	unsigned int threads;
};

/** hm_collector_opts_init() - fill @o with the defaults described above. */
void hm_collector_opts_init(struct hm_collector_opts *o);

/**
 * hm_collector_open_files() - read log files one after another as one
 * stream, so an event split across a file boundary is joined.
 * @out: the new collector.
 * @paths: @n file names in order (oldest first); "-" is stdin.
 * @n: number of names, at least 1.
 * @o: options, or NULL for the defaults.
 *
 * Files are opened one at a time as reading reaches them; one that cannot
 * be opened makes hm_collector_next() return its negative errno.
 * Returns: 0, -EINVAL, or -ENOMEM.  Caller frees with hm_collector_free().
 */
int hm_collector_open_files(struct hm_collector **out,
			    const char *const *paths, size_t n,
			    const struct hm_collector_opts *o);

/**
 * hm_collector_open_buffer() - read @len bytes at @buf (tests, fuzzers).
 * @name: name used in diagnostics, may be NULL.
 * The bytes are borrowed until hm_collector_free().
 * Returns: 0 or -ENOMEM.  Caller frees with hm_collector_free().
 */
int hm_collector_open_buffer(struct hm_collector **out, const void *buf,
			     size_t len, const char *name,
			     const struct hm_collector_opts *o);

/**
 * hm_collector_open_fd() - read @fd until end of file (a pipe, stdin).
 * @name: name used in diagnostics, may be NULL.
 * The collector does not close @fd.
 * Returns: 0 or -ENOMEM.  Caller frees with hm_collector_free().
 */
int hm_collector_open_fd(struct hm_collector **out, int fd, const char *name,
			 const struct hm_collector_opts *o);

/**
 * hm_collector_open_follow() - follow @path like `tail -F`: read to the
 * end, wait for more, and when auditd rotates the log finish the old file
 * and go on with the new one, losing and repeating nothing.  With
 * @o->checkpoint, start where the last run stopped (also when the log was
 * rotated meanwhile: PATH.1 ... PATH.9 are searched for the inode);
 * without one, start at the current end of @path (at its beginning with
 * @o->from_start).
 * Returns: 0, -ENOMEM, or the negative errno of opening @path or reading
 * the checkpoint.  Caller frees with hm_collector_free().
 */
int hm_collector_open_follow(struct hm_collector **out, const char *path,
			     const struct hm_collector_opts *o);

/**
 * hm_collector_open_plugin() - read the events auditd sends a plugin
 * (format = string) on stdin.  End of stdin (auditd stopped) ends the
 * stream.  Use @o->stop and @o->reload for SIGTERM and SIGHUP.
 * Returns: 0 or -ENOMEM.  Caller frees with hm_collector_free().
 */
int hm_collector_open_plugin(struct hm_collector **out,
			     const struct hm_collector_opts *o);

/**
 * hm_collector_open_trace() - run @argv as a child, every descendant
 * too, under ptrace, and hand out the calls histmac learns as the events
 * audit's records of them would make (docs/TRACE.md).  No root, no
 * audit.  A seccomp filter stops only those calls; the others run
 * untouched.  The command runs as soon as this returns; the collector's
 * input ends when every traced task has ended.
 * @argv: the command, NULL-terminated; argv[0] is searched in PATH.
 * Uses @o's resolve, resolve_root.
 * Returns: 0, -EPERM (ptrace refused: kernel.yama.ptrace_scope), or
 * another negative errno.  Caller frees with hm_collector_free(), which
 * kills what is left of the command.
 */
int hm_collector_open_trace(struct hm_collector **out, char *const argv[],
			    const struct hm_collector_opts *o);

/**
 * hm_collector_trace_status() - the traced command's wait status (as
 * waitpid() gives it), -1 while it runs or for another source; in
 * @exec_err the errno of its exec when that failed, else 0.
 */
int hm_collector_trace_status(const struct hm_collector *c, int *exec_err);

/** hm_collector_trace_pid() - the traced command's pid, 0 for another
 * source (a signal handler may pass a signal on to it). */
pid_t hm_collector_trace_pid(const struct hm_collector *c);

/**
 * hm_collector_next() - the next normalised event.
 * @c: collector.
 * @out: the event, borrowed (with everything it points to) until the next
 *	call to hm_collector_next() or hm_collector_free().
 * Returns: 1 (got one), 0 (end of input, or stopped), -EAGAIN (follow or
 * plugin mode: opts.timeout_ms passed without an event), -EINTR (the
 * caller's reload flag was set; it is cleared), or another negative errno
 * (I/O error, out of memory).  After -EAGAIN, -EINTR or an I/O error on one
 * file the collector can be called again.
 */
int hm_collector_next(struct hm_collector *c, const struct hm_event **out);

/**
 * hm_collector_checkpoint() - write the follow-mode checkpoint now, so
 * that a restart neither loses nor repeats an event delivered so far.
 * Returns: 0 (also when there is no checkpoint file), or a negative errno.
 */
int hm_collector_checkpoint(struct hm_collector *c);

/**
 * hm_collector_set_output() - where the caller writes the events (a
 * regular file, opened for appending): the output position belongs to
 * the checkpoint.  Each checkpoint records @fd's size; and if the
 * checkpoint this collector resumed from recorded one, @fd is cut back to
 * it now, since every event handed out after that checkpoint is handed
 * out again.  So the output holds each event exactly once across stops,
 * crashes, resumes and rotations, as long as the caller has written each
 * event out (fflush) before it calls hm_collector_next() again.
 * Call again with the new descriptor when the output is reopened (then
 * nothing is cut).  Does nothing without a checkpoint.
 * Returns: 0 or the negative errno of ftruncate().
 */
int hm_collector_set_output(struct hm_collector *c, int fd);

/** hm_collector_stats() - counters, borrowed until hm_collector_free(). */
const struct hm_collector_stats *hm_collector_stats(const struct hm_collector *c);

/** hm_collector_free() - close files, free everything.  NULL is a no-op. */
void hm_collector_free(struct hm_collector *c);

#endif /* HISTMAC_COLLECTOR_H */
