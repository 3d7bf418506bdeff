/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * enforcer_private.h - the parts of the enforcer daemon (not a public
 * header; the unit tests use it).  Calls go one way:
 *
 *   daemon.c  -> loop.c -> verdict.c, opener.c, live.c, answer.c, mark.c,
 *                          mounts.c, supervisor.c, log.c, the process
 *                          keeper (procs.h) and the pure decision code
 *                          (decide.h)
 *   daemon.c  -> supervisor.c -> answer.c, live.c, log.c, procs.h
 *   daemon.c, verdict.c, answer.c -> metrics.c
 *   live.c, mark.c, answer.c -> log.c
 *
 *   daemon.c     setup in a safe order, the poll loop over every fd,
 *                signals, the tick, teardown (owns struct hm_enforcer)
 *   loop.c       one fanotify batch: read, drain the proc connector,
 *                judge every event (struct hm_loop, loop.h)
 *   verdict.c    what a judged event gets: the answer, the profile's
 *                way with a violation, reports, the parts of an exec
 *   opener.c     the waiting opener's open flags and credentials
 *   answer.c     every permission event's fd and state (deciding, held,
 *                answered), the answer, and the watchdog thread
 *   mark.c       fanotify marks, what must never be marked, ignore marks
 *   mounts.c     an event file's name as the daemon's mounts name it
 *   live.c       the live policy: load, reload (in a thread), learning,
 *                saving
 *   supervisor.c the --supervisor socket and held queries
 *   metrics.c    the metrics file, denials by domain, the warnings
 *                of a too small cache or answer table
 *   log.c        audit records and the daemon's own log lines
 *   caps.c       dropping capabilities after setup
 *
 * Each part gets the few others it calls when it is built, and the one
 * counter table (struct hm_enforcer_counters) it counts into.
 *
 * Threads: the main loop does everything but two things: the watchdog
 * thread answers events whose decision is late (answer.c), and a loader
 * thread builds a reloaded policy (live.c) and says so with SIGUSR2.
 * They share only what answer.c locks and the reload hand-over.
 */
#ifndef HISTMAC_ENFORCER_PRIVATE_H
#define HISTMAC_ENFORCER_PRIVATE_H

#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/types.h>

#include "histmac/decide.h"
#include "histmac/enforcer.h"
#include "histmac/kernel_names.h"
#include "histmac/learn.h"
#include "histmac/model.h"
#include "histmac/procs.h"
#include "histmac/profile.h"
#include "histmac/store.h"
#include "histmac/tracker.h"

/* Counters: printed at exit and on SIGUSR1, every one (zeros too). */
#define HM_ENFORCER_COUNTERS(X)						\
	X(events, "permission events")					\
	X(open_events, "FAN_OPEN_PERM events")				\
	X(exec_events, "FAN_OPEN_EXEC_PERM events")			\
	X(self, "own pid let through")					\
	X(allowed, "allowed by the policy")				\
	X(cache_allowed, "allowed from the decision cache")		\
	X(global_allowed, "allowed as globally readable")		\
	X(disabled, "allowed: profile disabled")			\
	X(learned, "allowed: learning (entry added)")			\
	X(permissive, "allowed: permissive violation")			\
	X(denied, "denied: enforcing violation")			\
	X(granted, "supervisor: granted")				\
	X(granted_learned, "supervisor: granted and learned")		\
	X(rejected, "supervisor: rejected")				\
	X(query_timeouts, "supervisor: no answer in time")		\
	X(client_lost, "supervisor: client went away")			\
	X(not_judged_exec, "exec not judged (history unobserved)")	\
	X(unobserved_exec, "exec judged in <kernel> EXE (unobserved)")	\
	X(exec_part, "opens that are part of an exec")			\
	X(directories, "directories judged")			\
	X(no_path, "path not resolvable from the event fd")		\
	X(foreign, "files reached through a foreign mount")		\
	X(foreign_unnamed, "foreign mounts' files with no name (fail closed)") \
	X(foreign_slow, "foreign mount tables over the budget") \
	X(overlay_layer, "overlay layers' files, named through the overlay") \
	X(overlay_copy_up, "overlay copy-ups let through (the overlay's own)") \
	X(exited, "process gone before its event was read")		\
	X(mode_reads, "open modes read from /proc/TID/syscall")	\
	X(mode_unknown, "open modes unknown (judged read and write)")	\
	X(mode_retries, "open mode reads again (opener not asleep yet)") \
	X(proc_gone, "process gone while judged (/proc unreadable)")	\
	X(late, "decided after the watchdog had answered")		\
	X(overflow, "fanotify queue overflows")				\
	X(bad_events, "malformed fanotify events")			\
	X(internal_errors, "internal errors (default answer)")		\
	X(ignore_marks, "kernel ignore marks added")			\
	X(reloads, "policy reloads")					\
	X(reload_failures, "policy reloads refused")			\
	X(saves, "policy saves")					\
	X(audit_failures, "audit records not sent")

