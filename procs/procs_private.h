/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procs_private.h - the parts of the procs room (not a public header;
 * the unit tests use it).  Calls go one way:
 *
 *   keeper.c  -> naming.c -> called.c, judged.c, placing.c, trace.c,
 *                            records.c
 *   keeper.c  -> records.c, scan.c -> placing.c, trace.c
 *
 *   keeper.c   the connector: its events, the exec and exit queues,
 *              threads (owns struct hm_procs)
 *   records.c  one record per process, its state, the one function
 *              that moves it, the one eviction rule
 *   naming.c   an exec event applied: the name it enters by
 *   called.c   the name an exec was called by, as learn names it
 *   judged.c   the execs the enforcer judged, until their events come
 *   placing.c  /proc: what a process runs, a process not seen yet
 *   scan.c     every running process at start and on a resync; --state
 *   trace.c    traced processes, judged in their tracer's domain
 */
#ifndef HISTMAC_PROCS_PRIVATE_H
#define HISTMAC_PROCS_PRIVATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "histmac/kernel_names.h"
#include "histmac/kernel_names.h"
#include "histmac/model.h"
#include "histmac/procs.h"
#include "histmac/tracker.h"

/* ------------------------------------------------------------- judged.c */

/* An exec judged (or let through) whose proc event has not arrived. */
struct hm_pending_exec {
	int32_t pid;
	char *program;			/* encoded name to enter with */
	bool script;			/* "#!": no realpath for the tracker */
	bool allowed;			/* by an entry of the policy */
	char *interp;			/* raw interpreter/loader path, or NULL */
	uint64_t dev[4], ino[4];	/* objects opened by this exec */
	int n_obj;
	uint64_t since_ns;		/* when it was judged (hm_now_ns()) */
	uint64_t seq;			/* order of the judgements */
};

#define HM_EXECS_MAX 256
#define HM_EXECS_PER_PID 4
#define HM_EXECS_TTL_NS (5ull * 1000 * 1000 * 1000)

/* The pending execs, at most HM_EXECS_MAX (the oldest makes room). */
struct hm_execs {
	struct hm_pending_exec pend[HM_EXECS_MAX];
	size_t n;
	uint64_t seq;
};

/* the newest pending exec of @pid, or NULL (borrowed until the next
 * change); the oldest one judged before @before_ns */
struct hm_pending_exec *hm_execs_find(struct hm_execs *x, int32_t pid);
struct hm_pending_exec *hm_execs_oldest(struct hm_execs *x, int32_t pid,
					uint64_t before_ns);
void hm_execs_drop(struct hm_execs *x, int32_t pid);
void hm_execs_remove(struct hm_execs *x, struct hm_pending_exec *pe);
void hm_execs_expire(struct hm_execs *x, uint64_t now);
void hm_execs_clear(struct hm_execs *x);
bool hm_execs_has_obj(const struct hm_pending_exec *pe, uint64_t dev,
		      uint64_t ino);
int hm_execs_set(struct hm_execs *x, int32_t pid, const char *program,
		 int fd, uint64_t dev, uint64_t ino);
bool hm_execs_interp(struct hm_pending_exec *pe, const char *raw, int fd,
		     uint64_t dev, uint64_t ino);

/* ------------------------------------------------------------ placing.c */

/* What /proc says a process runs (hm_procs_read_exe()). */
struct hm_exe {
	char name[HM_MAX_WORD];		/* encoded */
	long len;
	char raw[PATH_MAX];		/* as the link reads */
	uint64_t dev, ino;		/* major << 32 | minor, inode */
	const char *why;		/* not believed: why */
};

/* ------------------------------------------------------------- called.c */

/* the name an exec enters its domain by, as learn names it; @judged_open:
 * struct hm_procs_cfg's */
long hm_exec_name(const struct hm_domain *parent, int32_t pid,
		  const struct hm_exe *e, const struct hm_pending_exec *pe,
		  bool (*judged_open)(int dirfd, int fd), char *out,
		  size_t cap, bool *script);

/* ------------------------------------------------------------ records.c */

/* A /proc read that named an exec, kept until the process's next exec
 * tells whether it saw that one instead (naming.c recheck_named()). */
struct hm_procs_read {
	const struct hm_name *from;	/* the domain it ran in; NULL: none */
	uint32_t flags;			/* of @from */
	uint32_t hash, len;		/* of the name it was given */
	uint64_t read_ns, dev, ino;	/* when, and what it found */
};

/* What the keeper remembers of a process beyond its domain. */
enum hm_procs_state {
	HM_PROCS_TRACKED,	/* no record: the tracker's entry is all */
	HM_PROCS_NAMED,		/* its last exec named by a /proc read */
	HM_PROCS_ORPHANED,	/* gone, an exec of it unapplied: the
				 * children it forked after it enter it */
	HM_PROCS_LEADERLESS,	/* its leader exited, threads run: it
				 * keeps its domain until the last one */
	HM_PROCS_STATES
};

extern const char *const hm_procs_state_names[HM_PROCS_STATES];

/* What moves a record (hm_procs_move()). */
enum hm_procs_ev {
	HM_PROCS_EV_FORK,	/* the pid is a new process (fork) */
	HM_PROCS_EV_NAMED,	/* an exec of it named by a /proc read */
	HM_PROCS_EV_EXEC,	/* an exec of it applied otherwise */
	HM_PROCS_EV_GONE_EXEC,	/* an exec event of it, it gone */
	HM_PROCS_EV_INHERIT,	/* forked by an orphan, gone too */
	HM_PROCS_EV_LEADER_EXIT, /* its leader's exit, threads run */
	HM_PROCS_EV_REAPED,	/* its last exit applied */
};

