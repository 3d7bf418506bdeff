// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc.c - live domain tracking: the proc connector (fork, exec, exit)
 * feeds the analyzer's tracker, the same code and rules the learner uses;
 * /proc fills in processes that were running before we started
 * (docs/ARCHITECTURE.md, "Unobserved history": <kernel> EXE) and resyncs the table when netlink
 * lost messages (ENOBUFS).  Owns the netlink socket; the process table is
 * the tracker's.  Next: loop.c asks hm_proc_view() for each event.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "enforcer_private.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

struct hm_tid {
	int32_t tid;			/* 0: free */
	int32_t tgid;
};

struct hm_sysfd {
	int fd;				/* 0: free (we never get fd 0) */
	int32_t tid;
	uint64_t used;
};

/* A traced thread (PROC_EVENT_PTRACE, or TracerPid read at an exec or
 * a fork): its group is judged in the tracer's domain. */
struct hm_traced {
	int32_t tid;			/* 0: free */
	int32_t tgid;
	int32_t tracer;			/* the tracer's thread group */
};

struct hm_proc {
	int fd;				/* proc connector, or -1 */
	struct hm_tracker *t;		/* the process table */
	struct hm_execs *x;		/* pending exec names */
	struct hm_enforcer_counters *c;
	bool verbose;

	/* execs applied when needed or after the batch: the proc
	 * connector's time of each (CLOCK_MONOTONIC), since when it waits
	 * (may_wait(); 0: not) */
	struct hm_execq { int32_t pid; uint64_t ns, waits; } execq[1024];
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

	/* thread groups whose leader exited before the other threads */
	int32_t leaderless[256];
	size_t n_leaderless;

	/* threads (not leaders) and their groups, from fork events */
	struct hm_tid tids[4096];

	/* execs named from /proc (not judged), until the process's next
	 * exec shows whether that read saw it instead (recheck_named()) */
	struct hm_named {
		int32_t pid;		/* 0: free */
		uint32_t flags;		/* of @from */
		uint32_t hash, len;	/* of the name it was given */
		uint64_t read_ns, dev, ino;
		const struct hm_name *from;	/* the domain it ran in */
	} named[1024];

	/* execs of a process gone before they were applied, for the
	 * children it forked after them (orphan_exec()) */
	struct hm_orphan {
		int32_t pid;		/* 0: free */
		int32_t ran;		/* the process that ran them: its
					 * judgements and named_slot() */
		uint64_t ns;		/* the last one's exec event */
		uint32_t before;	/* unapplied execs before that one */
	} orphan[1024];

	/* kept /proc/TID/syscall fds, least recently used goes (0: none) */
	struct hm_sysfd sysfd[16];
	uint64_t sysfd_clock;
};

/**
 * hm_proc_new() - the keeper of the process table.
 * @fd: the proc connector socket (hm_proc_connect()); taken, closed by
 *	hm_proc_free(); -1: none (nothing to drain).
 * @t: the tracker holding the table; borrowed.
 * @x: pending exec names; borrowed.
 * @c: counters; borrowed.
 * @verbose: log every exec.
 * @out: caller frees with hm_proc_free().
 * Returns: 0 or -ENOMEM.
 */
int hm_proc_new(int fd, struct hm_tracker *t, struct hm_execs *x,
		struct hm_enforcer_counters *c, bool verbose,
		struct hm_proc **out)
{
	struct hm_proc *p = calloc(1, sizeof(*p));
	struct stat st;

	if (!p)
		return -ENOMEM;
	*p = (struct hm_proc){ .fd = fd, .t = t, .x = x, .c = c,
			       .verbose = verbose };
	if (!stat("/proc/self/ns/user", &st)) {
		p->userns_dev = st.st_dev;
		p->userns_ino = st.st_ino;
	}
	*out = p;
	return 0;
}

/**
 * hm_proc_fd() - the proc connector socket to poll.
 * @p: the keeper.
 * Returns: the fd (borrowed) or -1.
 */
int hm_proc_fd(const struct hm_proc *p)
{
	return p->fd;
}

/**
 * hm_proc_connect() - subscribe to process events (needs CAP_NET_ADMIN,
 * before capabilities are dropped).
 * @rcvbuf: the socket's receive buffer.
 * @out: the socket; caller closes it (or gives it to hm_proc_new()).
 * Returns: 0 or -errno.
 */
int hm_proc_connect(int rcvbuf, int *out)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = CN_IDX_PROC };
	/* nlmsghdr, then cn_msg with the op as its payload */
	union {
		struct nlmsghdr align;
		char b[NLMSG_SPACE(sizeof(struct cn_msg) +
				   sizeof(enum proc_cn_mcast_op))];
	} msg = { 0 };
	struct nlmsghdr *nl = &msg.align;
	struct cn_msg *cn = NLMSG_DATA(nl);
	enum proc_cn_mcast_op op = PROC_CN_MCAST_LISTEN;
	int sz = rcvbuf;
	int fd;
	int r;

	fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    NETLINK_CONNECTOR);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(op));
	nl->nlmsg_type = NLMSG_DONE;
	nl->nlmsg_pid = 0;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(op);
	memcpy(cn->data, &op, sizeof(op));
	if (send(fd, nl, nl->nlmsg_len, 0) != (ssize_t)nl->nlmsg_len)
		goto fail;
	*out = fd;
	return 0;
fail:
	r = -errno;
	if (fd >= 0)
		close(fd);
	return r;
}

/**
 * hm_proc_free() - close the socket and free the keeper (not the table).
 * @p: may be NULL.
 */
void hm_proc_free(struct hm_proc *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	for (size_t i = 0; i < HM_ARRAY_SIZE(p->sysfd); i++)
		if (p->sysfd[i].fd > 0)
			close(p->sysfd[i].fd);
	free(p);
}

/* ------------------------------------------------------------ /proc */

/* ppid and start time (clock ticks) from /proc/PID/stat. */
static int proc_stat(int32_t pid, int64_t *ppid, uint64_t *start)
{
	struct hm_procfs_stat st;
	int r = hm_procfs_stat(pid, &st);

	if (r)
		return r;
	*ppid = st.ppid;
	if (start)
		*start = st.start;
	return 0;
}

/**
 * hm_proc_maps_exec() - is this /proc/PID/maps line an executable mapping
 * of the file @dev_major:@dev_minor, inode @ino?
 * @line: "START-END PERMS OFFSET MAJ:MIN INODE [PATH]" (hex device
 *	numbers, as the kernel prints them); the path is not looked at (it
 *	may hold spaces or " (deleted)").
 * Returns: true when it is, false for another file, another mode, or a
 * line that does not parse.
 */
bool hm_proc_maps_exec(const char *line, unsigned dev_major,
		       unsigned dev_minor, uint64_t ino)
{
	char perms[5];
	unsigned maj, min;
	unsigned long long inode;

	if (sscanf(line, "%*[0-9a-f]-%*[0-9a-f] %4s %*[0-9a-f] %x:%x %llu",
		   perms, &maj, &min, &inode) != 4)
		return false;
	return strlen(perms) == 4 && perms[2] == 'x' && maj == dev_major &&
	       min == dev_minor && inode == ino && inode != 0;
}