/* The enforcer's counters, and the process keeper's (procs.h). */
struct hm_enforcer_counters {
#define X(f, s) uint64_t f;
	HM_ENFORCER_COUNTERS(X)
#undef X
	struct hm_procs_counts procs;
};

/* ------------------------------------------------------------ answer.c */

/* Decision latency buckets: fapolicyd's bounds (metrics.c), and +Inf. */
#define HM_LATENCY_BUCKETS 10
extern const uint64_t hm_latency_le_ns[HM_LATENCY_BUCKETS - 1];
/* The bucket of a decision that took @ns. */
unsigned hm_latency_bucket(uint64_t ns);

/* A reference to one permission event; stale once answered and closed. */
struct hm_slot_ref {
	uint32_t idx;
	uint32_t gen;
};

struct hm_answers;

/* Events being decided at once; more are answered at once (default). */
#define HM_ANSWERS_SLOTS 4096

struct hm_answer_stats {
	uint64_t answered;		/* by the main loop */
	uint64_t watchdog;		/* late decisions answered by it */
	uint64_t watchdog_drained;	/* read and answered by it: main
					 * loop stalled */
	uint64_t write_errors;		/* the kernel no longer waited */
	uint64_t table_full;		/* answered at once: no slot */
	/* every answer to an event the main loop read (by it or by the
	 * watchdog, late), by how long after the loop woke to read it */
	uint64_t latency[HM_LATENCY_BUCKETS];	/* hm_latency_bucket() */
	uint64_t latency_ns;			/* their sum */
};

/* What the watchdog and a full table answer, and when it is late. */
struct hm_answers_cfg {
	int fan_fd;			/* answers are written here */
	unsigned decision_timeout_ms;
	bool default_deny;		/* a full table, shutdown */
	bool stall_deny;		/* the watchdog's answer */
	bool audit;			/* FAN_AUDIT works */
	int audit_fd;			/* the watchdog's own; -1: none */
};

int hm_answers_new(const struct hm_answers_cfg *cfg,
		   struct hm_answers **out);
/* Stop the watchdog and answer whatever is still pending. */
void hm_answers_release(struct hm_answers *a);
/* The same, and free. */
void hm_answers_free(struct hm_answers *a);
int hm_answers_start_watchdog(struct hm_answers *a);
/* Register an event fd read by the main loop. false: no slot (answered
 * with the default already and closed). */
bool hm_answers_take(struct hm_answers *a, int fd, int32_t pid,
		     struct hm_slot_ref *out);
/* Answer (unless the watchdog did) and close.  @audit: FAN_AUDIT.
 * Returns true when this call answered. */
bool hm_answers_finish(struct hm_answers *a, struct hm_slot_ref ref,
		       bool allow, bool audit);
/* Keep the event waiting (supervisor) until @deadline_ns. */
void hm_answers_hold(struct hm_answers *a, struct hm_slot_ref ref,
		     uint64_t deadline_ns);
/* @ref's file is named through the opener's own mounts: if the watchdog
 * answers it late, deny (whatever --default says). */
void hm_answers_foreign(struct hm_answers *a, struct hm_slot_ref ref);
/* The event fd of @ref while it is pending, else -1 (borrowed). */
int hm_answers_fd(struct hm_answers *a, struct hm_slot_ref ref);
/* Is @ref still waiting for our answer? */
bool hm_answers_pending(struct hm_answers *a, struct hm_slot_ref ref);
/* The main loop is busy since now (true) / back in poll (false).
 * Returns the time (busy) or 0. */