struct hm_procs_rec {
	int32_t pid;			/* 0: free */
	enum hm_procs_state state;
	uint64_t stamp;			/* when it was last moved */
	struct hm_procs_read read;	/* NAMED's; ORPHANED and LEADERLESS
					 * keep it */
	/* ORPHANED: */
	int32_t ran;			/* the process that ran the execs:
					 * its judgements */
	uint64_t ns;			/* the last one's exec event */
	uint32_t before;		/* unapplied execs before that one */
};

/* An event's facts (hm_procs_move()). */
struct hm_procs_arg {
	uint64_t ns;				/* FORK, GONE_EXEC */
	struct hm_procs_read read;		/* NAMED */
	const struct hm_procs_rec *rec;		/* INHERIT: the parent's */
};

#define HM_PROCS_SETS 256
#define HM_PROCS_WAYS 4

struct hm_procs_rec *hm_procs_rec(struct hm_procs *p, int32_t pid);
enum hm_procs_state hm_procs_state(struct hm_procs *p, int32_t pid);
void hm_procs_move(struct hm_procs *p, int32_t pid, enum hm_procs_ev ev,
		   const struct hm_procs_arg *a);

/* ------------------------------------------------------------- keeper.c */

struct hm_tid {
	int32_t tid;			/* 0: free */
	int32_t tgid;
};

/* A traced thread (PROC_EVENT_PTRACE, or TracerPid read at an exec or
 * a fork): its group is judged in the tracer's domain. */
struct hm_traced {
	int32_t tid;			/* 0: free */
	int32_t tgid;
	int32_t tracer;			/* the tracer's thread group */
};

/* An exec event waiting to be applied: the proc connector's time of it
 * (CLOCK_MONOTONIC), since when it waits (0: not). */
struct hm_execq {
	int32_t pid;
	uint64_t ns, waits;
};

struct hm_procs {
	int fd;				/* proc connector, or -1 */
	struct hm_tracker *t;		/* the process table */
	struct hm_execs x;		/* judged execs, by the enforcer */
	struct hm_procs_counts *c;
	bool verbose;
	void (*log)(const char *line);
	bool (*judged_open)(int dirfd, int fd);

	/* execs applied when needed or after the batch */
	struct hm_execq execq[1024];
	size_t n_execq;

	uint64_t drained_ns;		/* when the last drain began */

	/* traced threads; full: every view reads TracerPid from /proc */
	struct hm_traced traced[256];
	size_t n_traced;
	bool traced_full;

	/* our own user namespace (exe links from another are not believed) */
	uint64_t userns_dev, userns_ino;

	/* exits applied after the events read before them are judged */
	struct { int32_t tgid, tid; } gone[1024];	/* tid: the thread */
	size_t n_gone;

	/* threads (not leaders) and their groups, from fork events */
	struct hm_tid tids[4096];

	/* one record per process that needs more than its domain */
	struct hm_procs_rec recs[HM_PROCS_SETS][HM_PROCS_WAYS];
	uint64_t rec_clock;
};

void hm_procs_log(const struct hm_procs *p, const char *fmt, ...)
	HM_PRINTF(2, 3);
/* apply the execs queued for @pid (-1: all), in order */
void hm_procs_apply(struct hm_procs *p, int32_t pid);

/* ------------------------------------------------------------- naming.c */

/* Apply the exec event @q.  @more: a later exec of it is queued;
 * @may_defer: nothing needs it now.  Returns true when it stays queued. */
bool hm_procs_on_exec(struct hm_procs *p, struct hm_execq *q, bool more,
		   bool may_defer);
/* forget @pid's judged execs from before @ns (its exec event's time) */
void hm_procs_drop_judged(struct hm_procs *p, int32_t pid, uint64_t ns);
void hm_procs_orphan_exec(struct hm_procs *p, int32_t child, int32_t parent);

/* ------------------------------------------------------------ placing.c */

/* ppid and start time (clock ticks) from /proc/PID/stat; @start may be
 * NULL */
int hm_procs_stat(int32_t pid, int64_t *ppid, uint64_t *start);
/* a /proc/PID/maps line: an executable mapping of that file? */
bool hm_procs_maps_exec(const char *line, unsigned dev_major,
		     unsigned dev_minor, uint64_t ino);
int hm_procs_read_exe(const struct hm_procs *p, int32_t tgid, bool own_ns,
		   struct hm_exe *e);
void hm_procs_log_unbelieved(struct hm_procs *p, int32_t pid,
			  const struct hm_exe *e, const char *what);
int hm_procs_set_kernel_exe(struct hm_procs *p, int32_t pid, int64_t ppid,
			 const char *exe, long exe_len, uint32_t flags);
int hm_procs_set_unobserved(struct hm_procs *p, int32_t pid, int64_t ppid,
			 const char *exe, long exe_len);
/* hm_procs_domain() without applying queued execs */
int hm_procs_where(struct hm_procs *p, int32_t pid, struct hm_proc_view *out);

/* --------------------------------------------------------------- scan.c */

int hm_procs_scan(struct hm_procs *p, bool resync);
int hm_procs_import(struct hm_procs *p, const char *state);

/* -------------------------------------------------------------- trace.c */

void hm_procs_set_traced(struct hm_procs *p, int32_t tid, int32_t tgid,
		      int32_t group, bool move);
void hm_procs_untrace_exit(struct hm_procs *p, int32_t tid, int32_t tgid);
void hm_procs_check_traced(struct hm_procs *p, int32_t pid, bool move);
int32_t hm_procs_tracer_of(struct hm_procs *p, int32_t tgid);

#endif /* HISTMAC_PROCS_PRIVATE_H */
