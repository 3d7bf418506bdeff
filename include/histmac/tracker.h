/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracker.h (analyzer) - which domain each process is in
 * (docs/ARCHITECTURE.md "Domain tracking").  The learner feeds it audit
 * events, the enforcer proc-connector events; both get the same domain
 * names because both use this code, including the "unobserved history"
 * rule.
 *
 * The tracker keeps domain names in its own name table, so it survives a
 * policy reload (hm_tracker_set_model()); domain pointers are a cache.
 */
#ifndef HISTMAC_TRACKER_H
#define HISTMAC_TRACKER_H

#include "model.h"

/* Result of applying the exception policy to one exec. */
enum hm_transit {
	HM_TRANSIT_CHILD,	/* append the program */
	HM_TRANSIT_INITIALIZE,	/* <ns> PROG */
	HM_TRANSIT_RESET,	/* <PROG> */
	HM_TRANSIT_KEEP,	/* stay */
	HM_TRANSIT_UNOBSERVED,	/* parent history unknown: <kernel> PROG */
	HM_TRANSIT_MAX,
};

extern const char *const hm_transit_names[HM_TRANSIT_MAX];

/**
 * hm_transition_compute() - the domain an exec leads to, by TOMOYO's rules:
 * aggregator (and 2.1 alias) rename the program, then the transition type
 * is the first match in no_reset > reset > no_initialize > initialize >
 * no_keep > keep (a no_ match skips its positive twin), else child.
 * @m: model holding the exception policy.
 * @cur: current domain name.
 * @program: encoded program name as passed to execve.
 * @realpath: encoded canonical path of the program, or NULL.
 * @candidate: out: the program name after aggregator/alias, interned in @m.
 * @next: out: malloc()ed new domain name; caller frees with free().
 * @type: out: the transition type.
 * Returns: 0, -ENAMETOOLONG (over HM_MAX_DOMAIN), -ENOMEM.
 */
int hm_transition_compute(struct hm_model *m, const struct hm_name *cur,
			  const struct hm_name *program,
			  const struct hm_name *realpath,
			  const struct hm_name **candidate, char **next,
			  enum hm_transit *type);

/* What a process is doing, as one event tells it. */
struct hm_task {
	int64_t pid;
	int64_t ppid;
	const char *exe;	/* encoded executable path; may be NULL */
	size_t exe_len;
	int64_t sec;		/* event time, 0 when unknown */
	uint32_t ses;		/* audit session (ses=), when has_ses */
	bool has_ses;
	/* @exe is what the process runs: the enforcer found it mapped
	 * executable, in our user namespace (enforcer/proc.c read_exe),
	 * so a change means an exec was missed.  An audit record's exe=
	 * is not: prctl(PR_SET_MM_MAP) in a user namespace sets it to any
	 * file the process may execute, so there a change keeps the domain
	 * (HM_PROC_EXE_CHANGED) and never tells a new process. */
	bool exe_believed;
};

enum hm_proc_flag {
	HM_PROC_UNOBSERVED = 1 << 0,	/* its history is not known */
	HM_PROC_EXE_CHANGED = 1 << 1,	/* exe changed without an exec (not
					 * believed): its domain was kept */
};

/* A process's domain: the name always, the model's domain if it has one. */
struct hm_proc_view {
	const struct hm_name *name;	/* tracker-owned, borrowed */
	struct hm_domain *domain;	/* NULL if the model lacks it */
	uint32_t flags;			/* enum hm_proc_flag */
};

/* The outcome of one exec. */
struct hm_exec_result {
	struct hm_proc_view parent;	/* domain the exec happened in */
	bool parent_observed;		/* false: of unobserved history,
					 * the exec leads to <kernel> PROG */
	bool parent_known;		/* parent is the domain the exec
					 * ran in (its execute is learned):
					 * false for a process of unknown
					 * parent first seen at its exec,
					 * whose exe= is the new program
					 * (hm_tracker_fork_late() then) */
	enum hm_transit type;
	const struct hm_name *candidate; /* program after aggregator, in model */
	struct hm_proc_view now;	/* domain after the exec */
	bool created;			/* now.domain was created by this exec */
};

struct hm_tracker_stats {
	uint64_t procs;		/* processes held now */
	uint64_t max_procs;	/* cap */
	uint64_t evictions;	/* dropped to stay under the cap */
	uint64_t pid_reuse;	/* pid seen again as a new process */
	uint64_t reparented;	/* ppid changed to the reaper: same process */
	uint64_t unobserved;	/* processes given <kernel> EXE */
	uint64_t exe_changed;	/* exe changed without an exec, not
				 * believed: the domain kept */
	uint64_t execs;
	uint64_t transit[HM_TRANSIT_MAX];
	uint64_t too_long;	/* domain name over HM_MAX_DOMAIN */
};

struct hm_tracker;

/**
 * hm_tracker_new() - an empty process table for model @m.
 * @create_domains: create domains in @m as processes enter them (learning);
 *	false leaves @m alone (checking, enforcing).
 * @max_procs: cap on processes held (least recently seen evicted); 0 for
 *	the default (1,048,576).
 * Returns: the tracker or NULL; caller frees with hm_tracker_free().
 */
struct hm_tracker *hm_tracker_new(struct hm_model *m, bool create_domains,
				  size_t max_procs);
void hm_tracker_free(struct hm_tracker *t);