uint64_t hm_answers_busy(struct hm_answers *a, bool busy);
void hm_answers_stats(struct hm_answers *a, struct hm_answer_stats *out);

/* ---------------------------------------------------------------- log.c */

/* notify.c: systemd's sd_notify (nothing outside systemd). */
void hm_notify_ready(void);
void hm_notify_watchdog(void);
void hm_notify_stopping(void);

void hm_log(const char *fmt, ...) HM_PRINTF(1, 2);

/* One decision's audit user record (AUDIT_USER_AVC).  @audit_fd < 0:
 * none.  Returns 0, or -EIO/-ENOMEM when it was not sent. */
int hm_log_decision(int audit_fd, enum hm_decision_result res,
		    uint32_t perm, int32_t pid, uint8_t profile,
		    const struct hm_name *domain, const char *raw_path,
		    size_t raw_len);

/* Auditing on with a kernel backlog one burst of denials fills. */
bool hm_audit_backlog_low(int audit_fd, uint32_t *limit, uint32_t *wait);

/* ------------------------------------------------------------- opener.c */

/* Kept /proc/TID/syscall fds. */
struct hm_opener;

int hm_opener_new(struct hm_enforcer_counters *c, struct hm_opener **out);
void hm_opener_free(struct hm_opener *p);
/* The flags of the open thread @tid waits in, from /proc/TID/syscall.
 * Returns 0, -ENODATA (cannot be told), or -ESRCH (gone). */
int hm_opener_flags(struct hm_opener *p, int32_t tid, uint64_t *out);
/* task values for conditions, from /proc/PID/status; -ESRCH: gone */
int hm_opener_ctx(int32_t pid, struct hm_cond_ctx *ctx);

/* --------------------------------------------------------------- mark.c */

/* Refuse what must never be marked; logs why.  0 or -errno. */
int hm_marks_check(const char *const *marks, size_t n, const char *policy);
int hm_marks_add(int fan_fd, const char *const *marks, size_t n,
		 uint64_t mask);
bool hm_marks_cover(int dirfd, int fd);

/* Kernel ignore marks, each with an fd kept to take it back. */
struct hm_ignores;

int hm_ignores_new(int fan_fd, size_t max, struct hm_ignores **out);
void hm_ignores_free(struct hm_ignores *ig);
/* Returns 1 added, 0 full, or -errno. */
int hm_ignores_add(struct hm_ignores *ig, int event_fd);
void hm_ignores_clear(struct hm_ignores *ig);

/* ------------------------------------------------------------- mounts.c */

#include <sys/stat.h>

/* One line of /proc/PID/mountinfo (its strings point into the line). */
struct hm_mnt {
	uint64_t id;
	uint32_t major, minor;
	const char *root;	/* the mount's root in its file system */
	const char *point;	/* where it is, from the reader's root */
	/* an overlay's super options (its layers); else NULL */
	const char *overlay;
};

int hm_mnt_parse(char *line, struct hm_mnt *out);
int hm_mnt_rebase(const char *path, const char *from, const char *to,
		  char *out, size_t size);
size_t hm_mnt_layers(char *opts, bool upper_only, char **dirs, size_t max);
/* Mount @id in mountinfo file @path, -ETIME past @deadline_ns (or too
 * long); *@line is the caller's to free. */
int hm_mnt_find(const char *path, uint64_t id, uint64_t deadline_ns,
		char **line, struct hm_mnt *out);
/* Our mount table and the foreign mounts met lately (one per loop). */
struct hm_mounts;

struct hm_mounts *hm_mounts_new(unsigned share_ms);
void hm_mounts_free(struct hm_mounts *t);
int hm_mnt_ours(struct hm_mounts *t, const struct statx *stx,
		const char *raw);
int hm_mnt_foreign_name(struct hm_mounts *t, int32_t tid,
			const struct statx *stx, char *raw, size_t size);
int hm_mnt_own_name(struct hm_mounts *t, int32_t tid,
		    const struct statx *stx, char *raw, size_t size,
		    bool *foreign);

/* --------------------------------------------------------------- live.c */