/**
 * hm_proc_ctx() - task values for conditions, from /proc/PID/status.
 * @pid: the process.
 * @ctx: filled in.
 * Returns: 0, -ESRCH (gone), -EINVAL, or -errno.
 */
int hm_proc_ctx(int32_t pid, struct hm_cond_ctx *ctx)
{
	char buf[4096];
	const char *p;
	unsigned long long v[4];
	ssize_t n = hm_procfs_status(pid, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	memset(ctx, 0, sizeof(*ctx));
	p = hm_procfs_field(buf, "PPid");
	if (p)
		ctx->ppid = strtoull(p, NULL, 10);
	p = hm_procfs_field(buf, "Uid");
	if (!p || sscanf(p, "%llu %llu %llu %llu", &v[0], &v[1], &v[2],
			 &v[3]) != 4)
		return -EINVAL;
	ctx->uid = v[0], ctx->euid = v[1], ctx->suid = v[2], ctx->fsuid = v[3];
	p = hm_procfs_field(buf, "Gid");
	if (!p || sscanf(p, "%llu %llu %llu %llu", &v[0], &v[1], &v[2],
			 &v[3]) != 4)
		return -EINVAL;
	ctx->gid = v[0], ctx->egid = v[1], ctx->sgid = v[2], ctx->fsgid = v[3];
	ctx->pid = (uint64_t)pid;
	ctx->has_task = true;
	return 0;
}

/*
 * /proc/TID/syscall of @tid into @buf, through a kept fd: a pread at
 * offset 0 makes the seq file show the call anew (measured: a third of
 * an open+read+close).  A kept fd names its task, not the number: once
 * the thread is gone it reads ESRCH, and a reused tid is opened afresh.
 */
static ssize_t read_syscall(struct hm_proc *p, int32_t tid, char *buf,
			    size_t cap)
{
	struct hm_sysfd *f = NULL, *old = &p->sysfd[0];
	char path[64];
	ssize_t n;

	for (size_t i = 0; i < HM_ARRAY_SIZE(p->sysfd); i++) {
		if (p->sysfd[i].fd > 0 && p->sysfd[i].tid == tid)
			f = &p->sysfd[i];
		else if (p->sysfd[i].used < old->used)
			old = &p->sysfd[i];
	}
	if (f) {
		f->used = ++p->sysfd_clock;
		n = pread(f->fd, buf, cap - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			return n;
		}
		close(f->fd);	/* the task is gone: maybe a new one */
		f->fd = 0;
		old = f;
	}
	snprintf(path, sizeof(path), "/proc/%d/syscall", tid);
	if (old->fd > 0)
		close(old->fd);
	old->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (old->fd <= 0) {
		n = errno == ENOENT ? -ESRCH : -errno;
		old->fd = 0;
		return n;
	}
	old->tid = tid;
	old->used = ++p->sysfd_clock;
	n = pread(old->fd, buf, cap - 1, 0);
	if (n < 0)
		return errno == ESRCH ? -ESRCH : -errno;
	buf[n] = '\0';
	return n;
}

/*
 * /proc/TID/syscall said "running": the thread was woken between two
 * checks of its wait (every answer to the group wakes every waiter) and
 * has not slept again.  It cannot go on without our answer, so it will:
 * yield at first, then sleep in growing steps.  On a starved machine a
 * woken waiter may wait milliseconds for a CPU, and giving up would deny
 * an allowed open (an unknown mode fails closed), so the bound is wall
 * time, MODE_WAIT_MS, below the watchdog's default deadline.  Try @i,
 * since *@start: returns false when the time is up.
 */
#define MODE_WAIT_MS 250

static bool wait_asleep(unsigned i, uint64_t *start)
{
	unsigned us;

	if (i < 16) {
		sched_yield();
		return true;
	}
	if (i == 16)
		*start = hm_now_ns();
	else if (hm_now_ns() - *start > MODE_WAIT_MS * 1000000ull)
		return false;
	us = i - 16 < 7 ? 10u << (i - 16) : 1000;	/* 10 us .. 1 ms */
	usleep(us);
	return true;
}

/**
 * hm_proc_open_flags() - the flags of the open a thread waits in.
 * @p: the keeper (its kept /proc fds).
 * @tid: the opening thread (FAN_REPORT_TID), waiting inside open() for
 *	our answer: its arguments are in /proc/TID/syscall.
 * @out: the flags (open(2), openat(2), creat(2), open_by_handle_at(2));
 *	O_RDONLY for the opens an exec makes.
 * Returns: 0; -ENODATA when they cannot be told (a 32-bit task, io_uring,
 * openat2 (below), a call we do not know, /proc unreadable); -ESRCH when
 * the thread is gone (killed while it waited).  *@out is set only on 0.
 */
int hm_proc_open_flags(struct hm_proc *p, int32_t tid, uint64_t *out)
{
	char buf[512];
	unsigned long long a[6];
	long nr;
	uint64_t flags;
	ssize_t n = read_syscall(p, tid, buf, sizeof(buf));
	uint64_t since = 0;

	for (unsigned i = 0; n > 0 && !strncmp(buf, "running", 7); i++) {
		if (!wait_asleep(i, &since))
			break;
		p->c->mode_retries++;
		n = read_syscall(p, tid, buf, sizeof(buf));
	}
	if (n == -ESRCH)
		return -ESRCH;
	if (n <= 0 ||
	    sscanf(buf, "%ld %llx %llx %llx %llx %llx %llx", &nr, &a[0], &a[1],
		   &a[2], &a[3], &a[4], &a[5]) != 7)
		return -ENODATA;
	switch (nr) {
#ifdef SYS_open
	case SYS_open:
		flags = a[1];
		break;
#endif
#ifdef SYS_creat
	case SYS_creat:
		flags = O_CREAT | O_WRONLY | O_TRUNC;
		break;
#endif
	case SYS_openat:
	case SYS_open_by_handle_at:
		flags = a[2];
		break;
	case SYS_execve:
	case SYS_execveat:
		flags = O_RDONLY;	/* the program, its loader: read */
		break;
	default:
		/* not an open we know; or openat2, whose flags are in the
		 * opener's memory, which another thread of it may rewrite
		 * once the kernel copied them: never believed */
		return -ENODATA;
	}
	*out = flags;
	return 0;
}

/* ------------------------------------------------------------ threads */

/* The slot of @tid in the thread table (direct-mapped: a collision
 * only costs a /proc read). */
static struct hm_tid *tid_slot(struct hm_proc *p, int32_t tid)
{
	return &p->tids[(uint32_t)tid % HM_ARRAY_SIZE(p->tids)];
}

static void tid_set(struct hm_proc *p, int32_t tid, int32_t tgid)
{
	*tid_slot(p, tid) = (struct hm_tid){ .tid = tid, .tgid = tgid };
}

static void tid_forget(struct hm_proc *p, int32_t tid)
{
	struct hm_tid *s = tid_slot(p, tid);

	if (s->tid == tid)
		*s = (struct hm_tid){ 0 };
}

/* Tgid: from /proc/TID/status (a thread we saw no fork of). */
static int tgid_of(int32_t tid, int32_t *out)
{
	char buf[4096];
	const char *t;
	ssize_t n = hm_procfs_status(tid, buf, sizeof(buf));

	*out = 0;	/* defined on every path (an optimised build asks) */
	if (n < 0)
		return (int)n;
	t = hm_procfs_field(buf, "Tgid");
	if (!t)
		return -EINVAL;
	*out = (int32_t)strtol(t, NULL, 10);
	return *out > 0 ? 0 : -EINVAL;
}

/**
 * hm_proc_tgid() - the process (thread group) thread @tid belongs to.
 * Threads are learned from the proc connector's fork events; a leader
 * is a process in the table; any other id is read from /proc once.
 * @p: the keeper.
 * @tid: a thread id (a fanotify event's pid, FAN_REPORT_TID).
 * @out: its thread group id.
 * Returns: 0, -ESRCH (gone), or -errno.
 */
int hm_proc_tgid(struct hm_proc *p, int32_t tid, int32_t *out)
{
	struct hm_tid *s = tid_slot(p, tid);
	struct hm_proc_view v;
	int r;

	if (s->tid == tid) {
		*out = s->tgid;
		return 0;
	}
	if (hm_tracker_lookup(p->t, tid, &v)) {
		*out = tid;
		return 0;
	}
	r = tgid_of(tid, out);
	if (!r && *out != tid)
		tid_set(p, tid, *out);
	return r;
}

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
static void move_to_tracer(struct hm_proc *p, int32_t tgid, int32_t group)
{
	struct hm_proc_view tv, cur;
	int64_t ppid;

	if (group == tgid || hm_proc_view(p, group, &tv) ||
	    proc_stat(tgid, &ppid, NULL) ||
	    (hm_tracker_lookup(p->t, tgid, &cur) && cur.name == tv.name))
		return;
	hm_log("pid %d traced by %d: moved to its domain %s", tgid, group,
	       tv.name->str);
	if (hm_tracker_set(p->t, tgid, ppid, NULL, 0, tv.name->str,
			   tv.name->len, tv.flags, time(NULL)))
		p->c->internal_errors++;
}

/* Thread @tid of @tgid is traced by thread group @group (0: detached);
 * @move: move_to_tracer(). */
static void set_traced(struct hm_proc *p, int32_t tid, int32_t tgid,
		       int32_t group, bool move)
{
	struct hm_traced *free_slot = NULL;

	if (group && move) {
		if (p->n_execq) {	/* what both did before the attach */
			hm_proc_apply(p, tgid);
			hm_proc_apply(p, group);
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
			hm_log("more than %zu traced threads: TracerPid is "
			       "read for every event from now on",
			       HM_ARRAY_SIZE(p->traced));
		p->traced_full = true;
		return;
	}
	*free_slot = (struct hm_traced){ .tid = tid, .tgid = tgid,
					 .tracer = group };
	if (p->verbose)
		hm_log("pid %d (thread %d) traced by %d", tgid, tid, group);
}

/* Thread @tid exits; it led group @tgid when they are equal.  A tracer
 * that exits detaches its tracees, and no event says so. */
static void untrace_exit(struct hm_proc *p, int32_t tid, int32_t tgid)
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
static void check_traced(struct hm_proc *p, int32_t pid, bool move)
{
	int32_t tracer = read_tracer(pid), group;

	if (!tracer)
		return;
	if (hm_proc_tgid(p, tracer, &group))
		group = tracer;	/* gone already: checked when used */
	set_traced(p, pid, pid, group, move);
}

static int32_t tracer_of(struct hm_proc *p, int32_t tgid)
{
	int32_t tracer, group;

	for (size_t i = 0; i < p->n_traced; i++)
		if (p->traced[i].tgid == tgid)
			return p->traced[i].tracer;
	if (!p->traced_full || !(tracer = read_tracer(tgid)))
		return 0;
	return hm_proc_tgid(p, tracer, &group) ? tracer : group;
}

/* Put @pid in <kernel> EXE, the same name as the tracker's own rule
 * for unobserved history (analyzer/tracker.c unobserved_name).  @flags:
 * HM_PROC_UNOBSERVED (its next exec is not judged), or 0. */
static int set_kernel_exe(struct hm_proc *p, int32_t pid, int64_t ppid,
			  const char *exe, long exe_len, uint32_t flags)
{
	char name[HM_MAX_WORD + sizeof(HM_KERNEL) + 1];
	size_t len = HM_KERNEL_LEN;
	const char *prog;
	size_t plen = hm_tracker_program_of(pid, exe, exe_len > 0 ?
					    (size_t)exe_len : 0, &prog);

	memcpy(name, HM_KERNEL, len);
	/* as the tracker names them: too long for a domain, <kernel> */
	if (plen > 0 && plen + sizeof(HM_KERNEL) <= HM_MAX_DOMAIN) {
		name[len++] = ' ';
		memcpy(name + len, prog, plen);
		len += plen;
	}
	return hm_tracker_set(p->t, pid, ppid, exe_len > 0 ? exe : NULL,
			      exe_len > 0 ? (size_t)exe_len : 0, name, len,
			      flags, time(NULL));
}

static int set_unobserved(struct hm_proc *p, int32_t pid, int64_t ppid,
			  const char *exe, long exe_len)
{
	return set_kernel_exe(p, pid, ppid, exe, exe_len, HM_PROC_UNOBSERVED);
}

/*
 * The /proc link to @tgid's executable into @link: /proc/TGID/exe, or
 * when its leader has exited (a zombie has no exe) that of a live
 * thread.  Returns 0 or -ESRCH.
 */
static int exe_link(int32_t tgid, char *link, size_t cap)
{
	char path[64];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int r = -ESRCH;

	snprintf(link, cap, "/proc/%d/exe", tgid);
	if (!stat(link, &st))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while (r && (de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0 || tid == tgid)
			continue;
		snprintf(link, cap, "/proc/%d/task/%ld/exe", tgid, tid);
		if (!stat(link, &st))
			r = 0;
	}
	closedir(d);
	return r;
}

/* Does the task at @dir ("/proc/PID/" or "/proc/PID/task/TID/") map
 * the object @e executable? */
static bool exe_mapped(const char *dir, const struct hm_exe *e)
{
	char path[128];
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%smaps", dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = hm_proc_maps_exec(line, (unsigned)(e->dev >> 32),
					  (unsigned)e->dev, e->ino);
	free(line);
	fclose(f);
	return found;
}

/* Is the task at @dir in our own user namespace? */
static bool own_userns(const struct hm_proc *p, const char *dir)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "%sns/user", dir);
	return !stat(path, &st) && st.st_dev == p->userns_dev &&
	       st.st_ino == p->userns_ino;
}