/**
 * hm_tracker_set_node() - the host (node= of a multi-host log) the next
 * calls are about: every process is keyed by (node, pid), so hosts that
 * use the same pid never meet.  NULL or empty: no node (a single-host log,
 * the enforcer).  Domain names do not hold the node: all hosts share them.
 * Returns: 0 or negative errno (then the node is unchanged).
 */
int hm_tracker_set_node(struct hm_tracker *t, const char *node, size_t len);

/** hm_tracker_set_model() - use @m from now on (policy reload). */
void hm_tracker_set_model(struct hm_tracker *t, struct hm_model *m);

/**
 * hm_tracker_current() - the domain @task acts in now: its own, else its
 * parent's (a forked child that has not executed), else <kernel> EXE
 * flagged unobserved.  An exe that changed without an exec restarts the
 * process in <kernel> EXE only when believed (struct hm_task); else it
 * keeps its domain, flagged HM_PROC_EXE_CHANGED.
 * Returns: 0 or negative errno; @out borrowed until the next call.
 */
int hm_tracker_current(struct hm_tracker *t, const struct hm_task *task,
		       struct hm_proc_view *out);

/**
 * hm_tracker_exec() - @task executed @program (encoded, as passed) whose
 * canonical path is @realpath (may be NULL).  Moves it to its new domain.
 * The domain it ran the exec in is resolved (created when learning), of
 * unobserved history too: its execute is learned there and checked.
 * Returns: 0 or negative errno.
 */
int hm_tracker_exec(struct hm_tracker *t, const struct hm_task *task,
		    const struct hm_name *program,
		    const struct hm_name *realpath, struct hm_exec_result *out);

/**
 * hm_tracker_fork() - @pid was forked by @ppid (proc connector, or an
 * audited clone/fork): it gets the parent's domain now, unless it is
 * already known as @ppid's child.
 * Returns: 0, -ENOENT when @ppid is unknown, or negative errno.
 */
int hm_tracker_fork(struct hm_tracker *t, int64_t pid, int64_t ppid);

/* An exec seen before the process that ran it was known. */
struct hm_late_exec {
	struct hm_proc_view parent;	/* the domain it ran in */
	const struct hm_name *program;	/* as hm_exec_result.candidate;
					 * tracker-owned, borrowed */
	const struct hm_name *realpath;	/* may be NULL; tracker-owned */
};

/**
 * hm_tracker_fork_late() - hm_tracker_fork(), and when @pid is already
 * known as @ppid's child whose exec came before any record of @ppid (a
 * child's exec record can precede its parent's clone record), the domain
 * that exec ran in, now known, for its execute to be learned.
 * @late: out, when 1 is returned; may be NULL (then as hm_tracker_fork()).
 * Returns: 1 (*@late filled, once per such exec), 0, -ENOENT when @ppid
 * is unknown, or negative errno.
 */
int hm_tracker_fork_late(struct hm_tracker *t, int64_t pid, int64_t ppid,
			 struct hm_late_exec *late);

/** hm_tracker_exit() - forget @pid. */
void hm_tracker_exit(struct hm_tracker *t, int64_t pid);

/**
 * hm_tracker_set() - put @pid in @domain_name (importing state, or a
 * process found running at enforcer start).
 * Returns: 0 or negative errno.
 */
int hm_tracker_set(struct hm_tracker *t, int64_t pid, int64_t ppid,
		   const char *exe, size_t exe_len, const char *domain_name,
		   size_t name_len, uint32_t flags, int64_t sec);

/*
 * hm_tracker_program_of() - the program a process of unobserved history
 * is named after in "<kernel> PROG": its executable @exe (encoded), but
 * for PID 1 running what /sbin/init leads to, TOMOYO's name of the
 * kernel's exec of /sbin/init (directories resolved: /usr/sbin/init on
 * a merged-/usr system, though it is a symlink to systemd), and for a
 * PID 1 running anything else nothing (0): it has not reached the exec
 * that activates TOMOYO, so it is in <kernel> itself.  The same rule for
 * the learner and the enforcer (enforcer/proc.c).
 * Returns: the length of *@name (borrowed: @exe or a static string; NULL
 * when 0).
 */
size_t hm_tracker_program_of(int64_t pid, const char *exe, size_t exe_len,
			     const char **name);

/** hm_tracker_lookup() - @pid's entry without creating one; false if none. */
bool hm_tracker_lookup(struct hm_tracker *t, int64_t pid,
		       struct hm_proc_view *out);

/**
 * hm_tracker_save() - write the process table to @path atomically, one
 * line per process: "[node@]pid ppid sec flags exe domain".
 * Returns: 0 or negative errno.
 */
int hm_tracker_save(const struct hm_tracker *t, const char *path);

/**
 * hm_tracker_load() - read a table written by hm_tracker_save(); bad lines
 * go to @d.  @accept (may be NULL) is asked about each process (the
 * enforcer checks that it still runs, with the same exe and ppid).
 * Returns: number of processes loaded, or negative errno.
 */
int hm_tracker_load(struct hm_tracker *t, const char *path, struct hm_diag *d,
		    bool (*accept)(int64_t pid, int64_t ppid, const char *exe,
				   int64_t sec, void *arg),
		    void *arg);

/** hm_tracker_stats() - counters. */
void hm_tracker_stats(const struct hm_tracker *t, struct hm_tracker_stats *out);

/** hm_tracker_foreach() - call @fn for each process (order unspecified). */
void hm_tracker_foreach(const struct hm_tracker *t,
			void (*fn)(int64_t pid, const struct hm_proc_view *v,
				   void *arg),
			void *arg);

#endif /* HISTMAC_TRACKER_H */
