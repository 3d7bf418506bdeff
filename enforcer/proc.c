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
#include "histmac/pattern.h"

struct hm_tid {
	int32_t tid;			/* 0: free */
	int32_t tgid;
};

struct hm_sysfd {
	int fd;				/* 0: free (we never get fd 0) */
	int32_t tid;
	uint64_t used;
};

struct hm_proc {
	int fd;				/* proc connector, or -1 */
	struct hm_tracker *t;		/* the process table */
	struct hm_execs *x;		/* pending exec names */
	struct hm_enforcer_counters *c;
	bool verbose;

	/* execs applied when needed or after the batch */
	int32_t execq[1024];
	size_t n_execq;

	/* exits applied after the events read before them are judged */
	struct { int32_t tgid, tid; } gone[1024];	/* tid: the thread */
	size_t n_gone;

	/* thread groups whose leader exited before the other threads */
	int32_t leaderless[256];
	size_t n_leaderless;

	/* threads (not leaders) and their groups, from fork events */
	struct hm_tid tids[4096];

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

	if (!p)
		return -ENOMEM;
	*p = (struct hm_proc){ .fd = fd, .t = t, .x = x, .c = c,
			       .verbose = verbose };
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

/* Read a small /proc file into @buf (NUL-terminated). */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, cap - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* ppid and start time (clock ticks) from /proc/PID/stat. */
static int proc_stat(int32_t pid, int64_t *ppid, uint64_t *start)
{
	char path[64];
	char buf[1024];
	char *p;
	ssize_t n;
	int field = 2;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n == -ENOENT ? -ESRCH : (int)n;
	p = strrchr(buf, ')');	/* comm may hold anything but ')' last */
	if (!p)
		return -EINVAL;
	p++;
	while (*p && field < 22) {
		while (*p == ' ')
			p++;
		field++;
		if (field == 4)
			*ppid = strtoll(p, NULL, 10);
		if (field == 22 && start)
			*start = strtoull(p, NULL, 10);
		while (*p && *p != ' ')
			p++;
	}
	return field == 22 ? 0 : -EINVAL;
}

/**
 * hm_proc_exe() - the encoded /proc/PID/exe.
 * @pid: the process.
 * @buf, @cap: where it goes, NUL-terminated.
 * Returns: its length, -ESRCH (gone), -ENAMETOOLONG, or -errno.
 */
long hm_proc_exe(int32_t pid, char *buf, size_t cap)
{
	char path[64];
	char raw[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, raw, sizeof(raw));
	if (n < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	if ((size_t)n >= sizeof(raw) || hm_encode_len(raw, (size_t)n) >= cap)
		return -ENAMETOOLONG;
	return (long)hm_encode(buf, raw, (size_t)n);
}

/**
 * hm_proc_ctx() - task values for conditions, from /proc/PID/status.
 * @pid: the process.
 * @ctx: filled in.
 * Returns: 0, -ESRCH (gone), -EINVAL, or -errno.
 */
int hm_proc_ctx(int32_t pid, struct hm_cond_ctx *ctx)
{
	char path[64];
	char buf[4096];
	const char *p;
	unsigned long long v[4];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n == -ENOENT ? -ESRCH : (int)n;
	memset(ctx, 0, sizeof(*ctx));
	p = strstr(buf, "\nPPid:");
	if (p)
		ctx->ppid = strtoull(p + 6, NULL, 10);
	p = strstr(buf, "\nUid:");
	if (!p || sscanf(p + 5, "%llu %llu %llu %llu", &v[0], &v[1], &v[2],
			 &v[3]) != 4)
		return -EINVAL;
	ctx->uid = v[0], ctx->euid = v[1], ctx->suid = v[2], ctx->fsuid = v[3];
	p = strstr(buf, "\nGid:");
	if (!p || sscanf(p + 5, "%llu %llu %llu %llu", &v[0], &v[1], &v[2],
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
	char path[64];
	char buf[4096];
	const char *t;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n == -ENOENT ? -ESRCH : (int)n;
	t = strstr(buf, "\nTgid:");
	if (!t)
		return -EINVAL;
	*out = (int32_t)strtol(t + 6, NULL, 10);
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

/* The exe of @tgid or of any live thread of it (encoded). */
static long group_exe(int32_t tgid, char *buf, size_t cap)
{
	char link[96];
	char raw[PATH_MAX];
	ssize_t n;

	if (exe_link(tgid, link, sizeof(link)))
		return -ESRCH;
	n = readlink(link, raw, sizeof(raw));
	if (n < 0)
		return -ESRCH;
	if ((size_t)n >= sizeof(raw) || hm_encode_len(raw, (size_t)n) >= cap)
		return -ENAMETOOLONG;
	return (long)hm_encode(buf, raw, (size_t)n);
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
		const char *st;

		if (t <= 0 || t == tgid || t == tid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/stat", tgid,
			 de->d_name);
		if (read_small(path, buf, sizeof(buf)) <= 0)
			continue;
		st = strrchr(buf, ')');
		alive = st && st[1] == ' ' && st[2] != 'Z' && st[2] != 'X';
	}
	closedir(d);
	return alive;
}

/**
 * hm_proc_view() - the domain @pid is in.  A process not seen yet is
 * read from /proc and placed as the tracker places it.
 * @p: the keeper.
 * @pid: the process.
 * @out: its view; the names are the tracker's (borrowed).
 * Returns: 0, -ESRCH (gone), or -errno.
 */
int hm_proc_view(struct hm_proc *p, int32_t pid, struct hm_proc_view *out)
{
	char exe[HM_MAX_WORD];
	struct hm_task task = { .pid = pid, .sec = time(NULL) };
	long n;
	int r;

	if (hm_tracker_lookup(p->t, pid, out))
		return 0;
	r = proc_stat(pid, &task.ppid, NULL);
	if (r && r != -ESRCH)
		return r;
	n = r ? -ESRCH : hm_proc_exe(pid, exe, sizeof(exe));
	if (n == -ESRCH && !r)
		n = group_exe(pid, exe, sizeof(exe));
	if (r || n == -ESRCH) {
		/* gone, or its leader left: no history we know of, so
		 * judged as <kernel> EXE (DESIGN.md "Unobserved history"),
		 * its execs too: never let through unjudged */
		p->c->exited++;
		r = set_kernel_exe(p, pid, task.ppid, n > 0 ? exe : NULL, n,
				   0);
		if (r)
			return r;
		return hm_tracker_lookup(p->t, pid, out) ? 0 : -ENOMEM;
	}
	if (n > 0) {
		task.exe = exe;
		task.exe_len = (size_t)n;
	}
	return hm_tracker_current(p->t, &task, out);
}

/* --------------------------------------------------------------- scan */

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

static int list_live(struct live **out, size_t *n_out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct live *v = NULL;
	size_t n = 0, cap = 0;
	char exe[HM_MAX_WORD];

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		struct live l = { 0 };

		if (*end || pid <= 0)
			continue;
		l.pid = (int32_t)pid;
		if (proc_stat(l.pid, &l.ppid, &l.start))
			continue;	/* gone meanwhile */
		l.exe_len = hm_proc_exe(l.pid, exe, sizeof(exe));
		if (l.exe_len > 0 && !(l.exe = strndup(exe, (size_t)l.exe_len)))
			goto nomem;
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
	*out = v;
	*n_out = n;
	return 0;
nomem:
	closedir(d);
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
	struct hm_task task = { .pid = l->pid, .ppid = l->ppid,
				.exe = l->exe, .exe_len = l->exe ?
					(size_t)l->exe_len : 0,
				.sec = time(NULL) };
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
	int r = list_live(&v, &n);

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

/* --state: keep a process only if it still runs with that ppid and exe. */
static bool still_runs(int64_t pid, int64_t ppid, const char *exe,
		       int64_t sec, void *arg)
{
	char now[HM_MAX_WORD];
	int64_t real_ppid;
	long n;

	(void)sec;
	(void)arg;
	if (pid <= 0 || pid > INT32_MAX ||
	    proc_stat((int32_t)pid, &real_ppid, NULL) || real_ppid != ppid)
		return false;
	n = hm_proc_exe((int32_t)pid, now, sizeof(now));
	if (!exe)
		return n < 0;
	return n == (long)strlen(exe) && !memcmp(now, exe, (size_t)n);
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
	int r = hm_tracker_load(p->t, state, &d, still_runs, NULL);

	for (size_t i = 0; i < d.n_msgs; i++) {
		char *s = hm_diag_format(&d.msgs[i]);

		hm_log("%s", s ? s : "(out of memory)");
		free(s);
	}
	hm_diag_free(&d);
	return r;
}

/* ------------------------------------------------------------- events */

/* Is @pid now running what its pending exec judged (the program, or
 * for a script its interpreter)?  A domain changes only by an exec
 * that happened. */
static bool exec_happened(int32_t pid, const struct hm_pending_exec *pe)
{
	char path[96];
	struct statx stx;

	if (exe_link(pid, path, sizeof(path)) ||
	    statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_INO, &stx) < 0)
		return false;
	if (hm_execs_has_obj(pe, stx.stx_dev_major * 0x100000000ull +
					 stx.stx_dev_minor,
			     stx.stx_ino))
		return true;
	/* a script whose interpreter is outside the marks: its exec open
	 * was not seen, only its name is known */
	if (pe->script && pe->interp) {
		char want[PATH_MAX];
		char have[PATH_MAX];
		ssize_t n = readlink(path, have, sizeof(have) - 1);

		if (n <= 0 || !realpath(pe->interp, want))
			return false;
		have[n] = '\0';
		return !strcmp(want, have);
	}
	return false;
}

static void on_exec(struct hm_proc *p, int32_t pid)
{
	char exe[HM_MAX_WORD];
	struct hm_task task = { .pid = pid, .sec = time(NULL) };
	struct hm_pending_exec *pe = hm_execs_find(p->x, pid);
	struct hm_name prog = { 0 }, real = { 0 };
	struct hm_exec_result res;
	char name[HM_MAX_WORD];
	bool script = false;
	long n = group_exe(pid, exe, sizeof(exe));	/* a leader may be gone */
	int r;

	if (n <= 0 || proc_stat(pid, &task.ppid, NULL)) {
		/* gone already (its exit event follows): what it still had
		 * queued is judged in the domain it had before this exec */
		p->c->exec_gone++;
		hm_execs_drop(p->x, pid);
		return;
	}
	task.exe = exe;
	task.exe_len = (size_t)n;
	real.str = exe;
	real.len = (uint32_t)n;
	hm_name_fill(&real);
	if (pe && !exec_happened(pid, pe)) {
		/* the judged exec failed after its open, and this is another
		 * one (outside the marks): not entered by the judged name */
		hm_execs_drop(p->x, pid);
		pe = NULL;
	}
	if (pe) {
		prog.str = pe->program;
		prog.len = (uint32_t)strlen(pe->program);
		hm_name_fill(&prog);
		p->c->exec_pending++;
	} else {
		/* not judged (outside the marks): named as learn names it */
		struct hm_proc_view was;
		long k = hm_exec_name(hm_tracker_lookup(p->t, pid, &was) ?
				      was.domain : NULL, pid, exe, (size_t)n,
				      name, sizeof(name), &script);

		prog = real;
		if (k > 0) {
			prog.str = name;
			prog.len = (uint32_t)k;
			hm_name_fill(&prog);
		}
		p->c->exec_fallback++;
	}
	if (pe)
		script = pe->script;
	r = hm_tracker_exec(p->t, &task, &prog, script ? NULL : &real, &res);
	if (r)
		hm_log("pid %d: exec not tracked: %s", pid, strerror(-r));
	else if (p->verbose)
		hm_log("pid %d exec %s: %s", pid, prog.str, res.now.name->str);
	p->c->execs++;
	hm_execs_drop(p->x, pid);
}

/*
 * Execs are applied when a decision needs them (an event of that process,
 * a fork by it) or after the batch was answered: reading /proc for the
 * execs of every process on the machine stays off the answer's path.
 */
static void queue_exec(struct hm_proc *p, int32_t pid)
{
	if (p->n_execq == HM_ARRAY_SIZE(p->execq))
		hm_proc_apply(p, -1);
	p->execq[p->n_execq++] = pid;
}

/**
 * hm_proc_apply() - apply the execs queued for @pid, in order.
 * @p: the keeper.
 * @pid: a process; -1: every queued exec.
 */
void hm_proc_apply(struct hm_proc *p, int32_t pid)
{
	size_t keep = 0, n = p->n_execq;

	p->n_execq = 0;		/* on_exec() may not re-enter the queue */
	for (size_t i = 0; i < n; i++) {
		if (pid < 0 || p->execq[i] == pid)
			on_exec(p, p->execq[i]);
		else
			p->execq[keep++] = p->execq[i];
	}
	p->n_execq = keep;
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
		hm_proc_apply(p, -1);	/* before they go */
	for (size_t i = 0; i < p->n_gone; i++) {
		/* the leader left, its threads go on: they keep the group's
		 * domain until the last one exits */
		int32_t tgid = p->gone[i].tgid;

		if (group_alive(tgid, p->gone[i].tid)) {
			keep_leaderless(p, tgid);
			continue;
		}
		forget_leaderless(p, tgid);
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
		unqueue_exit(p, ev->event_data.fork.child_tgid);
		forget_leaderless(p, ev->event_data.fork.child_tgid);
		/* the child gets the parent's domain as it is now */
		if (p->n_execq)
			hm_proc_apply(p, ev->event_data.fork.parent_tgid);
		hm_tracker_fork(p->t, ev->event_data.fork.child_tgid,
				ev->event_data.fork.parent_tgid);
		return;
	case PROC_EVENT_EXEC:
		queue_exec(p, ev->event_data.exec.process_tgid);
		return;
	case PROC_EVENT_EXIT:
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