/* The exe link at @link into @e; 0, -ESRCH or -ENAMETOOLONG. */
static int exe_at(const char *link, struct hm_exe *e)
{
	struct statx stx;
	ssize_t n;

	if (statx(AT_FDCWD, link, AT_STATX_DONT_SYNC, STATX_INO, &stx) < 0)
		return -ESRCH;
	e->dev = (uint64_t)stx.stx_dev_major << 32 | stx.stx_dev_minor;
	e->ino = stx.stx_ino;
	n = readlink(link, e->raw, sizeof(e->raw));
	if (n < 0)
		return -ESRCH;
	if ((size_t)n >= sizeof(e->raw) ||
	    hm_encode_len(e->raw, (size_t)n) >= sizeof(e->name))
		return -ENAMETOOLONG;
	e->raw[n] = '\0';
	e->len = (long)hm_encode(e->name, e->raw, (size_t)n);
	return 0;
}

/*
 * What @tgid (or a live thread of it: a leader may be gone) runs, into
 * @e, and whether the link is believed.  prctl(PR_SET_MM_MAP) sets the
 * link to any file its caller may execute, once it has unmapped its own
 * program, and an unprivileged process may call it in a user namespace
 * of its own: the link is believed only when the process maps that file
 * executable (an exec maps its program; for a script or `ld.so PROG`
 * the link is the interpreter, which is mapped) and, with @own_ns, when
 * the process is in our user namespace (in its own it can map the file
 * too).  An exec in between two reads is read again.
 * Returns: 0 (believed), -EPERM (not believed, e->why says why; the name
 * is in @e), -ESRCH (gone, or no exe: a kernel thread), -ENAMETOOLONG.
 */
