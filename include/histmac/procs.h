/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procs.h (procs) - the procs room's face: which domain a live process
 * is in, and by what name its last exec entered it.  The proc connector (fork,
 * exec, exit, ptrace) moves the analyzer's tracker, the same table and
 * rules the learner uses; /proc places what ran before we started and
 * names execs nobody judged; the enforcer tells it which execs it
 * judged, and by what name (docs/ENFORCE.md "Exec naming").
 */
#ifndef HISTMAC_PROCS_H
#define HISTMAC_PROCS_H

#include <stdbool.h>
#include <stdint.h>

#include "histmac/common.h"
#include "histmac/tracker.h"

/* The name of an exec whose program nothing could see: a path word no
 * program has, so the policy has no domain below it and grants nothing. */
#define HM_EXEC_UNSEEN "unseen-exec:/"

/* What the room counts, each with the label the enforcer prints. */
#define HM_PROCS_COUNTERS(X)						\
	X(proc_events, "proc connector events")				\
	X(proc_lost, "proc connector overruns (ENOBUFS)")		\
	X(proc_forged, "proc connector messages not from the kernel")	\
	X(resyncs, "resyncs from /proc")				\
	X(execs, "execs tracked")					\
	X(exec_pending, "execs entered by their judged name")		\
	X(exec_fallback, "execs named from /proc/PID/exe")		\
	X(exec_gone, "execs not applied: process gone first")		\
	X(exec_orphan, "execs of a gone process passed to a child")	\
	X(exec_by_name, "execs entered by name (a later exec queued)")	\
	X(exec_deferred, "execs waiting for a later exec's event")	\
	X(exec_unseen, "execs not seen, named " HM_EXEC_UNSEEN)	\
	X(exe_unbelieved, "exe links not believed (not mapped, userns)") \
	X(traced_views, "events judged in a tracer's domain")		\
	X(placed_gone, "processes placed in <kernel>: gone when read")	\
	X(rec_named, "records: an exec named from /proc")		\
	X(rec_orphaned, "records: gone with an exec unapplied")		\
	X(rec_leaderless, "records: leader gone, threads running")	\
	X(records_evicted, "records evicted (a full set)")		\
	X(errors, "process tracking errors")

struct hm_procs_counts {
#define X(f, s) uint64_t f;
	HM_PROCS_COUNTERS(X)
#undef X
};

/* What the keeper works with (borrowed; they must outlive it). */
struct hm_procs_cfg {
	int fd;				/* hm_procs_connect()'s socket, taken
					 * (closed by hm_procs_free()); -1:
					 * none, nothing to drain */
	struct hm_tracker *tracker;	/* the process table */
	struct hm_procs_counts *c;
	bool verbose;			/* log every exec */
	/* one log line, without its newline; NULL: on stderr */
	void (*log)(const char *line);
	/* would an open of @fd (O_PATH, in directory @dirfd) be judged?
	 * A script that would is never taken as unseen; NULL: none is */
	bool (*judged_open)(int dirfd, int fd);
};

struct hm_procs;

/* Subscribe to the proc connector (CAP_NET_ADMIN): the socket in *@fd. */
int hm_procs_connect(int rcvbuf, int *fd);
int hm_procs_new(const struct hm_procs_cfg *cfg, struct hm_procs **out);
void hm_procs_free(struct hm_procs *p);
/* The socket to poll, or -1. */
int hm_procs_fd(const struct hm_procs *p);
/* Place every running process; @state: the learner's process table to
 * take first (--state), or NULL. */
int hm_procs_start(struct hm_procs *p, const char *state);
/* Read the connector: forks at once, execs and exits queued. */
int hm_procs_drain(struct hm_procs *p);
/* Apply the queued execs, then the exits: the events read before them
 * are judged.  Judgements past their time go. */
void hm_procs_reap(struct hm_procs *p);
/* The domain @pid is judged in, its queued execs applied first; a
 * traced process is judged in its tracer's.  0, -ESRCH or -errno. */
int hm_procs_domain(struct hm_procs *p, int32_t pid,
		    struct hm_proc_view *out);
/* The thread group of thread @tid.  0, -ESRCH, or -errno. */
int hm_procs_tgid(struct hm_procs *p, int32_t tid, int32_t *out);
/*
 * @pid's exec of object @dev, @ino was let through, to enter by
 * @program (copied); @fd: its exec open's event fd (what it names next
 * is read from it), or -1; @allowed: by an entry of the policy.
 */
int hm_procs_judged(struct hm_procs *p, int32_t pid, const char *program,
		    int fd, uint64_t dev, uint64_t ino, bool allowed);
/* Is the exec open of @raw (object @dev, @ino; event fd @fd) the loader
 * (1) or a "#!" script's interpreter (2, *@script: the script's judged
 * name, borrowed until the next call) of @pid's judged exec?  0: not. */
int hm_procs_exec_part(struct hm_procs *p, int32_t pid, const char *raw,
		       int fd, uint64_t dev, uint64_t ino,
		       const char **script);
/* Did @pid's judged exec open object @dev, @ino (program, loader,
 * interpreter)? */
bool hm_procs_exec_obj(struct hm_procs *p, int32_t pid, uint64_t dev,
		       uint64_t ino);

#endif /* HISTMAC_PROCS_H */
