// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_event.c - a traced call, once it returned, as the struct
 * hm_event audit's records of it make (assemble.c), so that everything
 * after the collector is the same for both sources.
 *
 * The process: its ids, ppid and name from /proc/TID/status, its exe,
 * login and session as the tracer last read them (hm_tproc).  The
 * object: by the kernel's name where the kernel has one (docs/PATHS.md):
 * an open that succeeded is named by what /proc/TID/fd/N links to and
 * identified by stat() of it; an exec's program by the name passed, its
 * directories resolved, and a script's interpreter by /proc/PID/exe.
 * Other names are the program's, joined with the directory they were
 * relative to when the call was made, and go through the same canon.c
 * as audit's PATH records.
 *
 * Owns: nothing.  Everything an event points to is in the caller's
 * arena.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "histmac/procfs.h"
#include "internal.h"

#define PR_SET_MM	35

static uint64_t serial;

static struct hm_bytes arena_bytes(struct hm_arena *a, const char *s,
				   size_t len)
{
	char *d = s ? hm_arena_strndup(a, s, len) : NULL;

	return (struct hm_bytes){ .s = d, .len = d ? len : 0 };
}

/* "Uid:\tA\tB\tC\tD" into @v[4]. */
static void ids(const char *status, const char *field, uint32_t v[4])
{
	const char *s = hm_procfs_field(status, field);
	unsigned long x[4] = { 0 };

	if (s)
		sscanf(s, "%lu %lu %lu %lu", &x[0], &x[1], &x[2], &x[3]);
	for (int i = 0; i < 4; i++)
		v[i] = (uint32_t)x[i];
}

static long number(const char *status, const char *field)
{
	const char *s = hm_procfs_field(status, field);

	return s ? strtol(s, NULL, 10) : -1;
}

/* What every event of thread @tid says of its process: audit's SYSCALL
 * record without the call. */
static int process(struct hm_arena *a, const struct hm_tproc *p, pid_t tid,
		   struct hm_event *ev)
{
	char st[4096];
	uint32_t u[4], g[4];
	const char *name;
	struct timespec now;
	ssize_t n = hm_procfs_status(tid, st, sizeof(st));

	if (n < 0)
		return (int)n;
	memset(ev, 0, sizeof(*ev));
	clock_gettime(CLOCK_REALTIME, &now);
	ev->sec = now.tv_sec;
	ev->msec = (uint32_t)(now.tv_nsec / 1000000);
	ev->serial = ++serial;
	ev->has_syscall = true;
	ev->pid = number(st, "Tgid");
	ev->ppid = number(st, "PPid");
	ids(st, "Uid", u);
	ids(st, "Gid", g);
	ev->uid = u[0], ev->euid = u[1], ev->suid = u[2], ev->fsuid = u[3];
	ev->gid = g[0], ev->egid = g[1], ev->sgid = g[2], ev->fsgid = g[3];
	ev->auid = p->auid;
	ev->ses = p->ses;
	ev->present = HM_EVP_PID | HM_EVP_PPID | HM_EVP_UID | HM_EVP_AUID |
		      HM_EVP_SES | HM_EVP_EXIT | HM_EVP_SUCCESS;
	name = hm_procfs_field(st, "Name");
	if (name)
		ev->comm = arena_bytes(a, name, strcspn(name, "\n"));
	ev->exe = arena_bytes(a, p->exe.s, p->exe.len);
	ev->fd = -1;
	if ((name && !ev->comm.s) || (p->exe.s && !ev->exe.s))
		return -ENOMEM;
	return 0;
}

int hm_trace_fork_event(struct hm_arena *a, const struct hm_tproc *p,
			pid_t tid, pid_t child, struct hm_event *ev)
{
	int r = process(a, p, tid, ev);

	if (r)
		return r;
	ev->kind = HM_EV_FORK;
	ev->syscall_name = "clone";	/* what fork() and posix_spawn call */
	ev->success = true;
	ev->exit = child;
	return 1;
}