static int read_exe(const struct hm_proc *p, int32_t tgid, bool own_ns,
		    struct hm_exe *e)
{
	char link[96];
	int r = -ESRCH;

	for (int i = 0; i < 3; i++) {
		uint64_t dev, ino;
		char *dir;

		if (exe_link(tgid, link, sizeof(link)) || exe_at(link, e))
			return -ESRCH;
		dir = strrchr(link, '/');
		dir[1] = '\0';	/* "/proc/PID/" or ".../task/TID/" */
		dev = e->dev;
		ino = e->ino;
		e->why = NULL;
		if (!exe_mapped(link, e))
			e->why = "no executable mapping of it";
		else if (own_ns && !own_userns(p, link))
			e->why = "in another user namespace";
		strcat(link, "exe");
		if (!e->why)
			return 0;
		r = exe_at(link, e);
		if (r || (e->dev == dev && e->ino == ino))
			return r ? r : -EPERM;	/* no exec in between */
	}
	return -EPERM;
}

/* Count and log an exe link not believed; @what: what it leads to. */
static void log_unbelieved(struct hm_proc *p, int32_t pid,
			   const struct hm_exe *e, const char *what)
{
	p->c->exe_unbelieved++;
	hm_log("pid %d: exe link %s not believed (%s): %s", pid, e->name,
	       e->why, what);
}

/* Does a thread of @tgid other than its leader and @tid (threads that
 * said they exit) still run? */
static bool group_alive(int32_t tgid, int32_t tid)
{
	char path[96];
	char buf[512];
	struct dirent *de;
	DIR *d;
	bool alive = false;

	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	d = opendir(path);
	if (!d)
		return false;
	while (!alive && (de = readdir(d))) {
		long t = strtol(de->d_name, NULL, 10);
		struct hm_procfs_stat st;

		if (t <= 0 || t == tgid || t == tid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/stat", tgid,
			 de->d_name);
		if (hm_procfs_read(path, buf, sizeof(buf)) <= 0 ||
		    hm_procfs_parse_stat(buf, &st))
			continue;
		alive = st.state != 'Z' && st.state != 'X';
	}
	closedir(d);
	return alive;
}

/* The domain @pid is in (hm_proc_view() without its tracer): a process
 * not seen yet is read from /proc and placed as the tracker places it. */
static int own_view(struct hm_proc *p, int32_t pid, struct hm_proc_view *out)
{
	struct hm_exe e;
	struct hm_task task = { .pid = pid, .sec = time(NULL) };
	int n;
	int r;

	if (hm_tracker_lookup(p->t, pid, out))
		return 0;
	r = proc_stat(pid, &task.ppid, NULL);
	if (r && r != -ESRCH)
		return r;
	n = r ? -ESRCH : read_exe(p, pid, true, &e);
	if (n == -EPERM) {
		/* a link it may have set itself: <kernel>, flagged */
		log_unbelieved(p, pid, &e, "placed in " HM_KERNEL);
		r = set_unobserved(p, pid, task.ppid, NULL, 0);
		if (r)
			return r;
		return hm_tracker_lookup(p->t, pid, out) ? 0 : -ENOMEM;
	}
	if (r || n == -ESRCH) {
		/* gone, or its leader left: no history we know of, so
		 * judged as <kernel> EXE (DESIGN.md "Unobserved history"),
		 * its execs too: never let through unjudged */
		p->c->exited++;
		r = set_kernel_exe(p, pid, task.ppid, NULL, 0, 0);
		if (r)
			return r;
		return hm_tracker_lookup(p->t, pid, out) ? 0 : -ENOMEM;
	}
	if (!n) {
		task.exe = e.name;
		task.exe_len = (size_t)e.len;
		task.exe_believed = true;
	}
	return hm_tracker_current(p->t, &task, out);
}

/* Tracers of tracers are followed this far (a loop of them ends). */
#define MAX_TRACERS 8

/**
 * hm_proc_view() - the domain @pid is judged in.  A process not seen yet
 * is read from /proc and placed as the tracker places it.  A traced
 * process is judged in its tracer's domain: the tracer decides what it
 * does (ptrace), so it gets no more than the tracer has.
 * @p: the keeper.
 * @pid: the process.
 * @out: its view; the names are the tracker's (borrowed).
 * Returns: 0, -ESRCH (gone), or -errno.
 */
int hm_proc_view(struct hm_proc *p, int32_t pid, struct hm_proc_view *out)
{
	int32_t tracer;
	int r = own_view(p, pid, out);

	for (int i = 0; !r && i < MAX_TRACERS; i++) {
		struct hm_proc_view tv;

		if (!(p->n_traced || p->traced_full) ||
		    !(tracer = tracer_of(p, pid)) || tracer == pid)
			break;
		if (!hm_tracker_lookup(p->t, tracer, &tv) &&
		    (proc_stat(tracer, &(int64_t){ 0 }, NULL) ||
		     own_view(p, tracer, &tv))) {
			untrace_exit(p, tracer, tracer);	/* detached */
			break;
		}
		if (p->verbose)
			hm_log("pid %d traced by %d: judged in %s", pid,
			       tracer, tv.name->str);
		p->c->traced_views++;
		*out = tv;
		pid = tracer;
	}
	return r;
}

/* --------------------------------------------------------------- scan */

/*
 * Say at start what ptrace-like access is not judged: a traced process
 * is (hm_proc_view()), but process_vm_writev(2), /proc/PID/mem and
 * pidfd_getfd(2) reach another process without an event; Yama's
 * ptrace_scope >= 1 limits all of them to descendants (docs/SECURITY.md).
 */
