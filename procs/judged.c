// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * judged.c - the execs the enforcer judged, until their proc events
 * come.  fanotify shows the real path of what is executed; learned
 * domain names use the path passed to execve.  When an exec is allowed
 * in domain D for real path R, the program name the decision found (an
 * execute entry matching R, or one whose exec.realpath is R) is kept
 * here, one entry per judged exec, in order; the exec event then enters
 * the next domain (naming.c) by the name the exec was called by,
 * checked against what runs (hm_exec_name()), else by that judged name.
 * The loader or #! interpreter the same execve opens next is part of
 * that exec, as are the plain opens of the same files that fsnotify
 * sends after each exec open.  Owns the pending table.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procs_private.h"
#include "histmac/naming.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

/* The oldest (@newest false) or newest pending exec of @pid, or NULL. */
static struct hm_pending_exec *find_by_age(struct hm_execs *x, int32_t pid,
					   bool newest)
{
	struct hm_pending_exec *best = NULL;

	for (size_t i = 0; i < x->n; i++) {
		struct hm_pending_exec *pe = &x->pend[i];

		if (pe->pid == pid &&
		    (!best || (newest ? pe->seq > best->seq :
					pe->seq < best->seq)))
			best = pe;
	}
	return best;
}

/**
 * hm_execs_find() - the newest pending exec of @pid: the exec it is in
 * now (its loader and interpreter opens are part of that one).
 * @x: the table.
 * @pid: a process (thread group) id.
 * Returns: the entry or NULL; borrowed until the table changes.
 */
struct hm_pending_exec *hm_execs_find(struct hm_execs *x, int32_t pid)
{
	return find_by_age(x, pid, true);
}

/**
 * hm_execs_oldest() - the oldest pending exec of @pid judged before
 * @before_ns: the one an exec event of that time names when a later
 * exec of the same process is queued too (naming.c).
 * @x: the table.
 * @pid: a process id.
 * @before_ns: the exec event's time (CLOCK_MONOTONIC, as hm_now_ns()).
 * Returns: the entry or NULL; borrowed until the table changes.
 */
struct hm_pending_exec *hm_execs_oldest(struct hm_execs *x, int32_t pid,
					uint64_t before_ns)
{
	struct hm_pending_exec *pe = find_by_age(x, pid, false);

	return pe && pe->since_ns <= before_ns ? pe : NULL;
}

static void pending_free(struct hm_pending_exec *pe)
{
	free(pe->program);
	free(pe->interp);
}

static void pending_remove(struct hm_execs *x, size_t i)
{
	pending_free(&x->pend[i]);
	x->pend[i] = x->pend[--x->n];
}

/**
 * hm_execs_drop() - forget @pid's pending execs (applied, or it is gone).
 * @x: the table.
 * @pid: a process id.
 */
void hm_execs_drop(struct hm_execs *x, int32_t pid)
{
	for (size_t i = 0; i < x->n;)
		if (x->pend[i].pid == pid)
			pending_remove(x, i);
		else
			i++;
}

/**
 * hm_execs_remove() - forget one pending exec (applied).
 * @x: the table.
 * @pe: an entry of @x (hm_execs_find(), hm_execs_oldest()).
 */
void hm_execs_remove(struct hm_execs *x, struct hm_pending_exec *pe)
{
	pending_remove(x, (size_t)(pe - x->pend));
}

/**
 * hm_execs_expire() - forget execs that never arrived (the execve failed
 * after the open) HM_EXECS_TTL_NS after they were judged.
 * @x: the table.
 * @now: hm_now_ns().
 */
void hm_execs_expire(struct hm_execs *x, uint64_t now)
{
	/* @now may be older than an entry set since (the loop's wake
	 * time): that one is young, not 2^64 ns old */
	for (size_t i = 0; i < x->n;)
		if (now > x->pend[i].since_ns &&
		    now - x->pend[i].since_ns > HM_EXECS_TTL_NS)
			pending_remove(x, i);
		else
			i++;
}

/**
 * hm_execs_clear() - forget every pending exec, freeing what they hold.
 * @x: the table.
 */
void hm_execs_clear(struct hm_execs *x)
{
	while (x->n)
		pending_remove(x, x->n - 1);
}

static void add_obj(struct hm_pending_exec *pe, uint64_t dev, uint64_t ino)
{
	if (pe->n_obj < (int)HM_ARRAY_SIZE(pe->ino)) {
		pe->dev[pe->n_obj] = dev;
		pe->ino[pe->n_obj] = ino;
		pe->n_obj++;
	}
}

/**
 * hm_execs_has_obj() - did @pe's exec open the object @dev, @ino?
 * @pe: a pending exec.
 * @dev, @ino: the object.
 * Returns: true when it is the program, its loader or its interpreter.
 */
bool hm_execs_has_obj(const struct hm_pending_exec *pe, uint64_t dev,
		      uint64_t ino)
{
	for (int i = 0; i < pe->n_obj; i++)
		if (pe->dev[i] == dev && pe->ino[i] == ino)
			return true;
	return false;
}

/* How many pending execs of @pid, and its oldest one. */
static size_t count_of(struct hm_execs *x, int32_t pid, size_t *oldest)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++)
		if (x->pend[i].pid == pid &&
		    (!n++ || x->pend[i].seq < x->pend[*oldest].seq))
			*oldest = i;
	return n;
}