/* The object as stat() found it, in a PATH record's terms. */
static void set_stat(struct hm_ev_path *p, const struct stat *st)
{
	p->mode = st->st_mode;
	p->ouid = st->st_uid;
	p->ogid = st->st_gid;
	p->has_inode = true;
	p->ino = st->st_ino;
	p->dev_major = major(st->st_dev);
	p->dev_minor = minor(st->st_dev);
	p->rdev_major = major(st->st_rdev);
	p->rdev_minor = minor(st->st_rdev);
}

/*
 * The object a successful open (or ftruncate) reached, by descriptor
 * @fd of @tid: what the kernel names it, into @name.  Returns 1 named,
 * 0 not a name (a pipe, a socket, an unlinked file), -ENOMEM.
 */
static int by_fd(pid_t tid, int64_t fd, struct hm_sbuf *name,
		 struct hm_ev_path *p)
{
	static const char deleted[] = " (deleted)";
	char link[64];
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/fd/%lld", (int)tid,
		 (long long)fd);
	hm_sbuf_reset(name);
	if (hm_sbuf_reserve(name, HM_COLLECTOR_MAX_PATH + 1))
		return -ENOMEM;
	n = readlink(link, name->s, HM_COLLECTOR_MAX_PATH);
	if (n <= 0 || n >= HM_COLLECTOR_MAX_PATH || name->s[0] != '/')
		return 0;
	name->len = (size_t)n;
	name->s[n] = '\0';
	if (name->len > sizeof(deleted) - 1 &&
	    !strcmp(name->s + name->len - (sizeof(deleted) - 1), deleted))
		return 0;
	if (stat(link, &st))
		return 0;
	set_stat(p, &st);
	return 1;
}

/* One name through canon.c, as canon_item() puts a PATH record's. */
static int canon(struct hm_canon *c, struct hm_arena *a,
		 const struct hm_event *ev, const char *name, size_t len,
		 const struct hm_bytes *base, bool program, bool follow,
		 struct hm_ev_path *p)
{
	struct hm_canon_req r = {
		.name = name, .len = len,
		.cwd = base->s, .cwd_len = base->len,
		.pid = ev->pid,
		.follow_last = follow && !program,
		.program = program,
		.is_dir = S_ISDIR(p->mode) ||
			  ((ev->kind == HM_EV_MKDIR ||
			    ev->kind == HM_EV_RMDIR) &&
			   p->nametype != HM_NT_NORMAL),
		.rec = p->has_inode && ev->success &&
		       p->nametype != HM_NT_DELETE ? p : NULL,
	};
	int rc;

	if (!hm_canon_resolving(c))
		r.rec = NULL;
	rc = hm_canon_path(c, a, &r, &p->path, &p->proof);
	if (!rc && !program && hm_canon_magic(p->path.s, p->path.len))
		p->proof = HM_PROOF_NONE;	/* a link in proc: no name */
	if (rc == -E2BIG) {
		p->path = (struct hm_bytes){ 0 };
		return 0;
	}
	return rc;
}

/* Does the call follow a symlink in the last component?  As
 * follows_last() reads audit's record, from the arguments. */
static bool follows(const struct hm_event *ev, const struct hm_tentry *e)
{
	const char *n = ev->syscall_name;

	switch (ev->kind) {
	case HM_EV_OPEN:
		return !(ev->open_flags & O_NOFOLLOW);
	case HM_EV_TRUNCATE:
		return true;
	case HM_EV_CHMOD:
		return !(e->tc->flags >= 0 &&
			 (e->a[e->tc->flags] & AT_SYMLINK_NOFOLLOW));
	case HM_EV_CHOWN:
		return strncmp(n, "lchown", 6) &&
		       !(e->tc->flags >= 0 &&
			 (e->a[e->tc->flags] & AT_SYMLINK_NOFOLLOW));
	default:
		return false;
	}
}

