// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.c - the tracing source: run a command and every descendant under
 * ptrace, stopped by a seccomp filter only at the calls histmac learns
 * (trace_calls.c), and hand out each finished call as an event
 * (trace_event.c), as the audit path would (docs/TRACE.md).
 *
 * How a task moves, by what waitpid() reports:
 *
 *	seccomp stop		read the call (trace_read.c); resume to its
 *				syscall-exit stop (PTRACE_SYSCALL)
 *	syscall-exit stop	the event; resume (PTRACE_CONT: the calls
 *				the filter lets by make no stop)
 *	PTRACE_EVENT_EXEC	the exec's event (success), the process
 *				read anew; a non-leader's exec moves its
 *				call to the leader's pid
 *	PTRACE_EVENT_FORK,	a clone record's event, unless the new task
 *	 _VFORK, _CLONE		is a thread; the new task, held at its
 *				first stop until then, goes on
 *	PTRACE_EVENT_STOP	a new task's first stop, or a group-stop
 *				(PTRACE_LISTEN: it stays stopped, as
 *				without a tracer, until SIGCONT)
 *	other stop		a signal: delivered as it came
 *	exit, killed		the task is forgotten; the command's own
 *				wait status is kept
 *
 * The command is forked, waits on a pipe until it is seized, installs
 * the filter (with no_new_privs when it lacks CAP_SYS_ADMIN) and
 * executes.  PTRACE_O_EXITKILL: the traced tasks die with the tracer.
 *
 * Owns: the task table (a thread per row: its call in flight and its
 * process's exe, login and session), the canon instance.  Next:
 * collector.c hands the events out.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include "histmac/procfs.h"
#include "internal.h"

#define SOCKETS 4096	/* sockets remembered (the assembler's bound) */

#define OPTIONS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | \
		 PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |    \
		 PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT |    \
		 PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP)

struct task {
	pid_t tid;
	pid_t tgid;
	bool started;		/* its first stop was seen */
	bool claimed;		/* its parent's fork event was handed out */
	bool held;		/* stopped at its first stop until claimed */
	struct hm_tentry call;
	struct hm_tproc proc;
};

struct hm_tracer {
	struct hm_report *rep;
	struct hm_canon *canon;
	struct hm_socktab *socks;	/* socket types per (pid, fd) */
	struct task **tasks;
	size_t n, cap;
	pid_t root;
	int status;		/* the command's wait status, -1 running */
	int exec_pipe;		/* the command's exec errno comes here */
	int exec_err;
	struct hm_event ev;	/* the one handed out */
};

/* --------------------------------------------------------------- tasks */

static struct task *find(struct hm_tracer *t, pid_t tid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->tasks[i]->tid == tid)
			return t->tasks[i];
	return NULL;
}

static pid_t tgid_of(pid_t tid)
{
	char st[4096];
	const char *v;

	if (hm_procfs_status(tid, st, sizeof(st)) < 0)
		return tid;
	v = hm_procfs_field(st, "Tgid");
	return v ? (pid_t)strtol(v, NULL, 10) : tid;
}

/* A task first seen: its process read (a thread shares its leader's). */
static struct task *add(struct hm_tracer *t, pid_t tid)
{
	struct task *k;
	struct task *leader;

	if (HM_ARRAY_GROW(&t->tasks, &t->cap, t->n + 1))
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->tid = tid;
	k->tgid = tgid_of(tid);
	leader = k->tgid != tid ? find(t, k->tgid) : NULL;
	if (leader) {
		k->proc.auid = leader->proc.auid;
		k->proc.ses = leader->proc.ses;
		hm_sbuf_add(&k->proc.exe, leader->proc.exe.s,
			    leader->proc.exe.len);
	} else {
		hm_tproc_read(&k->proc, k->tgid);
	}
	if (k->proc.exe.oom) {
		hm_sbuf_free(&k->proc.exe);
		free(k);
		return NULL;
	}
	t->tasks[t->n++] = k;
	return k;
}