static void note_yama(void)
{
	char buf[16];
	ssize_t n = hm_procfs_read("/proc/sys/kernel/yama/ptrace_scope", buf,
				   sizeof(buf));

	if (n > 0 && atoi(buf) >= 1)
		return;
	hm_log("%s: process_vm_writev, /proc/PID/mem and pidfd_getfd by a "
	       "process of the same uid are not judged (docs/SECURITY.md)",
	       n > 0 ? "Yama ptrace_scope is 0" : "no Yama");
}

struct live {
	int32_t pid;
	int64_t ppid;
	uint64_t start;
	long exe_len;
	char *exe;
};

static int cmp_start(const void *a, const void *b)
{
	const struct live *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int cmp_pid(const void *a, const void *b)
{
	const struct live *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int list_live(struct hm_proc *p, struct live **out, size_t *n_out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct live *v = NULL;
	size_t n = 0, cap = 0;
	struct hm_exe *e = malloc(sizeof(*e));

	*out = NULL;
	*n_out = 0;
	if (!d || !e) {
		int r = d ? -ENOMEM : -errno;

		if (d)
			closedir(d);
		free(e);
		return r;
	}
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		struct live l = { 0 };

		if (*end || pid <= 0)
			continue;
		l.pid = (int32_t)pid;
		if (proc_stat(l.pid, &l.ppid, &l.start))
			continue;	/* gone meanwhile */
		l.exe_len = read_exe(p, l.pid, true, e);
		if (l.exe_len == -EPERM)
			log_unbelieved(p, l.pid, e, "ignored");
		if (!l.exe_len)
			l.exe_len = e->len;
		if (l.exe_len > 0 &&
		    !(l.exe = strndup(e->name, (size_t)l.exe_len)))
			goto nomem;
		check_traced(p, l.pid, false);
		if (n == cap) {
			struct live *nv;

			cap = cap ? cap * 2 : 512;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(l.exe);
				goto nomem;
			}
			v = nv;
		}
		v[n++] = l;
	}
	closedir(d);
	free(e);
	*out = v;
	*n_out = n;
	return 0;
nomem:
	closedir(d);
	free(e);
	for (size_t i = 0; i < n; i++)
		free(v[i].exe);
	free(v);
	return -ENOMEM;
}

struct gone_ctx {
	const struct live *live;
	size_t n;
	int32_t *gone;
	size_t n_gone;
	size_t cap;
};

static void collect_gone(int64_t pid, const struct hm_proc_view *v, void *arg)
{
	struct gone_ctx *g = arg;
	struct live key = { .pid = (int32_t)pid };

	(void)v;
	if (bsearch(&key, g->live, g->n, sizeof(*g->live), cmp_pid))
		return;
	if (g->n_gone == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		int32_t *n = realloc(g->gone, cap * sizeof(*n));

		if (!n)
			return;	/* they will age out of the LRU */
		g->gone = n;
		g->cap = cap;
	}
	g->gone[g->n_gone++] = (int32_t)pid;
}

static const struct live *find_live(const struct live *v, size_t n,
				    int64_t pid)
{
	struct live key = { .pid = (int32_t)pid };

	return bsearch(&key, v, n, sizeof(*v), cmp_pid);
}

/*
 * One live process during a resync: a known one goes through the
 * tracker's own checks (pid reuse by ppid, an exec we missed by exe);
 * an unknown one forked while we were deaf is its parent's if it runs the
 * same program, else of unobserved history.
 */
static int resync_one(struct hm_proc *p, const struct live *l,
		      const struct live *by_pid, size_t n)
{
	struct hm_proc_view v;
	/* list_live() keeps only a believed exe */
	struct hm_task task = { .pid = l->pid, .ppid = l->ppid,
				.exe = l->exe, .exe_len = l->exe ?
					(size_t)l->exe_len : 0,
				.exe_believed = true, .sec = time(NULL) };
	const struct live *parent;

	if (hm_tracker_lookup(p->t, l->pid, &v))
		return hm_tracker_current(p->t, &task, &v);
	parent = find_live(by_pid, n, l->ppid);
	if (parent && hm_tracker_lookup(p->t, l->ppid, &v) &&
	    parent->exe_len == l->exe_len && l->exe &&
	    !memcmp(parent->exe, l->exe, (size_t)l->exe_len))
		return hm_tracker_fork(p->t, l->pid, l->ppid);
	return set_unobserved(p, l->pid, l->ppid, l->exe, l->exe_len);
}

/**
 * hm_proc_scan() - place every running process: at start, those not in
 * the table are of unobserved history; on a resync, the table is made to
 * match /proc (gone ones leave, new ones join their parent or are of
 * unobserved history).
 * @p: the keeper.
 * @resync: a resync after lost messages, not the start.
 * Returns: 0, -ENOMEM, or -errno reading /proc.
 */
int hm_proc_scan(struct hm_proc *p, bool resync)
{
	struct live *v;
	struct live *by_pid;
	size_t n;
	int r = list_live(p, &v, &n);

	if (!resync)
		note_yama();
	if (r)
		return r;
	by_pid = malloc((n ? n : 1) * sizeof(*by_pid));
	if (!by_pid) {
		r = -ENOMEM;
		goto out;
	}
	memcpy(by_pid, v, n * sizeof(*v));
	qsort(by_pid, n, sizeof(*by_pid), cmp_pid);
	qsort(v, n, sizeof(*v), cmp_start);	/* parents first */
	if (resync) {
		struct gone_ctx g = { .live = by_pid, .n = n };

		hm_tracker_foreach(p->t, collect_gone, &g);
		for (size_t i = 0; i < g.n_gone; i++) {
			hm_tracker_exit(p->t, g.gone[i]);
			hm_execs_drop(p->x, g.gone[i]);
		}
		free(g.gone);
	}
	for (size_t i = 0; !r && i < n; i++) {
		struct hm_proc_view pv;

		if (resync)
			r = resync_one(p, &v[i], by_pid, n);
		else if (!hm_tracker_lookup(p->t, v[i].pid, &pv))
			r = set_unobserved(p, v[i].pid, v[i].ppid, v[i].exe,
					   v[i].exe_len);
	}
	free(by_pid);
out:
	for (size_t i = 0; i < n; i++)
		free(v[i].exe);
	free(v);
	return r;
}

/* --state: keep a process only if it still runs with that ppid and exe
 * (believed: read_exe()). */
static bool still_runs(int64_t pid, int64_t ppid, const char *exe,
		       int64_t sec, void *arg)
{
	struct hm_proc *p = arg;
	struct hm_exe *e;
	int64_t real_ppid;
	bool same;
	int r;

	(void)sec;
	if (pid <= 0 || pid > INT32_MAX ||
	    proc_stat((int32_t)pid, &real_ppid, NULL) || real_ppid != ppid ||
	    !(e = malloc(sizeof(*e))))
		return false;
	r = read_exe(p, (int32_t)pid, true, e);
	if (r == -EPERM)
		log_unbelieved(p, (int32_t)pid, e, "not imported");
	if (!exe)
		same = r == -ESRCH;
	else
		same = !r && e->len == (long)strlen(exe) &&
		       !memcmp(e->name, exe, (size_t)e->len);
	free(e);
	return same;
}

