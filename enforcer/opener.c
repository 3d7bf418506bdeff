// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opener.c - what the thread waiting for our answer asks: the flags of
 * its open (/proc/TID/syscall, through kept fds) and its credentials for
 * conditions (/proc/TID/status).  Read while it waits inside open() or
 * execve(), where it cannot change them.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enforcer_private.h"
#include "histmac/procfs.h"

struct hm_sysfd {
	int fd;				/* 0: free (we never get fd 0) */
	int32_t tid;
	uint64_t used;
};

/* Kept /proc/TID/syscall fds, the least recently used goes. */
struct hm_opener {
	struct hm_sysfd sysfd[16];
	uint64_t clock;
	struct hm_enforcer_counters *c;
};

/**
 * hm_opener_new() - kept fds for hm_opener_flags().
 * @c: counters (mode_retries); borrowed.
 * @out: caller frees with hm_opener_free().
 * Returns: 0 or -ENOMEM.
 */
int hm_opener_new(struct hm_enforcer_counters *c, struct hm_opener **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->c = c;
	return 0;
}

/**
 * hm_opener_free() - close the kept fds and free.
 * @p: may be NULL.
 */
void hm_opener_free(struct hm_opener *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < HM_ARRAY_SIZE(p->sysfd); i++)
		if (p->sysfd[i].fd > 0)
			close(p->sysfd[i].fd);
	free(p);
}

/**
 * hm_opener_ctx() - task values for conditions, from /proc/PID/status.
 * @pid: the process.
 * @ctx: filled in.
 * Returns: 0, -ESRCH (gone), -EINVAL, or -errno.
 */
int hm_opener_ctx(int32_t pid, struct hm_cond_ctx *ctx)
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
static ssize_t read_syscall(struct hm_opener *p, int32_t tid, char *buf,
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
		f->used = ++p->clock;
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
	old->used = ++p->clock;
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
 * hm_opener_flags() - the flags of the open a thread waits in.
 * @p: the kept /proc fds.
 * @tid: the opening thread (FAN_REPORT_TID), waiting inside open() for
 *	our answer: its arguments are in /proc/TID/syscall.
 * @out: the flags (open(2), openat(2), creat(2), open_by_handle_at(2));
 *	O_RDONLY for the opens an exec makes.
 * Returns: 0; -ENODATA when they cannot be told (a 32-bit task, io_uring,
 * openat2 (below), a call we do not know, /proc unreadable); -ESRCH when
 * the thread is gone (killed while it waited).  *@out is set only on 0.
 */
int hm_opener_flags(struct hm_opener *p, int32_t tid, uint64_t *out)
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