static void drop(struct hm_tracer *t, struct task *k)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->tasks[i] == k) {
			t->tasks[i] = t->tasks[--t->n];
			break;
		}
	hm_tentry_free(&k->call);
	hm_sbuf_free(&k->proc.exe);
	free(k);
}

/* ------------------------------------------------------------- the child */

/* In the forked child: wait to be seized, filter, execute.  Only
 * async-signal-safe calls; the exec's errno goes back on @fd. */
static void child(char *const argv[], int go, int fd,
		  const struct sock_fprog *prog)
{
	char c;
	int err;

	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	close(go);
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog) &&
	    (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	     syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog))) {
		err = errno;
		(void)!write(fd, &err, sizeof(err));
		_exit(126);
	}
	execvp(argv[0], argv);
	err = errno;
	(void)!write(fd, &err, sizeof(err));
	_exit(err == ENOENT ? 127 : 126);
}

/* Fork the command; seize it before it may go on. */
static int start(struct hm_tracer *t, char *const argv[])
{
	struct sock_fprog prog;
	int go[2], ex[2];
	pid_t pid;
	int r = hm_tcall_filter(&prog);

	if (r)
		return r;
	if (pipe2(go, O_CLOEXEC) || pipe2(ex, O_CLOEXEC)) {
		free(prog.filter);
		return -errno;
	}
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(ex[0]);
		child(argv, go[0], ex[1], &prog);
	}
	free(prog.filter);
	close(go[0]);
	close(ex[1]);
	t->exec_pipe = ex[0];
	if (pid < 0) {
		close(go[1]);
		return -errno;
	}
	t->root = pid;
	if (ptrace(PTRACE_SEIZE, pid, 0, (void *)(long)OPTIONS)) {
		r = -errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(go[1]);
		return r;
	}
	close(go[1]);	/* go */
	if (!add(t, pid))
		return -ENOMEM;
	find(t, pid)->started = find(t, pid)->claimed = true;
	return 0;
}

int hm_tracer_new(char *const argv[], const struct hm_collector_opts *o,
		  struct hm_report *rep, struct hm_tracer **out)
{
	struct hm_tracer *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->rep = rep;
	t->status = -1;
	t->exec_pipe = -1;
	t->canon = hm_canon_new(o->resolve_root,
				o->resolve_root || o->resolve != 0, &rep->st);
	if (!t->canon) {
		free(t);
		return -ENOMEM;
	}
	hm_canon_set_live(t->canon, true);	/* files change as it runs */
	t->socks = hm_socktab_new(SOCKETS);
	if (!t->socks) {
		hm_tracer_free(t);
		return -ENOMEM;
	}
	r = start(t, argv);
	if (r) {
		hm_tracer_free(t);
		return r;
	}
	*out = t;
	return 0;
}

/* ------------------------------------------------------------- stops */

/* Resume @tid, delivering @sig; a task gone meanwhile is no error. */
static void resume(pid_t tid, int how, int sig)
{
	ptrace(how, tid, 0, (void *)(long)sig);
}

/*
 * What an event's making returned, for the caller: the event (1), or
 * none (0) when the task could not be read (gone, /proc refused:
 * counted): the call is not learned, and the command goes on.  Only
 * the lack of memory stops the source.
 */
static int made(struct hm_tracer *t, int r)
{
	if (r < 0 && r != -ENOMEM)
		t->rep->st.traced_unread++;
	return r == -ENOMEM || r > 0 ? r : 0;
}

/*
 * Resume @k after a stop that is not its call's: a call in flight keeps
 * its way to the exit stop (a signal or a group-stop can come between a
 * call's two stops, and PTRACE_CONT would lose its exit).
 */
static void go_on(struct task *k, int sig)
{
	resume(k->tid, k->call.on ? PTRACE_SYSCALL : PTRACE_CONT, sig);
}

/*
 * sendto() and recvfrom() without an address (a connected socket's
 * traffic) make no entry (the walker has no address to learn): they are
 * let go at their seccomp stop, without a second stop or an event.
 */
