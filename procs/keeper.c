// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keeper.c - the keeper of live processes: the proc connector's fork, exec,
 * exit and ptrace events move the tracker's table (the same code and
 * rules the learner uses).  Forks apply at once; execs and exits wait in
 * queues until a decision needs them or the batch read before them is
 * judged.  Owns the netlink socket and struct hm_procs; the table is
 * the tracker's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "procs_private.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

/* Without a log of the caller's: on stderr. */
static void log_stderr(const char *line)
{
	fprintf(stderr, "histmac procs: %s\n", line);
}

/**
 * hm_procs_log() - one line of the room's log (struct hm_procs_cfg's log).
 * @p: the keeper.
 * @fmt: printf format, without the newline.
 */
void hm_procs_log(const struct hm_procs *p, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	p->log(line);
}

/**
 * hm_procs_new() - the keeper of the process table.
 * @cfg: what it works with (struct hm_procs_cfg); its fd is taken.
 * @out: caller frees with hm_procs_free().
 * Returns: 0 or -ENOMEM.
 */
int hm_procs_new(const struct hm_procs_cfg *cfg, struct hm_procs **out)
{
	struct hm_procs *p = calloc(1, sizeof(*p));
	struct stat st;

	if (!p)
		return -ENOMEM;
	p->fd = cfg->fd;
	p->t = cfg->tracker;
	p->c = cfg->c;
	p->verbose = cfg->verbose;
	p->log = cfg->log ? cfg->log : log_stderr;
	p->judged_open = cfg->judged_open;
	if (!stat("/proc/self/ns/user", &st)) {
		p->userns_dev = st.st_dev;
		p->userns_ino = st.st_ino;
	}
	*out = p;
	return 0;
}

/**
 * hm_procs_start() - place every running process: those the learner's
 * table (--state) has and that still run as it says keep their domains,
 * the others are of unobserved history.
 * @p: the keeper.
 * @state: the state file, or NULL.
 * Returns: 0, -ENOMEM, or -errno reading /proc (a state file that cannot
 * be read is logged, not an error).
 */
int hm_procs_start(struct hm_procs *p, const char *state)
{
	int r;

	if (state) {
		r = hm_procs_import(p, state);
		if (r < 0)
			hm_procs_log(p, "--state %s: %s (going on without it)",
				     state, strerror(-r));
		else
			hm_procs_log(p, "--state %s: %d processes imported",
				     state, r);
	}
	return hm_procs_scan(p, false);
}

/**
 * hm_procs_domain() - the domain @pid is judged in, its queued execs
 * applied first (hm_procs_where()).
 * @p: the keeper.
 * @pid: the process.
 * @out: its view; the names are the tracker's (borrowed).
 * Returns: 0, -ESRCH (gone), or -errno.
 */
int hm_procs_domain(struct hm_procs *p, int32_t pid,
		    struct hm_proc_view *out)
{
	hm_procs_apply(p, pid);
	return hm_procs_where(p, pid, out);
}

/**
 * hm_procs_fd() - the proc connector socket to poll.
 * @p: the keeper.
 * Returns: the fd (borrowed) or -1.
 */
int hm_procs_fd(const struct hm_procs *p)
{
	return p->fd;
}

/**
 * hm_procs_connect() - subscribe to process events (needs CAP_NET_ADMIN,
 * before capabilities are dropped).
 * @rcvbuf: the socket's receive buffer.
 * @out: the socket; caller closes it (or gives it to hm_procs_new()).
 * Returns: 0 or -errno.
 */
int hm_procs_connect(int rcvbuf, int *out)
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
 * hm_procs_free() - close the socket and free the keeper (not the table).
 * @p: may be NULL.
 */
void hm_procs_free(struct hm_procs *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	hm_execs_clear(&p->x);
	free(p);
}
/* ------------------------------------------------------------ threads */

/* The slot of @tid in the thread table (direct-mapped: a collision
 * only costs a /proc read). */
static struct hm_tid *tid_slot(struct hm_procs *p, int32_t tid)
{
	return &p->tids[(uint32_t)tid % HM_ARRAY_SIZE(p->tids)];
}

