/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * enforcer.h - what the enforcer's files share (not a public header).
 *
 *   daemon.c     setup in a safe order, the run, teardown; the only entry
 *                point (hm_enforcer_run) cli/cmd_enforce.c calls
 *   loop.c       the poll loop: fanotify events, proc events drained
 *                before they are judged, signals, a tick
 *   answer.c     every permission event's fd and state (deciding, held,
 *                answered), the answer, and the watchdog thread
 *   proc.c       proc connector, /proc scan, resync, --state import
 *   exec.c       exec naming: the program an allowed exec enters with
 *   mark.c       fanotify marks and what must never be marked
 *   policy.c     policy load, reload (in a thread), learning, saving
 *   supervisor.c the --supervisor socket and held queries
 *   log.c        audit records and the daemon's own log lines
 *   caps.c       dropping capabilities after setup
 *
 * Threads: the main loop does everything but two things: the watchdog
 * thread answers events whose decision is late (answer.c), and a loader
 * thread builds a reloaded policy (policy.c) and says so with SIGUSR2.
 * They share only what answer.c locks and the reload hand-over.
 */
#ifndef HISTMAC_ENFORCER_H
#define HISTMAC_ENFORCER_H

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/types.h>

#include "histmac/enforce.h"
#include "histmac/learn.h"
#include "histmac/model.h"
#include "histmac/tracker.h"

/* Profiles as --mode names them; -1: each domain's own. */
#define HM_ENF_MODE_PER_DOMAIN (-1)

/* What `histmac enforce` was asked to do. */
struct hm_enf_opts {
	const char *policy;		/* policy directory */
	const char **marks;		/* --mark PATH, n_marks of them */
	size_t n_marks;
	int mode;			/* enum hm_profile, or PER_DOMAIN */
	const char *supervisor;		/* socket path, or NULL */
	unsigned query_timeout_ms;	/* default 10000 */
	unsigned decision_timeout_ms;	/* watchdog deadline, default 1000 */
	bool default_deny;		/* watchdog/internal errors: deny */
	bool dry_run;			/* notification marks only */
	const char *state;		/* learner process table, or NULL */
	unsigned save_interval;		/* seconds; learning saves */
	size_t cache_slots;
	unsigned cache_ttl_ms;		/* a cached allow lives this long */
	size_t ignore_max;		/* kernel ignore marks; 0: none */
	int proc_buffer;		/* proc connector socket buffer */
	bool audit;			/* FAN_AUDIT + user records */
	const char *pidfile;
	const char *ready_file;		/* written once marks are in place */
	bool verbose;
	int dialect;			/* of saved policy; AUTO: as loaded */
	struct hm_learn_opts lo;
};

void hm_enf_opts_init(struct hm_enf_opts *o);

/* Counters: printed at exit and on SIGUSR1, every one (zeros too). */
#define HM_ENF_COUNTERS(X)						\
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
	X(exec_part, "opens that are part of an exec")			\
	X(directories, "directories (not judged)")			\
	X(no_path, "path not resolvable from the event fd")		\
	X(exited, "process gone before its event was read")		\
	X(proc_gone, "process gone while judged (/proc unreadable)")	\
	X(late, "decided after the watchdog had answered")		\
	X(overflow, "fanotify queue overflows")				\
	X(bad_events, "malformed fanotify events")			\
	X(internal_errors, "internal errors (default answer)")		\
	X(ignore_marks, "kernel ignore marks added")			\
	X(proc_events, "proc connector events")				\
	X(proc_lost, "proc connector overruns (ENOBUFS)")		\
	X(resyncs, "resyncs from /proc")				\
	X(execs, "execs tracked")					\
	X(exec_pending, "execs entered by their judged name")		\
	X(exec_fallback, "execs named from /proc/PID/exe")		\
	X(exec_gone, "execs not applied: process gone first")		\
	X(reloads, "policy reloads")					\
	X(reload_failures, "policy reloads refused")			\
	X(saves, "policy saves")					\
	X(audit_failures, "audit records not sent")

struct hm_enf_counters {
#define X(f, s) uint64_t f;
	HM_ENF_COUNTERS(X)
#undef X
};

/* ------------------------------------------------------------ answer.c */

/* A reference to one permission event; stale once answered and closed. */
struct hm_slot_ref {
	uint32_t idx;
	uint32_t gen;
};

struct hm_answers;