static bool no_address(const struct hm_tentry *e)
{
	return (!strcmp(e->si->name, "sendto") ||
		!strcmp(e->si->name, "recvfrom")) && !e->a[4];
}

/* A seccomp stop: read the call, run it to its exit stop. */
static int entry(struct hm_tracer *t, struct task *k)
{
	struct __ptrace_syscall_info si;
	struct hm_tentry *e = &k->call;
	int r;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, k->tid, sizeof(si), &si) <= 0 ||
	    si.op != PTRACE_SYSCALL_INFO_SECCOMP)
		return resume(k->tid, PTRACE_CONT, 0), 0;
	e->arch = (int)si.arch;
	e->nr = (int)si.seccomp.nr;
	memcpy(e->a, si.seccomp.args, sizeof(e->a));
	e->si = hm_tcall_arch_known(si.arch) ?
		hm_syscall_lookup(e->arch, e->nr) : NULL;
	e->tc = e->si ? hm_tcall_find(e->si->name) : NULL;
	if (!e->tc) {	/* another ABI (x32): not read */
		t->rep->st.traced_other_abi++;
		return resume(k->tid, PTRACE_CONT, 0), 0;
	}
	if (no_address(e))
		return resume(k->tid, PTRACE_CONT, 0), 0;
	r = hm_tentry_read(e, k->tid);
	if (r)
		return r;
	e->on = true;
	resume(k->tid, PTRACE_SYSCALL, 0);
	return 0;
}

/* @k's call, returned with @rval: its event into @ev. */
static int event(struct hm_tracer *t, struct task *k, struct hm_arena *a,
		 int64_t rval, bool failed, struct hm_event *ev)
{
	struct hm_trace_ctx x = {
		.canon = t->canon, .socks = t->socks, .st = &t->rep->st, .a = a,
	};

	if (!failed)
		hm_tentry_peer(&k->call, k->tid);
	return hm_trace_event(&x, &k->call, &k->proc, k->tid, rval, failed,
			      ev);
}

/* A syscall-exit stop: the call's event. */
static int leave(struct hm_tracer *t, struct task *k, struct hm_arena *a,
		 struct hm_event *ev)
{
	struct __ptrace_syscall_info si;
	int r = 0;

	if (k->call.on &&
	    ptrace(PTRACE_GET_SYSCALL_INFO, k->tid, sizeof(si), &si) > 0 &&
	    si.op == PTRACE_SYSCALL_INFO_EXIT)
		r = event(t, k, a, si.exit.rval, si.exit.is_error, ev);
	k->call.on = false;
	resume(k->tid, PTRACE_CONT, 0);
	return made(t, r);
}

/*
 * PTRACE_EVENT_EXEC, reported by the thread group's leader pid: an exec
 * from another thread moved that thread (and its call) to it, and the
 * other threads are gone.
 */
static int exec_done(struct hm_tracer *t, struct task *k, struct hm_arena *a,
		     struct hm_event *ev)
{
	unsigned long old = 0;
	struct task *from;
	int r = 0;

	ptrace(PTRACE_GETEVENTMSG, k->tid, 0, &old);
	from = (pid_t)old != k->tid ? find(t, (pid_t)old) : NULL;
	if (from) {
		struct hm_tentry c = k->call;

		k->call = from->call;
		from->call = c;
		drop(t, from);
	}
	r = hm_tproc_read(&k->proc, k->tgid);
	if (!r && k->call.on && k->call.si->kind == HM_EV_EXEC)
		r = event(t, k, a, 0, false, ev);
	k->call.on = false;
	resume(k->tid, PTRACE_CONT, 0);
	return made(t, r);
}

/* A new task: hand out its parent's clone record (not a thread's), then
 * let the child go if it is waiting for that. */
static int forked(struct hm_tracer *t, struct task *k, struct hm_arena *a,
		  struct hm_event *ev)
{
	unsigned long msg = 0;
	struct task *c;
	int r = 0;