static void tid_set(struct hm_procs *p, int32_t tid, int32_t tgid)
{
	*tid_slot(p, tid) = (struct hm_tid){ .tid = tid, .tgid = tgid };
}

static void tid_forget(struct hm_procs *p, int32_t tid)
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
 * hm_procs_tgid() - the process (thread group) thread @tid belongs to.
 * Threads are learned from the proc connector's fork events; a leader
 * is a process in the table; any other id is read from /proc once.
 * @p: the keeper.
 * @tid: a thread id (a fanotify event's pid, FAN_REPORT_TID).
 * @out: its thread group id.
 * Returns: 0, -ESRCH (gone), or -errno.
 */
int hm_procs_tgid(struct hm_procs *p, int32_t tid, int32_t *out)
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

/*
 * Execs are applied when a decision needs them (an event of that process,
 * a fork by it) or after the batch was answered: reading /proc for the
 * execs of every process on the machine stays off the answer's path.
 */
static void queue_exec(struct hm_procs *p, int32_t pid, uint64_t ns)
{
	if (p->n_execq == HM_ARRAY_SIZE(p->execq))
		hm_procs_apply(p, -1);
	p->execq[p->n_execq++] = (struct hm_execq){ .pid = pid, .ns = ns };
}

/* Is an exec of @pid queued after entry @i (of @n)? */
static bool later_exec(const struct hm_procs *p, size_t i, size_t n)
{
	for (size_t j = i + 1; j < n; j++)
		if (p->execq[j].pid == p->execq[i].pid)
			return true;
	return false;
}

/* hm_procs_apply(); @may_defer: an exec may wait (may_wait()). */
static void apply(struct hm_procs *p, int32_t pid, bool may_defer)
{
	size_t keep = 0, n = p->n_execq;

	p->n_execq = 0;		/* on_exec may not re-enter it */
	for (size_t i = 0; i < n; i++) {
		/* entries past @i are intact: @keep never passes @i */
		if ((pid >= 0 && p->execq[i].pid != pid) ||
		    hm_procs_on_exec(p, &p->execq[i], later_exec(p, i, n),
				     may_defer))
			p->execq[keep++] = p->execq[i];
	}
	p->n_execq = keep;
}

/**
 * hm_procs_apply() - apply the execs queued for @pid, in order.
 * @p: the keeper.
 * @pid: a process; -1: every queued exec.
 */
void hm_procs_apply(struct hm_procs *p, int32_t pid)
{
	apply(p, pid, false);
}

/*
 * Exits wait until the fanotify events already read are judged: a process
 * may be gone (killed while it waited, or any process in --dry-run)
 * before its last events are read, and they still belong to its domain.
 * A fork of the same pid (reuse) replaces the entry instead.
 */
static void queue_exit(struct hm_procs *p, int32_t tgid, int32_t tid)
{
	if (p->n_gone == HM_ARRAY_SIZE(p->gone))
		hm_procs_reap(p);
	p->gone[p->n_gone].tgid = tgid;
	p->gone[p->n_gone++].tid = tid;
}

static void unqueue_exit(struct hm_procs *p, int32_t pid)
{
	for (size_t i = 0; i < p->n_gone; i++)
		if (p->gone[i].tgid == pid)
			p->gone[i] = p->gone[--p->n_gone];
}

/* Does a thread's exit matter to group @tgid?  When its leader is gone
 * already (LEADERLESS, or ORPHANED: gone with an exec unapplied): it may
 * be the group's last. */
static bool leader_gone(struct hm_procs *p, int32_t tgid)
{
	enum hm_procs_state s = hm_procs_state(p, tgid);

	return s == HM_PROCS_LEADERLESS || s == HM_PROCS_ORPHANED;
}

/**
 * hm_procs_reap() - apply every queued exec, then the queued exits: the
 * events read before them are judged.  Judgements older than
 * HM_EXECS_TTL_NS go: their execs failed after the open.
 * @p: the keeper.
 */
void hm_procs_reap(struct hm_procs *p)
{
	if (p->n_execq)
		apply(p, -1, true);	/* before they go */
	for (size_t i = 0; i < p->n_gone; i++) {
		/* the leader left, its threads go on: they keep the group's
		 * domain until the last one exits */
		int32_t tgid = p->gone[i].tgid;

		if (p->n_execq)
			hm_procs_apply(p, tgid);	/* one that waited */
		if (group_alive(tgid, p->gone[i].tid)) {
			hm_procs_move(p, tgid, HM_PROCS_EV_LEADER_EXIT, NULL);
			continue;
		}
		hm_procs_move(p, tgid, HM_PROCS_EV_REAPED, NULL);
		hm_tracker_exit(p->t, tgid);
		hm_execs_drop(&p->x, tgid);
	}
	p->n_gone = 0;
	if (p->x.n)	/* execs that failed after their open */
		hm_execs_expire(&p->x, hm_now_ns());
}

/* A fork: a thread joins its group; a process gets its parent's domain
 * as it is now (the parent's queued execs applied first), or the exec
 * of a parent gone before it was applied. */
static void on_fork(struct hm_procs *p, const struct proc_event *ev)
{
	int32_t child = ev->event_data.fork.child_tgid;
	int32_t parent = ev->event_data.fork.parent_tgid;

	if (ev->event_data.fork.child_pid != child) {
		/* a thread: its events are its group's */
		tid_set(p, ev->event_data.fork.child_pid, child);
		return;
	}
	tid_forget(p, child);
	unqueue_exit(p, child);	/* the pid is another process now */
	hm_procs_move(p, child, HM_PROCS_EV_FORK,
		      &(struct hm_procs_arg){ .ns = ev->timestamp_ns });
	if (p->n_execq)
		hm_procs_apply(p, parent);
	hm_tracker_fork(p->t, child, parent);
	hm_procs_orphan_exec(p, child, parent);
	/* a tracer's PTRACE_O_TRACEFORK traces the child too */
	if ((p->n_traced || p->traced_full) && hm_procs_tracer_of(p, parent))
		hm_procs_check_traced(p, child, true);
}

/* An exit: a thread's matters when its leader is gone already. */
static void on_exit_event(struct hm_procs *p, const struct proc_event *ev)
{
	int32_t tid = ev->event_data.exit.process_pid;
	int32_t tgid = ev->event_data.exit.process_tgid;

	if (p->n_traced)
		hm_procs_untrace_exit(p, tid, tgid);
	if (tid != tgid) {
		tid_forget(p, tid);
		if (!leader_gone(p, tgid))
			return;
	}
	queue_exit(p, tgid, tid);
}

static void on_event(struct hm_procs *p, const struct proc_event *ev)
{
	p->c->proc_events++;
	switch (ev->what) {
	case PROC_EVENT_FORK:
		on_fork(p, ev);
		return;
	case PROC_EVENT_EXEC:
		queue_exec(p, ev->event_data.exec.process_tgid,
			   ev->timestamp_ns);
		return;
	case PROC_EVENT_PTRACE:
		hm_procs_set_traced(p, ev->event_data.ptrace.process_pid,
				    ev->event_data.ptrace.process_tgid,
				    ev->event_data.ptrace.tracer_pid ?
				    ev->event_data.ptrace.tracer_tgid : 0,
				    true);
		return;
	case PROC_EVENT_EXIT:
		on_exit_event(p, ev);
		return;
	default:
		return;
	}
}

/**
 * hm_procs_drain() - read every proc-connector message waiting: forks are
 * applied at once, execs and exits queued (hm_procs_apply(),
 * hm_procs_reap()); lost messages make a resync from /proc.
 * @p: the keeper.
 * Returns: 0 or -errno.
 */
int hm_procs_drain(struct hm_procs *p)
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
			hm_procs_log(p, "ignored a proc-connector message "
				     "from port %u (not the kernel)",
				     from.nl_pid);
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
		hm_procs_log(p, "proc connector lost events (ENOBUFS): "
			     "resyncing from /proc");
		hm_procs_apply(p, -1);
		/* forks and exits were lost: threads are read anew */
		memset(p->tids, 0, sizeof(p->tids));
		r = hm_procs_scan(p, true);
		if (r)
			hm_procs_log(p, "resync failed: %s", strerror(-r));
	}
	return r;
}
