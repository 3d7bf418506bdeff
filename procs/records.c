// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * records.c - what the keeper remembers of a process beyond its domain:
 * one record per pid, in one of the states of enum hm_procs_state, moved
 * by hm_procs_move() on each event (docs/ENFORCE.md "Exec naming" has
 * the table of states and events).  A process with no record is
 * HM_PROCS_TRACKED: the tracker's entry says all there is.
 *
 * One eviction rule: the records are HM_PROCS_SETS sets of
 * HM_PROCS_WAYS; a pid's record lives in set pid % HM_PROCS_SETS, and a
 * new one takes a free way or the one set longest ago (counted:
 * records_evicted).  An evicted process is as if it had no record:
 * orphaned, its children stay in the domain it ran the exec in; without
 * its leader, it stays in the tracker until its pid is reused.
 */
#include <string.h>

#include "procs_private.h"

const char *const hm_procs_state_names[HM_PROCS_STATES] = {
	[HM_PROCS_TRACKED] = "tracked",
	[HM_PROCS_NAMED] = "named",
	[HM_PROCS_ORPHANED] = "orphaned",
	[HM_PROCS_LEADERLESS] = "leaderless",
};

static struct hm_procs_rec *set_of(struct hm_procs *p, int32_t pid)
{
	return p->recs[(uint32_t)pid % HM_PROCS_SETS];
}

/**
 * hm_procs_rec() - @pid's record.
 * @p: the keeper.
 * @pid: a process id (> 0).
 * Returns: the record (borrowed until the next move), or NULL: none, the
 * process is HM_PROCS_TRACKED.
 */
struct hm_procs_rec *hm_procs_rec(struct hm_procs *p, int32_t pid)
{
	struct hm_procs_rec *s = set_of(p, pid);

	for (int i = 0; i < HM_PROCS_WAYS; i++)
		if (s[i].pid == pid)
			return &s[i];
	return NULL;
}

/**
 * hm_procs_state() - the state @pid's record is in.
 * @p: the keeper.
 * @pid: a process id.
 * Returns: its state; HM_PROCS_TRACKED without a record.
 */
enum hm_procs_state hm_procs_state(struct hm_procs *p, int32_t pid)
{
	const struct hm_procs_rec *r = hm_procs_rec(p, pid);

	return r ? r->state : HM_PROCS_TRACKED;
}

static void drop(struct hm_procs_rec *r)
{
	memset(r, 0, sizeof(*r));
}

/* A record for @pid: its own, a free way, or the oldest way evicted. */
static struct hm_procs_rec *take(struct hm_procs *p, int32_t pid)
{
	struct hm_procs_rec *s = set_of(p, pid), *old = &s[0];
	struct hm_procs_rec *r = hm_procs_rec(p, pid);

	if (r)
		return r;
	for (int i = 0; i < HM_PROCS_WAYS; i++) {
		if (!s[i].pid) {
			s[i].pid = pid;
			return &s[i];
		}
		if (s[i].stamp < old->stamp)
			old = &s[i];
	}
	/* an orphan that ran its own execs takes their judgements along */
	if (old->state == HM_PROCS_ORPHANED && old->ran == old->pid)
		hm_execs_drop(&p->x, old->pid);
	p->c->records_evicted++;
	drop(old);
	old->pid = pid;
	return old;
}

/* @r enters @state (counted when it changes). */
static void enter(struct hm_procs *p, struct hm_procs_rec *r,
		  enum hm_procs_state state)
{
	uint64_t *count[HM_PROCS_STATES] = {
		[HM_PROCS_NAMED] = &p->c->rec_named,
		[HM_PROCS_ORPHANED] = &p->c->rec_orphaned,
		[HM_PROCS_LEADERLESS] = &p->c->rec_leaderless,
	};

	if (r->state != state && count[state])
		(*count[state])++;
	r->state = state;
	r->stamp = ++p->rec_clock;
}

/*
 * @r's process was gone when its exec event at @a->ns was applied (a
 * daemon's parent exits right after its fork: start-stop-daemon's exec
 * of cron): nothing can read what it ran, but the children it forked
 * after the exec run it, and their fork events come before its exit's.
 * Its judged execs stay until that exit is reaped (or its pid is another
 * process's, or its way is taken); each such child enters the exec
 * (naming.c hm_procs_orphan_exec()).  Earlier execs of it still
 * unapplied are only counted (@r->before).
 */
static void gone_exec(struct hm_procs *p, struct hm_procs_rec *r,
		      const struct hm_procs_arg *a)
{
	if (r->state == HM_PROCS_ORPHANED) {
		r->before++;
	} else {
		r->ran = r->pid;
		r->before = 0;
	}
	r->ns = a->ns;
	enter(p, r, HM_PROCS_ORPHANED);
}

/**
 * hm_procs_move() - move @pid's record on @ev (the table of states and
 * events: docs/ENFORCE.md "Exec naming").
 * @p: the keeper.
 * @pid: the process.
 * @ev: what happened to it.
 * @a: the event's facts: the read (HM_PROCS_EV_NAMED), the exec event's
 *	time (HM_PROCS_EV_GONE_EXEC, HM_PROCS_EV_FORK), the orphaned
 *	parent's record (HM_PROCS_EV_INHERIT); NULL for the others.
 */
void hm_procs_move(struct hm_procs *p, int32_t pid, enum hm_procs_ev ev,
		   const struct hm_procs_arg *a)
{
	struct hm_procs_rec *r = hm_procs_rec(p, pid);
	enum hm_procs_state s = r ? r->state : HM_PROCS_TRACKED;

	switch (ev) {
	case HM_PROCS_EV_FORK:		/* the pid is another process */
		if (s == HM_PROCS_ORPHANED)
			hm_procs_drop_judged(p, pid, a->ns);
		/* fall through */
	case HM_PROCS_EV_REAPED:
		if (r)
			drop(r);
		return;
	case HM_PROCS_EV_EXEC:		/* the read is answered */
		if (s == HM_PROCS_NAMED || s == HM_PROCS_LEADERLESS)
			drop(r);
		return;
	case HM_PROCS_EV_NAMED:
		r = take(p, pid);
		r->read = a->read;
		enter(p, r, HM_PROCS_NAMED);
		return;
	case HM_PROCS_EV_GONE_EXEC:
		gone_exec(p, take(p, pid), a);
		return;
	case HM_PROCS_EV_INHERIT:	/* a gone child of an orphan */
		r = take(p, pid);
		r->ran = a->rec->ran;
		r->ns = a->rec->ns;
		r->before = 0;
		r->read = a->rec->read;
		enter(p, r, HM_PROCS_ORPHANED);
		return;
	case HM_PROCS_EV_LEADER_EXIT:	/* an orphan stays one */
		if (s != HM_PROCS_ORPHANED)
			enter(p, take(p, pid), HM_PROCS_LEADERLESS);
		return;
	}
}