	ptrace(PTRACE_GETEVENTMSG, k->tid, 0, &msg);
	c = find(t, (pid_t)msg);
	if (!c && !(c = add(t, (pid_t)msg)))
		return -ENOMEM;
	c->claimed = true;
	if (c->tgid != k->tgid)
		r = hm_trace_fork_event(a, &k->proc, k->tid, c->tgid, ev);
	if (c->held) {
		c->held = false;
		resume(c->tid, PTRACE_CONT, 0);
	}
	go_on(k, 0);
	return made(t, r);
}

static bool stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	       sig == SIGTTOU;
}

/* PTRACE_EVENT_STOP: a new task's first stop (held until its parent's
 * event is out), or a group-stop, which stays a stop. */
static void event_stop(struct task *k, int sig)
{
	if (!k->started) {
		k->started = true;
		if (!k->claimed) {
			k->held = true;
			return;
		}
		go_on(k, 0);
		return;
	}
	if (stop_signal(sig))
		resume(k->tid, PTRACE_LISTEN, 0);
	else
		go_on(k, 0);
}

/* One stop of @k; 1 when it made an event. */
static int stopped(struct hm_tracer *t, struct task *k, int status,
		   struct hm_arena *a, struct hm_event *ev)
{
	int sig = WSTOPSIG(status);
	int event = (unsigned)status >> 16;

	if (sig == (SIGTRAP | 0x80))
		return leave(t, k, a, ev);
	switch (event) {
	case PTRACE_EVENT_SECCOMP:
		return entry(t, k);
	case PTRACE_EVENT_EXEC:
		return exec_done(t, k, a, ev);
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		return forked(t, k, a, ev);
	case PTRACE_EVENT_STOP:
		event_stop(k, sig);
		return 0;
	case PTRACE_EVENT_EXIT:
		go_on(k, 0);
		return 0;
	default:	/* a signal on its way: delivered */
		k->started = true;
		go_on(k, sig);
		return 0;
	}
}

/* A task ended.  A new task held for its parent's event goes on if
 * that parent died before it could report the clone. */
static void ended(struct hm_tracer *t, struct task *k, int status)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->tasks[i]->held && t->tasks[i] != k) {
			t->tasks[i]->held = false;
			resume(t->tasks[i]->tid, PTRACE_CONT, 0);
		}
	if (k->tid == t->root) {
		t->status = status;
		if (t->exec_pipe >= 0 &&
		    read(t->exec_pipe, &t->exec_err, sizeof(t->exec_err)) !=
		    sizeof(t->exec_err))
			t->exec_err = 0;
	}
	drop(t, k);
}

int hm_tracer_next(struct hm_tracer *t, struct hm_arena *a,
		   const struct hm_event **out)
{
	while (t->n) {
		struct task *k;
		int status, r;
		pid_t tid = waitpid(-1, &status, __WALL);

		if (tid < 0 && errno == EINTR)
			continue;
		if (tid < 0)
			return errno == ECHILD ? 0 : -errno;
		k = find(t, tid);
		if (!k && !(k = add(t, tid)))
			return -ENOMEM;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			ended(t, k, status);
			continue;
		}
		r = stopped(t, k, status, a, &t->ev);
		if (r < 0)
			return r;
		if (r) {
			t->rep->st.events++;
			*out = &t->ev;
			return 1;
		}
	}
	return 0;
}

int hm_tracer_status(const struct hm_tracer *t)
{
	return t->status;
}

pid_t hm_tracer_pid(const struct hm_tracer *t)
{
	return t->root;
}

int hm_tracer_exec_errno(const struct hm_tracer *t)
{
	return t->exec_err;
}

void hm_tracer_free(struct hm_tracer *t)
{
	if (!t)
		return;
	/* stopped at the filter with no tracer, the calls learned would
	 * fail (ENOSYS): what is left of the command does not outlive us */
	while (t->n) {
		kill(t->tasks[0]->tid, SIGKILL);
		drop(t, t->tasks[0]);
	}
	free(t->tasks);
	hm_canon_free(t->canon);
	hm_socktab_free(t->socks);
	if (t->exec_pipe >= 0)
		close(t->exec_pipe);
	free(t);
}
