// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_read.c - what a traced call shows at its seccomp stop, before
 * the kernel runs it: the names the program passed (read from its
 * memory), the directory each is relative to (its cwd, or the dirfd's
 * directory: what audit's CWD record and the dirfd give), what is at
 * each name now, and an exec's arguments.  Read before the call because
 * after it the memory may be gone (an exec) and the name moved (a
 * rename); audit reads the same things at the same moment.  A socket
 * address the call fills in (accept, recvfrom) is read at its exit.
 *
 * Every read is bounded: a name by HM_COLLECTOR_MAX_PATH, an exec's
 * arguments by HM_COLLECTOR_MAX_ARGC and HM_COLLECTOR_MAX_ARGV.
 *
 * Owns: nothing; fills the caller's struct hm_tentry.  Next:
 * trace_event.c turns it into an event when the call returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/audit.h>

#include "histmac/procfs.h"
#include "internal.h"

#define PAGE 4096u

/* Up to @len bytes of thread @tid's memory at @addr; the bytes read. */
static ssize_t peek(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { .iov_base = buf, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)addr,
			   .iov_len = len };

	return process_vm_readv(tid, &l, 1, &r, 1, 0);
}

/*
 * The NUL-terminated string at @addr into @b (reset first), a page at a
 * time (a string may end just before memory that cannot be read).
 * Returns 0, -E2BIG (longer than @max), -EFAULT, -ENOMEM.
 */
static int peek_string(pid_t tid, uint64_t addr, size_t max,
		       struct hm_sbuf *b)
{
	hm_sbuf_reset(b);
	if (!addr)
		return -EFAULT;
	while (b->len <= max) {
		size_t room = PAGE - (size_t)(addr % PAGE);
		char *end;
		ssize_t n;

		if (hm_sbuf_reserve(b, room + 1))
			return -ENOMEM;
		n = peek(tid, addr, b->s + b->len, room);
		if (n <= 0)
			return -EFAULT;
		end = memchr(b->s + b->len, '\0', (size_t)n);
		if (end) {
			b->len = (size_t)(end - b->s);
			return b->len > max ? -E2BIG : 0;
		}
		b->len += (size_t)n;
		b->s[b->len] = '\0';
		addr += (uint64_t)n;
	}
	return -E2BIG;
}

/* A link in /proc into @b (reset first): 0 or -errno. */
static int read_link(const char *path, struct hm_sbuf *b)
{
	for (size_t cap = 256; cap <= 2 * HM_COLLECTOR_MAX_PATH; cap *= 2) {
		ssize_t n;

		hm_sbuf_reset(b);
		if (hm_sbuf_reserve(b, cap + 1))
			return -ENOMEM;
		n = readlink(path, b->s, cap);
		if (n < 0)
			return -errno;
		if ((size_t)n < cap) {
			b->len = (size_t)n;
			b->s[n] = '\0';
			return 0;
		}
	}
	return -ENAMETOOLONG;
}

/* /proc/TID/fd/N's link, or /proc/TID/cwd's for AT_FDCWD. */
static int dir_link(pid_t tid, int dfd, struct hm_sbuf *b)
{
	char p[64];

	if (dfd == AT_FDCWD)
		snprintf(p, sizeof(p), "/proc/%d/cwd", (int)tid);
	else
		snprintf(p, sizeof(p), "/proc/%d/fd/%d", (int)tid, dfd);
	return read_link(p, b);
}

/*
 * Name @i: read it, its directory, and where the tracer reaches what it
 * names as the thread does (through its root, its cwd or the dirfd, in
 * its mount namespace).
 */
static int read_name(struct hm_tentry *e, pid_t tid, int i, int path_arg,
		     int dfd_arg)
{
	int dfd = dfd_arg >= 0 ? (int)(int32_t)e->a[dfd_arg] : AT_FDCWD;
	struct hm_sbuf *n = &e->name[i];
	int r = peek_string(tid, e->a[path_arg], HM_COLLECTOR_MAX_PATH, n);

	e->cut[i] = r == -E2BIG;
	if (r == -ENOMEM)
		return r;
	if (r) {
		hm_sbuf_reset(n);
		return 0;	/* the call fails on it (EFAULT) */
	}
	if (n->s[0] == '/')
		dfd = AT_FDCWD;	/* audit's CWD record: the cwd anyway */
	if (dir_link(tid, dfd, &e->base[i]) == -ENOMEM)
		return -ENOMEM;
	hm_sbuf_reset(&e->probe[i]);
	if (n->s[0] == '/')
		hm_sbuf_printf(&e->probe[i], "/proc/%d/root%s", (int)tid, n->s);
	else if (dfd == AT_FDCWD)
		hm_sbuf_printf(&e->probe[i], "/proc/%d/cwd/%s", (int)tid, n->s);
	else
		hm_sbuf_printf(&e->probe[i], "/proc/%d/fd/%d/%s", (int)tid,
			       dfd, n->s);
	if (e->probe[i].oom)
		return -ENOMEM;
	/* an exec follows the name to the program; the rest: the name's
	 * own object (a symlink is what unlink removes) */
	if (!strcmp(e->si->name, "execve") || !strcmp(e->si->name, "execveat"))
		r = stat(e->probe[i].s, &e->before[i]);
	else
		r = lstat(e->probe[i].s, &e->before[i]);
	e->existed[i] = r == 0;
	return 0;
}

