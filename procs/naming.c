// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * naming.c - an exec event applied: the name the process enters its next
 * domain by.  A judged exec (the enforcer's, judged.c) by the name its
 * judgement found, checked against what runs; one nobody judged from
 * /proc (called.c); one nobody can see, HM_EXEC_UNSEEN.  The cases and
 * their order are docs/ENFORCE.md's "Exec naming".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procs_private.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

/* ------------------------------------------------------------- events */

/* Is @e (what the process runs now) what @pe judged: the program, or
 * for a script its interpreter?  A domain changes only by an exec that
 * happened. */
static bool exec_happened(const struct hm_exe *e,
			  const struct hm_pending_exec *pe)
{
	char want[PATH_MAX];

	if (hm_execs_has_obj(pe, e->dev, e->ino))
		return true;
	/* a script whose interpreter is outside the marks: its exec open
	 * was not seen, only its name is known */
	return pe->script && pe->interp && realpath(pe->interp, want) &&
	       !strcmp(want, e->raw);
}

/* The judged exec that @pid's exec event at @ns is, when @e (what it
 * runs now, believed; NULL: nothing is) shows it: the oldest judged
 * before the event that matches; the ones before it failed after
 * their open and go. */
static struct hm_pending_exec *judged_exec(struct hm_procs *p, int32_t pid,
					   uint64_t ns, const struct hm_exe *e)
{
	struct hm_pending_exec *pe;

	while ((pe = hm_execs_oldest(&p->x, pid, ns)) &&
	       !(e && exec_happened(e, pe)))
		hm_execs_remove(&p->x, pe);
	return pe;
}

/* Forget @pid's execs judged before its exec event at @ns: applied, or
 * failed.  Those judged since are a later exec's. */
void hm_procs_drop_judged(struct hm_procs *p, int32_t pid, uint64_t ns)
{
	struct hm_pending_exec *pe;

	while ((pe = hm_execs_oldest(&p->x, pid, ns)))
		hm_execs_remove(&p->x, pe);
}

static void enter(struct hm_procs *p, const struct hm_task *task,
		  const struct hm_name *prog, const struct hm_name *real)
{
	struct hm_exec_result res;
	int r = hm_tracker_exec(p->t, task, prog, real, &res);

	if (r)
		hm_procs_log(p, "pid %d: exec not tracked: %s", (int)task->pid,
			     strerror(-r));
	else if (p->verbose)
		hm_procs_log(p, "pid %d exec %s: %s", (int)task->pid, prog->str,
			     res.now.name->str);
	p->c->execs++;
}

/* How long after an exec set the exe link its event may still come. */
#define HM_EXEC_DEFER_NS (20ull * 1000 * 1000)

/* @pid's exec was just named @prog from /proc (what it runs now: @e),
 * in the domain @from it ran in: kept for recheck_named(). */
static void note_named(struct hm_procs *p, int32_t pid,
		       const struct hm_proc_view *from, const struct hm_exe *e,
		       const struct hm_name *prog)
{
	struct hm_procs_arg a = { .read = {
		.from = from->name, .flags = from->flags, .hash = prog->hash,
		.len = prog->len, .read_ns = hm_now_ns(), .dev = e->dev,
		.ino = e->ino } };

	hm_procs_move(p, pid, HM_PROCS_EV_NAMED, &a);
}

/*
 * An exec whose program no judgement named (it is outside the marks, so
 * no FAN_OPEN_EXEC_PERM event was seen) and that /proc cannot name
 * either, because the process executed again before it was read:
 * /proc/PID/exe and the argv show the later program (an init script's
 * `env spawn-fcgi ...` read as spawn-fcgi), and nothing else tells what
 * this one ran.  It is never named by the later program: @task enters
 * HM_EXEC_UNSEEN below the domain it is in, a name no program has, so
 * the policy lacks that domain and everything below it (unless an
 * initialize_domain rule restarts a later exec): nothing is granted
 * there, no later program's rights are borrowed, and the log says so.
 * Marks on the directories the service runs programs from make every
 * exec judged, and named (docs/ENFORCE.md "Exec naming").
 */
static void enter_unseen(struct hm_procs *p, const struct hm_task *task,
			 const char *why)
{
	struct hm_name prog = { .str = HM_EXEC_UNSEEN,
				.len = sizeof(HM_EXEC_UNSEEN) - 1 };
	struct hm_proc_view now;

	hm_name_fill(&prog);
	p->c->exec_unseen++;
	enter(p, task, &prog, NULL);
	hm_procs_log(p, "pid %d: an exec outside the marks has no name (%s): "
		     "in %s (mark the directory of the program it ran)",
		     (int)task->pid, why,
		     hm_tracker_lookup(p->t, (int32_t)task->pid, &now) ?
		     now.name->str : "?");
}

/* The exec event of @pid has a later one queued behind it and no
 * judgement names it: enter_unseen().  Returns false when the process is
 * gone (hm_procs_on_exec() counts it). */
static bool exec_unseen(struct hm_procs *p, int32_t pid)
{
	struct hm_task task = { .pid = pid, .sec = time(NULL) };

	if (hm_procs_stat(pid, &task.ppid, NULL))
		return false;
	/* no name here either way */
	hm_procs_move(p, pid, HM_PROCS_EV_EXEC, NULL);
	enter_unseen(p, &task, "it executed again before it was read");
	return true;
}

/* May the read @n have seen the exec at @ns (object @dev, @ino or one of
 * @pe's; @script: its name when it is a script) instead of the one it
 * named?  recheck_named() says when. */
static bool named_saw(const struct hm_procs_read *n, uint64_t ns, uint64_t dev,
		      uint64_t ino, const struct hm_pending_exec *pe,
		      const struct hm_name *script)
{
	if (ns > n->read_ns + HM_EXEC_DEFER_NS)
		return false;
	if (script)
		return script->hash == n->hash && script->len == n->len;
	return pe ? hm_execs_has_obj(pe, n->dev, n->ino) :
		    n->dev == dev && n->ino == ino;
}

/* @task's domain was named by the read @n, which may have seen the next
 * program: back to the domain that exec ran in, then HM_EXEC_UNSEEN. */
static void retract_named(struct hm_procs *p, struct hm_task *task,
			  const struct hm_procs_read *n)
{
	if (hm_tracker_set(p->t, task->pid, task->ppid, NULL, 0, n->from->str,
			   n->from->len, n->flags, task->sec)) {
		p->c->errors++;
		return;
	}
	enter_unseen(p, task, "/proc may have shown the program it executed "
		     "next");
}

/*
 * The next exec of @pid (its event's time @ns) runs the object @dev,
 * @ino, or one of @pe's, and is named @script when it is a "#!" script
 * (else NULL).  When the exec before it was named from /proc and that
 * read may have seen this exec's program instead of its own, that name
 * is taken back: the process goes back to the domain it ran that exec
 * in and enters HM_EXEC_UNSEEN from there.  It may have when this event
 * came before the read or less than HM_EXEC_DEFER_NS after it (the
 * kernel sets the exe link before it sends the event) and the read
 * found the same object or, when this exec is a script, named the same
 * script (its interpreter may be the object the read found either way:
 * `sh -c SCRIPT`, and a judged script's interpreter outside the marks
 * is not among @pe's objects).
 * Nothing was judged in between: its events and forks apply this exec
 * first.  A program that executes itself that fast is named so too.
 */
static void recheck_named(struct hm_procs *p, struct hm_task *task,
			  uint64_t ns, uint64_t dev, uint64_t ino,
			  const struct hm_pending_exec *pe,
			  const struct hm_name *script)
{
	const struct hm_procs_rec *r = hm_procs_rec(p, (int32_t)task->pid);
	struct hm_procs_read n;

	if (!r || !r->read.from || r->state == HM_PROCS_ORPHANED)
		return;
	n = r->read;
	hm_procs_move(p, (int32_t)task->pid, HM_PROCS_EV_EXEC, NULL);
	if (named_saw(&n, ns, dev, ino, pe, script))
		retract_named(p, task, &n);
}

/*
 * An exec event with a later exec of the same process queued behind it:
 * /proc/PID/exe shows that later program already, so a judged exec is
 * entered by the name its judgement recorded, /proc unread (the later
 * event sets the exe).  Returns false when none was judged before the
 * event (outside the marks): named from /proc as ever.
 */
static bool exec_by_name(struct hm_procs *p, int32_t pid, uint64_t ns)
{
	struct hm_pending_exec *pe = hm_execs_oldest(&p->x, pid, ns);
	struct hm_task task = { .pid = pid, .sec = time(NULL) };
	struct hm_name prog = { 0 };

	if (!pe || hm_procs_stat(pid, &task.ppid, NULL))
		return false;
	prog.str = pe->program;
	prog.len = (uint32_t)strlen(pe->program);
	hm_name_fill(&prog);
	p->c->exec_by_name++;
	recheck_named(p, &task, ns, 0, 0, pe, pe->script ? &prog : NULL);
	enter(p, &task, &prog, NULL);
	hm_execs_remove(&p->x, pe);
	return true;
}

/*
 * A judged exec whose object /proc/PID/exe is not, or an exe link not
 * believed (@r -EPERM): either the judged exec failed after its open and
 * this event is another exec's (outside the marks), or the link was set
 * by prctl, or the process is in a later exec already, whose event is
 * not read yet: the kernel sets the exe link, then maps the program,
 * then sends the event.  Only the next event tells, so when nothing
 * needs the exec now it waits until the proc connector was read
 * HM_EXEC_DEFER_NS after its first wait (and said nothing of it): time
 * alone would not do, a daemon that lags behind reads old events.
 */
static bool may_wait(struct hm_procs *p, struct hm_execq *q, int r,
		     const struct hm_exe *e)
{
	struct hm_pending_exec *pe = hm_execs_oldest(&p->x, q->pid, q->ns);
	uint64_t now = hm_now_ns();

	if ((r != -EPERM && (!pe || exec_happened(e, pe))) ||
	    (q->waits && p->drained_ns > q->waits + HM_EXEC_DEFER_NS))
		return false;
	if (!q->waits) {
		q->waits = now;
		p->c->exec_deferred++;
	}
	return true;
}

/*
 * The names the exec of what @pid runs now (@e, believed) enters with:
 * @prog, as learn names it in the domain @from it ran in (NULL: not
 * known), the name @pe's judgement found (NULL: none) as the fallback
 * (hm_exec_name()); a judged "#!" script by its judgement; @real, the
 * real path.  @name (HM_MAX_WORD) holds a name made here.  Returns true
 * for a "#!" script (it has no realpath for the tracker).
 */
static bool exec_naming(struct hm_procs *p, int32_t pid, const struct hm_exe *e,
			const struct hm_pending_exec *pe,
			const struct hm_domain *from, char *name,
			struct hm_name *prog, struct hm_name *real)
{
	bool script = false;
	long k;

	*real = (struct hm_name){ .str = e->name, .len = (uint32_t)e->len };
	hm_name_fill(real);
	if (pe && pe->script) {	/* the script's own exec open was judged */
		*prog = (struct hm_name){ .str = pe->program,
			.len = (uint32_t)strlen(pe->program) };
		hm_name_fill(prog);
		p->c->exec_pending++;
		return true;
	}
	/* a program judged, or an interpreter judged for a script outside
	 * the marks, or nothing judged (outside the marks) */
	k = hm_exec_name(from, pid, e, pe, p->judged_open, name, HM_MAX_WORD,
			 &script);
	*prog = k > 0 ? (struct hm_name){ .str = name, .len = (uint32_t)k } :
			*real;
	hm_name_fill(prog);
	if (pe)
		p->c->exec_pending++;
	else
		p->c->exec_fallback++;
	return script;
}

/* The newest of @pid's execs judged before @ns whose object @e runs
 * (the judgements stay: every child of a gone process needs them). */
static const struct hm_pending_exec *judged_last(struct hm_procs *p,
						 int32_t pid, uint64_t ns,
						 const struct hm_exe *e)
{
	const struct hm_pending_exec *best = NULL;

	for (size_t i = 0; i < p->x.n; i++) {
		const struct hm_pending_exec *pe = &p->x.pend[i];

		if (pe->pid == pid && pe->since_ns <= ns &&
		    exec_happened(e, pe) && (!best || pe->seq > best->seq))
			best = pe;
	}
	return best;
}

/*
 * Name the exec @o of a gone process from @task, a child it forked after
 * it, by what the child runs (@e): its judged name when the child runs
 * its object, else as learn names it.  The child may have executed
 * another program already: the read is noted for the child's next exec
 * (recheck_named()), and a read of the gone process that may have seen
 * this exec's program takes that one's name back (retract_named()).
 */
static void orphan_named(struct hm_procs *p, struct hm_task *task,
			 const struct hm_procs_rec *o, struct hm_exe *e)
{
	const struct hm_pending_exec *pe = judged_last(p, o->ran, o->ns, e);
	const struct hm_procs_read *n = &o->read;
	struct hm_name prog, real;
	struct hm_proc_view was;
	char name[HM_MAX_WORD];
	bool known = hm_tracker_lookup(p->t, task->pid, &was), script;

	task->exe = e->name;
	task->exe_len = (size_t)e->len;
	script = exec_naming(p, (int32_t)task->pid, e, pe,
			     known ? was.domain : NULL, name, &prog, &real);
	if (n->from &&
	    named_saw(n, o->ns, e->dev, e->ino, pe, script ? &prog : NULL))
		retract_named(p, task, n);
	if (!pe)	/* the domain it runs this exec in: maybe moved */
		known = hm_tracker_lookup(p->t, task->pid, &was);
	enter(p, task, &prog, script ? NULL : &real);
	if (!pe && known)
		note_named(p, (int32_t)task->pid, &was, e, &prog);
}

/*
 * @child was just forked by @parent, which was gone before its last exec
 * was applied (HM_PROCS_ORPHANED): the child enters that exec, named by what
 * it runs.  Nothing is guessed: earlier execs of the parent still
 * unapplied, or a child whose exe link is not believed, enter
 * HM_EXEC_UNSEEN; a child gone too passes the exec on to its own
 * children.
 */
void hm_procs_orphan_exec(struct hm_procs *p, int32_t child, int32_t parent)
{
	const struct hm_procs_rec *rec = hm_procs_rec(p, parent);
	struct hm_task task = { .pid = child, .ppid = parent,
				.sec = time(NULL) };
	struct hm_procs_rec o;
	struct hm_exe e;
	int r;

	if (!rec || rec->state != HM_PROCS_ORPHANED)
		return;
	o = *rec;	/* moves below may take its way */
	p->c->exec_orphan++;
	if (o.before)
		enter_unseen(p, &task, "it executed again and was gone before "
			     "it was read");
	r = hm_procs_read_exe(p, child, false, &e);
	if (r && r != -EPERM) {
		hm_procs_move(p, child, HM_PROCS_EV_INHERIT,
			      &(struct hm_procs_arg){ .rec = &o });
		return;
	}
	if (r)
		enter_unseen(p, &task, "it was gone before it was read, and "
			     "its child's exe link is not believed");
	else
		orphan_named(p, &task, &o, &e);
}

/* Apply the exec event @q.  @more: a later exec of it is queued;
 * @may_defer: nothing needs it now.  Returns true when it stays queued. */
bool hm_procs_on_exec(struct hm_procs *p, struct hm_execq *q, bool more,
		    bool may_defer)
{
	int32_t pid = q->pid;
	uint64_t ns = q->ns;
	struct hm_exe e;
	struct hm_task task = { .pid = pid, .sec = time(NULL) };
	struct hm_pending_exec *pe;
	struct hm_name prog = { 0 }, real = { 0 };
	struct hm_proc_view was;
	char name[HM_MAX_WORD];
	bool script, known;
	int r;

	if (more && (exec_by_name(p, pid, ns) || exec_unseen(p, pid)))
		return false;
	/* a leader may be gone */
	r = hm_procs_read_exe(p, pid, false, &e);
	if ((r && r != -EPERM) || hm_procs_stat(pid, &task.ppid, NULL)) {
		/* gone already (its exit event follows): what it still had
		 * queued is judged in the domain it had before this exec;
		 * the children it forked after it enter it (ORPHANED) */
		p->c->exec_gone++;
		hm_procs_move(p, pid, HM_PROCS_EV_GONE_EXEC,
			      &(struct hm_procs_arg){ .ns = ns });
		return false;
	}
	if (may_defer && may_wait(p, q, r, &e))
		return true;
	/* a judged exec that failed after its open, followed by another
	 * (outside the marks), is not entered by the judged name */
	pe = judged_exec(p, pid, ns, r ? NULL : &e);
	if (!pe && r) {
		/* exec'd, then set its own exe link: no name to believe, and
		 * no <kernel>: it stays in its domain, as by keep_domain */
		hm_procs_log_unbelieved(p, pid, &e,
					"the exec keeps its domain");
		hm_procs_move(p, pid, HM_PROCS_EV_EXEC, NULL);
		hm_procs_check_traced(p, pid, true);
		return false;
	}
	task.exe = e.name;
	task.exe_len = (size_t)e.len;
	known = hm_tracker_lookup(p->t, pid, &was);
	script = exec_naming(p, pid, &e, pe, known ? was.domain : NULL, name,
			     &prog, &real);
	recheck_named(p, &task, ns, e.dev, e.ino, pe, script ? &prog : NULL);
	if (!pe)	/* the domain it runs this exec in: maybe moved */
		known = hm_tracker_lookup(p->t, pid, &was);
	enter(p, &task, &prog, script ? NULL : &real);
	if (!pe && known)
		note_named(p, pid, &was, &e, &prog);
	hm_procs_drop_judged(p, pid, ns);
	hm_procs_check_traced(p, pid, true);
	return false;
}