/* What a name is to the call: made, removed, or looked at. */
static uint8_t nametype(const struct hm_event *ev, const struct hm_tentry *e,
			int i)
{
	switch (ev->kind) {
	case HM_EV_MKDIR:
	case HM_EV_MKNOD:
	case HM_EV_SYMLINK:
		return HM_NT_CREATE;
	case HM_EV_LINK:
		return i ? HM_NT_CREATE : HM_NT_NORMAL;
	case HM_EV_RENAME:
		return i && !e->existed[1] ? HM_NT_CREATE : HM_NT_DELETE;
	case HM_EV_UNLINK:
	case HM_EV_RMDIR:
		return HM_NT_DELETE;
	case HM_EV_OPEN:
		return ev->created ? HM_NT_CREATE :
		       e->existed[0] ? HM_NT_NORMAL : HM_NT_UNKNOWN;
	default:
		return e->existed[i] ? HM_NT_NORMAL : HM_NT_UNKNOWN;
	}
}

/* A name as the program passed it, with what was at it before the call
 * (or, for what the call made, after). */
static int passed(struct hm_canon *c, struct hm_arena *a,
		  const struct hm_event *ev, const struct hm_tentry *e, int i,
		  struct hm_ev_path *p)
{
	const struct hm_sbuf *n = &e->name[i];
	struct hm_bytes base = { .s = e->base[i].s, .len = e->base[i].len };
	struct stat st;

	*p = (struct hm_ev_path){ .nametype = nametype(ev, e, i) };
	if (e->existed[i])
		set_stat(p, &e->before[i]);
	if (ev->success && p->nametype == HM_NT_CREATE &&
	    !lstat(e->probe[i].s, &st))
		set_stat(p, &st);	/* the new object, as audit's CREATE */
	return canon(c, a, ev, n->s, n->len, &base,
		     ev->kind == HM_EV_EXEC && i == 0, follows(ev, e), p);
}

/* Did the open make the file?  O_EXCL says so when it succeeded; else
 * nothing was at the name before it. */
static bool open_created(const struct hm_event *ev, const struct hm_tentry *e)
{
	if (!ev->success || !(ev->open_flags & O_CREAT))
		return false;
	return (ev->open_flags & O_EXCL) || !e->existed[0];
}

/*
 * An open that succeeded (or an ftruncate) names what the descriptor
 * reached; one that failed, or that reached no name, the name passed.
 */
static int opened(struct hm_canon *c, struct hm_arena *a,
		  const struct hm_event *ev, const struct hm_tentry *e,
		  pid_t tid, int64_t fd, struct hm_ev_path *p)
{
	struct hm_sbuf name = { 0 };
	struct hm_bytes none = { 0 };
	int r = 0;

	*p = (struct hm_ev_path){ .nametype = nametype(ev, e, 0) };
	if (fd >= 0)
		r = by_fd(tid, fd, &name, p);
	if (r == 1)
		r = canon(c, a, ev, name.s, name.len, &none, false, true, p);
	else if (!r && e->name[0].len)
		r = passed(c, a, ev, e, 0, p);
	else if (!r)
		p->path = (struct hm_bytes){ 0 };
	hm_sbuf_free(&name);
	return r;
}

/* An exec's interpreter: what runs when it is not the program passed
 * (a #! script): the kernel's name for it, /proc/PID/exe. */
static int interpreter(struct hm_canon *c, struct hm_arena *a,
		       const struct hm_event *ev, const struct hm_tentry *e,
		       const struct hm_tproc *pr, struct hm_ev_path *p)
{
	struct hm_bytes none = { 0 };
	char link[64];
	struct stat st;

	snprintf(link, sizeof(link), "/proc/%lld/exe", (long long)ev->pid);
	if (!pr->exe.len || stat(link, &st) ||
	    (e->existed[0] && st.st_ino == e->before[0].st_ino &&
	     st.st_dev == e->before[0].st_dev))
		return 0;
	*p = (struct hm_ev_path){ .nametype = HM_NT_NORMAL };
	set_stat(p, &st);
	return canon(c, a, ev, pr->exe.s, pr->exe.len, &none, false, true,
		     p) ?: 1;
}