/* The live policy and what learning into it needs. */
struct hm_live {
	const struct hm_enforcer_opts *o;	/* borrowed */
	struct hm_enforcer_counters *c;		/* borrowed */
	struct hm_tracker *t;		/* borrowed, may be NULL: told of
					 * new domains */
	struct hm_dcache *cache;	/* borrowed, may be NULL: flushed
					 * when learning frees entries (it
					 * holds --record-use's entries) */
	struct hm_store *st;		/* the directory: saves, edits */
	struct hm_diag diag;		/* what the store said, to log */
	struct hm_model *m;
	struct hm_enf_index *ix;
	struct hm_generalizer *g;
	struct hm_model *scratch;	/* learning at max_learning_entry */
	bool dirty;			/* learned since the last save */
	bool seen;			/* a learning domain's events
					 * counted since the last save */
	bool used;			/* --record-use: uses counted since
					 * the last save (the model's use
					 * counts are only those) */
	bool errors;			/* the policy in use had errors (a
					 * save would drop the bad lines) */
	uint64_t last_save_ns;

	/* reload hand-over */
	pthread_t loader;
	bool loading;
	_Atomic bool loaded_done;	/* set by the loader when it is done */
	struct hm_store_snap loaded;
	struct hm_enf_index *loaded_ix;
	struct hm_diag *loaded_diag;
	int loaded_status;
};

/* Load @o's policy. Returns 0, -EINVAL (errors in it), or -errno. */
int hm_live_load(const struct hm_enforcer_opts *o,
		 struct hm_enforcer_counters *c, struct hm_live **out);
void hm_live_free(struct hm_live *L);
int hm_live_reload_start(struct hm_live *L);
/* Returns 1 when the new policy is in place (caches must be flushed),
 * 0 when there is nothing to take, -errno when it was refused. */
int hm_live_reload_finish(struct hm_live *L);
/* An open of learning domain @d that the policy allowed: a quiet event. */
void hm_live_seen(struct hm_live *L, struct hm_domain *d);
/* Learn @perm (bitmask of enum hm_file_op; 0: read) on @path. */
int hm_live_learn(struct hm_live *L, const struct hm_name *domain_name,
		  uint32_t perm, const struct hm_name *path,
		  const struct hm_cond_ctx *ctx);
/* Something to save: learned, or uses counted (--record-use). */
bool hm_live_unsaved(const struct hm_live *L);
/* A periodic save: one that finds the directory edited reloads it (and
 * saves after); one that finds it locked is tried again later. */
int hm_live_save(struct hm_live *L);
/* The last save, at stop: waits for a reload under way and for the
 * lock (a while), and reads an edited directory itself. */
int hm_live_save_last(struct hm_live *L);
/* effective profile for a domain (--mode wins) */
uint8_t hm_live_profile(const struct hm_live *L, uint8_t own);
/* The entry learning would add, as a policy line; caller frees. */
char *hm_live_acl_line(struct hm_live *L, const struct hm_name *path,
		       uint32_t perm);

/* --------------------------------------------------------- supervisor.c */

struct hm_held {
	uint32_t id;
	uint64_t deadline_ns;
	struct hm_slot_ref ref;
	int32_t pid;
	bool exec;
	uint32_t perm;		/* enum hm_file_op bits; 0: unknown open */
	char *domain;		/* encoded */
	char *path;		/* encoded name */
	char *raw;		/* raw path, for the audit record */
	size_t raw_len;
	char *acl;		/* the ACL line that would allow it */
	uint8_t profile;
	const struct hm_name *tdomain;	/* tracker-owned */
	struct hm_dcache_key key;
};

/* What the supervisor answers through. */
struct hm_super_env {
	struct hm_answers *ans;
	struct hm_procs *procs;
	struct hm_live *live;
	struct hm_enforcer_counters *c;
	int audit_fd;
	unsigned query_timeout_ms;
};

struct hm_super;

int hm_super_open(const char *path, const struct hm_super_env *env,
		  struct hm_super **out);