struct hm_answer_stats {
	uint64_t answered;		/* by the main loop */
	uint64_t watchdog;		/* late decisions answered by it */
	uint64_t watchdog_drained;	/* read and answered by it: main
					 * loop stalled */
	uint64_t write_errors;		/* the kernel no longer waited */
	uint64_t table_full;		/* answered at once: no slot */
};

int hm_answers_new(int fan_fd, const struct hm_enf_opts *o, bool audit,
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
/* The event fd of @ref while it is pending, else -1 (borrowed). */
int hm_answers_fd(struct hm_answers *a, struct hm_slot_ref ref);
/* Is @ref still waiting for our answer? */
bool hm_answers_pending(struct hm_answers *a, struct hm_slot_ref ref);
/* The main loop is busy since now (true) / back in poll (false).
 * Returns the time (busy) or 0. */
uint64_t hm_answers_busy(struct hm_answers *a, bool busy);
void hm_answers_stats(struct hm_answers *a, struct hm_answer_stats *out);
uint64_t hm_now_ns(void);

/* ------------------------------------------------------------- proc.c */

struct hm_proc;

int hm_proc_open(int rcvbuf, struct hm_proc **out);
void hm_proc_close(struct hm_proc *p);
int hm_proc_fd(const struct hm_proc *p);

/* ------------------------------------------------------------- exec.c */

/* An exec judged (or let through) whose proc event has not arrived. */
struct hm_pending_exec {
	int32_t pid;
	char *program;			/* encoded name to enter with */
	bool script;			/* "#!": no realpath for the tracker */
	char *interp;			/* raw interpreter/loader path, or NULL */
	uint64_t dev[4], ino[4];	/* objects opened by this exec */
	int n_obj;
	uint64_t since_ns;
};

/* ------------------------------------------------------------- the daemon */

struct hm_enforcer {
	struct hm_enf_opts o;
	pid_t self;
	int fan_fd;
	int sig_fd;
	struct pollfd pfd[8];		/* the loop's fds: fanotify, proc */
	size_t n_pfd;			/* first, then the rest */
	uint64_t next_tick_ns;
	uint64_t now_ns;		/* when the loop last woke */
	bool audit_events;		/* FAN_ENABLE_AUDIT worked */
	int audit_fd;			/* libaudit, -1 none */
	struct hm_answers *ans;
	struct hm_proc *proc;
	struct hm_tracker *t;
	struct hm_model *m;
	struct hm_enf_index *ix;
	struct hm_generalizer *g;
	struct hm_dcache *cache;
	bool dirty;			/* learned since the last save */
	uint64_t last_save_ns;
	int dialect;

	/* reload hand-over (policy.c) */
	pthread_t loader;
	bool loading;
	_Atomic bool loaded_done;	/* set by the loader when it is done */
	struct hm_model *loaded_m;
	struct hm_enf_index *loaded_ix;
	struct hm_diag *loaded_diag;
	int loaded_status;

	/* execs applied when needed or after the batch (proc.c) */
	int32_t execq[1024];
	size_t n_execq;

	/* exits applied after the events read before them are judged */
	int32_t gone[1024];
	size_t n_gone;

	/* exec naming */
	struct hm_pending_exec pend[256];
	size_t n_pend;

	/* kernel ignore marks: fds kept to remove them on reload */
	int *ignore_fds;
	size_t n_ignore;

	/* supervisor */
	struct hm_super *sup;

	/* HISTMAC_TEST_DECISION_DELAY_MS (tests only, daemon.c): every
	 * decision sleeps this long after its event was read; 0: never */
	unsigned test_delay_ms;

	struct hm_enf_counters c;
	bool stop;
	int status;
};

/* daemon.c: Returns an exit status: 0 stopped cleanly, 1 the policy has
 * errors, 2 a --mark was refused, 3 could not run. */
int hm_enforcer_run(const struct hm_enf_opts *o);
void hm_enf_print_stats(struct hm_enforcer *E, FILE *f);

/* loop.c */
int hm_enf_loop(struct hm_enforcer *E);
/* add @fd to the loop's poll set (readable) / take it out */
int hm_enf_watch(struct hm_enforcer *E, int fd);
void hm_enf_unwatch(struct hm_enforcer *E, int fd);
void hm_enf_handle_batch(struct hm_enforcer *E, const char *buf, ssize_t len,
			 bool drain);

/* exec.c: the pending exec of @pid, or NULL */
struct hm_pending_exec *hm_enf_pending(struct hm_enforcer *E, int32_t pid);
void hm_enf_pending_drop(struct hm_enforcer *E, int32_t pid);
void hm_enf_pending_expire(struct hm_enforcer *E, uint64_t now);
void hm_enf_pending_clear(struct hm_enforcer *E);
bool hm_enf_pending_has_obj(const struct hm_pending_exec *pe, uint64_t dev,
			    uint64_t ino);
int hm_enf_pending_set(struct hm_enforcer *E, int32_t pid,
		       const char *program, int fd, uint64_t dev,
		       uint64_t ino);
bool hm_enf_pending_interp(struct hm_pending_exec *pe, const char *raw,
			   int fd, uint64_t dev, uint64_t ino);

/* proc.c */
int hm_enf_proc_drain(struct hm_enforcer *E);
/* apply the execs queued for @pid (-1: all), in order */
void hm_enf_proc_apply(struct hm_enforcer *E, int32_t pid);
/* apply every queued exec, then the queued exits */
void hm_enf_proc_reap(struct hm_enforcer *E);
int hm_enf_proc_scan(struct hm_enforcer *E, bool resync);
int hm_enf_proc_import(struct hm_enforcer *E, const char *state);
/* @pid's domain; reads /proc for a process not seen yet.
 * Returns 0, -ESRCH (gone), or negative errno. */
int hm_enf_proc_view(struct hm_enforcer *E, int32_t pid,
		     struct hm_proc_view *out);
/* What the open @pid waits in asked for (bitmask of enum hm_file_op:
 * read, write, append, truncate), from /proc/PID/syscall, into @out
 * (0: unknown).  Returns 0, or -ESRCH when the process is gone (its
 * /proc entry cannot be read; @out untouched). */
int hm_enf_proc_open_perm(int32_t pid, uint32_t *out);
/* task values for conditions, from /proc/PID/status; -ESRCH: gone */
int hm_enf_proc_ctx(int32_t pid, struct hm_cond_ctx *ctx);
/* encoded /proc/PID/exe into @buf (size @cap); length or -errno */
long hm_enf_proc_exe(int32_t pid, char *buf, size_t cap);

/* mark.c */
int hm_enf_marks_check(struct hm_enforcer *E);
int hm_enf_marks_add(struct hm_enforcer *E, uint64_t mask);
int hm_enf_ignore_add(struct hm_enforcer *E, int event_fd);
void hm_enf_ignore_clear(struct hm_enforcer *E);

/* policy.c */
int hm_enf_policy_load(struct hm_enforcer *E);
int hm_enf_reload_start(struct hm_enforcer *E);
void hm_enf_reload_finish(struct hm_enforcer *E);
/* Learn @perm (bitmask of enum hm_file_op; 0: read) on @path. */
int hm_enf_learn(struct hm_enforcer *E, const struct hm_name *domain_name,
		 uint32_t perm, const struct hm_name *path,
		 const struct hm_cond_ctx *ctx);
int hm_enf_save(struct hm_enforcer *E);
/* effective profile for a domain (--mode wins) */
uint8_t hm_enf_profile(const struct hm_enforcer *E, uint8_t own);

/* log.c */
void hm_enf_log(struct hm_enforcer *E, const char *fmt, ...) HM_PRINTF(2, 3);
void hm_enf_audit(struct hm_enforcer *E, enum hm_decision_result res,
		  uint32_t perm, int32_t pid, uint8_t profile,
		  const struct hm_name *domain, const char *raw_path,
		  size_t raw_len);

/* supervisor.c */
struct hm_super;
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
int hm_super_open(struct hm_enforcer *E, const char *path,
		  struct hm_super **out);
void hm_super_close(struct hm_enforcer *E, struct hm_super *s);
void hm_super_ready(struct hm_enforcer *E, int fd, short revents);
bool hm_super_connected(const struct hm_super *s);
/* Hold @h (taken) and ask the client; false: not held (no client). */
bool hm_super_ask(struct hm_enforcer *E, struct hm_held *h);
/* ms from @now until the next query deadline, or -1 */
int hm_super_timeout(struct hm_enforcer *E, uint64_t now);
void hm_super_expire(struct hm_enforcer *E, uint64_t now);
/* answer every held query (shutdown): reject */
void hm_super_release_all(struct hm_enforcer *E);
void hm_held_free(struct hm_held *h);

/* caps.c */
int hm_enf_drop_caps(void);

#endif /* HISTMAC_ENFORCER_H */