/* An exec's argument vector: pointers of the ABI's size, then words. */
static int read_argv(struct hm_tentry *e, pid_t tid, uint64_t vec)
{
	size_t ptr = e->arch == (int)AUDIT_ARCH_I386 ? 4 : 8;
	struct hm_sbuf w = { 0 };
	int r = 0;

	hm_sbuf_reset(&e->argv);
	e->argc = 0;
	e->argv_cut = false;
	for (; vec && e->argc < HM_COLLECTOR_MAX_ARGC; vec += ptr) {
		uint64_t p = 0;

		if (peek(tid, vec, &p, ptr) != (ssize_t)ptr || !p)
			break;
		r = peek_string(tid, p, HM_COLLECTOR_MAX_ARGV, &w);
		if (r == -ENOMEM)
			break;
		if (r || e->argv.len + w.len + 1 > HM_COLLECTOR_MAX_ARGV) {
			e->argv_cut = true;
			r = 0;
			break;
		}
		hm_sbuf_add(&e->argv, w.s, w.len + 1);
		e->argc++;
	}
	if (e->argc == HM_COLLECTOR_MAX_ARGC)
		e->argv_cut = true;
	hm_sbuf_free(&w);
	return r ? r : (e->argv.oom ? -ENOMEM : 0);
}

int hm_tentry_read(struct hm_tentry *e, pid_t tid)
{
	const struct hm_tcall *tc = e->tc;
	int r = 0;

	hm_sbuf_reset(&e->name[0]);
	hm_sbuf_reset(&e->name[1]);
	e->existed[0] = e->existed[1] = false;
	e->cut[0] = e->cut[1] = false;
	e->has_how = false;
	if (tc->path >= 0)
		r = read_name(e, tid, 0, tc->path, tc->dfd);
	if (!r && tc->path2 >= 0)
		r = read_name(e, tid, 1, tc->path2, tc->dfd2);
	if (!r && tc->target >= 0 &&
	    peek_string(tid, e->a[tc->target], HM_COLLECTOR_MAX_PATH,
			&e->target) == -ENOMEM)
		r = -ENOMEM;
	if (!r && tc->argv >= 0)
		r = read_argv(e, tid, e->a[tc->argv]);
	e->sa_len = 0;
	if (!r && tc->addr >= 0 && e->a[tc->addr]) {
		size_t len = e->a[tc->addrlen] < sizeof(e->sa) ?
			     (size_t)e->a[tc->addrlen] : sizeof(e->sa);
		ssize_t n = peek(tid, e->a[tc->addr], e->sa, len);

		e->sa_len = n > 0 ? (size_t)n : 0;
	}
	if (!r && tc->how >= 0) {
		uint64_t how[2];	/* struct open_how: flags, mode */

		e->has_how = peek(tid, e->a[tc->how], how, sizeof(how)) ==
			     (ssize_t)sizeof(how);
		e->how.flags = (uint32_t)how[0];
		e->how.mode = (uint32_t)how[1];
	}
	return r;
}

void hm_tentry_peer(struct hm_tentry *e, pid_t tid)
{
	const struct hm_tcall *tc = e->tc;
	uint32_t len = 0;
	ssize_t n;

	if (tc->peer < 0)
		return;		/* a call given its address keeps it */
	e->sa_len = 0;
	if (!e->a[tc->peer] || !e->a[tc->peerlen] ||
	    peek(tid, e->a[tc->peerlen], &len, sizeof(len)) != sizeof(len))
		return;
	n = peek(tid, e->a[tc->peer], e->sa,
		 len < sizeof(e->sa) ? len : sizeof(e->sa));
	e->sa_len = n > 0 ? (size_t)n : 0;
}

void hm_tentry_free(struct hm_tentry *e)
{
	for (int i = 0; i < 2; i++) {
		hm_sbuf_free(&e->name[i]);
		hm_sbuf_free(&e->base[i]);
		hm_sbuf_free(&e->probe[i]);
	}
	hm_sbuf_free(&e->target);
	hm_sbuf_free(&e->argv);
}

/* A small /proc file's number (loginuid, sessionid): @dflt if unread. */
static uint32_t proc_number(pid_t tgid, const char *file, uint32_t dflt)
{
	char p[64], buf[32];
	unsigned long v;

	snprintf(p, sizeof(p), "/proc/%d/%s", (int)tgid, file);
	if (hm_procfs_read(p, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%lu", &v) != 1)
		return dflt;
	return (uint32_t)v;
}

int hm_tproc_read(struct hm_tproc *p, pid_t tgid)
{
	char link[64];
	int r;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)tgid);
	r = read_link(link, &p->exe);
	if (r == -ENOMEM)
		return r;
	if (r)
		hm_sbuf_reset(&p->exe);
	p->auid = proc_number(tgid, "loginuid", UINT32_MAX);
	p->ses = proc_number(tgid, "sessionid", UINT32_MAX);
	return 0;
}