/* Room for one more entry of @pid: its own oldest goes past
 * HM_EXECS_PER_PID (execs that failed after their open), the table's
 * oldest when it is full. */
static void make_room(struct hm_execs *x, int32_t pid)
{
	size_t oldest = 0;

	if (count_of(x, pid, &oldest) >= HM_EXECS_PER_PID) {
		pending_remove(x, oldest);
		return;
	}
	if (x->n < HM_EXECS_MAX)
		return;
	oldest = 0;
	for (size_t i = 1; i < x->n; i++)
		if (x->pend[i].seq < x->pend[oldest].seq)
			oldest = i;
	pending_remove(x, oldest);
}

/**
 * hm_execs_set() - @pid's exec of @program was allowed: enter with that
 * name when the proc connector says the exec happened.  Each judged exec
 * is its own entry, in order: a process may exec again before its first
 * exec event is applied (naming.c applies each event by its own entry).
 * @x: the table; when full, the oldest entry makes room.
 * @pid: the process.
 * @program: the encoded name to enter the next domain with (copied).
 * @fd: the event fd of the exec open: what it names next (a "#!"
 *	interpreter, an ELF loader) is read from it; -1: nothing.
 * @dev, @ino: the program's object.
 * Returns: 0 or -ENOMEM.
 */
int hm_execs_set(struct hm_execs *x, int32_t pid, const char *program,
		 int fd, uint64_t dev, uint64_t ino)
{
	struct hm_pending_exec *pe;
	char *prog = strdup(program);

	if (!prog)
		return -ENOMEM;
	make_room(x, pid);
	pe = &x->pend[x->n++];
	memset(pe, 0, sizeof(*pe));
	pe->pid = pid;
	pe->program = prog;
	pe->since_ns = hm_now_ns();
	pe->seq = ++x->seq;
	pe->interp = hm_exec_interp(fd, &pe->script);
	add_obj(pe, dev, ino);
	return 0;
}

/**
 * hm_execs_interp() - is this exec open (real path @raw) the loader or
 * interpreter of @pe's exec?  Then it becomes part of it, and what it
 * names in turn is next.
 * @pe: a pending exec.
 * @raw: the real path of the exec open.
 * @fd: its event fd (read, never closed here).
 * @dev, @ino: its object.
 * Returns: true when it is part of @pe's exec.
 */
bool hm_execs_interp(struct hm_pending_exec *pe, const char *raw, int fd,
		     uint64_t dev, uint64_t ino)
{
	char real[PATH_MAX];
	bool script;

	if (!pe->interp || !realpath(pe->interp, real) || strcmp(real, raw))
		return false;
	free(pe->interp);
	pe->interp = hm_exec_interp(fd, &script);
	add_obj(pe, dev, ino);
	return true;
}


/**
 * hm_procs_judged() - @pid's exec was let through (hm_execs_set()).
 * @p: the keeper.
 * @pid: the process.
 * @program: the encoded name to enter the next domain with (copied).
 * @fd: the event fd of the exec open, or -1.
 * @dev, @ino: the program's object.
 * @allowed: by an entry of the policy (a name the exec was called by
 *	may then take its place only when the policy names it:
 *	hm_exec_name()).
 * Returns: 0 or -ENOMEM.
 */
int hm_procs_judged(struct hm_procs *p, int32_t pid, const char *program,
		    int fd, uint64_t dev, uint64_t ino, bool allowed)
{
	int r = hm_execs_set(&p->x, pid, program, fd, dev, ino);

	if (!r && allowed)
		hm_execs_find(&p->x, pid)->allowed = true;
	return r;
}

/**
 * hm_procs_exec_part() - is an exec open part of @pid's judged exec: its
 * ELF loader, or a "#!" script's interpreter (hm_execs_interp())?
 * @p: the keeper.
 * @pid: the process.
 * @raw: the real path of the exec open.
 * @fd: its event fd (read, never closed here).
 * @dev, @ino: its object.
 * @script: for an interpreter, the script's judged name (borrowed until
 *	the next call into the keeper).
 * Returns: 0 (not part of it), 1 (the loader), 2 (the interpreter).
 */
int hm_procs_exec_part(struct hm_procs *p, int32_t pid, const char *raw,
		       int fd, uint64_t dev, uint64_t ino,
		       const char **script)
{
	struct hm_pending_exec *pe = p->x.n ? hm_execs_find(&p->x, pid) :
					      NULL;

	*script = NULL;
	if (!pe || !hm_execs_interp(pe, raw, fd, dev, ino))
		return 0;
	if (!pe->script)
		return 1;
	*script = pe->program;
	return 2;
}

/**
 * hm_procs_exec_obj() - did @pid's judged exec open the object @dev,
 * @ino (its program, loader or interpreter)?  fsnotify sends a plain
 * open of each after its exec open.
 * @p: the keeper.
 * @pid: the process.
 * @dev, @ino: the object.
 * Returns: true when it did.
 */
bool hm_procs_exec_obj(struct hm_procs *p, int32_t pid, uint64_t dev,
		       uint64_t ino)
{
	struct hm_pending_exec *pe = p->x.n ? hm_execs_find(&p->x, pid) :
					      NULL;

	return pe && hm_execs_has_obj(pe, dev, ino);
}