/* reject every held query, close */
void hm_super_close(struct hm_super *s);
/* its fds (listening, client) into @out[2]; returns how many */
size_t hm_super_pollfds(const struct hm_super *s, struct pollfd *out);
void hm_super_ready(struct hm_super *s, int fd, short revents);
bool hm_super_connected(const struct hm_super *s);
/* Hold @h (taken) and ask the client; false: not held (no client). */
bool hm_super_ask(struct hm_super *s, struct hm_held *h);
/* ms from @now until the next query deadline, or -1 */
int hm_super_timeout(const struct hm_super *s, uint64_t now);
void hm_super_expire(struct hm_super *s, uint64_t now);
void hm_held_free(struct hm_held *h);

/* --------------------------------------------------------------- loop.c */

/* What the decision loop reads, answers and judges with (borrowed). */
struct hm_loop_cfg {
	int fan_fd;			/* fanotify events are read here */
	pid_t self;			/* let through */
	bool default_deny;		/* internal errors */
	bool stall_deny;		/* what the watchdog answers */
	bool strict;			/* judge execs of unobserved history */
	bool verbose;
	unsigned decision_timeout_ms;	/* for log lines */
	unsigned test_delay_ms;		/* tests: every decision stalls */
	int audit_fd;			/* -1: no audit records */
	struct hm_answers *ans;
	struct hm_procs *procs;
	struct hm_opener *opener;
	struct hm_live *live;
	struct hm_dcache *cache;
	struct hm_ignores *ignores;	/* may be NULL */
	struct hm_super *sup;		/* may be NULL */
	struct hm_metrics *metrics;	/* may be NULL: denials by domain */
	struct hm_enforcer_counters *c;
	/* tests: the flags of the open @tid waits in (stands in for the
	 * kernel's /proc); NULL: hm_opener_flags() */
	int (*open_flags)(int32_t tid, uint64_t *flags);
};

struct hm_loop;

/* Events per read: the batch the loop judges at once. */
#define HM_LOOP_BATCH 512

int hm_loop_new(const struct hm_loop_cfg *cfg, struct hm_loop **out);
void hm_loop_free(struct hm_loop *l);
/*
 * Read from the fanotify fd and judge what was read.  @proc_ready: the
 * proc connector has messages: read a whole batch and drain them after
 * the read (else one event: see loop.c); @now: when the loop woke.
 * Returns the bytes read, 0 (nothing), or -errno.
 */
long hm_loop_read(struct hm_loop *l, bool proc_ready, uint64_t now);
/* Judge the events in @buf (what one read returned). */
void hm_loop_batch(struct hm_loop *l, const char *buf, size_t len,
		   bool drain);

/* ------------------------------------------------------------ metrics.c */

/* One look at everything the metrics report (the daemon's parts). */
struct hm_metrics_in {
	const struct hm_enforcer_counters *c;
	struct hm_answer_stats as;
	struct hm_dcache_stats cs;
	struct hm_tracker_stats ts;
};

/* Domains with a denial count of their own; the rest are "other". */
#define HM_METRICS_DOMAINS 64
/* Longer domain names are counted as "other". */
#define HM_METRICS_NAME_MAX 1024

/* Denials by domain (bounded) and the warnings already given. */
struct hm_metrics;

struct hm_metrics *hm_metrics_new(void);
void hm_metrics_free(struct hm_metrics *m);
/* A denial in domain @name (encoded). */
void hm_metrics_deny(struct hm_metrics *m, const struct hm_name *name);
/* The text format of @in (and @m's denials) into @out. */
void hm_metrics_text(const struct hm_metrics *m,
		     const struct hm_metrics_in *in, struct hm_sbuf *out);
/* The same, replacing @path atomically.  0 or -errno. */
int hm_metrics_write(const struct hm_metrics *m,
		     const struct hm_metrics_in *in, const char *path);
/* Log, once each, that the cache or the answer table is too small. */
void hm_metrics_warn(struct hm_metrics *m, const struct hm_metrics_in *in,
		     size_t cache_size);
/* A label value (@label) or HELP text, escaped for the text format. */
void hm_prom_escape(struct hm_sbuf *out, const char *s, size_t len,
		    bool label);

/* --------------------------------------------------------------- caps.c */

int hm_caps_drop(void);

#endif /* HISTMAC_ENFORCER_PRIVATE_H */