static int names(struct hm_canon *c, struct hm_arena *a,
		 struct hm_event *ev, const struct hm_tentry *e,
		 const struct hm_tproc *pr, pid_t tid)
{
	const struct hm_tcall *tc = e->tc;
	struct hm_ev_path *p = hm_arena_alloc(a, 2 * sizeof(*p));
	int r = 0;

	if (!p)
		return -ENOMEM;
	ev->paths = p;
	if (ev->kind == HM_EV_OPEN || tc->fd >= 0) {
		int64_t fd = tc->fd >= 0 ? (int32_t)e->a[tc->fd] :
			     ev->success ? ev->exit : -1;

		ev->created = open_created(ev, e);
		r = opened(c, a, ev, e, tid, fd, &p[0]);
		ev->n_paths = p[0].path.s ? 1 : 0;
		return r;
	}
	for (int i = 0; i < 2 && !r; i++)
		if (e->name[i].len || (i == 0 && tc->path >= 0)) {
			r = passed(c, a, ev, e, i, &p[ev->n_paths]);
			ev->created |= p[ev->n_paths].nametype == HM_NT_CREATE;
			ev->n_paths++;
		}
	if (!r && ev->kind == HM_EV_EXEC && ev->success) {
		r = interpreter(c, a, ev, e, pr, &p[ev->n_paths]);
		if (r == 1)
			ev->n_paths++;
		r = r < 0 ? r : 0;
	}
	if (!r && e->target.len) {
		ev->link_target = arena_bytes(a, e->target.s, e->target.len);
		if (!ev->link_target.s)
			r = -ENOMEM;
	}
	return r;
}

/* The exec's argument words, as an EXECVE record gives them. */
static int arguments(struct hm_arena *a, struct hm_event *ev,
		     const struct hm_tentry *e)
{
	struct hm_bytes *v;
	const char *s;

	if (!e->argc)
		return 0;
	v = hm_arena_alloc(a, e->argc * sizeof(*v));
	s = hm_arena_strndup(a, e->argv.s, e->argv.len);
	if (!v || !s)
		return -ENOMEM;
	for (uint32_t i = 0; i < e->argc; i++) {
		size_t n = strlen(s);

		v[i] = (struct hm_bytes){ .s = s, .len = n };
		s += n + 1;
	}
	ev->argv = v;
	ev->argc = e->argc;
	ev->argv_truncated = e->argv_cut;
	return 0;
}

/* The socket address (given or filled in), and what the socket is. */
static int network(const struct hm_trace_ctx *x, struct hm_event *ev,
		   const struct hm_tentry *e)
{
	if (ev->kind < HM_EV_SOCKET || ev->kind > HM_EV_RECV)
		return 0;
	if (e->sa_len &&
	    hm_sockaddr_raw(e->sa, e->sa_len, e->arch, &ev->sa, x->a) ==
	    -ENOMEM)
		return -ENOMEM;
	hm_event_network(x->socks, x->st, ev, true);
	return 0;
}

int hm_trace_event(const struct hm_trace_ctx *x, const struct hm_tentry *e,
		   const struct hm_tproc *p, pid_t tid, int64_t rval,
		   bool failed, struct hm_event *ev)
{
	struct hm_canon *canon = x->canon;
	struct hm_arena *a = x->a;
	int r;

	if (e->si->kind == HM_EV_SET_MM && e->a[0] != PR_SET_MM)
		return 0;
	r = process(a, p, tid, ev);
	if (r)
		return r;
	ev->kind = e->si->kind;
	ev->arch = e->arch;
	ev->syscall = e->nr;
	ev->syscall_name = e->si->name;
	ev->success = !failed;
	ev->exit = rval;
	ev->err = failed ? (int)-rval : 0;
	memcpy(ev->a, e->a, sizeof(ev->a));
	ev->cwd = arena_bytes(a, e->base[0].s, e->base[0].len);
	hm_event_arguments(ev, e->has_how ? &e->how : NULL);
	r = network(x, ev, e);
	if (!r)
		r = names(canon, a, ev, e, p, tid);
	if (!r && ev->kind == HM_EV_EXEC)
		r = arguments(a, ev, e);
	if (r)
		return r;
	hm_event_umask(canon, ev);
	return 1;
}