/**
 * hm_proc_import() - take the learner's process table (--state): the
 * processes in it that still run as it says keep their domains.
 * @p: the keeper.
 * @state: the state file.
 * Returns: how many were imported, or -errno.
 */
int hm_proc_import(struct hm_proc *p, const char *state)
{
	struct hm_diag d = { 0 };
	int r = hm_tracker_load(p->t, state, &d, still_runs, p);

	for (size_t i = 0; i < d.n_msgs; i++) {
		char *s = hm_diag_format(&d.msgs[i]);

		hm_log("%s", s ? s : "(out of memory)");
		free(s);
	}
	hm_diag_free(&d);
	return r;
}

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
static struct hm_pending_exec *judged_exec(struct hm_proc *p, int32_t pid,
					   uint64_t ns, const struct hm_exe *e)
{
	struct hm_pending_exec *pe;

	while ((pe = hm_execs_oldest(p->x, pid, ns)) &&
	       !(e && exec_happened(e, pe)))
		hm_execs_remove(p->x, pe);
	return pe;
}

/* Forget @pid's execs judged before its exec event at @ns: applied, or
 * failed.  Those judged since are a later exec's. */
static void drop_judged(struct hm_proc *p, int32_t pid, uint64_t ns)
{
	struct hm_pending_exec *pe;

	while ((pe = hm_execs_oldest(p->x, pid, ns)))
		hm_execs_remove(p->x, pe);
}

static void enter(struct hm_proc *p, const struct hm_task *task,
		  const struct hm_name *prog, const struct hm_name *real)
{
	struct hm_exec_result res;
	int r = hm_tracker_exec(p->t, task, prog, real, &res);

	if (r)
		hm_log("pid %d: exec not tracked: %s", (int)task->pid,
		       strerror(-r));
	else if (p->verbose)
		hm_log("pid %d exec %s: %s", (int)task->pid, prog->str,
		       res.now.name->str);
	p->c->execs++;
}

/* How long after an exec set the exe link its event may still come. */
#define HM_EXEC_DEFER_NS (20ull * 1000 * 1000)

static struct hm_named *named_slot(struct hm_proc *p, int32_t pid)
{
	return &p->named[(uint32_t)pid % HM_ARRAY_SIZE(p->named)];
}

/* @pid's exec was just named @prog from /proc (what it runs now: @e),
 * in the domain @from it ran in: kept for recheck_named(). */
static void note_named(struct hm_proc *p, int32_t pid,
		       const struct hm_proc_view *from, const struct hm_exe *e,
		       const struct hm_name *prog)
{
	*named_slot(p, pid) = (struct hm_named){
		.pid = pid, .flags = from->flags, .hash = prog->hash,
		.len = prog->len, .read_ns = hm_now_ns(), .dev = e->dev,
		.ino = e->ino, .from = from->name };
}

