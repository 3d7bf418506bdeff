// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.c - traced processes: a tracee is judged in its tracer's domain
 * (the tracer decides what it does) and, once attached, takes that
 * domain for good.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "procs_private.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

/* ------------------------------------------------------------ ptrace */

/* TracerPid of task @pid (/proc/PID/status), 0 when not traced or gone. */
static int32_t read_tracer(int32_t pid)
{
	char buf[4096];
	const char *t;

	if (hm_procfs_status(pid, buf, sizeof(buf)) <= 0 ||
	    !(t = hm_procfs_field(buf, "TracerPid")))
		return 0;
	return (int32_t)strtol(t, NULL, 10);
}

/*
 * Tracee @tgid takes tracer @group's domain for good: what the tracer
 * made it do (code written into it, an exec it set up) outlives the
 * detach, so it never gets back a domain wider than the tracer's.  Not
 * at a scan (@move false): the tracer may not be placed yet; while
 * traced it is judged in the tracer's domain all the same.
 */
static void move_to_tracer(struct hm_procs *p, int32_t tgid, int32_t group)
{
	struct hm_proc_view tv, cur;
	int64_t ppid;

	if (group == tgid || hm_procs_where(p, group, &tv) ||
	    hm_procs_stat(tgid, &ppid, NULL) ||
	    (hm_tracker_lookup(p->t, tgid, &cur) && cur.name == tv.name))
		return;
	hm_procs_log(p, "pid %d traced by %d: moved to its domain %s", tgid,
		     group, tv.name->str);
	if (hm_tracker_set(p->t, tgid, ppid, NULL, 0, tv.name->str,
			   tv.name->len, tv.flags, time(NULL)))
		p->c->errors++;
}

/* Thread @tid of @tgid is traced by thread group @group (0: detached);
 * @move: move_to_tracer(). */
void hm_procs_set_traced(struct hm_procs *p, int32_t tid, int32_t tgid,
		       int32_t group, bool move)
{
	struct hm_traced *free_slot = NULL;

	if (group && move) {
		if (p->n_execq) {	/* what both did before the attach */
			hm_procs_apply(p, tgid);
			hm_procs_apply(p, group);
		}
		move_to_tracer(p, tgid, group);
	}

	for (size_t i = 0; i < p->n_traced; i++)
		if (p->traced[i].tid == tid) {
			if (!group)
				p->traced[i] = p->traced[--p->n_traced];
			else
				p->traced[i].tracer = group;
			return;
		}
	if (!group)
		return;
	if (p->n_traced < HM_ARRAY_SIZE(p->traced))
		free_slot = &p->traced[p->n_traced++];
	if (!free_slot) {
		if (!p->traced_full)
			hm_procs_log(p, "more than %zu traced threads: "
				     "TracerPid is read for every event from "
				     "now on", HM_ARRAY_SIZE(p->traced));
		p->traced_full = true;
		return;
	}
	*free_slot = (struct hm_traced){ .tid = tid, .tgid = tgid,
					 .tracer = group };
	if (p->verbose)
		hm_procs_log(p, "pid %d (thread %d) traced by %d", tgid, tid,
			     group);
}

/* Thread @tid exits; it led group @tgid when they are equal.  A tracer
 * that exits detaches its tracees, and no event says so. */
void hm_procs_untrace_exit(struct hm_procs *p, int32_t tid, int32_t tgid)
{
	for (size_t i = 0; i < p->n_traced;)
		if (p->traced[i].tid == tid ||
		    (tid == tgid && p->traced[i].tracer == tgid))
			p->traced[i] = p->traced[--p->n_traced];
		else
			i++;
}

/* A process just seen exec or fork (@move), or found at a scan:
 * TracerPid tells a tracer that no event named (PTRACE_TRACEME, a
 * tracer's PTRACE_O_TRACEFORK). */
void hm_procs_check_traced(struct hm_procs *p, int32_t pid, bool move)
{
	int32_t tracer = read_tracer(pid), group;

	if (!tracer)
		return;
	if (hm_procs_tgid(p, tracer, &group))
		group = tracer;	/* gone already: checked when used */
	hm_procs_set_traced(p, pid, pid, group, move);
}

int32_t hm_procs_tracer_of(struct hm_procs *p, int32_t tgid)
{
	int32_t tracer, group;

	for (size_t i = 0; i < p->n_traced; i++)
		if (p->traced[i].tgid == tgid)
			return p->traced[i].tracer;
	if (!p->traced_full || !(tracer = read_tracer(tgid)))
		return 0;
	return hm_procs_tgid(p, tracer, &group) ? tracer : group;
}