static void forget_named(struct hm_proc *p, int32_t pid)
{
	struct hm_named *n = named_slot(p, pid);

	if (n->pid == pid)
		*n = (struct hm_named){ 0 };
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
static void enter_unseen(struct hm_proc *p, const struct hm_task *task,
			 const char *why)
{
	struct hm_name prog = { .str = HM_EXEC_UNSEEN,
				.len = sizeof(HM_EXEC_UNSEEN) - 1 };
	struct hm_proc_view now;

	hm_name_fill(&prog);
	p->c->exec_unseen++;
	enter(p, task, &prog, NULL);
	hm_log("pid %d: an exec outside the marks has no name (%s): in %s "
	       "(mark the directory of the program it ran)", (int)task->pid,
	       why, hm_tracker_lookup(p->t, (int32_t)task->pid, &now) ?
	       now.name->str : "?");
}

/* The exec event of @pid has a later one queued behind it and no
 * judgement names it: enter_unseen().  Returns false when the process is
 * gone (on_exec() counts it). */
static bool exec_unseen(struct hm_proc *p, int32_t pid)
{
	struct hm_task task = { .pid = pid, .sec = time(NULL) };

	if (proc_stat(pid, &task.ppid, NULL))
		return false;
	forget_named(p, pid);	/* no name here either way */
	enter_unseen(p, &task, "it executed again before it was read");
	return true;
}

/* May the read @n have seen the exec at @ns (object @dev, @ino or one of
 * @pe's; @script: its name when it is a script) instead of the one it
 * named?  recheck_named() says when. */
static bool named_saw(const struct hm_named *n, uint64_t ns, uint64_t dev,
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
static void retract_named(struct hm_proc *p, struct hm_task *task,
			  const struct hm_named *n)
{
	if (hm_tracker_set(p->t, task->pid, task->ppid, NULL, 0, n->from->str,
			   n->from->len, n->flags, task->sec)) {
		p->c->internal_errors++;
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
static void recheck_named(struct hm_proc *p, struct hm_task *task,
			  uint64_t ns, uint64_t dev, uint64_t ino,
			  const struct hm_pending_exec *pe,
			  const struct hm_name *script)
{
	struct hm_named n = *named_slot(p, (int32_t)task->pid);

	if (n.pid != task->pid)
		return;
	forget_named(p, n.pid);
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
static bool exec_by_name(struct hm_proc *p, int32_t pid, uint64_t ns)
{
	struct hm_pending_exec *pe = hm_execs_oldest(p->x, pid, ns);
	struct hm_task task = { .pid = pid, .sec = time(NULL) };
	struct hm_name prog = { 0 };

	if (!pe || proc_stat(pid, &task.ppid, NULL))
		return false;
	prog.str = pe->program;
	prog.len = (uint32_t)strlen(pe->program);
	hm_name_fill(&prog);
	p->c->exec_by_name++;
	recheck_named(p, &task, ns, 0, 0, pe, pe->script ? &prog : NULL);
	enter(p, &task, &prog, NULL);
	hm_execs_remove(p->x, pe);
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
static bool may_wait(struct hm_proc *p, struct hm_execq *q, int r,
		     const struct hm_exe *e)
{
	struct hm_pending_exec *pe = hm_execs_oldest(p->x, q->pid, q->ns);
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
static bool exec_naming(struct hm_proc *p, int32_t pid, const struct hm_exe *e,
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
	k = hm_exec_name(from, pid, e, pe, name, HM_MAX_WORD, &script);
	*prog = k > 0 ? (struct hm_name){ .str = name, .len = (uint32_t)k } :
			*real;
	hm_name_fill(prog);
	if (pe)
		p->c->exec_pending++;
	else
		p->c->exec_fallback++;
	return script;
}

static struct hm_orphan *orphan_slot(struct hm_proc *p, int32_t pid)
{
	return &p->orphan[(uint32_t)pid % HM_ARRAY_SIZE(p->orphan)];
}

static void forget_orphan(struct hm_proc *p, int32_t pid)
{
	struct hm_orphan *o = orphan_slot(p, pid);

	if (o->pid == pid)
		*o = (struct hm_orphan){ 0 };
}

/*
 * @pid was gone when its exec event at @ns was applied (a daemon's
 * parent exits right after its fork: start-stop-daemon's exec of cron):
 * nothing can read what it ran, but the children it forked after the
 * exec run it, and their fork events come before its exit's.  Its
 * judged execs stay until that exit is reaped (or its pid is another
 * process's, or its slot another gone one's); each such child enters
 * the exec (orphan_exec()).  Earlier execs of it still unapplied are
 * only counted.
 */
static void keep_orphan(struct hm_proc *p, int32_t pid, uint64_t ns)
{
	struct hm_orphan *o = orphan_slot(p, pid);

	if (o->pid == pid) {
		o->before++;
		o->ns = ns;
		return;
	}
	if (o->pid && o->ran == o->pid)	/* evicted: as it was before */
		hm_execs_drop(p->x, o->pid);
	*o = (struct hm_orphan){ .pid = pid, .ran = pid, .ns = ns };
}

/* @pid, gone with an exec unapplied, is another process now (forked at
 * @ns, its exit not reaped yet): the old one's judgements go. */
static void reused_orphan(struct hm_proc *p, int32_t pid, uint64_t ns)
{
	if (orphan_slot(p, pid)->pid != pid)
		return;
	forget_orphan(p, pid);
	drop_judged(p, pid, ns);
}

/* The newest of @pid's execs judged before @ns whose object @e runs
 * (the judgements stay: every child of a gone process needs them). */
static const struct hm_pending_exec *judged_last(struct hm_proc *p,
						 int32_t pid, uint64_t ns,
						 const struct hm_exe *e)
{
	const struct hm_pending_exec *best = NULL;

	for (size_t i = 0; i < p->x->n; i++) {
		const struct hm_pending_exec *pe = &p->x->pend[i];

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
static void orphan_named(struct hm_proc *p, struct hm_task *task,
			 const struct hm_orphan *o, struct hm_exe *e)
{
	const struct hm_pending_exec *pe = judged_last(p, o->ran, o->ns, e);
	const struct hm_named *n = named_slot(p, o->ran);
	struct hm_name prog, real;
	struct hm_proc_view was;
	char name[HM_MAX_WORD];
	bool known = hm_tracker_lookup(p->t, task->pid, &was), script;

	task->exe = e->name;
	task->exe_len = (size_t)e->len;
	script = exec_naming(p, (int32_t)task->pid, e, pe,
			     known ? was.domain : NULL, name, &prog, &real);
	if (n->pid == o->ran &&
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
 * was applied (keep_orphan()): the child enters that exec, named by what
 * it runs.  Nothing is guessed: earlier execs of the parent still
 * unapplied, or a child whose exe link is not believed, enter
 * HM_EXEC_UNSEEN; a child gone too passes the exec on to its own
 * children.
 */
static void orphan_exec(struct hm_proc *p, int32_t child, int32_t parent)
{
	struct hm_orphan o = *orphan_slot(p, parent);
	struct hm_task task = { .pid = child, .ppid = parent,
				.sec = time(NULL) };
	struct hm_exe e;
	int r;

	if (o.pid != parent)
		return;
	p->c->exec_orphan++;
	if (o.before)
		enter_unseen(p, &task, "it executed again and was gone before "
			     "it was read");
	r = read_exe(p, child, false, &e);
	if (r && r != -EPERM) {
		*orphan_slot(p, child) = (struct hm_orphan){
			.pid = child, .ran = o.ran, .ns = o.ns };
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
static bool on_exec(struct hm_proc *p, struct hm_execq *q, bool more,
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
	r = read_exe(p, pid, false, &e);	/* a leader may be gone */
	if ((r && r != -EPERM) || proc_stat(pid, &task.ppid, NULL)) {
		/* gone already (its exit event follows): what it still had
		 * queued is judged in the domain it had before this exec;
		 * the children it forked after it enter it (keep_orphan()) */
		p->c->exec_gone++;
		keep_orphan(p, pid, ns);
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
		log_unbelieved(p, pid, &e, "the exec keeps its domain");
		forget_named(p, pid);
		check_traced(p, pid, true);
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
	drop_judged(p, pid, ns);
	check_traced(p, pid, true);
	return false;
}

/*
 * Execs are applied when a decision needs them (an event of that process,
 * a fork by it) or after the batch was answered: reading /proc for the
 * execs of every process on the machine stays off the answer's path.
 */
static void queue_exec(struct hm_proc *p, int32_t pid, uint64_t ns)
{
	if (p->n_execq == HM_ARRAY_SIZE(p->execq))
		hm_proc_apply(p, -1);
	p->execq[p->n_execq++] = (struct hm_execq){ .pid = pid, .ns = ns };
}

/* Is an exec of @pid queued after entry @i (of @n)? */
static bool later_exec(const struct hm_proc *p, size_t i, size_t n)
{
	for (size_t j = i + 1; j < n; j++)
		if (p->execq[j].pid == p->execq[i].pid)
			return true;
	return false;
}

/* hm_proc_apply(); @may_defer: an exec may wait (may_wait()). */
static void apply(struct hm_proc *p, int32_t pid, bool may_defer)
{
	size_t keep = 0, n = p->n_execq;

	p->n_execq = 0;		/* on_exec() may not re-enter the queue */
	for (size_t i = 0; i < n; i++) {
		/* entries past @i are intact: @keep never passes @i */
		if ((pid >= 0 && p->execq[i].pid != pid) ||
		    on_exec(p, &p->execq[i], later_exec(p, i, n), may_defer))
			p->execq[keep++] = p->execq[i];
	}
	p->n_execq = keep;
}

/**
 * hm_proc_apply() - apply the execs queued for @pid, in order.
 * @p: the keeper.
 * @pid: a process; -1: every queued exec.
 */
void hm_proc_apply(struct hm_proc *p, int32_t pid)
{
	apply(p, pid, false);
}

/*
 * Exits wait until the fanotify events already read are judged: a process
 * may be gone (killed while it waited, or any process in --dry-run)
 * before its last events are read, and they still belong to its domain.
 * A fork of the same pid (reuse) replaces the entry instead.
 */
static void queue_exit(struct hm_proc *p, int32_t tgid, int32_t tid)
{
	if (p->n_gone == HM_ARRAY_SIZE(p->gone))
		hm_proc_reap(p);
	p->gone[p->n_gone].tgid = tgid;
	p->gone[p->n_gone++].tid = tid;
}

static void unqueue_exit(struct hm_proc *p, int32_t pid)
{
	for (size_t i = 0; i < p->n_gone; i++)
		if (p->gone[i].tgid == pid)
			p->gone[i] = p->gone[--p->n_gone];
}

/* Groups whose leader exited before its threads (bounded: past that,
 * a group stays in the table until its pid is reused or evicted). */
static void keep_leaderless(struct hm_proc *p, int32_t tgid)
{
	for (size_t i = 0; i < p->n_leaderless; i++)
		if (p->leaderless[i] == tgid)
			return;
	if (p->n_leaderless < HM_ARRAY_SIZE(p->leaderless))
		p->leaderless[p->n_leaderless++] = tgid;
}

static void forget_leaderless(struct hm_proc *p, int32_t tgid)
{
	for (size_t i = 0; i < p->n_leaderless; i++)
		if (p->leaderless[i] == tgid) {
			p->leaderless[i] = p->leaderless[--p->n_leaderless];
			return;
		}
}

static bool is_leaderless(const struct hm_proc *p, int32_t tgid)
{
	for (size_t i = 0; i < p->n_leaderless; i++)
		if (p->leaderless[i] == tgid)
			return true;
	return false;
}

/**
 * hm_proc_reap() - apply every queued exec, then the queued exits: the
 * events read before them are judged.
 * @p: the keeper.
 */
void hm_proc_reap(struct hm_proc *p)
{
	if (p->n_execq)
		apply(p, -1, true);	/* before they go */
	for (size_t i = 0; i < p->n_gone; i++) {
		/* the leader left, its threads go on: they keep the group's
		 * domain until the last one exits */
		int32_t tgid = p->gone[i].tgid;

		if (p->n_execq)
			hm_proc_apply(p, tgid);	/* one that waited */
		if (group_alive(tgid, p->gone[i].tid)) {
			keep_leaderless(p, tgid);
			continue;
		}
		forget_leaderless(p, tgid);
		forget_named(p, tgid);
		forget_orphan(p, tgid);
		hm_tracker_exit(p->t, tgid);
		hm_execs_drop(p->x, tgid);
	}
	p->n_gone = 0;
}

static void on_event(struct hm_proc *p, const struct proc_event *ev)
{
	p->c->proc_events++;
	switch (ev->what) {
	case PROC_EVENT_FORK:
		if (ev->event_data.fork.child_pid !=
		    ev->event_data.fork.child_tgid) {
			/* a thread: its events are its group's */
			tid_set(p, ev->event_data.fork.child_pid,
				ev->event_data.fork.child_tgid);
			return;
		}
		tid_forget(p, ev->event_data.fork.child_tgid);
		forget_named(p, ev->event_data.fork.child_tgid);
		unqueue_exit(p, ev->event_data.fork.child_tgid);
		forget_leaderless(p, ev->event_data.fork.child_tgid);
		/* the child gets the parent's domain as it is now */
		if (p->n_execq)
			hm_proc_apply(p, ev->event_data.fork.parent_tgid);
		hm_tracker_fork(p->t, ev->event_data.fork.child_tgid,
				ev->event_data.fork.parent_tgid);
		reused_orphan(p, ev->event_data.fork.child_tgid,
			      ev->timestamp_ns);
		orphan_exec(p, ev->event_data.fork.child_tgid,
			    ev->event_data.fork.parent_tgid);
		/* a tracer's PTRACE_O_TRACEFORK traces the child too */
		if ((p->n_traced || p->traced_full) &&
		    tracer_of(p, ev->event_data.fork.parent_tgid))
			check_traced(p, ev->event_data.fork.child_tgid, true);
		return;
	case PROC_EVENT_EXEC:
		queue_exec(p, ev->event_data.exec.process_tgid,
			   ev->timestamp_ns);
		return;
	case PROC_EVENT_PTRACE:
		set_traced(p, ev->event_data.ptrace.process_pid,
			   ev->event_data.ptrace.process_tgid,
			   ev->event_data.ptrace.tracer_pid ?
				   ev->event_data.ptrace.tracer_tgid : 0, true);
		return;
	case PROC_EVENT_EXIT:
		if (p->n_traced)
			untrace_exit(p, ev->event_data.exit.process_pid,
				     ev->event_data.exit.process_tgid);
		/* a thread's exit matters when its leader is gone already:
		 * it may be the group's last */
		if (ev->event_data.exit.process_pid !=
		    ev->event_data.exit.process_tgid)
			tid_forget(p, ev->event_data.exit.process_pid);
		if (ev->event_data.exit.process_pid !=
			    ev->event_data.exit.process_tgid &&
		    !is_leaderless(p, ev->event_data.exit.process_tgid))
			return;
		queue_exit(p, ev->event_data.exit.process_tgid,
			   ev->event_data.exit.process_pid);
		return;
	default:
		return;
	}
}

/**
 * hm_proc_drain() - read every proc-connector message waiting: forks are
 * applied at once, execs and exits queued (hm_proc_apply(),
 * hm_proc_reap()); lost messages make a resync from /proc.
 * @p: the keeper.
 * Returns: 0 or -errno.
 */
int hm_proc_drain(struct hm_proc *p)
{
	char buf[8192] __attribute__((aligned(8)));
	bool lost = false;
	int r = 0;

	if (p->fd < 0)
		return 0;
	p->drained_ns = hm_now_ns();
	for (;;) {
		struct sockaddr_nl from = { 0 };
		socklen_t from_len = sizeof(from);
		ssize_t len = recvfrom(p->fd, buf, sizeof(buf), MSG_DONTWAIT,
				       (struct sockaddr *)&from, &from_len);
		struct nlmsghdr *nl = (struct nlmsghdr *)buf;

		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				lost = true;	/* go on: what is queued is real */
				continue;
			}
			if (errno != EAGAIN)
				r = -errno;
			break;
		}
		/* only the kernel speaks for processes: a message a process
		 * sent to our port (root can) would move another process */
		if (from.nl_pid != 0) {
			p->c->proc_forged++;
			hm_log("ignored a proc-connector message from port %u "
			       "(not the kernel)", from.nl_pid);
			continue;
		}
		for (; NLMSG_OK(nl, (size_t)len); nl = NLMSG_NEXT(nl, len)) {
			struct cn_msg *cn = NLMSG_DATA(nl);

			if (nl->nlmsg_type == NLMSG_ERROR ||
			    nl->nlmsg_type == NLMSG_NOOP ||
			    nl->nlmsg_len < NLMSG_LENGTH(sizeof(*cn) +
							 sizeof(struct proc_event)) ||
			    cn->id.idx != CN_IDX_PROC)
				continue;
			{
				/* cn->data is only 4-byte aligned */
				struct proc_event ev;
				size_t have = nl->nlmsg_len - NLMSG_LENGTH(
							      sizeof(*cn));

				memset(&ev, 0, sizeof(ev));
				memcpy(&ev, cn->data, have < sizeof(ev) ?
						      have : sizeof(ev));
				on_event(p, &ev);
			}
		}
	}
	if (lost) {
		p->c->proc_lost++;
		p->c->resyncs++;
		hm_log("proc connector lost events (ENOBUFS): resyncing from "
		       "/proc");
		hm_proc_apply(p, -1);
		/* forks and exits were lost: threads are read anew */
		memset(p->tids, 0, sizeof(p->tids));
		r = hm_proc_scan(p, true);
		if (r)
			hm_log("resync failed: %s", strerror(-r));
	}
	return r;
}
